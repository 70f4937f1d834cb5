"""Page calls that cannot hang: every evaluation an agent makes waits at most PAGE_CALL_TIMEOUT_S.

Playwright's actions (click, fill, goto) have their own timeouts; `page.evaluate`, `title()` and locator counts do
not, and a page whose script never yields would hold them forever.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from playwright.async_api import Page

from studio.browser.errors import PageUnresponsive

T = TypeVar("T")

PAGE_CALL_TIMEOUT_S = 10.0


async def bounded(page: Page, call: Awaitable[T], what: str, seconds: float = PAGE_CALL_TIMEOUT_S) -> T:
    """Await `call` on `page` for at most `seconds`; raises PageUnresponsive (a BrowserError) past that."""
    try:
        return await asyncio.wait_for(call, seconds)
    except TimeoutError:
        raise PageUnresponsive(page.url, what, seconds) from None
