"""Streams the active page as JPEG frames for the live view, following the session from page to page."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, ScreencastFrame

from studio.browser.session import BrowserSession
from studio.models.browser import LiveFrame

log = logging.getLogger(__name__)

FrameSink = Callable[[LiveFrame], None]
SETTLE_S = 0.5  # after a burst of frames goes quiet this long, one fresh picture makes sure the view ends current


class LiveScreencast:
    """Delivers every frame Chromium produces to `sink`; the sink keeps only the newest (frames are never queued).

    When a popup becomes the active page the cast moves to it, and back when it closes.
    """

    def __init__(
        self,
        session: BrowserSession,
        sink: FrameSink,
        max_size: tuple[int, int] | None = None,
        quality: int = 75,
        max_fps: float | None = None,
    ) -> None:
        self._session = session
        # Chromium sends the next frame only once this one is acknowledged: holding the acknowledgement paces the
        # cast at its source (each frame costs the browser a capture and a JPEG; 60 a second is most of a core).
        self._min_gap_s = 1.0 / max_fps if max_fps else 0.0
        self._next_frame_at = 0.0
        self._sink = sink
        self._max_size = max_size or session.options.viewport
        self._quality = quality
        self._page: Page | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._switch_task: asyncio.Task[None] | None = None
        self.frames_delivered = 0
        self.frames_out_of_order = 0
        self._newest_timestamp = float("-inf")
        self._settle: asyncio.TimerHandle | None = None
        self._refresh_task: asyncio.Task[None] | None = None
        self._frames_since_refresh = 0
        self.refreshes = 0

    async def start(self) -> None:
        self._unsubscribe = self._session.on_active_page(self._on_active_page)
        await self._attach(self._session.page)

    async def resize(self, max_size: tuple[int, int]) -> None:
        """Ask for frames that fit `max_size` from now on (Chromium scales them, on its own cores): a view painting
        the page smaller than its viewport then decodes only the pixels it paints."""
        if max_size == self._max_size:
            return
        self._max_size = max_size
        page = self._page
        if page is None or page.is_closed():
            return
        await self._detach()
        await self._attach(page)

    async def stop(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        if self._switch_task:
            self._switch_task.cancel()
        if self._settle is not None:
            self._settle.cancel()
        await self._detach()

    def _on_active_page(self, page: Page) -> None:
        # Keep a strong reference: a task only referenced by the loop may be garbage-collected mid-flight.
        self._switch_task = asyncio.get_running_loop().create_task(self._switch(page))

    async def _switch(self, page: Page) -> None:
        await self._detach()
        await self._attach(page)

    async def _attach(self, page: Page) -> None:
        self._newest_timestamp = float("-inf")  # a new page's clock starts afresh
        width, height = self._max_size
        try:
            await page.screencast.start(
                on_frame=self._on_frame, quality=self._quality, size={"width": width, "height": height}
            )
        except PlaywrightError as error:
            log.info("screencast could not start on %s: %s", page.url, error)
            return
        self._page = page

    async def _detach(self) -> None:
        page, self._page = self._page, None
        if page is None or page.is_closed():
            return
        try:
            await page.screencast.stop()
        except PlaywrightError as error:
            log.debug("screencast stop: %s", error)

    def _on_frame(self, frame: ScreencastFrame) -> Awaitable[None] | None:
        # Frames reach us out of capture order (measured: about one in eight during a page load, with plain
        # asyncio too). An older frame arriving last would leave the view showing a page state that is gone,
        # e.g. a loading scrim already removed: never go back in time.
        timestamp = frame["timestamp"]
        if timestamp < self._newest_timestamp:
            self.frames_out_of_order += 1
            return None
        self._newest_timestamp = timestamp
        self.frames_delivered += 1
        self._sink(
            LiveFrame(
                jpeg=frame["data"],
                viewport_width=frame["viewportWidth"],
                viewport_height=frame["viewportHeight"],
                timestamp=frame["timestamp"],
            )
        )
        self._frames_since_refresh += 1
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # frames handed over outside a loop (tests of the ordering): nothing to settle or pace
            return None
        if self._frames_since_refresh >= 2:  # activity (the refresh's own picture can cause one frame: no loop)
            if self._settle is not None:
                self._settle.cancel()
            self._settle = loop.call_later(SETTLE_S, self._start_refresh)
        if not self._min_gap_s:
            return None
        now = loop.time()
        wait = self._next_frame_at - now
        self._next_frame_at = max(now, self._next_frame_at) + self._min_gap_s
        return asyncio.sleep(wait) if wait > 0 else None

    def _start_refresh(self) -> None:
        self._settle = None
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        """Chromium sends a frame only when the page changes, and one it could not send while the previous was
        unacknowledged (a busy machine) is never sent: the page's last change would be missing from the view. So
        when frames go quiet, one screenshot of the page as it is now ends the burst."""
        page = self._page
        if page is None or page.is_closed():
            return
        self._frames_since_refresh = 0
        try:
            viewport = page.viewport_size or {"width": self._max_size[0], "height": self._max_size[1]}
            jpeg = await page.screenshot(type="jpeg", quality=self._quality, timeout=5000)
        except PlaywrightError as error:
            log.debug("live view refresh: %s", error)
            return
        if page is not self._page:
            return
        self.refreshes += 1
        # Not a screencast frame: it does not move the frame clock, so no real frame after it is taken for a stale one.
        self._sink(LiveFrame(jpeg=jpeg, viewport_width=viewport["width"],
                             viewport_height=viewport["height"], timestamp=self._newest_timestamp))
