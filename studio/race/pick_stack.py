"""Reaching beneath the pointer: the stack of meaningful elements at a point (an overlay, the button it covers, its
card…), and an element picked before a reload found again by its synthesized locator.

Both run resources/race/pick_stack.js in the page's isolated world, where the elements get refs like any other.
"""

from __future__ import annotations

import json
from functools import lru_cache

from playwright.async_api import Error as PlaywrightError

from studio.models.locator import LocatorSpec
from studio.models.pick import PointStack, StackedElement
from studio.models.race import ElementInfo, Rect
from studio.race.locators import DOM_PATH_JS, resolve
from studio.race.page import RacePage
from studio.resources import resource_path

STACK_LIMIT = 12  # more than a tester walks through; the rest are the page's outer containers


@lru_cache(maxsize=1)
def _source() -> str:
    return resource_path("race", "pick_stack.js").read_text(encoding="utf-8")


async def _call(race: RacePage, call: str, during: str) -> dict:
    # The script installs itself once per document (the world is new after a reload), then answers the call.
    result = await race.world.evaluate(f"{_source()}\n;globalThis.__pfsStack.{call}", during)
    return result if isinstance(result, dict) else {"status": "none"}


async def elements_at(race: RacePage, x: float, y: float) -> PointStack:
    """The meaningful elements at (x, y) of the viewport, top first; the first is what `RacePage.pick` gives."""
    result = await _call(race, f"at({json.dumps(x)}, {json.dumps(y)}, {STACK_LIMIT})", "reading what is at the point")
    items = [StackedElement(element=ElementInfo.model_validate(item["value"]), box=Rect.model_validate(item["box"]))
             for item in result.get("items", []) if item.get("box")]
    return PointStack(x=x, y=y, elements=items)


async def find_again(race: RacePage, locator: LocatorSpec) -> StackedElement | None:
    """The one element `locator` names on the page now (after a reload, a re-render), with a ref; None when it names
    none or several."""
    found = resolve(race.page, locator.steps)
    try:
        if await found.count() != 1:
            return None
        path = await found.evaluate(DOM_PATH_JS, timeout=1000)
    except PlaywrightError:
        return None  # the page changed between the two questions
    result = await _call(race, f"atPath({json.dumps(path)})", "finding the picked element again")
    if result.get("status") != "ok" or not result.get("box"):
        return None
    return StackedElement(element=ElementInfo.model_validate(result["value"]), box=Rect.model_validate(result["box"]))


async def ref_at_path(race: RacePage, path: str) -> str | None:
    """The ref of the element at a tree position (domPath, through open shadow roots); None when none is there."""
    result = await _call(race, f"atPath({json.dumps(path)})", "finding the element")
    if result.get("status") != "ok":
        return None
    return str(result["value"]["ref"])
