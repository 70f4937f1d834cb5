"""Actions with race preflight: check the target first, and report facts instead of acting when something
stands in the way (seed 001).

The facts are reported once. When the agent repeats the same action on the same ref and the facts are
unchanged, it has seen them: the action then waits for transient conditions (an overlay, an animation, a
busy region) to clear — as Playwright's actionability checks do — and acts. A link's navigation fact needs
no waiting. A removed element never comes back; but when the page replaced it (hydration, a re-render), the
acknowledged retry finds the replacement by the old element's locator (or by what the last snapshot said of it)
and acts on it, saying so (`reResolved`; studio.race.rebind).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError
from pydantic import Field

from studio.models.race import DRAG_STEPS, ActionName, ActionOutcome, Observation
from studio.race.errors import RaceError, context_closed, navigated_before_done, page_unresponsive
from studio.race.page import RacePage
from studio.race.rebind import Rebinder, ReResolved, path_selector

INFORMATIONAL = {"navigation"}
POLL_S = 0.05
_POINTER = {"attachment", "visibility", "coverage", "animation", "input_state", "aria_state", "pointer_events"}
# Which facts matter to which action, as in Playwright's actionability checks: pointer actions need the
# target visible, uncovered and still; typing needs it attached, visible, enabled and editable; a key press needs
# it attached.
RELEVANT: dict[str, set[str]] = {
    "click": _POINTER | {"navigation"},
    "dblclick": _POINTER | {"navigation"},
    "check": _POINTER,
    "uncheck": _POINTER,
    "drag": _POINTER,
    "hover": _POINTER - {"input_state"},
    "fill": {"attachment", "visibility", "input_state", "aria_state"},
    "type": {"attachment", "visibility", "input_state", "aria_state"},
    "select": {"attachment", "visibility", "input_state", "aria_state"},
    "press": {"attachment", "aria_state"},
    # A file input is usually hidden behind a styled label: only that it is there and enabled matters.
    "upload": {"attachment", "input_state"},
}
# What matters about where a drag ends: that the element is there, and that nothing else takes the drop.
DROP_RELEVANT = {"attachment", "coverage"}

TEXT_ENTRY = {"fill", "type", "select"}

BeforeAct = Callable[[], Awaitable[None]]
OutcomeListener = Callable[[ActionOutcome], None]


class RunOutcome(ActionOutcome):
    """What ActionRunner.run answers: the seed's ActionOutcome, plus how a replaced element was found again."""

    reResolved: ReResolved | None = None
    forced: bool = False  # done without its preflight, after the facts did not clear in time (the seed's force)
    told: list[Observation] = Field(default_factory=list)  # PageDriver.do: the last facts told before it acted (or that still stood)


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


def in_document(item: Observation) -> bool:
    """A link within the document (`#/active`): following it changes the view, not the page — nothing to wait for
    or to report first."""
    link = getattr(item, "linkAncestor", None)
    return (item.type == "navigation" and link is not None and (link.href or "").startswith("#")
            and (link.target or "_self") == "_self")


def _blocking(observations: list[Observation]) -> list[Observation]:
    return [item for item in observations if item.type not in INFORMATIONAL]


def _detached(observations: list[Observation], ref: str | None = None) -> bool:
    return any(item.type == "attachment" and not item.isConnected and (ref is None or item.ref == ref)
               for item in observations)


@dataclass
class _Look:
    """One preflight look at the target (and a drag's drop target): the facts in the way and where to act."""

    ref: str
    observations: list[Observation]
    point: dict | None
    drop: dict | None = None


