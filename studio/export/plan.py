"""The export plan: one language-neutral reading of a recording, which both writers turn into code.

Each recorded step becomes a short list of statements — waits composed from its race observations, the action
(wrapped in a response wait when it calls the backend), and web-first checks of what the user saw change. A test
that would check nothing is not written silently: it checks at least where it ends, and says so.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from studio.export.assertions import assertion_step, unassertable
from studio.export.errors import ExportError
from studio.export.literals import NameBook, snake_case, words
from studio.export.outcomes import checks_after, response_wait
from studio.export.statements import (
    CASE_PREFIX,
    Act,
    Declare,
    ExpectNoPageErrors,
    ExpectUrl,
    ExportPlan,
    GoBack,
    Goto,
    Note,
    Reload,
    RequireEnv,
    ResponseWait,
    Statement,
    StepPlan,
    Subject,
    Unchecked,
    locator_label,
)
from studio.export.urls import origin_of, relative_url, url_pattern
from studio.export.waits import describe_target, waits_before
from studio.models.locator import LocatorSpec
from studio.models.outcomes import PageErrorsOutcome
from studio.models.recording import RecordedStep

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
VERBS = {"click": "click", "dblclick": "double-click", "fill": "fill", "type": "fill", "press": "press",
         "hover": "hover", "check": "check", "uncheck": "uncheck", "select": "select", "drag": "drag"}
EXPECT_ACTIONS = {"expect_visible", "expect_hidden", "expect_text", "expect_url", "expect_value", "expect_checked",
                  "expect_count"}


def build_plan(steps: list[RecordedStep], title: str | None = None) -> ExportPlan:
    """Read a recording once into an ExportPlan; raises ExportError for a recording no test can be written from."""
    if not steps:
        raise ExportError("The session has no recorded steps, so there is nothing to export. Record some first.")
    ordered = _enter_as_key(sorted(steps, key=lambda s: s.index))
    origin = recording_origin(ordered)
    asserted_by_steps = [s.value for s in ordered if s.action in EXPECT_ACTIONS and s.value]
    env_vars = _secret_names(ordered)
    names = NameBook()
    declared: dict[str, str] = {}  # locator -> the variable an earlier step named it
    plans: list[StepPlan] = []
    if env_vars:
        plans.append(StepPlan(index=None, statements=[
            RequireEnv(name=name, why="Secrets come from the environment, never from this file." if i == 0 else None)
            for i, name in enumerate(env_vars)]))
    if ordered[0].action != "navigate":
        plans.append(StepPlan(index=None, statements=[
            Goto(url=relative_url(ordered[0].url, origin), why="The recording started on this page.")]))
    waits_so_far = 0
    checks_written = 0  # assertions of outcomes (not waits, not notes)
    for previous, step in zip([None, *ordered], ordered):
        if step.action in ("reload", "back"):
            checks = checks_after(step, None, asserted_by_steps)
            checks_written += _count_checks(checks)
            moved = Reload() if step.action == "reload" else GoBack()
            plans.append(StepPlan(index=step.index, statements=[moved, *checks]))
            continue
        if step.action == "navigate":
            if not _repeats(previous, step, origin):
                checks = checks_after(step, None, asserted_by_steps)
                checks_written += _count_checks(checks)
                plans.append(StepPlan(index=step.index, statements=[Goto(url=relative_url(step.url, origin)), *checks]))
            continue
        written = _written_check(step, origin)
        if written is not None:
            checks = [*written, *checks_after(step, None, asserted_by_steps)]
            checks_written += _count_checks(checks)
            plans.append(StepPlan(index=step.index, statements=_use_declared(checks, declared)))
            continue
        if step.locator is None and not (step.action == "press" and (step.key or step.value)):
            raise ExportError(
                f"Step {step.index} ({step.action}) has no stored locator, so it cannot be written as a test step. "
                "Re-record that step, or export the session without it."
            )
        inline = Subject(locator=step.locator)
        target = describe_target(step)
        wait = response_wait(step, origin, waits_so_far + 1)
        waits_so_far += wait is not None
        checks = checks_after(step, target, asserted_by_steps)
        checks_written += _count_checks(checks)
        statements = [*waits_before(step, inline, target), _act(step, inline, target, wait), *checks]
        plans.append(StepPlan(index=step.index, statements=_name_target(statements, inline, names, declared)))
    closing = _closing_checks(ordered, checks_written > 0, origin)
    if closing:
        plans.append(StepPlan(index=None, statements=closing))
    return ExportPlan(
        title=" ".join(title.split()) if title and title.strip() else default_title(ordered),
        session_id=ordered[0].session_id, origin=origin, steps=plans, env_vars=env_vars,
    )


def _closing_checks(steps: list[RecordedStep], checked: bool, origin: str | None) -> list[Statement]:
    """No page errors when the recording saw none; and never a test that checks nothing without saying so."""
    closing: list[Statement] = []
    watched = [o for s in steps for o in s.outcomes if isinstance(o, PageErrorsOutcome)]
    thrown = [message for o in watched for message in o.messages]
    if watched and not thrown:
        closing.append(ExpectNoPageErrors(why="The page threw no uncaught error while this was recorded."))
    elif thrown:
        closing.append(Note(why=f"Not checking for page errors: the page threw one while this was recorded "
                                f"({thrown[0]})."))
    if not checked:  # "no page errors" alone says nothing of what the steps were for
        closing += _fallback_check(steps, origin)
    return closing


def _count_checks(statements: list[Statement]) -> int:
    return sum(not isinstance(s, (Note, Unchecked)) for s in statements)


def _fallback_check(steps: list[RecordedStep], origin: str | None) -> list[Statement]:
    last = steps[-1]
    url = last.outcome.url_after if last.outcome and last.outcome.url_after else last.url
    # Only a recording knows where it ended; a written case's last URL is where its last navigation went.
    recorded = not last.session_id.startswith(CASE_PREFIX) and any(s.outcome for s in steps)
    if origin_of(url) is None or not recorded:
        return [Unchecked(why="This test checks nothing: no step has an outcome the exporter can assert (nothing "
                              "was recorded changing, and no expected result names a text or a page). Add an "
                              "assertion step (Assert visible, text, value, checked or count) before exporting it. "
                              "Until then it ends skipped, never passed.",
                          reason="checks nothing: no step has an outcome or expected result it can assert")]
    return [ExpectUrl(pattern=url_pattern(relative_url(url, origin)), why=(
        "Nothing the steps did left a change the recorder could check (no new item, text, state or page), so "
        "this test checks only that it ends where the recording ended. Add an assertion step (Assert visible, "
        "text, value, checked or count) to check what matters."))]


def _enter_as_key(steps: list[RecordedStep]) -> list[RecordedStep]:
    """A fill ending in a line break (recorded before Enter was its own step) is the fill, then press("Enter")."""
    fixed: list[RecordedStep] = []
    for step in steps:
        value = step.value or ""
        if step.action in ("fill", "type") and value[-1:] in ("\n", "\r") and not step.secret_env:
            fixed.append(step.model_copy(update={"value": value.rstrip("\r\n"), "outcomes": [], "requests": [],
                                                 "outcome": None}))
            fixed.append(step.model_copy(update={"action": "press", "value": None, "key": "Enter",
                                                 "observations": []}))
        else:
            fixed.append(step)
    return fixed


def _written_check(step: RecordedStep, origin: str | None) -> list[Statement] | None:
    """Assertion steps (a case's, or the Steps dock's Assert tools) and uploads; None for an action to perform."""
    if step.action == "expect_url":
        return [ExpectUrl(pattern=url_pattern(relative_url(step.url, origin)))]
    if step.action in EXPECT_ACTIONS:
        check = assertion_step(step)
        return [check if check is not None else unassertable(step)]
    if step.action == "upload":
        return [Note(why=f"Upload {step.value or 'a file'} through {describe_target(step)}: add the file next to this "
                         "test and pass it to set_input_files (the case names it, the recording could not).")]
    return None


def _act(step: RecordedStep, subject: Subject, target: str, wait: ResponseWait | None) -> Act:
    why = None
    if wait is not None:
        answer = f"recorded answer: {wait.status}" if wait.status is not None else "no answer was recorded"
        why = (f"{_verb_ing(step.action)} {target} sends {wait.method} {wait.path} ({answer}); "
               "wait for the response before checking the page.")
    match step.action:
        case "fill" | "type":
            if step.secret_env:
                # The recorded value is never read here, even if a recorder kept one by mistake.
                return Act(subject=subject, action="fill", secret_env=step.secret_env, wait=wait, why=why)
            return Act(subject=subject, action="fill", text=step.value or "", wait=wait, why=why)
        case "press":
            # Without a locator the subject is the page, and the key goes to page.keyboard.
            return Act(subject=subject, action="press", text=step.key or step.value or "", wait=wait, why=why)
        case "select":
            return Act(subject=subject, action="select_option", text=step.value or "", wait=wait, why=why)
        case "click" | "dblclick" | "hover" | "check" | "uncheck":
            return Act(subject=subject, action=step.action, wait=wait, why=why)
        case "drag":
            drop = step.related_locators.get(step.value or "")
            if drop is None:
                raise ExportError(f"Step {step.index} drags {target} onto an element whose locator was not stored, "
                                  "so it cannot be written. Re-record the drag.")
            return Act(subject=subject, action="drag_to", target=drop, wait=wait, why=why)
    raise ExportError(f"Step {step.index} has an action ({step.action}) the exporter does not know.")


def _verb_ing(action: str) -> str:
    return {"click": "Clicking", "dblclick": "Double-clicking", "fill": "Filling", "type": "Filling",
            "press": "Pressing a key on", "hover": "Hovering", "check": "Checking", "uncheck": "Unchecking",
            "select": "Choosing in", "drag": "Dragging"}.get(action, "Using")


def _name_target(statements: list[Statement], inline: Subject, names: NameBook,
                 declared: dict[str, str]) -> list[Statement]:
    """Give the step's target a variable when it is used twice or is a chain (the one an earlier step declared, if
    any: every declaration is in the test's own scope); inline it otherwise."""
    uses = sum(1 for s in statements if getattr(s, "subject", None) == inline)
    locator = inline.locator
    if locator is None:
        return _use_declared(statements, declared)
    known = declared.get(locator.python())
    if known is None and uses < 2 and len(locator.steps) < 2:
        return _use_declared(statements, declared)
    variable = known or names.claim(locator_label(locator))
    named = Subject(locator=locator, variable=variable)
    renamed = [s.model_copy(update={"subject": named}) if getattr(s, "subject", None) == inline else s
               for s in statements]
    if known is not None:
        return _use_declared(renamed, declared)
    declared[locator.python()] = variable
    return [Declare(variable=variable, locator=locator), *_use_declared(renamed, declared)]


