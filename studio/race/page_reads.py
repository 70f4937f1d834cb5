"""What a capability reads from, and waits for on, the page it drives — the half of PageDriver that never acts:
its URL and title, evaluations that cannot hang, element counts and texts, waits (load, URL, text, element),
screenshots, the page's traffic as typed events, its saved state and a DevTools channel.

Capabilities hold a PageDriver and call these instead of touching Playwright: every evaluation is bounded (a page
stuck in a script loop is reported, never waited on forever), and every failure is a RaceError or a plain answer.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from studio.browser.capture import PageTraffic, Publish
from studio.browser.errors import first_line
from studio.race.errors import RaceError, context_closed, page_unresponsive
from studio.race.page import RacePage
from studio.race.targets import State, Target, count, evaluate_on, locator_of, wait_for

LoadState = Literal["load", "domcontentloaded", "networkidle"]
_TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
_POLL_S = 0.05


def url_matches(url: str, pattern: str) -> bool:
    """A glob ('**/dashboard', '*' within one path segment, '**' across), a whole URL, or a part of one ('#/active')."""
    if "*" in pattern:
        regex = "".join(".*" if part == "**" else "[^/]*" if part == "*" else re.escape(part)
                        for part in re.split(r"(\*\*|\*)", pattern))
        return re.fullmatch(regex, url) is not None
    if re.match(r"^[a-z][a-z0-9+.-]*:", pattern, re.IGNORECASE):
        return url == pattern
    return pattern in url


class PageReads:
    """Reading and waiting on one page (mixed into PageDriver, which owns `page` and `race`)."""

    page: Page
    race: RacePage
    _cdp: CDPSession | None
    _cdp_opening: asyncio.Future[CDPSession] | None = None  # one session, however many commands ask for it at once

    @property
    def url(self) -> str:
        return self.page.url

    @property
    def closed(self) -> bool:
        return self.page.is_closed()

    @property
    def viewport(self) -> tuple[int, int]:
        size = self.page.viewport_size or {"width": 1280, "height": 720}
        return size["width"], size["height"]

    @property
    def timeout_s(self) -> float:
        return self.race.world.timeout_s

    async def _bounded(self, call: Any, during: str, seconds: float | None = None) -> Any:
        seconds = seconds or self.timeout_s
        try:
            return await asyncio.wait_for(call, seconds)
        except TimeoutError as error:
            raise page_unresponsive(during, seconds) from error
        except PlaywrightError as error:
            if self.page.is_closed():
                raise context_closed() from error
            raise

    async def title(self) -> str:
        """The page's title ("" while it is between documents)."""
        try:
            return await self._bounded(self.page.title(), "reading the title")
        except PlaywrightError:
            return ""

    async def evaluate(self, expression: str, arg: Any = None, during: str = "reading the page",
                       seconds: float | None = None) -> Any:
        """Run a script in the page's main world, at most `seconds` (the page timeout); PlaywrightError-free: a
        failure is RaceError (bad_input for a script error, navigated when the document went away)."""
        try:
            return await self._bounded(self.page.evaluate(expression, arg), during, seconds)
        except PlaywrightError as error:
            text = first_line(error)
            if "Execution context was destroyed" in text or "navigat" in text:
                raise RaceError("navigated", f"The page navigated away while {during}.") from error
            raise RaceError("bad_input", f"The page could not run the script while {during}: {text}") from error

    async def content(self) -> str:
        """The document's HTML ("" while it is between documents)."""
        try:
            return await self._bounded(self.page.content(), "reading the document")
        except PlaywrightError:
            return ""

    async def count(self, target: Target) -> int:
        return await self._bounded(count(self.page, target), "counting elements")

    async def texts(self, target: Target) -> list[str]:
        """The text content of every element the target names."""
        try:
            return await self._bounded(locator_of(self.page, target).all_text_contents(), "reading texts")
        except PlaywrightError:
            return []

    async def evaluate_on(self, target: Target, expression: str, arg: Any = None, every: bool = False,
                          timeout_ms: float = 1000) -> Any:
        """A function run on the first element the target names (on all of them with `every`); None if none."""
        return await self._bounded(evaluate_on(self.page, target, expression, arg, every, timeout_ms),
                                   "reading an element")

    async def is_visible(self, target: Target) -> bool:
        try:
            return await self._bounded(locator_of(self.page, target).first.is_visible(), "checking an element")
        except PlaywrightError:
            return False

    async def wait_for(self, target: Target, state: State = "visible", timeout_ms: float = 5000) -> bool:
        """Whether the element reaches `state` within `timeout_ms` (False when it does not)."""
        return await wait_for(self.page, target, state, timeout_ms)

    async def wait_for_load(self, state: LoadState = "load", timeout_ms: float = 5000) -> bool:
        """Whether the page reached the load state in time (False also when it closed meanwhile)."""
        try:
            await self.page.wait_for_load_state(state, timeout=timeout_ms)
        except PlaywrightError:
            return False
        return True

    async def wait_for_url(self, pattern: str | Callable[[str], bool], timeout_ms: float = 5000) -> bool:
        """Whether the URL matches (a glob, a whole URL, a part of one, or a predicate) within `timeout_ms`."""
        matches = pattern if callable(pattern) else (lambda url: url_matches(url, pattern))
        deadline = time.monotonic() + timeout_ms / 1000
        while not matches(self.page.url):
            if time.monotonic() >= deadline or self.page.is_closed():
                return False
            await asyncio.sleep(_POLL_S)
        return True

    async def wait_for_text(self, text: str, shown: bool = True, timeout_ms: float = 5000) -> bool:
        """Playwright's own text matching (case-insensitive, whitespace-normalised substring) on visible elements."""
        locator = self.page.get_by_text(text).filter(visible=True).first
        try:
            await locator.wait_for(state="visible" if shown else "hidden", timeout=timeout_ms)
        except PlaywrightError:
            return False
        return True

    async def settle_frames(self) -> None:
        """Let the page draw what a step changed: two animation frames (nothing when it is navigating)."""
        try:
            await self._bounded(self.page.evaluate(_TWO_FRAMES), "waiting for the page to draw")
        except (PlaywrightError, RaceError):
            pass

    async def screenshot(self, path: Path | None = None, full_page: bool = False, target: Target | None = None,
                         timeout_ms: float = 5000) -> bytes:
        """A PNG of the viewport (the whole page, or one element); written to `path` too when given."""
        try:
            if target is not None:
                data = await locator_of(self.page, target).first.screenshot(timeout=timeout_ms)
            else:
                data = await self.page.screenshot(full_page=full_page, timeout=timeout_ms)
        except PlaywrightError as error:
            if self.page.is_closed():
                raise context_closed() from error
            raise RaceError("not_actionable", f"No screenshot of {self.page.url}: {first_line(error)}") from error
        if path is not None:
            Path(path).write_bytes(data)
        return data

    async def watch(self, publish: Publish) -> PageTraffic:
        """Follow the page's console messages, uncaught errors, navigations, responses and failed requests as
        engine events (ConsoleEvent, PageErrorEvent, NavigationEvent, NetworkEvent) until `detach()`."""
        traffic = PageTraffic(self.page, publish)
        await traffic.ready()
        return traffic

    async def add_init_script(self, source: str) -> None:
        """A script every new document of the page runs first (a probe of the studio's own)."""
        await self._bounded(self.page.add_init_script(source), "installing a page script")

    async def devtools(self, method: str, params: dict[str, Any] | None = None, seconds: float | None = None) -> Any:
        """One Chrome DevTools command on this page's own session (bounded); RaceError when the page is gone, and
        bad_input when the browser refuses the command (another browser than Chromium, an object of a document
        that went away)."""
        if self._cdp is None:
            if self._cdp_opening is None:
                self._cdp_opening = asyncio.ensure_future(self.page.context.new_cdp_session(self.page))
            try:
                self._cdp = await asyncio.shield(self._cdp_opening)
            except PlaywrightError as error:
                self._cdp_opening = None
                raise context_closed() from error
        try:
            return await self._bounded(self._cdp.send(method, params), f"asking the browser ({method})", seconds)
        except PlaywrightError as error:
            raise RaceError("bad_input", f"The browser did not answer {method}: {first_line(error)}") from error

    async def status_of(self, url: str, timeout_ms: float = 10_000, max_redirects: int = 5) -> int | None:
        """The HTTP status a GET of `url` answers (redirects followed), sent with the page's cookies by the browser
        context, not the page: the page stays where it is. None when nothing answers."""
        try:
            response = await self.page.context.request.get(url, timeout=timeout_ms, max_redirects=max_redirects)
            status = response.status
            await response.dispose()
        except PlaywrightError:
            return None
        return status

    async def save_state(self, path: Path) -> Path:
        """Write the context's cookies and storage (Playwright's storageState) to `path`."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        await self._bounded(self.page.context.storage_state(path=str(path)), "saving the signed-in state")
        return path

    async def cookies(self) -> list[dict[str, Any]]:
        return [dict(cookie) for cookie in await self._bounded(self.page.context.cookies(), "reading cookies")]

    async def start_trace(self) -> None:
        """Record a Playwright trace (screenshots and DOM snapshots) of the page's context from now on."""
        await self.page.context.tracing.start(screenshots=True, snapshots=True)

    async def stop_trace(self, path: Path | None) -> None:
        """Stop the trace, writing it to `path` (None: discard it)."""
        try:
            await self.page.context.tracing.stop(path=str(path) if path is not None else None)
        except PlaywrightError as error:
            if not self.page.is_closed():
                raise RaceError("not_actionable", f"The trace could not be written: {first_line(error)}") from error
