"""LiveContexts: the toolbelt on the page the tester watches — one named context that is the runtime's live page
(studio.runtime.live.LivePage), followed when the session replaces its page (a popup, a stuck page closed)."""

from __future__ import annotations

from studio.browser.origins import OriginPolicy
from studio.race.errors import context_closed
from studio.runtime.live import LivePage
from studio.toolbelt.contexts import BrowserContexts, NamedContext, check_name


class LiveContexts(BrowserContexts):
    """The toolbelt's contexts for an agent acting in the tester's live session: every name is the live page."""

    def __init__(self, live: LivePage, pin: OriginPolicy | None = None) -> None:
        super().__init__(None, pin=pin, allow_file_urls=live.session.options.allow_file_urls,
                         page_timeout_s=live.timeout_s)
        self.headless = live.session.options.headless
        self.live = live
        if pin is not None:
            live.pin = pin
        self._entry: NamedContext | None = None

    def get(self, name: str) -> NamedContext:
        name = check_name(name)
        driver = self.live.driver
        entry = self._entry
        if entry is None or entry.driver is not driver:
            context = driver.page.context
            browser = context.browser
            if browser is None:
                raise context_closed(name)
            entry = NamedContext(name=name, browser=browser, context=context, driver=driver)
            self._entry = entry
        return entry

    async def for_navigation(self, name: str) -> NamedContext:
        return self.get(name)

    async def close_stuck_page(self, name: str) -> bool:
        return await self.live.replace_stuck_page()

    async def close(self) -> None:
        """The live page is the tester's: nothing is closed, only the last step is let finish."""
        if self._entry is not None:
            await self._entry.driver.settle()
