"""A sandbox for trying what a page does: throwaway browser contexts beside the tester's page, on the live session's
browser, so the tester's page is never touched and nothing reaches the app's server data.

Only the cookies come along (a signed-in app stays signed in); the page's own storage starts empty, as in a fresh
browser (the exported tests start so too). Requests that would write — POST, PUT, PATCH, DELETE — are stopped
before they leave the browser, and listed, so a probe can say that a feature needs the server; only when the tester
allowed the preflight to submit forms (`allow_writes`) do they go through, and they are listed then too (the
browser's WriteGuard). Every step is done through the driver, so the sandbox clicks through the same race preflight
as every other agent, and is followed by a settle.
"""

from __future__ import annotations

import asyncio
import logging
import time
from types import TracebackType
from typing import Any
from urllib.parse import urljoin

from studio.browser.contexts import ContextOptions, WriteGuard
from studio.models.testcase import CaseStep
from studio.preflight.chance import CHANCE_JS
from studio.race.driver import PageDriver
from studio.race.recorder import RequestWatch
from studio.runtime.live import LivePage

log = logging.getLogger(__name__)

STEP_TIMEOUT_MS = 3000
NAVIGATION_TIMEOUT_MS = 15_000
DISCARD_TIMEOUT_S = 10.0


class Sandbox:
    """`async with Sandbox(live) as box: driver = await box.fresh(url)` — a new context for every call."""

    def __init__(self, live: LivePage, allow_writes: bool = False) -> None:
        self.live = live
        self.guard = WriteGuard(allow=allow_writes)  # one guard for every context: its lists are the sandbox's
        self._cookies: list[dict[str, Any]] = []
        self._viewport = live.session.options.viewport
        self._driver: PageDriver | None = None
        self._requests: RequestWatch | None = None  # the current page's requests, from its first navigation on
        self._entered = False

    @property
    def allow_writes(self) -> bool:
        return self.guard.allow

    @property
    def blocked(self) -> list[str]:
        """The writes stopped, "POST http://…"."""
        return self.guard.blocked

    @property
    def written(self) -> list[str]:
        """The writes let through (allow_writes), "POST http://…"."""
        return self.guard.written

    async def __aenter__(self) -> Sandbox:
        self._cookies = await self.live.driver.cookies()
        self._entered = True
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self._close()
        self._entered = False

    async def fresh(self, url: str) -> PageDriver:
        """A page in a new context (cookies only), opened at `url` and settled."""
        await self._close()
        if not self._entered:
            raise RuntimeError("The sandbox is used outside its `async with`.")
        options = ContextOptions(viewport=self._viewport, cookies=self._cookies, default_timeout_ms=STEP_TIMEOUT_MS,
                                 navigation_timeout_ms=NAVIGATION_TIMEOUT_MS, writes=self.guard,
                                 init_scripts=(CHANCE_JS,))
        driver = self._driver = await self.live.open_beside(options)
        self._requests = driver.requests().__enter__()
        await driver.navigate(url, wait_until="load", timeout_ms=NAVIGATION_TIMEOUT_MS)
        await self.settle(driver)
        return driver

    async def settle(self, driver: PageDriver, seconds: float = 2.0) -> None:
        """Let the page finish what a step started: the requests it sent (briefly), then two frames."""
        deadline = time.monotonic() + seconds
        if self._requests is not None:
            await self._requests.quiet(0.0, seconds)
        # A step that loaded another page (a GET form sent with Enter): its document first (still loading: the
        # next reading waits for it).
        await driver.wait_for_load("load", timeout_ms=max(0.1, deadline - time.monotonic()) * 1000)
        await driver.settle_frames()  # nothing while the page is navigating; the next reading waits for it

    async def discard(self) -> None:
        """Close the current page's context now, as the tester's page is replaced when stuck (replace_stuck_page): a
        page stuck in a script's loop keeps a renderer busy until it is closed. Bounded, so the preflight goes on
        even then: a context the browser did not close in time is logged and ends with the browser session."""
        try:
            await asyncio.wait_for(self._close(), DISCARD_TIMEOUT_S)
        except TimeoutError:
            log.warning("closing a stuck sandbox page took over %g s", DISCARD_TIMEOUT_S)

    async def _close(self) -> None:
        requests, self._requests = self._requests, None
        if requests is not None:
            requests.__exit__(None, None, None)
        driver, self._driver = self._driver, None
        if driver is not None:
            await driver.close()  # the browser may have gone away meanwhile: nothing left to close then


async def perform(box: Sandbox, driver: PageDriver, step: CaseStep, base_url: str) -> None:
    """Do one case step on the page as an exported test would, through the driver (the race preflight waits for
    what stands in the way, as Playwright's actionability checks do); RaceError when it cannot be done."""
    action, data = step.action, step.data or ""
    target = step.locator
    if action == "navigate":
        await driver.navigate(urljoin(base_url, step.url or "/"), wait_until="load", timeout_ms=NAVIGATION_TIMEOUT_MS)
    elif action == "reload":
        await driver.reload(wait_until="load", timeout_ms=NAVIGATION_TIMEOUT_MS)
    elif action == "back":
        await driver.go_back()
    elif action == "press" and target is None:
        await driver.press(data)
    elif target is None:
        raise ValueError(f"The step '{action} {step.target}' has no locator.")
    elif action in ("click", "dblclick", "hover", "check"):
        await driver.must(action, target, timeout_ms=STEP_TIMEOUT_MS)
    elif action in ("fill", "select"):
        await driver.must(action, target, value=data, timeout_ms=STEP_TIMEOUT_MS)
    elif action == "press":
        await driver.must("press", target, key=data, timeout_ms=STEP_TIMEOUT_MS)
    elif action == "drag" and step.drop is not None:
        drop = await driver.ref_of(step.drop, timeout_ms=STEP_TIMEOUT_MS, state="visible")
        await driver.must("drag", target, value=drop, timeout_ms=STEP_TIMEOUT_MS)
    else:
        raise ValueError(f"A sandbox cannot do '{action}' steps.")
    await box.settle(driver)
