"""Seed 002: the workflow retries a failed phase twice, with exponential backoff. Only failures that are the
browser's are retried (the page could not be read, its target went away, the DevTools link dropped); what the game
does (a page that stopped answering, a game that cannot be played, a phase out of time) is evidence, not bad luck,
and is never retried."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from studio.browser.errors import BrowserError, PageUnresponsive, SessionClosedError
from studio.race.errors import RaceError

T = TypeVar("T")
PHASE_RETRIES = 2
BACKOFF_S = 1.0  # then 2 s: the seed's exponential backoff
BROWSER_KINDS = {"context_closed", "no_page", "browser_unavailable", "navigated", "stale_ref"}


def browser_failure(error: BaseException) -> bool:
    """A failure of the browser, not of the game: worth another try."""
    if isinstance(error, (PageUnresponsive, SessionClosedError)):
        return False  # the game's page is stuck; or the browser is gone for good (nothing to try again on)
    if isinstance(error, RaceError):
        return error.kind in BROWSER_KINDS
    if isinstance(error, BrowserError):
        return True  # EyesError and the like: the page could not be read
    name = type(error).__name__
    return name in ("TargetClosedError",) or "Target page, context or browser has been closed" in str(error)


async def with_retries(attempt: Callable[[], Awaitable[T]], *, retries: int = PHASE_RETRIES,
                       backoff_s: float = BACKOFF_S,
                       before_retry: Callable[[int, float, BaseException], Awaitable[None]] | None = None) -> T:
    """`attempt()`, tried again up to `retries` times after a browser failure, waiting backoff_s, 2×backoff_s, …
    `before_retry(number, delay, error)` runs before each new try (to say so, and to put the page back)."""
    tried = 0
    while True:
        try:
            return await attempt()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if tried >= retries or not browser_failure(error):
                raise
            tried += 1
            delay = backoff_s * 2 ** (tried - 1)
            if before_retry is not None:
                await before_retry(tried, delay, error)
            await asyncio.sleep(delay)
