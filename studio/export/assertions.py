"""Web-first assertions from what a step changed (its recorded outcomes), and from the assertion steps a tester added.

Every outcome the recorder kept held on the page when it looked, with a locator checked there; here each becomes the
matching Playwright assertion. What the recorder saw but judged volatile becomes a comment saying why it is not
checked, so a reviewer sees it was read.
"""

from __future__ import annotations

from studio.export.expectations import expectation_checks
from studio.export.statements import (
    ExpectChecked,
    ExpectCount,
    ExpectState,
    ExpectText,
    ExpectTexts,
    ExpectValue,
    Note,
    Statement,
    Subject,
)
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import (
    CheckedOutcome,
    CountOutcome,
    ExpectedOutcome,
    SkippedOutcome,
    TextOutcome,
    TextsOutcome,
    ValueOutcome,
    VisibleOutcome,
)
from studio.models.recording import RecordedStep
from studio.race.volatility import volatility


def outcome_checks(step: RecordedStep, asserted_by_steps: list[str]) -> list[Statement]:
    """The step's outcomes as assertions (each once), then notes on what was left out.

    `asserted_by_steps`: texts the test's own expect steps check, so an expected result naming one is not repeated.
    """
    statements: list[Statement] = []
    notes: list[Statement] = []
    for outcome in step.outcomes:
        match outcome:
            case TextOutcome(locator=locator, text=text):
                statements.append(ExpectText(subject=Subject(locator=locator), text=text))
            case VisibleOutcome(locator=locator, visible=visible, why=why):
                statements.append(ExpectState(subject=Subject(locator=locator),
                                              state="visible" if visible else "hidden",
                                              why=None if visible else why or None))
            case CountOutcome(locator=locator, count=count, why=why):
                statements.append(ExpectCount(subject=Subject(locator=locator), count=count, why=why or None,
                                              after_frames=count == 0))
            case TextsOutcome(locator=locator, texts=texts, why=why):
                statements.append(ExpectTexts(subject=Subject(locator=locator), texts=texts, why=why or None))
            case CheckedOutcome(locator=locator, checked=checked):
                statements.append(ExpectChecked(subject=Subject(locator=locator), checked=checked))
            case ValueOutcome(locator=locator, value=value):
                statements.append(ExpectValue(subject=Subject(locator=locator), value=value))
            case SkippedOutcome(why=why):
                notes.append(Note(why=why))
            case ExpectedOutcome(text=text):
                statements += expectation_checks(text, asserted_by_steps)
    return _once(statements) + notes


def _once(statements: list[Statement]) -> list[Statement]:
    seen: set[str] = set()
    kept: list[Statement] = []
    for statement in statements:
        key = statement.model_dump_json(exclude=None if isinstance(statement, Note) else {"why"})
        if key not in seen:
            seen.add(key)
            kept.append(statement)
    return kept


def assertion_step(step: RecordedStep) -> Statement | None:
    """A tester's assertion step (the Steps dock's Assert tools, or a case's expect step) as its assertion."""
    locator = step.locator
    value = step.value or ""
    if step.action == "expect_text":
        if locator is None:
            if not value:
                return None
            text = LocatorSpec(strategy="text", steps=[LocatorStep(kind="text", value=value)])
            return ExpectState(subject=Subject(locator=text), state="visible")
        # A pilot's verify read the text as a person does; the assertion reads it the same way.
        return ExpectText(subject=Subject(locator=locator), text=value, contains=True,
                          ignore_case=step.reads_as == "any_case", inner_text=step.reads_as is not None)
    if locator is None:
        return None
    match step.action:
        case "expect_visible" | "expect_hidden":
            return ExpectState(subject=Subject(locator=locator),
                               state="visible" if step.action == "expect_visible" else "hidden")
        case "expect_value":
            return ExpectValue(subject=Subject(locator=locator), value=value)
        case "expect_checked":
            return ExpectChecked(subject=Subject(locator=locator), checked=value.strip().lower() != "false")
        case "expect_count" if value.strip().isdigit():
            return ExpectCount(subject=Subject(locator=locator), count=int(value))
    return None


def unassertable(step: RecordedStep) -> Note:
    """Why an assertion step cannot be written, naming what it expects."""
    target = step.target or "an element"
    what = {"expect_text": f"{target} to show a text", "expect_visible": f"{target} to be visible",
            "expect_hidden": f"{target} to be hidden", "expect_value": f"{target} to have a value",
            "expect_checked": f"{target} to be checked", "expect_count": f"a number of {target}"}.get(step.action,
                                                                                                step.action)
    missing = "no locator for it" if step.locator is None else f"no usable value ({step.value!r})"
    return Note(why=f"Not asserted — the step expecting {what}: it has {missing}, so this test cannot check it. "
                    "Pick the element (or give the value) in the case form or the Steps dock, then export again.")


def text_is_volatile(text: str) -> str | None:
    """Why a status text should not be asserted (a time, an id, a progress message), or None."""
    return volatility(text)
