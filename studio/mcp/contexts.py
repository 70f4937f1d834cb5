"""Named browser contexts side by side in one Chromium, each with its own cookies, page, RacePage and ActionRunner.

The browser is launched on the first navigation, not at start-up: an MCP client often lists tools long before it
uses one. A context whose page or browser went away is re-opened by the next navigation to it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from dataclasses import dataclass, field

from playwright.async_api import Browser, BrowserContext, Page, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from studio.browser.discovery import BrowserInfo, BrowserNotFound, find_browser, launch_args
from studio.browser.errors import describe_navigation_failure, first_line
from studio.browser.urls import normalize_url
from studio.mcp.recording import ProjectRecording
from studio.models.race import ActionName, ActionOutcome
from studio.race.actions import ActionRunner
from studio.race.errors import RaceError, context_closed
from studio.race.page import RacePage
from studio.race.world import PAGE_TIMEOUT_S
from studio.race.recorder import StepRecorder

log = logging.getLogger(__name__)

VIEWPORT = (1280, 720)
ACTION_TIMEOUT_MS = 10_000
NAVIGATION_TIMEOUT_MS = 20_000
_MAX_NAME = 64


def check_name(name: str) -> str:
    """A browserContext name as given, or a bad_input error for one an agent cannot mean."""
    cleaned = (name or "").strip()
    if not cleaned or len(cleaned) > _MAX_NAME:
        raise RaceError("bad_input", f"browserContext must be a name of 1 to {_MAX_NAME} characters, e.g. 'default'.")
    return cleaned


@dataclass
class NamedContext:
    """One named browser context: its page and the race engine on that page."""

    name: str
    browser: Browser
    context: BrowserContext
    page: Page
    race: RacePage
    runner: ActionRunner
    recorder: StepRecorder | None = None
    session_id: str | None = None
    context_closed: bool = field(default=False)

    @property
    def alive(self) -> bool:
        return not self.context_closed and not self.page.is_closed() and self.browser.is_connected()

    async def navigate(self, url: str) -> dict:
        """Open a URL that ContextCollection.checked_url let through and say where the page ended up (redirects
        included)."""
        try:
            if self.recorder is not None:
                status = await self.recorder.navigate(url)
            else:
                response = await self.page.goto(url)
                status = response.status if response else None
        except PlaywrightError as error:
            if not self.alive:
                raise context_closed(self.name) from error
            raise RaceError("navigation_failed", str(describe_navigation_failure(url, error))) from error
        try:
            title = await self.page.title()
        except PlaywrightError:
            title = ""  # the page moved on again (a client-side redirect); the next snapshot shows where
        reply = {"ok": True, "url": self.page.url, "title": title, "status": status}
        if self.session_id:
            reply["recordedSession"] = self.session_id
        return reply

    async def act(self, action: ActionName, ref: str, value: str | None = None) -> ActionOutcome:
        """Run an action through the race preflight (and the recorder, when recording)."""
        if self.recorder is not None:
            return await self.recorder.act(action, ref, value=value)
        return await self.runner.run(action, ref, value=value)


class ContextCollection:
    """All named contexts of one MCP connection, in one lazily launched Chromium."""

    def __init__(self, headless: bool = True, recording: ProjectRecording | None = None,
                 page_timeout_s: float = PAGE_TIMEOUT_S, allow_file_urls: bool = False) -> None:
        self.headless = headless
        self.allow_file_urls = allow_file_urls
        self.recording = recording
        self.page_timeout_s = page_timeout_s  # how long a check may wait for the page to answer
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._browser_info: BrowserInfo | None = None
        self._contexts: dict[str, NamedContext] = {}
        self._preflight: dict[str, bool] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._launch_lock = asyncio.Lock()
        self._closed = False

    def checked_url(self, text: str) -> str:
        """The URL to open, or bad_input for one the URL policy refuses (before any browser is launched)."""
        try:
            return normalize_url(text, allow_files=self.allow_file_urls)
        except ValueError as error:
            raise RaceError("bad_input", f"{error}.") from error

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
            raise RaceError("context_closed", "The MCP server is shutting down.")
        entry = self._contexts.get(name)
        if entry is not None and entry.alive:
            return entry
        browser = await self._ensure_browser()
        reuse = entry is not None and not entry.context_closed and entry.browser is browser
        context = entry.context if reuse else await self._new_context(browser)
        page = await context.new_page()
        # Refs keep counting across a replaced page, so a ref of the page that closed never names a new element.
        race = RacePage(page, preflight=self._preflight.get(name, True),
                        first_ref=entry.race.world.next_ref if entry else 1, timeout_s=self.page_timeout_s)
        runner = ActionRunner(race)
        fresh = NamedContext(name=name, browser=browser, context=context, page=page, race=race, runner=runner)
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
            entry.race.preflight = enabled
        return enabled

    async def close_stuck_page(self, name: str) -> bool:
        """Close a context's page that stopped answering (the next navigation opens a new one); False if none."""
        entry = self._contexts.get(check_name(name))
        if entry is None or entry.page.is_closed():
            return False
        try:
            # Closing is the browser's business, not the stuck renderer's: it works even mid busy loop.
            await asyncio.wait_for(entry.page.close(), self.page_timeout_s)
        except (PlaywrightError, TimeoutError) as error:
            log.warning("Closing the stuck page of %r failed: %s", name, first_line(error))
            return False
        return True

    async def close(self) -> None:
        """Close every context and the browser, and finish the recording; idempotent."""
        if self._closed:
            return
        self._closed = True
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        self._contexts.clear()
        try:
            if browser is not None and browser.is_connected():
                await browser.close()
        except PlaywrightError as error:
            log.warning("Closing the browser failed: %s", first_line(error))
        finally:
            if playwright is not None:
                await playwright.stop()
            if self.recording is not None:
                self.recording.close()

    # -- internals -------------------------------------------------------------------------------

    async def _ensure_browser(self) -> Browser:
        async with self._launch_lock:
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            try:
                self._browser_info = self._browser_info or find_browser()
            except BrowserNotFound as error:
                raise RaceError("browser_unavailable", str(error)) from error
            if not self.headless and sys.platform.startswith("linux") and not (
                    os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
                raise RaceError("browser_unavailable", "A headed browser needs a display, and none is available "
                                                       "(DISPLAY is not set). Run `studio mcp` without --headed, "
                                                       "or under Xvfb (`xvfb-run studio mcp --headed`).")
            if self._playwright is None:
                self._playwright = await async_playwright().start()
            try:
                self._browser = await self._playwright.chromium.launch(
                    executable_path=self._browser_info.path, args=launch_args(), headless=self.headless)
            except PlaywrightError as error:
                hint = ", or run without --headed" if not self.headless else ""
                raise RaceError("browser_unavailable",
                                f"Could not start the browser at {self._browser_info.path}: {first_line(error)}. "
                                f"Run `studio doctor` to check it{hint}.") from error
            log.info("Launched %s (%s)", self._browser_info.path, self._browser.version)
            return self._browser

    def _on_context_closed(self, context: BrowserContext) -> None:
        for entry in self._contexts.values():
            if entry.context is context:
                entry.context_closed = True

    async def _new_context(self, browser: Browser) -> BrowserContext:
        width, height = VIEWPORT
        context = await browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        return context

    async def _attach_recorder(self, entry: NamedContext) -> None:
        assert self.recording is not None and self._browser_info is not None
        user_agent = await entry.page.evaluate("navigator.userAgent")
        session_id, first_index = self.recording.start(
            entry.name, self._browser_info.path, entry.browser.version, self.headless, VIEWPORT, user_agent)
        entry.session_id = session_id
        entry.recorder = StepRecorder(entry.race, entry.runner, session_id, self.recording.add_step,
                                      origin="agent", first_index=first_index)
