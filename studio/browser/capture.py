"""Wires Playwright page and context signals to typed engine events (console, page errors, network, navigation)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from playwright.async_api import BrowserContext, ConsoleMessage, Frame, Page, Request, Response

from studio.models.events import (
    ConsoleEvent,
    EngineEvent,
    NavigationEvent,
    NetworkEvent,
    PageErrorEvent,
)

Publish = Callable[[EngineEvent], None]


def _recordable(url: str) -> bool:
    # data: and blob: URLs are page-internal; recording them only adds noise (and can be megabytes long).
    return not url.startswith(("data:", "blob:"))


class PageCapture:
    """Publishes what one page does: console messages, uncaught errors and main-frame navigations."""

    def __init__(self, page: Page, publish: Publish) -> None:
        self._page = page
        self._publish = publish
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

    def _on_page_error(self, error: Exception) -> None:
        message = getattr(error, "message", None) or str(error)
        self._publish(PageErrorEvent(message=message, url=self._page.url))

    def _on_frame_navigated(self, frame: Frame) -> None:
        if frame is self._page.main_frame and _recordable(frame.url):
            self._publish(NavigationEvent(url=frame.url))


class ContextCapture:
    """Publishes every finished response (with status) and every failed request of a browser context."""

    def __init__(self, context: BrowserContext, publish: Publish) -> None:
        self._publish = publish
        context.on("response", self._on_response)
        context.on("requestfailed", self._on_request_failed)

    def _on_response(self, response: Response) -> None:
        request = response.request
        if not _recordable(request.url):
            return
        self._publish(
            NetworkEvent(
                method=request.method,
                url=request.url,
                resource_type=request.resource_type,
                status=response.status,
                duration_ms=_elapsed(request, "responseStart"),
            )
        )

    def _on_request_failed(self, request: Request) -> None:
        if not _recordable(request.url):
            return
        self._publish(
            NetworkEvent(
                method=request.method,
                url=request.url,
                resource_type=request.resource_type,
                failure=request.failure or "failed",
                duration_ms=_elapsed(request, "responseEnd"),
            )
        )


def _elapsed(request: Request, field: Literal["responseStart", "responseEnd"]) -> float | None:
    value = request.timing.get(field, -1)
    return round(value, 1) if value is not None and value >= 0 else None