class ActionRunner:
    """Runs click, dblclick, type, fill, hover, select, check, uncheck, press and drag on refs of one RacePage."""

    def __init__(self, race: RacePage, timeout_ms: float = 5000) -> None:
        self.race = race
        self.timeout_ms = timeout_ms
        self.rebind = Rebinder(race)
        # Told of every outcome as soon as it is known: the driver answers with it while the recorder still
        # watches the requests the action caused.
        self.on_outcome: OutcomeListener | None = None
        # While an action runs: the element it acts on instead of its ref's, when the page replaced that one (set
        # before `before_act` runs, so that the recorder describes the element actually acted on).
        self.rebound: ReResolved | None = None
        self._reported: dict[str, tuple] = {}
        self._live_generation: int | None = None  # the world's document count when this action first saw its ref

    async def run(
        self,
        action: ActionName,
        ref: str,
        value: str | None = None,
        key: str | None = None,
        before_act: BeforeAct | None = None,
        force: bool = False,
    ) -> RunOutcome:
        """Check, then act or report. `value` is the text to enter, the option to choose, the ref a drag ends on
        or the files to upload (one path per line); `before_act` runs right before acting (the recorder's hook).
        With `force`, act without the preflight (as Playwright's force: true), at the element's point."""
        if action in ("fill", "type", "select", "drag", "upload") and value is None:
            raise RaceError("bad_input", f"{action} needs a value (the text to enter, the option to choose or the ref "
                                         "a drag ends on).")
        if action == "press" and not key:
            raise RaceError("bad_input", "press needs a key, e.g. 'Enter' or 'Control+A'.")
        target = value if action == "drag" else None
        self._live_generation = None
        self.rebound = None
        try:
            outcome = await self._run(action, ref, value, key, before_act, target, force)
        except RaceError as error:
            # Only a ref this action saw alive can have "navigated away before done". The world learns of a
            # navigation from CDP events that may arrive after browser_navigate returned, so a ref that was stale
            # from the start must stay stale_ref even when the world's document count moves during the first call.
            live = self._live_generation
            moved = live is not None and self.race.world.generation != live
            if live is not None and (error.kind == "navigated" or (error.kind == "stale_ref" and moved)):
                raise navigated_before_done(action, ref) from error
            raise
        if self.on_outcome is not None:
            self.on_outcome(outcome)
        return outcome

    def _seen_live(self) -> None:
        """Mark the ref as alive in the world's current document (its first successful call in this action)."""
        if self._live_generation is None:
            self._live_generation = self.race.world.generation

    async def _run(self, action, ref, value, key, before_act, target, force=False) -> RunOutcome:
        if not self.race.preflight or force:
            point = {} if action == "upload" else await self._point(ref)
            look = _Look(ref, [], point, await self._point(target) if target else None)
            outcome = await self._act(action, look, value, key, before_act)
            outcome.forced = force and self.race.preflight
            return outcome

        look = await self._check(action, ref, target)
        moved: ReResolved | None = None
        said = [item for item in look.observations if in_document(item)]
        if said and len(said) == len(look.observations):
            # A same-document link: acted on at once, and the outcome says where it led.
            self._reported.pop(ref, None)
            outcome = await self._act(action, look, value, key, before_act)
            outcome.observations = said
            return outcome
        if look.observations:
            reported = self._reported.get(ref)
            # The page replaced the element the agent was told about (its facts, or its snapshot line): look for it.
            replaced = reported is not None and _detached(look.observations, ref) and self.rebind.knows(ref)
            if not replaced and (reported != fingerprint(look.observations) or _detached(look.observations)):
                self._reported[ref] = fingerprint(look.observations)
                if _blocking(look.observations) and not _detached(look.observations, ref):
                    await self.rebind.remember(ref)
                return _outcome(action, ref, look.observations)
            # Seen before: wait for what can clear (and for a replaced element's successor), then act.
            look, moved = await self._wait_until_clear(action, look, target)
            if _blocking(look.observations):
                if moved is not None:
                    self._reported.pop(ref, None)
                    self._reported[look.ref] = fingerprint(look.observations)
                return _outcome(action, look.ref, look.observations, moved)
        self._reported.pop(ref, None)
        self._reported.pop(look.ref, None)
        self.rebind.forget(ref, look.ref)
        self.rebound = moved
        outcome = await self._act(action, look, value, key, before_act)
        outcome.reResolved = moved
        return outcome

    async def _check(self, action: str, ref: str, target: str | None) -> _Look:
        observations, point = await self._observe(ref)
        drop = None
        if target is not None:
            found, drop = await self._observe(target)
            observations += [item for item in found if item.type in DROP_RELEVANT
                             and (item.type != "coverage" or not item.isTargetOrDescendant)]
        return _Look(ref, relevant(action, observations), point, drop)

    async def _observe(self, ref: str) -> tuple[list[Observation], dict | None]:
        observations, point = await self.race.observe_for_action(ref)
        self._seen_live()
        if point is None and not _detached(observations):
            # Off screen: bring it into view first (Playwright scrolls before acting too), then look again.
            try:
                await self.race.world.with_ref("scrollIntoView", ref, during=f"scrolling {ref} into view")
            except RaceError as error:
                if error.kind != "stale_ref":
                    raise  # removed meanwhile: the second look reports it (a navigation raises there again)
            observations, point = await self.race.observe_for_action(ref)
        return observations, point

    async def _wait_until_clear(self, action: str, look: _Look, target: str | None,
                                ) -> tuple[_Look, ReResolved | None]:
        deadline = time.monotonic() + self.timeout_ms / 1000
        moved: ReResolved | None = None
        while time.monotonic() < deadline:
            if _detached(look.observations, look.ref):
                found = await self.rebind.find(look.ref)
                if found is None and not self.rebind.knows(look.ref):
                    break  # nothing to look for: the detachment is the answer
                if found is not None:
                    new_ref, hop = found
                    moved = hop if moved is None else hop.model_copy(update={"from_ref": moved.from_ref})
                    look = await self._check(action, new_ref, target)
                    continue
            elif not _blocking(look.observations) or _detached(look.observations):
                break  # clear, or a drop target that is gone (it never comes back)
            await asyncio.sleep(POLL_S)
            look = await self._check(action, look.ref, target)
        return look, moved

    async def _point(self, ref: str) -> dict:
        result = await self.race.world.with_ref("scrollIntoView", ref, during=f"scrolling {ref} into view")
        self._seen_live()
        if not result["value"]:
            raise RaceError("not_actionable", f"{ref} has no visible area to act on (it is zero-sized or off the page).")
        return result["value"]

    async def _act(self, action, look: _Look, value, key, before_act) -> RunOutcome:
        ref = look.ref
        if action == "upload":
            look.point = look.point or {}  # a file input needs no point: its files are set, not clicked
        if look.point is None or (action == "drag" and look.drop is None):
            where = ref if look.point is None else "the element the drag ends on"
            raise RaceError("not_actionable", f"{where} has no visible area to act on (it is zero-sized or off the page).")
        if action in ("fill", "type"):
            await self._require_text_entry(action, ref)
        if before_act is not None:
            await before_act()
        if self.race.world.generation != self._live_generation:
            # The point was measured on a document that is gone: a click there would land on the new page.
            raise navigated_before_done(action, ref)
        page = self.race.page
        try:
            await asyncio.wait_for(self._perform(action, look, value, key), self.race.world.timeout_s)
        except TimeoutError as error:
            raise page_unresponsive(f"doing the {action} on {ref}", self.race.world.timeout_s) from error
        except PlaywrightError as error:
            if page.is_closed():
                raise context_closed() from error
            first = str(error).splitlines()[0]
            if "Unknown key" in first:
                raise RaceError("bad_input", f"{first}. Keys are named as in Playwright: 'Enter', 'Tab', "
                                             "'ArrowLeft', 'Control+A', 'a'.") from error
            raise RaceError("not_actionable", f"The {action} on {ref} failed: {first}") from error
        return RunOutcome(action=action, acted=True, ref=ref, timestamp=_now())

    async def _perform(self, action, look: _Look, value, key) -> None:
        page, ref = self.race.page, look.ref
        assert look.point is not None
        if action == "upload":
            await self._upload(ref, value or "")
            return
        if action == "fill" and await self._set_value(ref, value or ""):
            return
        x, y = look.point["x"], look.point["y"]
        if action == "click":
            await page.mouse.click(x, y)
        elif action == "dblclick":
            await page.mouse.dblclick(x, y)
        elif action == "hover":
            await page.mouse.move(x, y)
        elif action in ("check", "uncheck"):
            await self._set_checked(ref, action == "check", x, y)
        elif action == "drag":
            assert look.drop is not None
            # As Playwright's drag_to(steps=DRAG_STEPS) does, which is what the exported test calls.
            await page.mouse.move(x, y)
            await page.mouse.down()
            await page.mouse.move(look.drop["x"], look.drop["y"], steps=DRAG_STEPS)
            await page.mouse.up()
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

    async def _set_checked(self, ref: str, wanted: bool, x: float, y: float) -> None:
        """Click a checkbox or radio only when it is not already in the wanted state, and check that it changed
        (as Playwright's check() does); an element the click re-rendered away cannot be asked."""
        if bool((await self.race.world.with_ref("checked", ref))["value"]) == wanted:
            return
        await self.race.page.mouse.click(x, y)
        try:
            now = bool((await self.race.world.with_ref("checked", ref))["value"])
        except RaceError as error:
            if error.kind == "stale_ref":
                return
            raise
        if now != wanted:
            state = "checked" if now else "unchecked"
            raise RaceError("not_actionable", f"Clicking {ref} did not change it: it is still {state}. The page may "
                                              "ignore the click (observe_element_state shows its state).")

    async def _set_value(self, ref: str, value: str) -> bool:
        """A date, time, colour or range input takes its value as Playwright's fill gives it (keystrokes depend on
        the locale's segments); True when the field was one of those."""
        result = (await self.race.world.with_ref("setValue", ref, value))["value"]
        if result.get("error"):
            raise RaceError("not_actionable", f"Cannot fill {ref}: {result['error']}.")
        return bool(result.get("handled"))

    async def _upload(self, ref: str, files: str) -> None:
        """Set a file input's files (one path per line) as Playwright does, which also carries them to a browser on
        another machine."""
        described = await self.race.describe(ref)
        if described.get("inputType") != "file":
            raise RaceError("not_actionable", f"{ref} is not a file input (<input type=file>): nothing to upload to.")
        selector = path_selector(str(described.get("path") or ""))
        if selector is None:
            raise RaceError("not_actionable", f"{ref} sits inside a shadow root; upload to it is not supported.")
        paths = [line.strip() for line in files.splitlines() if line.strip()]
        await self.race.page.locator(selector).set_input_files(paths, timeout=self.timeout_ms)

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


def _outcome(action: ActionName, ref: str, observations: list[Observation],
             moved: ReResolved | None = None) -> RunOutcome:
    return RunOutcome(action=action, acted=False, ref=ref, timestamp=_now(), observations=observations,
                      reResolved=moved)


def _now() -> float:
    return time.time() * 1000
