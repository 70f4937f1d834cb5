"""ElementInspector: what the inspector dock shows about the element the tester picked, and keeping that element
through reloads and re-renders.

A pick takes one of the elements stacked at a point (the overlay a click would hit, or what lies beneath it); the
inspection keeps the point's stack, so the tester can walk it, and the element's synthesized locator, so a pick
outlives its ref: when the page reloads or re-renders, the locator finds the element again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from studio.app.race_entries import Inspection
from studio.app.race_sentences import PICK_AGAIN
from studio.models.locator import LocatorSpec
from studio.models.pick import PointStack
from studio.models.race import Rect
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.locators import synthesize
from studio.race.pick_stack import elements_at, find_again

DESCENDANT_DEPTH = 2
DESCENDANT_LIMIT = 100
FIND_AGAIN_S = 5.0  # how long a reloaded page has to show the picked element again
FIND_AGAIN_SPACING_S = 0.25
AFTER_ACTION_S = 3.0  # how long after an action on the picked element a re-render of it is watched for


class ElementInspector:
    """The current inspection of one RaceService, and the page reads behind it."""

    def __init__(self, driver: Callable[[], PageDriver],
                 found_again: Callable[[Inspection], None] = lambda _inspection: None) -> None:
        self._driver = driver  # raises a RaceError sentence when there is no page
        # Told of the picked element found again under a new ref while an action or an assertion followed it, so
        # the inspector and the Assert bar show the ref that was acted on, never the replaced one.
        self._found_again = found_again
        self.current: Inspection | None = None
        self.generation = 0  # counts inspections; a late answer about an older one is dropped

    async def stack_at(self, x: float, y: float) -> PointStack:
        return await elements_at(self._driver().race, x, y)

    async def pick(self, x: float, y: float, index: int = 0, stack: PointStack | None = None) -> Inspection | None:
        """Inspect the `index`-th element at (x, y), top first (None when nothing is there)."""
        if stack is None or not stack.near(x, y):
            stack = await self.stack_at(x, y)
        if not stack.elements:
            return None
        index = max(0, min(index, len(stack.elements) - 1))
        chosen = stack.elements[index]
        return await self.inspect(chosen.element.ref, chosen.box, stack, index)

    async def walk(self, step: int) -> Inspection | None:
        """The element above (step -1) or beneath (+1) the current one at the point it was picked at; the stack is
        read again, as the page may have changed since. None when there is no such element."""
        current = self.current
        if current is None or current.stack is None or current.stack_index is None:
            return None
        stack = await self.stack_at(current.stack.x, current.stack.y)
        index = stack.index_of(current.element.ref)
        index = (current.stack_index if index is None else index) + step
        if not 0 <= index < len(stack.elements):
            return None
        return await self.pick(stack.x, stack.y, index, stack)

    async def inspect(self, ref: str, box: Rect | None = None, stack: PointStack | None = None,
                      index: int | None = None, found_again_from: str | None = None) -> Inspection:
        self.generation += 1
        generation = self.generation
        race = self._driver().race
        element = await race.info(ref)
        observations = await race.observe(ref)
        ancestors = await race.ancestors(ref)
        siblings = await race.siblings(ref)
        descendants = await race.descendants(ref, DESCENDANT_DEPTH, DESCENDANT_LIMIT)
        locator = await self.locator(ref)
        if box is None:
            box = (await race.rects([ref])).get(ref)
        if stack is None and self.current is not None and self.current.stack is not None:
            # An element of the same point (the card around the picked button, chosen in a list) keeps its place.
            index = self.current.stack.index_of(ref)
            stack = self.current.stack if index is not None else None
        inspection = Inspection(element, box, ancestors, siblings, locator, observations, descendants, stack, index,
                                found_again_from)
        if generation == self.generation:
            self.current = inspection
        return inspection

    async def locator(self, ref: str) -> LocatorSpec | None:
        try:
            return await synthesize(self._driver().race, ref)
        except RaceError:
            return None  # gone already: the facts say so

    # -- keeping the pick ----------------------------------------------------------------------------

    async def follow(self, ref: str) -> str:
        """`ref`, or, when it is the picked element's and the page replaced that element (a reload, a re-render),
        the ref of the element its locator names now. Raises a RaceError with the tester's next step when the locator
        names none."""
        current = self.current
        if current is None or ref not in (current.element.ref, current.found_again_from):
            return ref
        race = self._driver().race
        try:
            await race.info(current.element.ref)
            return current.element.ref
        except RaceError as error:
            if error.kind not in ("stale_ref", "unknown_ref"):
                raise
        found = await self.find_again()
        if found is None:
            raise RaceError("stale_ref", f"The picked element ({self._named(current)}) is not on the page any more. "
                                         f"{PICK_AGAIN}")
        self._found_again(found)
        return found.element.ref

    def shown_locator(self, ref: str) -> LocatorSpec | None:
        """The locator the inspector (and the Assert bar) shows for `ref`: what an assertion on it records."""
        current = self.current
        return current.locator if current is not None and current.element.ref == ref else None

    def picked_as(self, ref: str) -> set[str]:
        """The refs `ref` had as the picked element: itself, and the element it replaced."""
        current = self.current
        if current is None or current.element.ref != ref or not current.found_again_from:
            return {ref}
        return {ref, current.found_again_from}

    async def after_action(self, ref: str, moved_to: str | None = None) -> None:
        """After an action on the picked element: show the element it acted on when the runner found a replacement
        (`moved_to`), and when the action makes the page re-render the element (the shop replaces the card once the
        cart answers), show the replacement as soon as it is there."""
        current = self.current
        if current is None or ref not in (current.element.ref, current.found_again_from):
            return
        generation = self.generation
        if moved_to is not None and moved_to != current.element.ref:
            self._found_again(await self.inspect(moved_to, found_again_from=current.element.ref))
            return
        deadline = time.monotonic() + AFTER_ACTION_S
        while time.monotonic() < deadline and generation == self.generation:
            try:
                await self._driver().race.info(current.element.ref)
            except RaceError as error:
                if error.kind not in ("stale_ref", "unknown_ref"):
                    return
                found = await self.find_again(FIND_AGAIN_S)
                if found is not None:
                    self._found_again(found)
                return
            await asyncio.sleep(FIND_AGAIN_SPACING_S)

    async def find_again(self, wait_s: float = 0.0) -> Inspection | None:
        """Inspect the picked element where its locator finds it now (trying for `wait_s` while a page loads)."""
        current = self.current
        if current is None or current.locator is None:
            return None
        generation = self.generation
        deadline = time.monotonic() + wait_s
        while True:
            try:
                found = await find_again(self._driver().race, current.locator)
            except RaceError:
                found = None  # the document is changing under the question
            if generation != self.generation:
                return None  # the tester picked something else meanwhile
            if found is not None:
                stack, index = None, None
                if current.stack is not None:  # where it was picked: what is at that point now
                    stack = await self.stack_at(current.stack.x, current.stack.y)
                    index = stack.index_of(found.element.ref)
                moved = found.element.ref != current.element.ref
                return await self.inspect(found.element.ref, found.box, stack if index is not None else None, index,
                                          current.element.ref if moved else current.found_again_from)
            if time.monotonic() >= deadline:
                return None
            await asyncio.sleep(FIND_AGAIN_SPACING_S)

    def forget(self) -> None:
        self.current = None
        self.generation += 1

    @staticmethod
    def _named(inspection: Inspection) -> str:
        element = inspection.element
        name = f' "{element.name}"' if element.name else ""
        return f"{element.role or element.tag}{name}"
