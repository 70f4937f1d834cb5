"""What the game agent sees: the page probe (resources/game/page_probe.js, installed before the game's scripts) and a
camera on the play surface (Chrome DevTools' captureScreenshot, clipped and scaled, so a frame takes tens of ms).

Everything here reads; nothing acts. Every call is bounded: a page stuck in a loop costs seconds, never the run.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import struct
import time
from functools import lru_cache
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from studio.browser.calls import bounded
from studio.browser.errors import BrowserError, PageUnresponsive, first_line
from studio.browser.session import BrowserSession
from studio.game.frames import Frame, FrameError, decode_png
from studio.models.game import Rect
from studio.preflight.app_kind import keyboard_listeners
from studio.resources import resource_path

log = logging.getLogger(__name__)

PROBE = "window.__studioGameProbe"
CALL_TIMEOUT_S = 5.0
FRAME_SIDE = 320  # the longer side of an analysis frame, in pixels


@lru_cache(maxsize=1)
def probe_source() -> str:
    return resource_path("game", "page_probe.js").read_text(encoding="utf-8")


class EyesError(BrowserError):
    """The page could not be read (it went away, or stopped answering)."""


class PageProbe:
    """Questions to the in-page probe; installed once per page, before its scripts run on every navigation."""

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        self._installed: set[int] = set()

    @property
    def page(self) -> Page:
        return self.session.page

    async def install(self) -> None:
        """Run the probe before the page's own scripts from the next navigation on, and in the page as it is now."""
        page = self.page
        if id(page) not in self._installed:
            await page.add_init_script(probe_source())
            self._installed.add(id(page))
        await self._evaluate(probe_source(), "installing the game probe")

    async def call(self, function: str, *args: Any) -> Any:
        """`function(*args)` of the probe; it is put back when a navigation went around the init script."""
        rendered = ", ".join(json.dumps(arg) for arg in args)
        expression = f"({PROBE} ? {PROBE}.{function}({rendered}) : null)"
        value = await self._evaluate(expression, f"reading the game ({function})")
        if value is None:
            await self._evaluate(probe_source(), "installing the game probe")
            value = await self._evaluate(expression, f"reading the game ({function})")
        return value

    async def keyboard_listeners(self) -> list[str]:
        """Where the page listens to the keyboard (window, document, body, canvas), read over CDP."""
        return await keyboard_listeners(self.page)

    async def _evaluate(self, expression: str, what: str) -> Any:
        page = self.page
        try:
            return await bounded(page, page.evaluate(expression), what, CALL_TIMEOUT_S)
        except PlaywrightError as error:
            raise EyesError(f"The page could not be read while {what}: {first_line(error)}") from error


class Camera:
    """Pictures of the page: analysis frames of a region (small, fast) and evidence screenshots (full viewport)."""

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        self._cdp: CDPSession | None = None
        self._cdp_page: Page | None = None
        self.latencies_ms: list[float] = []

    async def frame(self, box: Rect) -> Frame:
        """The region `box` (CSS px of the page) scaled so its longer side is about FRAME_SIDE pixels."""
        scale = min(1.0, FRAME_SIDE / max(box.width, box.height, 1.0))
        png = await self._capture({"x": box.x, "y": box.y, "width": max(box.width, 1.0),
                                   "height": max(box.height, 1.0), "scale": scale})
        try:
            return Frame(decode_png(png), time.monotonic())
        except (FrameError, ValueError) as error:
            raise EyesError(f"A frame of the page could not be read ({error}).") from error

    async def screenshot(self) -> tuple[bytes, int, int]:
        """A PNG of the visible page, its width and height."""
        started = time.perf_counter()
        png = await self._capture(None)
        self.latencies_ms.append((time.perf_counter() - started) * 1000)
        width, height = struct.unpack(">II", png[16:24])
        return png, width, height

    async def _capture(self, clip: dict | None) -> bytes:
        params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
        if clip is not None:
            params["clip"] = clip
        cdp = await self._session()
        try:
            reply = await asyncio.wait_for(cdp.send("Page.captureScreenshot", params), CALL_TIMEOUT_S)
        except TimeoutError as error:
            raise PageUnresponsive(self.session.page.url, "taking a picture of the game", CALL_TIMEOUT_S) from error
        except PlaywrightError as error:
            self._cdp = None
            raise EyesError(f"The page could not be pictured: {first_line(error)}") from error
        return base64.b64decode(reply["data"])

    async def _session(self) -> CDPSession:
        page = self.session.page
        if self._cdp is None or self._cdp_page is not page:
            try:
                self._cdp = await page.context.new_cdp_session(page)
            except PlaywrightError as error:
                raise EyesError(f"The page could not be pictured: {first_line(error)}") from error
            self._cdp_page = page
        return self._cdp
