"""PickMode: pointing at an element in the live view to inspect it, like a browser's element picker.

While picking, moves highlight the element under the pointer (only the newest point is asked about, one query at a
time), a left press picks and ends the mode, Escape ends it, and wheel and keys still reach the page.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from playwright.async_api import Error as PlaywrightError

from studio.app.tasks import TaskOwner
from studio.browser.input import InputAction
from studio.race.driver import PageDriver
from studio.race.errors import RaceError

HOVER_SPACING_S = 0.04


class PickMode:
    """The picking state of one RaceService; `changed(bool)`, `hovered(picked or None)` and `picked(x, y)` report."""

    def __init__(self, driver: Callable[[], PageDriver | None], tasks: TaskOwner, changed: Callable[[bool], None],
                 hovered: Callable[[object], None], picked: Callable[[float, float], None],
                 refused: Callable[[str], None]) -> None:
        self.on = False
        self._driver, self._tasks = driver, tasks
        self._changed, self._hovered, self._picked, self._refused = changed, hovered, picked, refused
        self._point: tuple[float, float] | None = None
        self._hover_task: asyncio.Task[None] | None = None
        self._swallow_up = False

    def set(self, on: bool) -> None:
        if on == self.on:
            return
        if on and self._driver() is None:
            self._refused("There is no page to pick from. Open a page first, then pick an element.")
            self._changed(False)
            return
        self.on = on
        self._point = None
        self._changed(on)

    def take(self, action: InputAction) -> bool:
        """True when the gesture belongs to picking (and must not reach the page)."""
        if self._swallow_up and action.kind == "up":
            self._swallow_up = False
            return True
        if not self.on:
            return False
        if action.kind == "move":
            self._point = (action.x, action.y)
            if self._hover_task is None:
                self._hover_task = self._tasks.spawn(self._hover_loop(), name="hover")
            return True
        if action.kind == "down":
            if action.button == "left":
                self.set(False)  # one pick, then back to the page
                self._swallow_up = True
                self._picked(action.x, action.y)
            return True
        if action.kind == "up" or (action.kind in ("key_down", "key_up") and action.key == "Escape"):
            if action.kind == "key_down":
                self.set(False)
            return True
        return False  # wheel and keys still reach the page

    async def _hover_loop(self) -> None:
        try:
            while self._point is not None and self.on and (driver := self._driver()) is not None:
                (x, y), self._point = self._point, None
                try:
                    picked = await driver.race.pick(x, y)
                except (RaceError, PlaywrightError):
                    picked = None  # the page is changing; the next move asks again
                if self.on:
                    self._hovered(picked)
                await asyncio.sleep(HOVER_SPACING_S)
        finally:
            self._hover_task = None
