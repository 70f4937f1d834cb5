"""LivePage: the page the tester watches (the runtime's browser session), as the PageDriver agents act on.

The session may replace its page (a popup, a stuck page closed and opened anew); the driver follows it, and refs
keep counting across pages so a ref of the page that went away never names an element of the new one.
"""

from __future__ import annotations

from studio.browser.errors import BrowserError
from studio.browser.origins import OriginPolicy
from studio.browser.session import BrowserSession
from studio.race.driver import PageDriver
from studio.race.errors import context_closed
from studio.race.world import PAGE_TIMEOUT_S


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

    async def replace_stuck_page(self) -> bool:
        """Close a page that stopped answering and show a fresh one (False when that failed)."""
        try:
            await self.session.replace_stuck_page()
        except BrowserError:
            return False
        return True
