"""Actions with race preflight: check the target first, and report facts instead of acting when something
stands in the way (seed 001).

The facts are reported once. When the agent repeats the same action on the same ref and the facts are
unchanged, it has seen them: the action then waits for transient conditions (an overlay, an animation, a
busy region) to clear — as Playwright's actionability checks do — and acts. A link's navigation fact needs
no waiting; a removed element never comes back, so it is reported again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError

from studio.models.race import ActionName, ActionOutcome, Observation
from studio.race.errors import RaceError, context_closed, navigated_before_done, page_unresponsive
from studio.race.page import RacePage

INFORMATIONAL = {"navigation"}
POLL_S = 0.05
_POINTER = {"attachment", "coverage", "animation", "input_state", "aria_state", "pointer_events"}
# Which facts matter to which action, as in Playwright's actionability checks: pointer actions need the
# target uncovered and still; typing needs it attached, enabled and editable; a key press needs it attached.
RELEVANT: dict[str, set[str]] = {
    "click": _POINTER | {"navigation"},
    "check": _POINTER,
    "hover": _POINTER - {"input_state"},
    "fill": {"attachment", "input_state", "aria_state"},
    "type": {"attachment", "input_state", "aria_state"},
    "select": {"attachment", "input_state", "aria_state"},
    "press": {"attachment", "aria_state"},
}

TEXT_ENTRY = {"fill", "type", "select"}

BeforeAct = Callable[[], Awaitable[None]]


def stands_in_the_way(action: str, fact: Observation) -> bool:
    """Whether a fact blocks this action: a disabled control blocks all of them, a readonly one only typing."""
    if fact.type not in RELEVANT[action]:
        return False
    if fact.type == "input_state":
        return fact.disabled or (fact.readOnly and action in TEXT_ENTRY)
    return True


def relevant(action: str, observations: list[Observation]) -> list[Observation]:
    """The facts that stand between `action` and its success."""
    return [item for item in observations if stands_in_the_way(action, item)]


def fact_key(item: Observation) -> tuple:
    """What makes two facts the same fact: kind, target and the element involved (not timestamps or progress)."""
    if item.type == "coverage":
        return (item.type, item.ref, item.elementAtPoint.ref)
    if item.type == "animation" and item.animatedElement is not None:
        return (item.type, item.ref, item.animatedElement.ref)
    return (item.type, item.ref)


def fingerprint(observations: list[Observation]) -> tuple:
    """What makes two reports 'the same facts' (timestamps and animation progress do not)."""
    return tuple(sorted(fact_key(item) for item in observations))


def _blocking(observations: list[Observation]) -> list[Observation]:
    return [item for item in observations if item.type not in INFORMATIONAL]


def _detached(observations: list[Observation]) -> bool:
    return any(item.type == "attachment" and not item.isConnected for item in observations)


class ActionRunner:
    """Runs click, type, fill, hover, select, check and press on refs of one RacePage."""

    def __init__(self, race: RacePage, timeout_ms: float = 5000) -> None:
        self.race = race
        self.timeout_ms = timeout_ms
        self._reported: dict[str, tuple] = {}
        self._live_generation: int | None = None  # the world's document count when this action first saw its ref

    async def run(
        self,
        action: ActionName,
        ref: str,
        value: str | None = None,
        key: str | None = None,
        before_act: BeforeAct | None = None,
    ) -> ActionOutcome:
        """Check, then act or report. `before_act` runs right before acting (the recorder's hook)."""
        if action in ("fill", "type", "select") and value is None:
            raise RaceError("bad_input", f"{action} needs a value (the text to enter or the option to choose).")
        if action == "press" and not key:
            raise RaceError("bad_input", "press needs a key, e.g. 'Enter' or 'Control+A'.")
        self._live_generation = None
        try:
            return await self._run(action, ref, value, key, before_act)
        except RaceError as error:
            # Only a ref this action saw alive can have "navigated away before done". The world learns of a
            # navigation from CDP events that may arrive after browser_navigate returned, so a ref that was stale
            # from the start must stay stale_ref even when the world's document count moves during the first call.
            live = self._live_generation
            moved = live is not None and self.race.world.generation != live
            if live is not None and (error.kind == "navigated" or (error.kind == "stale_ref" and moved)):
                raise navigated_before_done(action, ref) from error
            raise

    def _seen_live(self) -> None:
        """Mark the ref as alive in the world's current document (its first successful call in this action)."""
        if self._live_generation is None:
            self._live_generation = self.race.world.generation

    async def _run(self, action, ref, value, key, before_act) -> ActionOutcome:
        if not self.race.preflight:
            return await self._act(action, ref, await self._point(ref), value, key, before_act)

        observations, point = await self._check(action, ref)
        if observations:
            facts = fingerprint(observations)
            if self._reported.get(ref) != facts or _detached(observations):
                self._reported[ref] = facts
                return ActionOutcome(action=action, acted=False, ref=ref, timestamp=_now(), observations=observations)
            # Seen before: wait for what can clear, then act.
            observations, point = await self._wait_until_clear(action, ref, observations, point)
            if _blocking(observations):
                return ActionOutcome(action=action, acted=False, ref=ref, timestamp=_now(), observations=observations)
        self._reported.pop(ref, None)
        if point is None:
            raise RaceError("not_actionable", f"{ref} has no visible area to act on (it is zero-sized or off the page).")
        return await self._act(action, ref, point, value, key, before_act)

    async def _check(self, action: str, ref: str) -> tuple[list[Observation], dict | None]:
        observations, point = await self.race.observe_for_action(ref)
        self._seen_live()
        if point is None and not _detached(observations):
            # Off screen: bring it into view first (Playwright scrolls before acting too), then look again.
            await self.race.world.with_ref("scrollIntoView", ref, during=f"scrolling {ref} into view")
            observations, point = await self.race.observe_for_action(ref)
        return relevant(action, observations), point

    async def _wait_until_clear(self, action: str, ref: str, observations, point):
        deadline = time.monotonic() + self.timeout_ms / 1000
        while _blocking(observations) and not _detached(observations) and time.monotonic() < deadline:
            await asyncio.sleep(POLL_S)
            observations, point = await self._check(action, ref)
        return observations, point

    async def _point(self, ref: str) -> dict:
        result = await self.race.world.with_ref("scrollIntoView", ref, during=f"scrolling {ref} into view")
        self._seen_live()
        if not result["value"]:
            raise RaceError("not_actionable", f"{ref} has no visible area to act on (it is zero-sized or off the page).")
        return result["value"]

    async def _act(self, action, ref, point, value, key, before_act) -> ActionOutcome:
        if action in ("fill", "type"):
            await self._require_text_entry(action, ref)
        if before_act is not None:
            await before_act()
        if self.race.world.generation != self._live_generation:
            # The point was measured on a document that is gone: a click there would land on the new page.
            raise navigated_before_done(action, ref)
        page = self.race.page
        try:
            await asyncio.wait_for(self._perform(action, ref, point, value, key), self.race.world.timeout_s)
        except TimeoutError as error:
            raise page_unresponsive(f"doing the {action} on {ref}", self.race.world.timeout_s) from error
        except PlaywrightError as error:
            if page.is_closed():
                raise context_closed() from error
            raise RaceError("not_actionable", f"The {action} on {ref} failed: {str(error).splitlines()[0]}") from error
        return ActionOutcome(action=action, acted=True, ref=ref, timestamp=_now())

    async def _perform(self, action, ref, point, value, key) -> None:
        page = self.race.page
        x, y = point["x"], point["y"]
        if action == "click":
            await page.mouse.click(x, y)
        elif action == "hover":
            await page.mouse.move(x, y)
        elif action == "check":
            if not (await self.race.world.with_ref("checked", ref))["value"]:
                await page.mouse.click(x, y)
        elif action == "select":
            result = (await self.race.world.with_ref("selectOption", ref, value))["value"]
            if "error" in result:
                raise RaceError("not_actionable", f"Cannot select on {ref}: {result['error']}.")
        else:
            await self._focus(ref, x, y)
            if action == "fill":
                await page.keyboard.press("ControlOrMeta+A")
                if value:
                    await page.keyboard.insert_text(value)
                else:
                    await page.keyboard.press("Delete")
            elif action == "type":
                await page.keyboard.type(value or "")
            elif action == "press":
                await page.keyboard.press(key or "")

    async def _require_text_entry(self, action: str, ref: str) -> None:
        # Focus alone proves nothing: a <button> takes focus, then swallows the keys and the fill "succeeds".
        what = (await self.race.world.with_ref("notTextEntry", ref))["value"]
        if what:
            raise RaceError("not_actionable", (
                f"{ref} is {what}, which does not take keyboard input: {action} needs an <input>, <textarea> or "
                "contenteditable element. Use the ref of a text field from the snapshot (a textbox), or click instead."))

    async def _focus(self, ref: str, x: float, y: float) -> None:
        result = await self.race.world.with_ref("focus", ref)
        if result["value"]:
            return
        await self.race.page.mouse.click(x, y)  # some widgets take focus only from a real click
        result = await self.race.world.with_ref("focus", ref)
        if not result["value"]:
            info = await self.race.info(ref)
            raise RaceError("not_actionable", f"{ref} (<{info.tag}>) does not take keyboard input.")


def _now() -> float:
    return time.time() * 1000


