"""BrowserContexts: named browser contexts side by side, each with its own cookies, page and PageDriver — what an
agent drives through the toolbelt. The contexts come from the runtime's fleet (the browser the settings name: local,
or a browser server), which starts its browser on the first navigation, not at start-up: an MCP client often lists
tools long before it uses one. A context whose page or browser went away is re-opened by the next navigation.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from playwright.async_api import Browser, BrowserContext
from playwright.async_api import Error as PlaywrightError

from studio.browser.contexts import ContextOptions
from studio.browser.errors import BrowserError, first_line
from studio.browser.fleet import BrowserFleet
from studio.browser.origins import OriginPolicy
from studio.race.driver import PageDriver
from studio.race.errors import RaceError, context_closed
from studio.race.page import WALK_SHARE
from studio.race.world import PAGE_TIMEOUT_S
from studio.toolbelt.recording import ProjectRecording

log = logging.getLogger(__name__)

VIEWPORT = (1280, 720)
ACTION_TIMEOUT_MS = 10_000
NAVIGATION_TIMEOUT_MS = 20_000
_MAX_NAME = 64
# How long a page that kept a tool waiting has to answer a one-line question to show it is not stuck, once the part
# of a walk it may still be running (a large page's snapshot part, up to WALK_SHARE of the page limit) is done.
PROBE_TIMEOUT_S = 2.0


def check_name(name: str) -> str:
    """A browserContext name as given, or a bad_input error for one an agent cannot mean."""
    cleaned = (name or "").strip()
    if not cleaned or len(cleaned) > _MAX_NAME:
        raise RaceError("bad_input", f"browserContext must be a name of 1 to {_MAX_NAME} characters, e.g. 'default'.")
    return cleaned


@dataclass
class NamedContext:
    """One named browser context: its browser, its Playwright context and the driver of its page."""

    name: str
    browser: Browser
    context: BrowserContext
    driver: PageDriver
    session_id: str | None = None
    context_closed: bool = field(default=False)

    @property
    def alive(self) -> bool:
        return not self.context_closed and not self.driver.page.is_closed() and self.browser.is_connected()


class BrowserContexts:
    """All named contexts of one agent connection, on the fleet's browser (started on first use).

    `pin` (optional) is the origins answers may be typed on: with it, typing into a page of any other origin is
    refused (the drivers' typing rules; see Toolbelt.type). `owns_fleet`: close the fleet with the contexts (a
    front end that made the fleet for them alone).
    """

    def __init__(self, fleet: BrowserFleet | None, recording: ProjectRecording | None = None,
                 page_timeout_s: float = PAGE_TIMEOUT_S, pin: OriginPolicy | None = None,
                 allow_file_urls: bool = False, owns_fleet: bool = False) -> None:
        self.fleet = fleet
        self.owns_fleet = owns_fleet
        self.allow_file_urls = allow_file_urls  # file: and data: pages only when the user opted in
        self.headless = fleet.headless if fleet is not None else True
        self.recording = recording
        self.page_timeout_s = page_timeout_s  # how long a check may wait for the page to answer
        self.pin = pin
        self._contexts: dict[str, NamedContext] = {}
        self._preflight: dict[str, bool] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._closed = False

    def lock(self, name: str) -> asyncio.Lock:
        """One tool call at a time per context: a click must not interleave with a snapshot of the same page."""
        return self._locks.setdefault(check_name(name), asyncio.Lock())

    def get(self, name: str) -> NamedContext:
        """The context for tools that need a page already open in it."""
        name = check_name(name)
        entry = self._contexts.get(name)
        if entry is None:
            raise RaceError("no_page", f"Browser context {name!r} has no page yet. "
                                       f"Call browser_navigate with browserContext {name!r} first.")
        if not entry.alive:
            raise context_closed(name)
        return entry

    async def for_navigation(self, name: str) -> NamedContext:
        """The context to navigate in: created on first use, re-opened when its page or the browser has gone."""
        name = check_name(name)
        if self._closed:
            raise RaceError("context_closed", "The browser contexts are closed (the connection is ending).")
        entry = self._contexts.get(name)
        if entry is not None and entry.alive:
            return entry
        reuse = entry is not None and not entry.context_closed and entry.browser.is_connected()
        if reuse and entry is not None:
            context, browser, where = entry.context, entry.browser, entry.driver.where
        else:
            context, browser, where = await self._new_context()
        page = await context.new_page()
        # Refs keep counting across a replaced page, so a ref of the page that closed never names a new element.
        driver = PageDriver(page, preflight=self._preflight.get(name, True),
                            first_ref=entry.driver.race.world.next_ref if entry else 1, timeout_s=self.page_timeout_s,
                            pin=self.pin, where=where)
        fresh = NamedContext(name=name, browser=browser, context=context, driver=driver)
        if not reuse:
            context.on("close", self._on_context_closed)
        if self.recording is not None:
            await self._attach_recorder(fresh)
        self._contexts[name] = fresh
        return fresh

    def set_preflight(self, name: str, enabled: bool) -> bool:
        """Switch preflight observation for a context (also before its first navigation); returns the new state."""
        name = check_name(name)
        self._preflight[name] = enabled
        entry = self._contexts.get(name)
        if entry is not None:
            entry.driver.race.preflight = enabled
        return enabled

    @property
    def probe_seconds(self) -> float:
        """The question waits behind a part of a walk the page may still be running (the tool that gave up cannot
        stop it): its budget, then PROBE_TIMEOUT_S, never past the page limit. A busy loop answers neither."""
        return min(self.page_timeout_s, PROBE_TIMEOUT_S + WALK_SHARE * self.page_timeout_s)

    async def still_answers(self, name: str) -> int | None:
        """The element count of a context's page if it still answers a one-line question within a short time, else
        None: a call that ran out of time on a large or slow page is no reason to close that page."""
        try:
            driver = self.get(name).driver
            count = await driver.evaluate("document.getElementsByTagName('*').length",
                                          during="checking that the page still answers",
                                          seconds=self.probe_seconds)
        except RaceError:  # no answer in time (a busy loop holds every script of its page), or no page to ask
            return None
        return count if isinstance(count, int) else None

    async def close_stuck_page(self, name: str) -> bool:
        """Close a context's page that stopped answering (the next navigation opens a new one); False if none."""
        entry = self._contexts.get(check_name(name))
        if entry is None or entry.driver.page.is_closed():
            return False
        try:
            # Closing is the browser's business, not the stuck renderer's: it works even mid busy loop.
            await asyncio.wait_for(entry.driver.page.close(), self.page_timeout_s)
        except (PlaywrightError, TimeoutError) as error:
            log.warning("Closing the stuck page of %r failed: %s", name, first_line(error))
            return False
        return True

    async def close(self) -> None:
        """Close every context and the browser, and finish the recording; idempotent."""
        if self._closed:
            return
        self._closed = True
        for entry in self._contexts.values():
            await entry.driver.settle()  # the last step of each context is recorded before the file closes
            if not entry.context_closed:
                try:
                    await entry.context.close()
                except PlaywrightError as error:  # the browser went away first
                    log.debug("closing context %r: %s", entry.name, first_line(error))
        self._contexts.clear()
        try:
            if self.owns_fleet and self.fleet is not None:
                await self.fleet.close()
        finally:
            if self.recording is not None:
                self.recording.close()

    # -- internals -------------------------------------------------------------------------------


    def _on_context_closed(self, context: BrowserContext) -> None:
        for entry in self._contexts.values():
            if entry.context is context:
                entry.context_closed = True

    async def _new_context(self) -> tuple[BrowserContext, Browser, str]:
        options = ContextOptions(viewport=VIEWPORT, default_timeout_ms=ACTION_TIMEOUT_MS,
                                 navigation_timeout_ms=NAVIGATION_TIMEOUT_MS)
        if self.fleet is None:
            raise RaceError("browser_unavailable", "These browser contexts cannot open new ones.")
        try:
            context, member = await self.fleet.open_context(options)
        except BrowserError as error:
            hint = " Or run `studio mcp` without --headed." if not self.headless else ""
            raise RaceError("browser_unavailable", f"{error}{hint}") from error
        browser = context.browser
        if browser is None:
            raise RaceError("browser_unavailable", f"The browser at {member.where} went away.")
        return context, browser, member.where

    async def _attach_recorder(self, entry: NamedContext) -> None:
        assert self.recording is not None
        user_agent = await entry.driver.page.evaluate("navigator.userAgent")
        session_id, first_index = self.recording.start(
            entry.name, entry.driver.where, entry.browser.version, self.headless, VIEWPORT, user_agent)
        entry.session_id = session_id
        # An agent's click is answered once done; its step (requests, messages) is finished in the background.
        entry.driver.record(session_id, self.recording.add_step, origin="agent", first_index=first_index,
                            background=True)
