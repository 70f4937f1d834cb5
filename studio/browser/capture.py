"""Wires Playwright page and context signals to typed engine events (console, page errors, network, navigation).

A page that logs and fetches all day must not make anything grow: console arguments are released as soon as the
message is read, and requests are followed on a DevTools session of each page rather than through Playwright's request
events, which keep an object per request in the driver and here (10,000 of each before the driver lets any go) and
made Python's collections pause the window for up to 0.7 s at 50 requests a second."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any

from playwright.async_api import BrowserContext, ConsoleMessage, Frame, Page
from playwright.async_api import Error as PlaywrightError

from studio.models.events import (
    ConsoleEvent,
    EngineEvent,
    NavigationEvent,
    NetworkEvent,
    PageErrorEvent,
)

log = logging.getLogger(__name__)

Publish = Callable[[EngineEvent], None]

# Requests that never end (event streams, long polls) are forgotten past this many open ones.
OPEN_REQUESTS_KEPT = 2_000


def _recordable(url: str) -> bool:
    # data: and blob: URLs are page-internal; recording them only adds noise (and can be megabytes long).
    return not url.startswith(("data:", "blob:"))


class _Tasks:
    """Strong references to the small tasks a capture starts (the loop keeps only weak ones)."""

    def __init__(self) -> None:
        self._running: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._running.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.debug("capture task failed: %s", task.exception())

    async def wait(self) -> None:
        if self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)


class PageCapture:
    """Publishes what one page does: console messages, uncaught errors and main-frame navigations."""

    def __init__(self, page: Page, publish: Publish) -> None:
        self._page = page
        self._publish = publish
        self._tasks = _Tasks()
        page.on("console", self._on_console)
        page.on("pageerror", self._on_page_error)
        page.on("framenavigated", self._on_frame_navigated)

    def detach(self) -> None:
        self._page.remove_listener("console", self._on_console)
        self._page.remove_listener("pageerror", self._on_page_error)
        self._page.remove_listener("framenavigated", self._on_frame_navigated)

    def _on_console(self, message: ConsoleMessage) -> None:
        location = message.location or {}
        self._publish(
            ConsoleEvent(
                level=message.type,
                text=message.text,
                url=location.get("url") or None,
                line=location.get("lineNumber"),
            )
        )
        # Each argument is a handle on a value the page, the driver and this process keep until it is disposed.
        for handle in message.args:
            self._tasks.spawn(handle.dispose())

    def _on_page_error(self, error: Exception) -> None:
        message = getattr(error, "message", None) or str(error)
        self._publish(PageErrorEvent(message=message, url=self._page.url))

    def _on_frame_navigated(self, frame: Frame) -> None:
        if frame is self._page.main_frame and _recordable(frame.url):
            self._publish(NavigationEvent(url=frame.url))


class ContextCapture:
    """Publishes every response (with its status) and every failed request of a browser context's pages.

    Each page gets a DevTools session with the Network domain on (no response bodies kept); `ready()` waits until
    the pages known so far are followed."""

    def __init__(self, context: BrowserContext, publish: Publish) -> None:
        self._context = context
        self._publish = publish
        self._tasks = _Tasks()
        # (session, request id) -> (method, url, resource type, start in s), from its start to its end
        self._open: OrderedDict[tuple[int, str], tuple[str, str, str, float]] = OrderedDict()
        context.on("page", self._follow)
        for page in context.pages:
            self._follow(page)

    async def ready(self) -> None:
        await self._tasks.wait()

    def _follow(self, page: Page) -> None:
        self._tasks.spawn(self._attach(page))

    async def _attach(self, page: Page) -> None:
        try:
            session = await self._context.new_cdp_session(page)
            key = id(session)
            session.on("Network.requestWillBeSent", lambda event: self._on_request(key, event))
            session.on("Network.responseReceived", lambda event: self._on_response(key, event))
            session.on("Network.loadingFinished", lambda event: self._forget(key, event))
            session.on("Network.loadingFailed", lambda event: self._on_failed(key, event))
            await session.send("Network.enable", {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0})
        except PlaywrightError as error:  # the page closed first: nothing to follow
            log.debug("not following the requests of a closed page: %s", error)

    def _on_request(self, key: int, event: dict[str, Any]) -> None:
        request = event["request"]
        redirected = event.get("redirectResponse")
        if redirected is not None:  # the previous hop ended with a redirect status
            self._on_response(key, {**event, "response": redirected})
        self._open[(key, event["requestId"])] = (request["method"], request["url"],
                                                 str(event.get("type", "other")).lower(), event["timestamp"])
        while len(self._open) > OPEN_REQUESTS_KEPT:
            self._open.popitem(last=False)

    def _on_response(self, key: int, event: dict[str, Any]) -> None:
        opened = self._open.get((key, event["requestId"]))
        response = event["response"]
        if opened is None or not _recordable(response["url"]):
            return
        method, _, kind, _ = opened
        timing = response.get("timing") or {}
        started = timing.get("receiveHeadersStart", timing.get("receiveHeadersEnd", -1))
        self._publish(NetworkEvent(method=method, url=response["url"], resource_type=kind,
                                   status=int(response["status"]),
                                   duration_ms=round(started, 1) if started is not None and started >= 0 else None))

    def _forget(self, key: int, event: dict[str, Any]) -> None:
        self._open.pop((key, event["requestId"]), None)

    def _on_failed(self, key: int, event: dict[str, Any]) -> None:
        opened = self._open.pop((key, event["requestId"]), None)
        if opened is None or not _recordable(opened[1]):
            return
        method, url, kind, started = opened
        self._publish(NetworkEvent(method=method, url=url, resource_type=kind,
                                   failure=event.get("errorText") or "failed",
                                   duration_ms=round((event["timestamp"] - started) * 1000, 1)))

