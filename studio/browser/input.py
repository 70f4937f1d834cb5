"""Forwards the tester's mouse and keyboard to the page, in order, coalescing moves so input never lags."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, replace
from typing import Literal

from playwright.async_api import Error as PlaywrightError

from studio.browser.session import BrowserSession

log = logging.getLogger(__name__)

InputKind = Literal["move", "down", "up", "wheel", "key_down", "key_up", "text"]
MouseButton = Literal["left", "middle", "right"]


@dataclass(frozen=True, slots=True)
class InputAction:
    """One input gesture in page CSS pixels: a mouse move/press/release, a wheel turn, a key or typed text."""

    kind: InputKind
    x: float = 0.0
    y: float = 0.0
    button: MouseButton = "left"
    click_count: int = 1
    dx: float = 0.0
    dy: float = 0.0
    key: str = ""
    text: str = ""
    # Modifier keys held during a mouse gesture ("Alt", "Control", "Meta", "Shift"); the studio's own gestures read
    # them (Alt+click in pick mode), the page gets its modifiers from the key presses forwarded before.
    modifiers: frozenset[str] = frozenset()


class PageInput:
    """A serial queue of input actions for the session's active page.

    Consecutive mouse moves collapse into the newest one and consecutive wheel turns add up, so a burst of
    events from the widget costs one round trip; presses, releases and keys are never dropped or reordered.
    """

    def __init__(self, session: BrowserSession) -> None:
        self._session = session
        self._queue: deque[InputAction] = deque()
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._worker: asyncio.Task[None] | None = None
        self.sent = 0
        self._pointer: tuple[float, float] | None = None

    def start(self) -> None:
        if self._worker is None:
            self._worker = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            try:
                await self._worker
            except asyncio.CancelledError:
                pass
            self._worker = None
        self._queue.clear()
        self._idle.set()

    def push(self, action: InputAction) -> None:
        """Queue an action (never blocks; safe to call from widget event handlers on the loop thread)."""
        last = self._queue[-1] if self._queue else None
        if last is not None and last.kind == action.kind == "move":
            self._queue[-1] = action
        elif last is not None and last.kind == action.kind == "wheel":
            self._queue[-1] = replace(action, dx=last.dx + action.dx, dy=last.dy + action.dy)
        else:
            self._queue.append(action)
        self._idle.clear()
        self._wakeup.set()

    def pending(self) -> list[InputAction]:
        return list(self._queue)

    async def drain(self) -> None:
        """Wait until every queued action was sent (used by tests and benchmarks)."""
        await self._idle.wait()

    async def _run(self) -> None:
        while True:
            await self._wakeup.wait()
            while self._queue:
                action = self._queue.popleft()
                if not self._queue:
                    self._wakeup.clear()
                if not self._session.alive:
                    self._queue.clear()
                    break
                try:
                    await self._send(action)
                    self.sent += 1
                except PlaywrightError as error:
                    # A navigation or a closing page can swallow one gesture; the tester just repeats it.
                    log.info("input %s dropped: %s", action.kind, error)
            self._wakeup.clear()
            self._idle.set()

    async def _move_to(self, x: float, y: float) -> None:
        # Each round trip to the browser costs ~10 ms; a press where the pointer already rests needs none.
        if self._pointer != (x, y):
            await self._session.page.mouse.move(x, y)
            self._pointer = (x, y)

    async def _send(self, action: InputAction) -> None:
        page = self._session.page
        if action.kind == "move":
            await self._move_to(action.x, action.y)
        elif action.kind == "down":
            await self._move_to(action.x, action.y)
            await page.mouse.down(button=action.button, click_count=action.click_count)
        elif action.kind == "up":
            await self._move_to(action.x, action.y)
            await page.mouse.up(button=action.button, click_count=action.click_count)
        elif action.kind == "wheel":
            await self._move_to(action.x, action.y)
            await page.mouse.wheel(action.dx, action.dy)
        elif action.kind == "key_down":
            await page.keyboard.down(action.key)
        elif action.kind == "key_up":
            await page.keyboard.up(action.key)
        elif action.kind == "text":
            await page.keyboard.insert_text(action.text)
