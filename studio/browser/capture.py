"""Wires Playwright page and context signals to typed engine events (console, page errors, network, navigation).

A page that logs and fetches all day must not make anything grow or hold the window: console messages and requests
are followed on a DevTools session of each page rather than through Playwright's events. Playwright keeps an object
per request in the driver and here (10,000 of each before the driver lets any go), which made Python's collections
pause the window for up to 0.7 s at 50 requests a second; and it hands each console argument over as a handle that
costs a round trip to release (a third of the window's time on a page logging 80 messages a second). On the DevTools
session a message's arguments arrive as plain values and descriptions, released in batches."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any

from playwright.async_api import BrowserContext, CDPSession, Frame, Page
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
# The page keeps each console message's arguments alive for the DevTools session until they are released.
CONSOLE_RELEASE_EVERY = 200


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
    """Publishes what one page does: uncaught errors and main-frame navigations (console messages: ContextCapture)."""

    def __init__(self, page: Page, publish: Publish) -> None:
        self._page = page
        self._publish = publish
        page.on("pageerror", self._on_page_error)
        page.on("framenavigated", self._on_frame_navigated)

    def detach(self) -> None:
        self._page.remove_listener("pageerror", self._on_page_error)
        self._page.remove_listener("framenavigated", self._on_frame_navigated)

    def _on_page_error(self, error: Exception) -> None:
        message = getattr(error, "message", None) or str(error)
        self._publish(PageErrorEvent(message=message, url=self._page.url))

    def _on_frame_navigated(self, frame: Frame) -> None:
        if frame is self._page.main_frame and _recordable(frame.url):
            self._publish(NavigationEvent(url=frame.url))


class ContextCapture:
    """Publishes every console message, every response (with its status) and every failed request of a browser
    context's pages.

    Each page gets a DevTools session with the Runtime and Network domains on (no response bodies kept); `ready()`
    waits until the pages known so far are followed."""

    def __init__(self, context: BrowserContext, publish: Publish, only: Page | None = None) -> None:
        self._context = context
        self._publish = publish
        self._tasks = _Tasks()
        # (session, request id) -> (method, url, resource type, start in s), from its start to its end
        self._open: OrderedDict[tuple[int, str], tuple[str, str, str, float]] = OrderedDict()
        self._console_held: dict[int, int] = {}  # session -> messages whose arguments are not released yet
        self._sessions: list[CDPSession] = []
        self._detached = False
        if only is not None:  # one page's traffic (PageTraffic), not the context's
            self._follow(only)
            return
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
            if self._detached:
                await session.detach()
                return
            self._sessions.append(session)
            key = id(session)
            session.on("Network.requestWillBeSent", lambda event: self._on_request(key, event))
            session.on("Network.responseReceived", lambda event: self._on_response(key, event))
            session.on("Network.loadingFinished", lambda event: self._forget(key, event))
            session.on("Network.loadingFailed", lambda event: self._on_failed(key, event))
            session.on("Runtime.consoleAPICalled", lambda event: self._on_console(session, key, event))
            session.on("Log.entryAdded", lambda event: self._on_log(event.get("entry") or {}))
            await session.send("Network.enable", {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0})
            await session.send("Runtime.enable")
            await session.send("Log.enable")
        except PlaywrightError as error:  # the page closed first: nothing to follow
            log.debug("not following the requests of a closed page: %s", error)

    async def detach(self) -> None:
        """Stop following (the DevTools sessions are let go; the pages stay as they are)."""
        self._detached = True
        await self._tasks.wait()
        sessions, self._sessions = self._sessions, []
        for session in sessions:
            try:
                await session.detach()
            except PlaywrightError:
                pass  # the page closed: its session went with it

    def _on_console(self, session: CDPSession, key: int, event: dict[str, Any]) -> None:
        frames = (event.get("stackTrace") or {}).get("callFrames") or [{}]
        self._publish(ConsoleEvent(level=str(event.get("type") or "log"),
                                   text=console_text(event.get("args") or []), url=frames[0].get("url") or None,
                                   line=frames[0].get("lineNumber")))
        held = self._console_held[key] = self._console_held.get(key, 0) + 1
        if held >= CONSOLE_RELEASE_EVERY:
            self._console_held[key] = 0
            self._tasks.spawn(_release_console(session))

    def _on_log(self, entry: dict[str, Any]) -> None:
        # The browser's own console lines ("Failed to load resource: … 404"), which the console shows as well.
        level = {"verbose": "debug"}.get(str(entry.get("level") or "info"), str(entry.get("level") or "info"))
        self._publish(ConsoleEvent(level=level, text=str(entry.get("text") or ""), url=entry.get("url") or None,
                                   line=entry.get("lineNumber")))

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


def console_text(args: list[dict[str, Any]]) -> str:
    """A console message's text as the browser's console shows its arguments: values as JavaScript prints them,
    objects by their description."""
    parts = []
    for arg in args:
        if "value" in arg:
            value = arg["value"]
            parts.append("null" if value is None else ("true" if value else "false") if isinstance(value, bool)
                         else value if isinstance(value, str) else json.dumps(value) if isinstance(value, (dict, list))
                         else str(value))
        elif "unserializableValue" in arg:
            parts.append(str(arg["unserializableValue"]))
        elif arg.get("type") == "undefined":
            parts.append("undefined")
        else:
            parts.append(_preview(arg) or str(arg.get("description") or arg.get("className") or arg.get("type") or ""))
    return " ".join(parts)


def _preview(arg: dict[str, Any]) -> str | None:
    """A plain object or an array by the browser's preview of it, as Playwright's console text shows them
    ("{a: 1, b: two}", "[1, empty, 3]"); None for anything else (described by its description)."""
    properties = (arg.get("preview") or {}).get("properties")
    if properties is None:
        return None
    if arg.get("subtype") == "array":
        items = sorted((int(p["name"]), str(p.get("value"))) for p in properties if str(p.get("name")).isdigit())
        tokens, last = [], -1
        for index, value in items:
            gap = index - last - 1
            tokens += [] if gap == 0 else ["empty"] if gap == 1 else [f"empty x {gap}"]
            tokens.append(value)
            last = index
        return "[" + ", ".join(tokens) + "]"
    if arg.get("description") == "Object":
        return "{" + ", ".join(f"{p.get('name')}: {p.get('value')}" for p in properties) + "}"
    return None


async def _release_console(session: CDPSession) -> None:
    try:
        await session.send("Runtime.releaseObjectGroup", {"objectGroup": "console"})
    except PlaywrightError as error:  # the page closed: its objects went with it
        log.debug("console objects: %s", error)


class PageTraffic:
    """What one page does, as typed events: console messages, uncaught errors, navigations of its main frame,
    responses and failed requests (`ready()` once following; `detach()` to stop)."""

    def __init__(self, page: Page, publish: Publish) -> None:
        self._errors = PageCapture(page, publish)
        self._network = ContextCapture(page.context, publish, only=page)

    async def ready(self) -> None:
        await self._network.ready()

    async def detach(self) -> None:
        self._errors.detach()
        await self._network.detach()
