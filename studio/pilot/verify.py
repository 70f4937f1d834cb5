"""A verify action's expectations, checked against the page until they hold or time runs out.

A 'text' expectation compares the text a person reads: the rendered text (innerText, so a heading upper-cased by CSS
text-transform reads "STEP 1 OF 3"), whitespace collapsed, in any letter case — "Step 1 of 3" matches it — unless the
expectation says `caseSensitive: true`.
"""

from __future__ import annotations

import asyncio
import time

from studio.pilot.actions import Expectation
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.wording import plural

VERIFY_TIMEOUT_MS = 3_000
POLL_S = 0.1
SEEN_CHARS = 200
INNER_TEXT_JS = "(el) => el.innerText"
COUNT_JS = "(elements) => elements.length"


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SEEN_CHARS else text[:SEEN_CHARS] + "…"


async def _inner_text(driver: PageDriver, selector: str) -> str:
    """What the first element shows (innerText: as the page renders it, hidden parts left out)."""
    text = await driver.evaluate_on(selector, INNER_TEXT_JS)
    if text is None:
        raise RaceError("no_match", f"{selector!r} went away while its text was read")
    return str(text)


def reads_as(shown: str, expected: str, case_sensitive: bool = False) -> bool:
    """Whether `shown` contains `expected` as a person reads them: whitespace collapsed, letter case ignored unless
    `case_sensitive` (casefold: "STRASSE" reads as "Straße")."""
    seen, wanted = " ".join(shown.split()), " ".join(expected.split())
    if not case_sensitive:
        seen, wanted = seen.casefold(), wanted.casefold()
    return wanted in seen


def _text_check(shown: str, expectation: Expectation, seen: str) -> tuple[bool, str]:
    """A text expectation against the text shown; `seen` says what was there, and why a case-sensitive one missed."""
    value = expectation.value or ""
    if reads_as(shown, value, expectation.caseSensitive):
        return True, seen
    if expectation.caseSensitive and reads_as(shown, value):
        seen += " (the same words in another letter case: leave out caseSensitive to match them)"
    return False, seen


async def check(driver: PageDriver, expectation: Expectation) -> tuple[bool, str]:
    """Whether the expectation holds now, and what was seen (for the message when it does not)."""
    kind, selector, value = expectation.type, expectation.selector, expectation.value or ""
    if kind == "url":
        return value in driver.url, f"the URL is {driver.url}"
    if kind == "title":
        title = await driver.title()
        return value in title, f"the title is {title!r}"
    if kind == "text" and not selector:
        text = await _inner_text(driver, "body")
        return _text_check(text, expectation, f"the page's text does not contain it (it starts: {_short(text)!r})")
    assert selector is not None
    # Counted over every match: None (not 0) when the selector cannot be read, so a malformed one never passes as
    # "hidden" or as a count of 0.
    count = await driver.evaluate_on(selector, COUNT_JS, every=True)
    if count is None:
        return False, f"{selector!r} cannot be read as a selector (or the page was between documents)"
    if kind == "count":
        return count == int(value), f"{plural(count, 'element')} match {selector!r}"
    if count == 0:
        return kind == "hidden", f"no element matches {selector!r}"
    visible = await driver.is_visible(selector)
    if kind == "visible":
        return visible, f"{selector!r} matches {plural(count, 'element')}; the first is hidden"
    if kind == "hidden":
        return not visible, f"{selector!r} is visible"
    text = await _inner_text(driver, selector)
    return _text_check(text, expectation, f"{selector!r} shows {_short(text)!r}")


def describe(expectation: Expectation) -> str:
    """The expectation as a phrase: "text 'Saved' in #status"."""
    what = expectation.type + (f" {expectation.value!r}" if expectation.value is not None else "")
    what += " (case-sensitive)" if expectation.caseSensitive else ""
    return what + (f" of {expectation.selector!r}" if expectation.selector else "")


async def verify(driver: PageDriver, expectations: list[Expectation],
                 timeout_ms: float = VERIFY_TIMEOUT_MS) -> str | None:
    """None when every expectation holds (each waited for up to `timeout_ms`), else a sentence on the first that
    does not and what was seen instead."""
    for expectation in expectations:
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            try:
                held, seen = await check(driver, expectation)
            except RaceError as error:
                if error.kind == "context_closed":
                    raise
                held, seen = False, error.message.rstrip(".")
            if held:
                break
            if time.monotonic() >= deadline:
                return f"Expected {describe(expectation)}, but {seen}."
            await asyncio.sleep(POLL_S)
    return None
