"""What the game agent sees: the page probe (resources/game/page_probe.js, installed before the game's scripts) and a
camera on the play surface (Chrome DevTools' captureScreenshot of the viewport as it is, the play surface cut out and
shrunk here, so a frame takes tens of ms and the live view's screencast of the same page never sees it: crop.py).

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

from studio.browser.errors import BrowserError, PageUnresponsive
from studio.game.crop import ViewportPlace, analysis_frame
from studio.game.frames import Frame, FrameError, decode_png
from studio.models.game import Rect
from studio.preflight.app_kind import keyboard_listeners
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.resources import resource_path
from studio.runtime.live import LivePage

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

    def __init__(self, live: LivePage) -> None:
        self.live = live
        self._installed: set[int] = set()

    @property
    def driver(self) -> PageDriver:
        try:
            return self.live.driver
        except RaceError as error:
            raise EyesError(f"The page could not be read: {error.message}") from error

    async def install(self) -> None:
        """Run the probe before the page's own scripts from the next navigation on, and in the page as it is now."""
        driver = self.driver
        if id(driver) not in self._installed:
            try:
                await driver.add_init_script(probe_source())
            except RaceError as error:
                raise EyesError(f"The page could not be read while installing the game probe: {error.message}"
                                ) from error
            self._installed.add(id(driver))
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
        return await keyboard_listeners(self.driver)

    async def _evaluate(self, expression: str, what: str) -> Any:
        driver = self.driver
        try:
            return await driver.evaluate(expression, during=what, seconds=CALL_TIMEOUT_S)
        except RaceError as error:
            if error.kind == "timeout":
                raise PageUnresponsive(driver.url, what, CALL_TIMEOUT_S) from error
            raise EyesError(f"The page could not be read while {what}: {error.message}") from error


class Camera:
    """Pictures of the page: analysis frames of a region (small, fast) and evidence screenshots (full viewport)."""

    def __init__(self, live: LivePage) -> None:
        self.live = live
        self.latencies_ms: list[float] = []

    async def frame(self, box: Rect) -> Frame:
        """The region `box` (CSS px of the page) scaled so its longer side is about FRAME_SIDE pixels: cut out of a
        picture of the whole viewport where the page is scrolled to now (black where the box is out of view)."""
        png, place = await self._viewport()
        try:
            rgb = analysis_frame(decode_png(png), box, place, FRAME_SIDE)
        except (FrameError, ValueError) as error:
            raise EyesError(f"A frame of the page could not be read ({error}).") from error
        return Frame(rgb, time.monotonic())

    async def screenshot(self) -> tuple[bytes, int, int]:
        """A PNG of the visible page, its width and height."""
        started = time.perf_counter()
        png = await self._capture()
        self.latencies_ms.append((time.perf_counter() - started) * 1000)
        width, height = struct.unpack(">II", png[16:24])
        return png, width, height

    async def _viewport(self) -> tuple[bytes, ViewportPlace]:
        """A picture of the viewport and where it is in the page, asked for together (one round trip's time)."""
        picture, metrics = await asyncio.gather(
            self._capture(), self._devtools("Page.getLayoutMetrics", {}), return_exceptions=True)
        for outcome in (picture, metrics):
            if isinstance(outcome, BaseException):
                raise outcome
        assert isinstance(picture, bytes) and isinstance(metrics, dict)
        return picture, ViewportPlace.of(metrics)

    async def _capture(self) -> bytes:
        # Never a `clip` (nor `captureBeyondViewport`): Chromium would re-emulate the page's view for the capture,
        # and the live view's screencast of the page would show it zoomed into the clip (crop.py).
        reply = await self._devtools("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        return base64.b64decode(reply["data"])

    async def _devtools(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        try:
            driver = self.live.driver
            return await driver.devtools(method, params, seconds=CALL_TIMEOUT_S)
        except RaceError as error:
            if error.kind == "timeout":
                raise PageUnresponsive(self.live.session.url, "taking a picture of the game",
                                       CALL_TIMEOUT_S) from error
            raise EyesError(f"The page could not be pictured: {error.message}") from error