def _use_declared(statements: list[Statement], declared: dict[str, str]) -> list[Statement]:
    """Checks on a locator an earlier step named use that name."""
    used: list[Statement] = []
    for statement in statements:
        subject = getattr(statement, "subject", None)
        if isinstance(subject, Subject) and subject.variable is None and subject.locator is not None:
            variable = declared.get(subject.locator.python())
            if variable is not None:
                statement = statement.model_copy(update={"subject": Subject(locator=subject.locator,
                                                                            variable=variable)})
        used.append(statement)
    return used


def _scope(locator: LocatorSpec) -> str | None:
    return next((link.value for link in locator.steps if link.kind == "filter_text" and link.value), None)


def default_title(steps: list[RecordedStep]) -> str:
    """A title from what the steps did, e.g. "click Add to Cart (iPhone 15 Pro)"."""
    phrases: list[str] = []
    for step in steps:
        if step.action == "navigate" or step.locator is None or step.action in EXPECT_ACTIONS:
            continue
        label = locator_label(step.locator)
        scope = _scope(step.locator)
        if step.action == "press" and phrases and phrases[-1] == f"fill {label}":
            continue  # Enter after typing is part of "fill X"
        phrase = f"{VERBS.get(step.action, step.action)} {label}".strip()
        phrases.append(f"{phrase} ({scope})" if scope else phrase)
    if phrases:
        return ", ".join(dict.fromkeys(phrases[:3]))
    return f"open {urlsplit(steps[0].url).path or '/'}"


def python_function_name(title: str) -> str:
    parts = words(title)[:10]
    return "test_" + (snake_case(parts) if parts else "recorded_session")


def _secret_names(steps: list[RecordedStep]) -> list[str]:
    found: list[str] = []
    for step in steps:
        if step.secret_env and step.secret_env not in found:
            if not _ENV_NAME.fullmatch(step.secret_env):
                raise ExportError(
                    f"Step {step.index} reads its secret from {step.secret_env!r}, which is not a valid "
                    "environment variable name. Use letters, digits and underscores, e.g. STUDIO_PASSWORD."
                )
            found.append(step.secret_env)
    return found


def recording_origin(steps: list[RecordedStep]) -> str | None:
    """scheme://host:port of the first web page the recording was on."""
    return next((origin for step in steps if (origin := origin_of(step.url))), None)


def _repeats(previous: RecordedStep | None, step: RecordedStep, origin: str | None) -> bool:
    """A navigation to where the previous navigation already went (a reload, a double recording)."""
    return (previous is not None and previous.action == "navigate"
            and relative_url(previous.url, origin) == relative_url(step.url, origin))
