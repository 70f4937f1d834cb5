"""BrowserFleet: the browsers the runtime hands out — one launched on this machine, or one per configured browser
endpoint (Playwright's `run-server`), each started on first use.

Work that needs a page asks the fleet for a context; the fleet places it on the browser with the fewest open
contexts (the least busy server) and counts it until it closes. A browser that went away (a crash, a server that
stopped) is started or connected to again when next asked for; one that cannot be is left out from then on, and
said. A scenario on a server that died can ask again with that server excluded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from playwright.async_api import Browser, BrowserContext

from studio.browser.contexts import ContextOptions, new_context
from studio.browser.errors import BrowserError, first_line
from studio.browser.launcher import BrowserLauncher

log = logging.getLogger(__name__)


@dataclass(eq=False)
class FleetMember:
    """One browser of the fleet: where it runs, how many contexts are open on it, and whether it is gone."""

    launcher: BrowserLauncher
    index: int
    open_contexts: int = 0
    placed: int = 0  # contexts ever placed here
    lost: str | None = None  # why the browser could not be started or reached (it is not asked again)
    disconnects: int = 0  # times its browser went away (each time it is started again on the next use)
    owned: bool = True  # False: a browser someone else launched and closes (BrowserFleet.sharing)
    _start_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def where(self) -> str:
        return self.launcher.where

    @property
    def alive(self) -> bool:
        return self.lost is None

    async def browser(self) -> Browser:
        async with self._start_lock:
            if self.lost is not None:
                raise BrowserError(f"The browser at {self.where} is gone ({self.lost}).")
            current = self.launcher.browser
            if current is not None and current.is_connected():
                return current
            try:
                browser = await self.launcher.start()
            except BrowserError as error:
                self.lost = str(error)
                raise
            browser.on("disconnected", self._on_disconnected)
            return browser

    def _on_disconnected(self, _browser: Browser) -> None:
        self.disconnects += 1
        self.open_contexts = 0  # they went with it
        log.info("The browser at %s went away; it is started again when next needed.", self.where)


class BrowserFleet:
    """The runtime's browsers. With no endpoint, one browser launched here; with endpoints, one per endpoint."""

    def __init__(self, headless: bool = True, browser_path: str | None = None,
                 endpoints: Iterable[str | None] = ()) -> None:
        wanted: list[str | None] = [e for e in endpoints if e] or [None]
        self.headless = headless
        self.members = [FleetMember(BrowserLauncher(headless, browser_path, endpoint), index)
                        for index, endpoint in enumerate(dict.fromkeys(wanted))]
        self._closed = False

    @classmethod
    def sharing(cls, browser: Browser, headless: bool = True) -> BrowserFleet:
        """A fleet of one browser that someone else launched and closes (a test worker's shared Chromium)."""
        fleet = cls(headless)
        member = fleet.members[0]
        member.launcher.browser = browser
        member.owned = False
        browser.on("disconnected", member._on_disconnected)
        return fleet

    @property
    def remote(self) -> bool:
        return any(member.launcher.endpoint_text for member in self.members)

    @property
    def alive(self) -> list[FleetMember]:
        return [member for member in self.members if member.alive]

    def least_busy(self, exclude: Iterable[FleetMember] = ()) -> FleetMember:
        """The live member with the fewest open contexts (then the fewest placed so far); raises BrowserError when
        none is left."""
        skipped = set(map(id, exclude))
        candidates = [m for m in self.alive if id(m) not in skipped]
        if not candidates:
            lost = "; ".join(f"{m.where}: {m.lost}" for m in self.members if m.lost) or "none was given"
            raise BrowserError(f"No browser is left to run on ({lost}). Start the browser servers again, or run "
                               "without --browser-endpoint to use a browser on this machine.")
        return min(candidates, key=lambda m: (m.open_contexts, m.placed, m.index))

    async def start(self) -> list[FleetMember]:
        """Start (or connect to) every live member now, at once, so that a run knows before it begins which browsers
        it has; returns the members that could not be started (each `lost` says why). Raises BrowserError (the
        first member's sentence) when none could."""
        if self._closed:
            raise BrowserError("The studio's browsers are closed (the run is ending).")
        members = self.alive
        outcomes = await asyncio.gather(*(member.browser() for member in members), return_exceptions=True)
        failed = [member for member, outcome in zip(members, outcomes, strict=True)
                  if isinstance(outcome, BaseException)]
        for outcome in outcomes:
            if isinstance(outcome, BaseException) and not isinstance(outcome, BrowserError):
                raise outcome
        if members and len(failed) == len(members):
            first = outcomes[0]
            assert isinstance(first, BrowserError)
            raise first
        return failed

    async def browser(self, exclude: Iterable[FleetMember] = ()) -> tuple[Browser, FleetMember]:
        """A started browser of the least busy member (members that fail to start are skipped, and said)."""
        if self._closed:
            raise BrowserError("The studio's browsers are closed (the run is ending).")
        tried = list(exclude)
        while True:
            member = self.least_busy(tried)
            try:
                return await member.browser(), member
            except BrowserError as error:
                tried.append(member)
                if not [m for m in self.alive if m not in tried]:
                    raise
                log.warning("Skipping the browser at %s: %s", member.where, first_line(error))

    async def open_context(self, options: ContextOptions | None = None,
                           exclude: Iterable[FleetMember] = ()) -> tuple[BrowserContext, FleetMember]:
        """A fresh context on the least busy browser, counted on its member until it closes. The member is chosen
        and counted before anything is awaited, so that contexts asked for at once spread over the browsers; one
        whose browser cannot be started, or cannot open a context, is skipped while another is left (and said)."""
        if self._closed:
            raise BrowserError("The studio's browsers are closed (the run is ending).")
        tried = list(exclude)
        while True:
            member = self.least_busy(tried)
            member.open_contexts += 1
            try:
                context = await new_context(await member.browser(), options)
            except BaseException as error:
                member.open_contexts = max(0, member.open_contexts - 1)
                if not isinstance(error, BrowserError):
                    raise  # cancelled while it opened (or a bug): not this browser's fault
                tried.append(member)
                if not [m for m in self.alive if m not in tried]:
                    raise
                log.warning("Skipping the browser at %s: %s", member.where, first_line(error))
                continue
            member.placed += 1

            def closed(_context: BrowserContext, member: FleetMember = member) -> None:
                member.open_contexts = max(0, member.open_contexts - 1)

            context.on("close", closed)
            return context, member

    async def close(self) -> None:
        """Close (or disconnect from) every browser; idempotent."""
        self._closed = True
        for member in self.members:
            if member.owned:
                await member.launcher.close()


async def probe_browser(browser_path: str | None = None, endpoint: str | None = None) -> str | None:
    """Launch (or connect to) a browser and open a page in it, as `studio doctor` checks; None when that worked, else
    what went wrong, in a sentence or the browser's own first line."""
    launcher = BrowserLauncher(browser_path=browser_path, endpoint=endpoint)
    try:
        async with launcher as browser:
            page = await browser.new_page()
            await page.set_content("<p>ok</p>")
    except BrowserError as error:  # already a sentence
        return str(error)
    except Exception as error:  # noqa: BLE001 - any failure here is the finding itself
        return first_line(error) if str(error).strip() else type(error).__name__
    return None
