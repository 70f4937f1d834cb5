"""A BrowserSession: one Chromium, one context and its pages, reporting everything as engine events."""

from __future__ import annotations

import asyncio
import json
import logging
import struct
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from playwright.async_api import Browser, BrowserContext, Page, StorageState
from playwright.async_api import Error as PlaywrightError

from studio.browser.capture import ContextCapture, PageCapture
from studio.browser.errors import BrowserError, SessionClosedError, describe_navigation_failure, first_line
from studio.browser.launcher import BrowserLauncher
from studio.events import EventBus
from studio.models.browser import SessionOptions
from studio.models.events import EngineEvent, ScreenshotEvent, SessionEnded, SessionEndReason, SessionStarted

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_MS = 15_000
SCREENSHOT_ATTEMPTS = 4  # only for Chromium's transient 'Unable to capture screenshot'
_CLOSE_TIMEOUT_S = 10.0
_DISCONNECT_GRACE_S = 0.3

PageListener = Callable[[Page], None]
WaitUntil = Literal["commit", "domcontentloaded", "load", "networkidle"]


class BrowserSession:
    """Owns a launched browser for one exploration session and publishes what happens in it.

    The session ends on close(), when its last page closes, when the page crashes or when the browser
    dies; each end publishes one SessionEnded with a sentence for the user, and never hangs a caller.
    """

    def __init__(
        self,
        bus: EventBus,
        options: SessionOptions | None = None,
        session_id: str | None = None,
    ) -> None:
        self.id = session_id or uuid.uuid4().hex[:12]
        self.options = options or SessionOptions()
        self.launcher = BrowserLauncher(self.options.headless, self.options.browser_path,
                                        self.options.browser_endpoint)
        self.ended = asyncio.Event()
        self.end_reason: SessionEndReason | None = None
        self.end_message: str | None = None
        self._bus = bus
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        self._pages: list[Page] = []
        self._captures: dict[Page, PageCapture] = {}
        self._active: Page | None = None
        self._page_listeners: list[PageListener] = []
        self._tracing = False
        self._teardown_task: asyncio.Task[None] | None = None
        self._grace_task: asyncio.Task[None] | None = None

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Launch (or connect to) the browser, open the context and a first blank page; raises BrowserError."""
        options = self.options
        storage_state = _load_storage_state(options.storage_state)
        self._browser = await self.launcher.start()
        self._browser.on("disconnected", self._on_browser_disconnected)
        width, height = options.viewport
        user_agent = options.user_agent or _desktop_user_agent(self._browser.version, options.headless)
        self._context = await self._browser.new_context(
            viewport={"width": width, "height": height},
            user_agent=user_agent,
            storage_state=storage_state,
        )
        self._context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        network = ContextCapture(self._context, self.publish)
        self._context.on("page", self._adopt_page)
        if options.trace_path:
            await self.start_tracing()
        self._adopt_page(await self._context.new_page())
        await network.ready()  # the first page's requests are followed from its first navigation on
        self.publish(
            SessionStarted(
                browser_path=self.launcher.where,
                browser_version=self._browser.version,
                headless=options.headless,
                viewport=options.viewport,
                user_agent=user_agent or "",
            )
        )

    async def close(self) -> None:
        """End the session (saving the trace when one was requested) and release the browser. Idempotent."""
        if self._tracing and self.options.trace_path and not self.ended.is_set():
            try:
                await self.stop_tracing(self.options.trace_path)
            except BrowserError as error:
                log.warning("%s", error)
        self._end("closed", "The browser session was closed.")
        if self._teardown_task is not None:
            await asyncio.shield(self._teardown_task)

    @property
    def alive(self) -> bool:
        return self._context is not None and not self.ended.is_set()

    @property
    def page(self) -> Page:
        """The page the tester sees (the newest open one); raises SessionClosedError once the session ended."""
        if self.ended.is_set() or self._active is None:
            raise SessionClosedError(self.end_message or "The browser session has not started yet.")
        return self._active

    @property
    def url(self) -> str:
        """The URL of the page the tester sees ("" before the session started and once it ended)."""
        return "" if self.ended.is_set() or self._active is None else self._active.url

    @property
    def context(self) -> BrowserContext:
        if self.ended.is_set() or self._context is None:
            raise SessionClosedError(self.end_message or "The browser session has not started yet.")
        return self._context

    @property
    def browser(self) -> Browser:
        """The session's browser, for work that needs contexts of its own on it (a goal scenario's fresh one)."""
        if self.ended.is_set() or self._browser is None:
            raise SessionClosedError(self.end_message or "The browser session has not started yet.")
        return self._browser

    def show_page(self, page: Page) -> None:
        """Make `page` (of another context on this browser) the one the tester sees until it closes; then the
        session's own newest page is shown again. Its events are not recorded: it is not the session's."""
        if self.ended.is_set():
            return

        def closed(_page: Page) -> None:
            if self._active is page and not self.ended.is_set() and self._pages:
                self._activate(self._pages[-1])

        page.on("close", closed)
        self._activate(page)

    def on_active_page(self, listener: PageListener) -> Callable[[], None]:
        """Call `listener(page)` whenever a different page becomes the one the tester sees."""
        self._page_listeners.append(listener)
        return lambda: self._page_listeners.remove(listener) if listener in self._page_listeners else None

    def publish(self, event: EngineEvent) -> None:
        """Publish an event stamped with this session's id (events after the end are dropped)."""
        if self.ended.is_set() and event.type != "session_ended":
            return
        self._bus.publish(event.model_copy(update={"session_id": self.id}))

    # -- page actions ------------------------------------------------------------------------------

    async def goto(self, url: str, wait_until: WaitUntil = "load", timeout_ms: float | None = None) -> int | None:
        """Open `url` in the active page and return the HTTP status (None for same-document navigations)."""
        page = self.page
        for attempt in (1, 2):
            try:
                response = await page.goto(url, wait_until=wait_until, timeout=timeout_ms)
                return response.status if response else None
            except PlaywrightError as error:
                self._raise_if_ended(error)
                # A previous failed navigation may still be committing Chromium's error page; it
                # interrupts this one, which the tester asked for after that error: go again, once.
                if attempt == 1 and "interrupted by another navigation to \"chrome-error://" in str(error):
                    await self._settle(page)
                    continue
                await self._settle(page)
                raise describe_navigation_failure(url, error) from error
        raise AssertionError("unreachable")

    async def _settle(self, page: Page) -> None:
        """Let a failed navigation finish loading its error page, so the next navigation is not interrupted."""
        try:
            await page.wait_for_load_state("load", timeout=2000)
        except PlaywrightError:
            pass

    async def go_back(self) -> None:
        await self._history(self.page.go_back)

    async def go_forward(self) -> None:
        await self._history(self.page.go_forward)

    async def reload(self) -> None:
        await self._history(self.page.reload)

    async def screenshot(self, label: str, full_page: bool = False) -> bytes:
        """Take a PNG of the active page, publish it as evidence and return its bytes."""
        page = self.page
        for attempt in range(SCREENSHOT_ATTEMPTS):
            try:
                png = await page.screenshot(full_page=full_page, type="png")
                break
            except PlaywrightError as error:
                self._raise_if_ended(error)
                # A headed window that has not composited a frame yet (just opened, or on a busy X server)
                # answers "Unable to capture screenshot"; a moment later it can. Anything else is final.
                if "Unable to capture screenshot" in str(error) and attempt + 1 < SCREENSHOT_ATTEMPTS:
                    await asyncio.sleep(0.25 * (attempt + 1))
                    continue
                raise BrowserError(f"Could not take a screenshot of {page.url}: {first_line(error)}.") from error
        width, height = struct.unpack(">II", png[16:24])
        self.publish(ScreenshotEvent(label=label, url=page.url, width=width, height=height, png=png))
        return png

    async def replace_stuck_page(self) -> Page:
        """Open a fresh page in the context and close the active one (a script stuck in a loop holds its page, not
        the browser: closing works even then). Returns the new active page."""
        stuck = self.page
        fresh = await self.context.new_page()  # adopted and activated by the context's "page" event
        self._adopt_page(fresh)
        try:
            await asyncio.wait_for(stuck.close(), _CLOSE_TIMEOUT_S)
        except (PlaywrightError, asyncio.TimeoutError) as error:
            log.warning("closing a stuck page failed: %s", first_line(error))
        return fresh

    async def save_storage_state(self, path: Path) -> StorageState:
        """Write cookies and local storage (Playwright's storageState) to `path`, to start logged in next time."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return await self.context.storage_state(path=str(path))
        except PlaywrightError as error:
            self._raise_if_ended(error)
            raise BrowserError(f"Could not save the login state to {path}: {first_line(error)}.") from error

    async def start_tracing(self) -> None:
        """Start a Playwright trace (screenshots + DOM snapshots) of everything from now on."""
        if self._tracing:
            return
        await self.context.tracing.start(screenshots=True, snapshots=True, sources=False)
        self._tracing = True

    async def stop_tracing(self, path: Path) -> Path:
        """Stop the trace and write it to `path` (open it with `playwright show-trace`)."""
        if not self._tracing:
            raise BrowserError("No trace is being recorded. Start tracing first.")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            await self.context.tracing.stop(path=str(path))
        except PlaywrightError as error:
            self._raise_if_ended(error)
            raise BrowserError(f"Could not write the trace to {path}: {first_line(error)}.") from error
        finally:
            self._tracing = False
        return path

    # -- internals ---------------------------------------------------------------------------------

    async def _history(self, action: Callable) -> None:
        try:
            await action()
        except PlaywrightError as error:
            self._raise_if_ended(error)
            raise BrowserError(f"The page could not go there: {first_line(error)}.") from error

    def _raise_if_ended(self, error: Exception) -> None:
        if self.ended.is_set():
            raise SessionClosedError(self.end_message or "The browser session has ended.") from error

    def _adopt_page(self, page: Page) -> None:
        if page in self._pages or self.ended.is_set():
            return
        self._pages.append(page)
        self._captures[page] = PageCapture(page, self.publish)
        page.on("close", self._on_page_closed)
        page.on("crash", self._on_page_crashed)
        self._activate(page)

    def _activate(self, page: Page) -> None:
        if page is self._active:
            return
        self._active = page
        for listener in list(self._page_listeners):
            try:
                listener(page)
            except Exception:
                log.exception("active-page listener failed")

    def _on_page_closed(self, page: Page) -> None:
        if page in self._pages:
            self._pages.remove(page)
        capture = self._captures.pop(page, None)
        if capture:
            capture.detach()
        if self.ended.is_set():
            return
        if not self._pages:
            # A dying browser closes its pages before it reports the disconnect; wait a moment so the
            # session ends with the true reason.
            self._grace_task = asyncio.get_running_loop().create_task(self._end_after_last_page())
        elif page is self._active:
            self._activate(self._pages[-1])

    async def _end_after_last_page(self) -> None:
        await asyncio.sleep(_DISCONNECT_GRACE_S)
        self._end(
            "page_closed",
            "The page was closed, so the session ended. Everything recorded so far is kept; "
            "start a new session to continue.",
        )

    def _on_page_crashed(self, page: Page) -> None:
        self._end(
            "page_crashed",
            f"The page at {page.url} crashed, so the session ended. Everything recorded so far is kept; "
            "start a new session to continue (if it keeps crashing, check the browser console in the Events dock).",
        )

    def _on_browser_disconnected(self, _browser: Browser) -> None:
        self._end(
            "browser_disconnected",
            "The browser stopped unexpectedly, so the session ended. Everything recorded so far is kept; "
            "start a new session to continue (run `studio doctor` if it happens again).",
        )

    def _end(self, reason: SessionEndReason, message: str) -> None:
        if self.ended.is_set():
            return
        self.end_reason, self.end_message = reason, message
        grace = self._grace_task
        if grace is not None and grace is not asyncio.current_task():
            grace.cancel()
        self.publish(SessionEnded(reason=reason, message=message))
        self.ended.set()
        self._teardown_task = asyncio.get_running_loop().create_task(self._teardown())

    async def _teardown(self) -> None:
        self._browser = self._context = None
        self._active = None
        try:
            await asyncio.wait_for(self.launcher.close(), _CLOSE_TIMEOUT_S)
        except asyncio.TimeoutError:
            log.warning("closing the browser took longer than %s s", _CLOSE_TIMEOUT_S)


def _load_storage_state(path: Path | None) -> str | None:
    if path is None:
        return None
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise BrowserError(f"The saved login state {path} does not exist. Log in again and save it.") from error
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BrowserError(
            f"The saved login state {path} is not valid JSON ({error}). Delete it, log in again and save it."
        ) from error
    if not isinstance(data, dict) or "cookies" not in data:
        raise BrowserError(
            f"{path} is not a Playwright storage state (it has no 'cookies'). Log in again and save it."
        )
    return str(path)


def _desktop_user_agent(version: str, headless: bool) -> str | None:
    """Headless Chromium says 'HeadlessChrome', which some apps block; present the desktop Chrome UA instead."""
    if not headless:
        return None
    platform = {
        "darwin": "Macintosh; Intel Mac OS X 10_15_7",
        "win32": "Windows NT 10.0; Win64; x64",
    }.get(sys.platform, "X11; Linux x86_64")
    major = version.split(".")[0] or "120"
    return (
        f"Mozilla/5.0 ({platform}) AppleWebKit/537.36 (KHTML, like Gecko) "
        f"Chrome/{major}.0.0.0 Safari/537.36"
    )
