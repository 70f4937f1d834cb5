"""Assertions a tester adds while recording, like Playwright codegen's: the element picked, and its state now (shown,
its text, its value, checked or not, how many like it), as an expect step the exporter writes as an assertion.

The locator recorded is the one the tester was shown (the inspector's, on the Assert bar) whenever it still names
exactly the element: a tester who read `card.filter(…).get_by_test_id("in-cart")` must find that in the test. A text is
asserted on a locator that does not depend on that text (the counter by its class, not by "2 items left"), so the
assertion fails when the text is wrong rather than when the element cannot be found: a shown locator that names the
text itself gives way to one that does not. A count is of the element's kind without the item filter or position that
singles it out: the rows, the checkboxes.
"""

from __future__ import annotations

from typing import Literal

from playwright.async_api import Error as PlaywrightError

from studio.models.locator import LocatorSpec
from studio.models.recording import StepAction
from studio.race.errors import RaceError
from studio.race.locators import resolve, synthesize, unique_and_same
from studio.race.outcome_locators import node_locator, text_locator
from studio.race.page import RacePage
from studio.race.page_state import holder_at, read_page_state
from studio.race.volatility import volatility

AssertionKind = Literal["visible", "text", "value", "checked", "count"]
ACTIONS: dict[AssertionKind, StepAction] = {"visible": "expect_visible", "text": "expect_text",
                                            "value": "expect_value", "checked": "expect_checked",
                                            "count": "expect_count"}
_READ_MS = 2000
LONG_TEXT = 200  # more than a sentence: a container, not the text a tester means


class AssertionStep:
    """What to record: the expect action, its locator and the value it expects (None for visible)."""

    def __init__(self, action: StepAction, locator: LocatorSpec, value: str | None) -> None:
        self.action, self.locator, self.value = action, locator, value

    def __repr__(self) -> str:
        return f"AssertionStep({self.action}, {self.locator.python()}, {self.value!r})"


async def assertion_for(race: RacePage, ref: str, kind: AssertionKind, point: tuple[float, float] | None = None,
                        shown: LocatorSpec | None = None) -> AssertionStep:
    """The expect step for `kind` on the element `ref`, with the state it has now; raises RaceError with a sentence
    when that element cannot be asserted that way (no text, not a field, not a checkbox, a text that changes).

    `point`: where the tester pointed when picking `ref` (CSS pixels); a text is then the short text under it (the
    counter inside the footer that was picked), as a tester means it. `shown`: the locator the tester sees for `ref`,
    recorded when it still names exactly that element (and, for a text, does not name the text).
    """
    locator = shown if shown is not None and await _names_only(race, ref, shown) else None
    if kind == "text" and point is not None:
        pointed = await _text_at(race, ref, point, locator)
        if pointed is not None:
            return pointed
    locator = locator or await synthesize(race, ref)
    live = resolve(race.page, locator.steps)
    try:
        match kind:
            case "visible":
                return AssertionStep("expect_visible", locator, None)
            case "text":
                text = " ".join((await live.inner_text(timeout=_READ_MS)).split())
                if not text:
                    raise RaceError("bad_input", "That element shows no text to assert. Pick one that does, or use "
                                                 "Assert visible.")
                if reason := volatility(text):
                    raise RaceError("bad_input", f'Not asserting "{text}": {reason}, so the test would fail on the '
                                                 "next run. Pick a steadier text, or use Assert visible.")
                if len(text) > LONG_TEXT:
                    raise RaceError("bad_input", f"That element holds {len(text)} characters of text (“{text[:40]}…”): "
                                                 "a check of all of it breaks on any change. Point at the text you "
                                                 "mean, or use Assert visible.")
                if shown is not None and locator is shown and not names_text(shown, text):
                    return AssertionStep("expect_text", shown, text)
                return AssertionStep("expect_text", await _text_free(race, ref) or locator, text)
            case "value":
                try:
                    value = await live.input_value(timeout=_READ_MS)
                except PlaywrightError as error:
                    raise RaceError("bad_input", "That element is not a field, so it has no value to assert. Pick "
                                                 "a text field, a list or a text area.") from error
                return AssertionStep("expect_value", locator, value)
            case "checked":
                try:
                    checked = await live.is_checked(timeout=_READ_MS)
                except PlaywrightError as error:
                    raise RaceError("bad_input", "That element is not a checkbox, radio button or switch, so it "
                                                 "cannot be checked. Pick one that can.") from error
                return AssertionStep("expect_checked", locator, "true" if checked else "false")
            case "count":
                counted = _of_its_kind(locator)
                count = await resolve(race.page, counted.steps).count()
                return AssertionStep("expect_count", counted, str(count))
    except PlaywrightError as error:
        raise RaceError("not_actionable", f"The element could not be read: {str(error).splitlines()[0]}. Pick it "
                                          "again.") from error
    raise RaceError("bad_input", f"There is no {kind!r} assertion; use visible, text, value, checked or count.")


async def _text_at(race: RacePage, ref: str, point: tuple[float, float],
                   shown: LocatorSpec | None) -> AssertionStep | None:
    holder = await holder_at(race, *point)
    path = (await race.describe(ref))["path"]
    if holder is None or not (holder.path == path or holder.path.startswith(path + "/")):
        return None
    if reason := volatility(holder.text):
        raise RaceError("bad_input", f'Not asserting "{holder.text}": {reason}, so the test would fail on the next '
                                     "run. Pick a steadier text, or use Assert visible.")
    if shown is not None and holder.path == path and not names_text(shown, holder.text):
        return AssertionStep("expect_text", shown, holder.text)  # the picked element's own text, as shown
    locator = await node_locator(race.page, holder, holder.ancestry) or await text_locator(race.page, holder.text,
                                                                                           holder.path)
    return AssertionStep("expect_text", locator, holder.text) if locator is not None else None


async def _text_free(race: RacePage, ref: str) -> LocatorSpec | None:
    """A locator for the element that does not name it by its own text (its class, test id, label), if one exists."""
    path = (await race.describe(ref))["path"]
    state = await read_page_state(race)
    if state is None:
        return None
    for holder in [*state.holders, *([state.heading] if state.heading else [])]:
        if holder.path == path:
            return await node_locator(race.page, holder, holder.ancestry)
    return None


def names_text(locator: LocatorSpec, text: str) -> bool:
    """Whether a locator finds its element by (part of) `text`: asserting that text on it would only prove the
    element is missing when the text is wrong."""
    words = " ".join(text.split()).casefold()
    for step in locator.steps:
        said = step.name if step.kind == "role" else step.value if step.kind in ("text", "filter_text") else None
        said = " ".join((said or "").split()).casefold()
        if said and (said in words or words in said):
            return True
    return False


async def _names_only(race: RacePage, ref: str, locator: LocatorSpec) -> bool:
    """Whether `locator` names exactly the element `ref` now (a shown locator may be older than a re-render)."""
    try:
        path = (await race.describe(ref))["path"]
    except RaceError:
        return False  # gone: the synthesis after this says so
    same, _ = await unique_and_same(resolve(race.page, locator.steps), path)
    return same


def _of_its_kind(locator: LocatorSpec) -> LocatorSpec:
    """The locator without what singles one element out: its item filter and its position."""
    steps = [step for step in locator.steps if step.kind not in ("filter_text", "nth", "first")]
    return LocatorSpec(steps=steps or locator.steps, strategy=locator.strategy, unique=False)
