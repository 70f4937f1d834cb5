"""PickMode: pointing at an element in the live view to inspect it, like a browser's element picker — and reaching
beneath what covers it.

While picking, moves highlight the element a click at the pointer would reach (only the newest point is asked about,
one query at a time), with its place among the elements stacked there ("1 of 6"). Alt+wheel walks that stack (down:
beneath, up: back), Alt+click picks the next element beneath and stays in pick mode (click again to go deeper), a
plain left press picks the highlighted element and ends the mode, Escape ends it. The plain wheel and keys still
reach the page.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from studio.app.race_entries import StackPosition
from studio.app.tasks import TaskOwner
from studio.browser.input import InputAction
from studio.models.pick import PointStack
from studio.race.errors import RaceError

HOVER_SPACING_S = 0.04
StackReader = Callable[[float, float], Awaitable[PointStack]]
PickSink = Callable[[float, float, int, "PointStack | None"], None]


class PickMode:
    """The picking state of one RaceService; `changed(bool)`, `hovered(StackPosition or None)` and
    `picked(x, y, index, stack)` report."""

    def __init__(self, has_page: Callable[[], bool], stack_at: StackReader, tasks: TaskOwner,
                 changed: Callable[[bool], None], hovered: Callable[[StackPosition | None], None], picked: PickSink,
                 refused: Callable[[str], None]) -> None:
        self.on = False
        self._has_page, self._stack_at, self._tasks = has_page, stack_at, tasks
        self._changed, self._hovered, self._picked, self._refused = changed, hovered, picked, refused
        self._point: tuple[float, float] | None = None
        self._hover_task: asyncio.Task[None] | None = None
        self._swallow_up = False
        self.position: StackPosition | None = None  # what is highlighted now
        self._depth: tuple[float, float, int] | None = None  # a point walked into, and how deep

    def set(self, on: bool) -> None:
        if on == self.on:
            return
        if on and not self._has_page():
            self._refused("There is no page to pick from. Open a page first, then pick an element.")
            self._changed(False)
            return
        self.on = on
        self._point = None
        self.position = self._depth = None
        self._changed(on)

    def take(self, action: InputAction) -> bool:
        """True when the gesture belongs to picking (and must not reach the page)."""
        if self._swallow_up and action.kind == "up":
            self._swallow_up = False
            return True
        if not self.on:
            return False
        alt = "Alt" in action.modifiers
        if action.kind == "move":
            self._point = (action.x, action.y)
            if self._hover_task is None:
                self._hover_task = self._tasks.spawn(self._hover_loop(), name="hover")
            return True
        if action.kind == "wheel" and alt:
            delta = action.dy or action.dx  # Qt turns a vertical wheel horizontal while Alt is held on some systems
            if delta:
                self._walk(action.x, action.y, 1 if delta > 0 else -1)
            return True
        if action.kind == "down":
            if action.button == "left":
                self._swallow_up = True
                self._pick(action.x, action.y, beneath=alt)
            return True
        if action.kind == "up" or (action.kind in ("key_down", "key_up") and action.key == "Escape"):
            if action.kind == "key_down":
                self.set(False)
            return True
        return False  # the plain wheel and keys still reach the page

    # -- internals -----------------------------------------------------------------------------------

    def _here(self, x: float, y: float) -> StackPosition | None:
        position = self.position
        return position if position is not None and position.stack.near(x, y) else None

    def _pick(self, x: float, y: float, beneath: bool) -> None:
        here = self._here(x, y)
        if not beneath:
            self.set(False)  # one pick, then back to the page
            self._picked(x, y, here.index if here else 0, here.stack if here else None)
            return
        # Alt+click: the next element down (round to the top after the last), and pick mode stays on.
        if here is None:
            self._depth = (x, y, 1)
            self._picked(x, y, 1, None)
            return
        index = (here.index + 1) % len(here.stack.elements)
        self._show(StackPosition(here.stack, index))
        self._picked(x, y, index, here.stack)

    def _walk(self, x: float, y: float, step: int) -> None:
        here = self._here(x, y)
        if here is None:
            return  # nothing read at this point yet: the next hover answer comes first
        index = max(0, min(here.index + step, len(here.stack.elements) - 1))
        self._show(StackPosition(here.stack, index))

    def _show(self, position: StackPosition | None) -> None:
        self.position = position
        if position is not None:
            self._depth = (position.stack.x, position.stack.y, position.index)
        self._hovered(position)

    async def _hover_loop(self) -> None:
        try:
            while self._point is not None and self.on and self._has_page():
                (x, y), self._point = self._point, None
                try:
                    stack: PointStack | None = await self._stack_at(x, y)
                except RaceError:
                    stack = None  # the page is changing; the next move asks again
                if not self.on:
                    break
                if stack is None or not stack.elements:
                    self.position = None
                    self._hovered(None)
                else:
                    depth = self._depth
                    walked = depth is not None and stack.near(depth[0], depth[1])
                    index = min(depth[2], len(stack.elements) - 1) if walked and depth else 0
                    self._show(StackPosition(stack, index))
                await asyncio.sleep(HOVER_SPACING_S)
        finally:
            self._hover_task = None
