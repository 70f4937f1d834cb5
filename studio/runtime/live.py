"""LivePage: the page the tester watches (the runtime's browser session), as the PageDriver agents act on.

The session may replace its page (a popup, a stuck page closed and opened anew); the driver follows it, and refs
keep counting across pages so a ref of the page that went away never names an element of the new one.

Work that must not touch the tester's page, yet belongs to the same browser (a preflight's sandbox), opens pages
beside it: a fresh context on the session's browser, with only what its ContextOptions carry (e.g. the cookies).
"""

from __future__ import annotations

import logging

from playwright.async_api import BrowserContext

from studio.browser.contexts import ContextOptions, new_context
from studio.browser.errors import BrowserError, first_line
from studio.browser.origins import OriginPolicy
from studio.browser.session import BrowserSession
from studio.race.driver import PageDriver
from studio.race.errors import context_closed
from studio.race.world import PAGE_TIMEOUT_S

log = logging.getLogger(__name__)


class LivePage:
    """The live session's active page as a PageDriver (`driver`), re-made when the session's page changes."""

    def __init__(self, session: BrowserSession, pin: OriginPolicy | None = None,
                 timeout_s: float = PAGE_TIMEOUT_S) -> None:
        self.session = session
        self.pin = pin
        self.timeout_s = timeout_s
        self._driver: PageDriver | None = None

    @property
    def driver(self) -> PageDriver:
        """The driver of the page shown now; RaceError(context_closed) once the session ended."""
        try:
            page = self.session.page
        except BrowserError as error:
            raise context_closed() from error
        current = self._driver
        if current is None or current.page is not page:
            first = current.race.world.next_ref if current is not None else 1
            current = PageDriver(page, first_ref=first, timeout_s=self.timeout_s, pin=self.pin,
                                 where=self.session.launcher.where)
            self._driver = current
        current.pin = self.pin
        return current

    async def open_beside(self, options: ContextOptions | None = None, *, pin: OriginPolicy | None = None,
                          preflight: bool = True, timeout_s: float = PAGE_TIMEOUT_S) -> PageDriver:
        """A page in a fresh context on the session's browser (the tester's page and context untouched), as a
        PageDriver that closes the context when closed. Raises BrowserError with a next step."""
        return await page_beside(self.session, options, pin=pin, preflight=preflight, timeout_s=timeout_s)

    async def replace_stuck_page(self) -> bool:
        """Close a page that stopped answering and show a fresh one (False when that failed)."""
        try:
            await self.session.replace_stuck_page()
        except BrowserError:
            return False
        return True


async def page_beside(session: BrowserSession, options: ContextOptions | None = None, *,
                      pin: OriginPolicy | None = None, preflight: bool = True,
                      timeout_s: float = PAGE_TIMEOUT_S) -> PageDriver:
    """A page in a fresh context on `session`'s browser, as a PageDriver that closes the context when closed."""
    context = await new_context(session.browser, options)
    return await driver_in(context, session.launcher.where, pin=pin, preflight=preflight, timeout_s=timeout_s)


async def driver_in(context: BrowserContext, where: str, *, pin: OriginPolicy | None = None,
                    preflight: bool = True, timeout_s: float = PAGE_TIMEOUT_S) -> PageDriver:
    """A new page of `context` (on the browser at `where`) as a PageDriver whose close() closes the context."""
    try:
        page = await context.new_page()
    except Exception as error:  # the browser went away meanwhile
        raise BrowserError(f"The browser at {where} could not open a page: {first_line(error)}.") from error

    async def close() -> None:
        try:
            await context.close()
        except Exception as error:  # noqa: BLE001 - the browser is gone: nothing left to close
            log.debug("closing a context: %s", first_line(error))

    return PageDriver(page, preflight=preflight, pin=pin, closer=close, where=where, timeout_s=timeout_s)
