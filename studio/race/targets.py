"""What an action is aimed at, however a capability names it: a ref from a snapshot ("e12"), a Playwright selector
("#email", "text=Sign in", "role=button[name='Go']") or a LocatorSpec (a synthesized or stored locator).

Selectors and locators are resolved with Playwright's own engine, waiting as Playwright's actions do for the
element to be attached; the element found is then given a ref in the race engine's world, so every action goes
through the same preflight whichever way its target was named.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from studio.models.locator import LocatorSpec
from studio.race.errors import RaceError
from studio.race.locators import DOM_PATH_JS, resolve
from studio.race.page import RacePage
from studio.race.pick_stack import ref_at_path

Target = str | LocatorSpec
State = Literal["attached", "detached", "visible", "hidden"]
_REF = re.compile(r"^e\d+$")


def is_ref(target: Target) -> bool:
    return isinstance(target, str) and _REF.match(target) is not None


def describe(target: Target) -> str:
    """How a sentence names the target."""
    if isinstance(target, LocatorSpec):
        return target.python()
    return target if is_ref(target) else repr(target)


def locator_of(page: Page, target: Target) -> Locator:
    """The live Playwright locator of a selector or LocatorSpec (not of a ref: refs live in the race world)."""
    if isinstance(target, LocatorSpec):
        return resolve(page, target.steps)
    if is_ref(target):
        raise RaceError("bad_input", f"{target} is a ref; a locator was expected.")
    return page.locator(target)


async def ref_of(race: RacePage, target: Target, timeout_ms: float = 5000, state: State = "attached") -> str:
    """The ref of the first element the target names, waiting up to `timeout_ms` for it to be `state`; raises
    RaceError(no_match) when nothing matches in time and bad_input for a selector Playwright cannot read."""
    if is_ref(target):
        assert isinstance(target, str)
        race.world.check_ref(target)
        return target
    locator = locator_of(race.page, target).first
    try:
        await locator.wait_for(state=state, timeout=timeout_ms)
        path = await locator.evaluate(DOM_PATH_JS, timeout=timeout_ms)
    except PlaywrightTimeout as error:
        raise RaceError("no_match", f"No element matches {describe(target)} on {race.page.url} (waited "
                                    f"{timeout_ms / 1000:g} s).") from error
    except PlaywrightError as error:
        if race.page.is_closed():
            raise RaceError("context_closed", "The page closed while its element was looked for.") from error
        raise RaceError("bad_input", f"{describe(target)} cannot be used: {str(error).splitlines()[0]}") from error
    found = await ref_at_path(race, path)
    if found is None:
        raise RaceError("no_match", f"{describe(target)} matched an element the page removed at once; try again.")
    return found


async def count(page: Page, target: Target) -> int:
    """How many elements the selector or locator names now (0 when the page is between documents)."""
    try:
        return await locator_of(page, target).count()
    except PlaywrightError:
        return 0


async def evaluate_on(page: Page, target: Target, expression: str, arg: Any = None, every: bool = False,
                      timeout_ms: float = 1000) -> Any:
    """Evaluate a function on the first element the target names (or on the list of all, with `every`); None when
    nothing matches in time or the page moved on."""
    locator = locator_of(page, target)
    try:
        if every:
            return await locator.evaluate_all(expression, arg)
        return await locator.first.evaluate(expression, arg, timeout=timeout_ms)
    except PlaywrightError:
        return None


async def wait_for(page: Page, target: Target, state: State = "visible", timeout_ms: float = 5000) -> bool:
    """Whether the first element the target names reaches `state` within `timeout_ms`."""
    try:
        await locator_of(page, target).first.wait_for(state=state, timeout=timeout_ms)
    except PlaywrightError:
        return False
    return True
