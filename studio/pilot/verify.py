"""A verify action's expectations, checked against the page until they hold or time runs out."""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from studio.pilot.actions import Expectation

VERIFY_TIMEOUT_MS = 3_000
POLL_S = 0.1
SEEN_CHARS = 200


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SEEN_CHARS else text[:SEEN_CHARS] + "…"


async def check(page: Page, expectation: Expectation) -> tuple[bool, str]:
    """Whether the expectation holds now, and what was seen (for the message when it does not)."""
    kind, selector, value = expectation.type, expectation.selector, expectation.value or ""
    if kind == "url":
        return value in page.url, f"the URL is {page.url}"
    if kind == "title":
        title = await page.title()
        return value in title, f"the title is {title!r}"
    if kind == "text" and not selector:
        text = await page.locator("body").inner_text()
        return value in text, f"the page's text does not contain it (it starts: {_short(text)!r})"
    assert selector is not None
    matches = page.locator(selector)
    count = await matches.count()
    if kind == "count":
        return count == int(value), f"{count} element(s) match {selector!r}"
    if count == 0:
        return kind == "hidden", f"no element matches {selector!r}"
    visible = await matches.first.is_visible()
    if kind == "visible":
        return visible, f"{selector!r} matches {count} element(s); the first is hidden"
    if kind == "hidden":
        return not visible, f"{selector!r} is visible"
    text = await matches.first.inner_text()
    return value in text, f"{selector!r} shows {_short(text)!r}"


def describe(expectation: Expectation) -> str:
    """The expectation as a phrase: "text 'Saved' in #status"."""
    what = expectation.type + (f" {expectation.value!r}" if expectation.value is not None else "")
    return what + (f" of {expectation.selector!r}" if expectation.selector else "")


async def verify(page: Page, expectations: list[Expectation], timeout_ms: float = VERIFY_TIMEOUT_MS) -> str | None:
    """None when every expectation holds (each waited for up to `timeout_ms`), else a sentence on the first that
    does not and what was seen instead."""
    for expectation in expectations:
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            try:
                held, seen = await check(page, expectation)
            except PlaywrightError as error:
                held, seen = False, str(error).splitlines()[0]
            if held:
                break
            if time.monotonic() >= deadline:
                return f"Expected {describe(expectation)}, but {seen}."
            await asyncio.sleep(POLL_S)
    return None
