"""A sandbox for trying what a page does: throwaway browser contexts on the session's browser, so the tester's page
is never touched and nothing reaches the app's server data.

Only the cookies come along (a signed-in app stays signed in); the page's own storage starts empty, as in a fresh
browser (the exported tests start so too). Requests that would write — POST, PUT, PATCH, DELETE — are stopped
before they leave the browser, and listed, so a probe can say that a feature needs the server; only when the tester
allowed the preflight to submit forms (`allow_writes`) do they go through, and they are listed then too.
"""

from __future__ import annotations

import asyncio
import time
from types import TracebackType
from urllib.parse import urljoin

from playwright.async_api import Browser, BrowserContext, Page, Route
from playwright.async_api import Error as PlaywrightError

from studio.browser.session import BrowserSession
from studio.models.testcase import CaseStep
from studio.race.locators import resolve
from studio.race.page import RacePage

WRITES = {"POST", "PUT", "PATCH", "DELETE"}
STEP_TIMEOUT_MS = 3000


class Sandbox:
    """`async with Sandbox(session) as box: race = await box.fresh(url)` — a new context for every call."""

    def __init__(self, session: BrowserSession, allow_writes: bool = False) -> None:
        self.session = session
        self.allow_writes = allow_writes
        self.blocked: list[str] = []  # the writes stopped, "POST http://…"
        self.written: list[str] = []  # the writes let through (allow_writes), "POST http://…"
        self._browser: Browser | None = None
        self._cookies: list = []
        self._viewport = {"width": 1280, "height": 720}
        self._context: BrowserContext | None = None
        self.inflight = 0  # requests of the current page not finished yet

    async def __aenter__(self) -> Sandbox:
        context = self.session.context
        self._browser = context.browser
        self._cookies = await context.cookies()
        width, height = self.session.options.viewport
        self._viewport = {"width": width, "height": height}
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self._close()

    async def fresh(self, url: str) -> RacePage:
        """A page in a new context (cookies only), opened at `url` and settled."""
        await self._close()
        if self._browser is None:
            raise RuntimeError("The sandbox is used outside its `async with`.")
        self._context = await self._browser.new_context(viewport=self._viewport)  # type: ignore[arg-type]
        self._context.set_default_timeout(STEP_TIMEOUT_MS)
        if self._cookies:
            await self._context.add_cookies(self._cookies)
        await self._context.route("**/*", self._guard)
        page = await self._context.new_page()
        self.inflight = 0
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)
        await page.goto(url, wait_until="load", timeout=15_000)
        await self.settle(page)
        return RacePage(page)

    def _started(self, _request: object) -> None:
        self.inflight += 1

    def _ended(self, _request: object) -> None:
        self.inflight = max(0, self.inflight - 1)

    async def settle(self, page: Page, seconds: float = 2.0) -> None:
        """Let the page finish what a step started: the requests it sent (briefly), then two frames."""
        deadline = time.monotonic() + seconds
        while self.inflight and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        try:  # a step that loaded another page (a GET form sent with Enter): its document first
            await page.wait_for_load_state("load", timeout=max(0.1, deadline - time.monotonic()) * 1000)
        except PlaywrightError:
            pass  # still loading: the next reading waits for it
        try:
            await page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        except PlaywrightError:
            pass  # the page is navigating; the next reading waits for it

    async def _guard(self, route: Route) -> None:
        request = route.request
        if request.method in WRITES and self.allow_writes:
            self.written.append(f"{request.method} {request.url}")
            await route.continue_()
        elif request.method in WRITES:
            self.blocked.append(f"{request.method} {request.url}")
            await route.abort("blockedbyclient")
        else:
            await route.continue_()

    async def _close(self) -> None:
        if self._context is not None:
            try:
                await self._context.close()
            except PlaywrightError:
                pass  # the browser went away meanwhile; nothing left to close
            self._context = None


async def perform(box: Sandbox, race: RacePage, step: CaseStep, base_url: str) -> None:
    """Do one case step on the page, as an exported test would (Playwright's own actionability waits)."""
    page = race.page
    target = resolve(page, step.locator.steps) if step.locator is not None else None
    action, data = step.action, step.data or ""
    if action == "navigate":
        await page.goto(urljoin(base_url, step.url or "/"), wait_until="load", timeout=15_000)
    elif action == "reload":
        await page.reload(wait_until="load", timeout=15_000)
    elif action == "back":
        await page.go_back(wait_until="load", timeout=15_000)
    elif action == "press" and target is None:
        await page.keyboard.press(data)
    elif target is None:
        raise ValueError(f"The step '{action} {step.target}' has no locator.")
    elif action == "click":
        await target.click()
    elif action == "dblclick":
        await target.dblclick()
    elif action == "hover":
        await target.hover()
    elif action == "check":
        await target.check()
    elif action == "fill":
        await target.fill(data)
    elif action == "press":
        await target.press(data)
    elif action == "select":
        await target.select_option(label=data)
    else:
        raise ValueError(f"A sandbox cannot do '{action}' steps.")
    await box.settle(page)
