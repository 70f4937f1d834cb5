"""PilotExecutor: runs one pilot action on the page (seed 003's ActionExecutor), through the race preflight.

In the seed's order: repetition detection (a third identical action in a row is refused), selector normalization,
then the action. Clicks, hovers and key presses on an element go through studio.race.actions.ActionRunner: the
target is checked first, the facts are told once and the acknowledged retry acts once what can clear has cleared;
a target that stays blocked is not acted on, and the outcome carries its facts and a sentence made of them. Typing
and choosing an option stay Playwright's fill and select_option; when one fails, the field's facts say why.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from pydantic import BaseModel, Field

from studio.models.race import ActionName
from studio.models.race import Observation as Fact
from studio.pilot.actions import PilotAction
from studio.pilot.normalize import normalize_selector
from studio.pilot.verify import verify
from studio.race.actions import INFORMATIONAL, ActionRunner, relevant
from studio.race.errors import RaceError
from studio.race.fact_lines import fact_line
from studio.race.locators import DOM_PATH_JS
from studio.race.page import RacePage
from studio.race.rebind import path_selector
from studio.race.recorder import RequestWatch

ACT_TIMEOUT_MS = 5_000
NAVIGATION_TIMEOUT_MS = 20_000
SETTLE_S = 0.15  # quiet network this long after an action before the next one (or the observation) looks
MAX_REPEATS = 3  # the seed's limit: the third identical action in a row is refused


class BlockedAction(BaseModel):
    """What stood in the way of an action: a sentence made of the race preflight's facts, and the facts."""

    reason: str
    facts: list[dict[str, Any]] = Field(default_factory=list)


class ActionOutcome(BaseModel):
    """What one action of a batch did: ok, or the error, what blocked it (facts) or that it was refused as a
    repetition; the selector after normalization and the rules that changed it."""

    index: int
    action: dict[str, Any] = Field(description="The action as the AI gave it.")
    selector: str | None = Field(default=None, description="The selector used, after normalization.")
    rules: list[str] = Field(default_factory=list, description="Normalization rules that changed the selector.")
    ok: bool
    error: str | None = None
    blocked: BlockedAction | None = None
    refused: bool = False
    durationMs: int = 0
    detail: str | None = Field(default=None, description="What the action produced (a screenshot's path).")
    secret: bool = Field(default=False, description="A type action into a password field (an export reads the value "
                                                    "from the environment, never from the session).")


class ActionFailed(Exception):
    """An action did not do what it should; the message is the outcome's error, `blocked` its facts."""

    def __init__(self, message: str, blocked: BlockedAction | None = None) -> None:
        super().__init__(message)
        self.blocked = blocked


def blocked_by(facts: list[Fact], reason: str = "") -> BlockedAction:
    """The facts that stood in the way (the navigation fact informs, it does not block) as a sentence."""
    said = "; ".join(fact_line(fact) for fact in facts if fact.type not in INFORMATIONAL)
    return BlockedAction(reason=said or reason or "the action did not happen",
                         facts=[fact.model_dump(mode="json") for fact in facts])


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


class PilotExecutor:
    """Runs pilot actions on one page, remembering the last action for the repetition limit and the race engine's
    state (facts already told) for the page's life."""

    def __init__(self, page: Page, screenshots_dir: Path, timeout_ms: float = ACT_TIMEOUT_MS) -> None:
        self.page, self.screenshots_dir, self.timeout_ms = page, screenshots_dir, timeout_ms
        self.race = RacePage(page)
        self.runner = ActionRunner(self.race, timeout_ms=timeout_ms)
        self._last: tuple | None = None
        self._repeats = 0
        self._secrets: dict[str, int] = {}  # a typed secret -> its number in the observations' marks
        self.timing: Callable[[str], None] | None = None  # told "action_start" and "action_settled" (a benchmark)

    async def execute(self, action: PilotAction, index: int = 0) -> ActionOutcome:
        """Run `action`; never raises for what the page does (a closed page raises RaceError context_closed)."""
        started = time.monotonic()
        if self.timing is not None:
            self.timing("action_start")
        selector, rules = normalize_selector(action.selector) if action.selector else (None, [])
        outcome = ActionOutcome(index=index, action=action.given(), selector=selector, rules=rules, ok=False)
        key = (action.action, selector, action.value, action.url)
        self._repeats = self._repeats + 1 if key == self._last else 1
        self._last = key
        if self._repeats >= MAX_REPEATS:
            outcome.refused = True
            outcome.error = (f"Refused: this is the {_ordinal(self._repeats)} identical {action.action} in a row "
                             f"(the limit is {MAX_REPEATS - 1}); it did not run. Repeating it will not change the page: "
                             "read the observation and try something else.")
            return outcome
        try:
            with RequestWatch(self.race) as watch:
                outcome.detail = await self._route(action, selector)
                if action.action == "type" and selector:
                    outcome.secret = await self._is_password(selector)
                    if outcome.secret:  # never written into an observation (the AI's own action file keeps it)
                        outcome.action = {**outcome.action, "value": self._secret_mark(str(action.value or ""))}
                # What the action sent is answered before the next action or the observation looks at the page.
                await watch.quiet(SETTLE_S, self.timeout_ms / 1000)
            if self.timing is not None:
                self.timing("action_settled")
            outcome.ok = True
        except ActionFailed as failure:
            outcome.error, outcome.blocked = str(failure), failure.blocked
        except RaceError as error:
            if error.kind == "context_closed":
                raise
            outcome.error = error.message
        except PlaywrightError as error:
            if self.page.is_closed():
                raise RaceError("context_closed", "The page was closed.") from error
            outcome.error = _first_line(error)
        outcome.durationMs = round((time.monotonic() - started) * 1000)
        return outcome

    async def _route(self, action: PilotAction, selector: str | None) -> str | None:
        kind, value = action.action, action.value or ""
        if kind == "navigate":
            url = urljoin(self.page.url, action.url or value)
            await self.page.goto(url, wait_until="load", timeout=NAVIGATION_TIMEOUT_MS)
            return None
        if kind == "wait":
            if selector:
                timeout = action.duration if action.duration is not None else self.timeout_ms
                await self.page.locator(selector).first.wait_for(state="visible", timeout=timeout)
            else:
                await asyncio.sleep((action.duration or 0) / 1000)
            return None
        if kind == "screenshot":
            return await self._screenshot(selector)
        if kind == "scroll":
            if selector:
                await self.page.locator(selector).first.scroll_into_view_if_needed(timeout=self.timeout_ms)
            else:
                await self.page.evaluate("(dy) => window.scrollBy(0, dy)", _pixels(value, self.page))
            return None
        if kind == "verify":
            failed = await verify(self.page, action.expect or [])
            if failed:
                raise ActionFailed(failed)
            return None
        if kind == "press" and not selector:
            await self.page.keyboard.press(value)
            return None
        assert selector is not None  # the action's model requires one for the others
        if kind in ("click", "hover", "press"):
            await self._preflight_act(kind, selector, key=value if kind == "press" else None)
            return None
        target = self.page.locator(selector).first
        try:
            if kind == "type":
                await target.fill(value, timeout=self.timeout_ms)
            elif kind == "select":
                await target.select_option(value, timeout=self.timeout_ms)
            elif kind == "upload":
                await target.set_input_files([p.strip() for p in value.split(",") if p.strip()],
                                             timeout=self.timeout_ms)
        except PlaywrightError as error:
            if self.page.is_closed():
                raise
            name: ActionName = "fill" if kind == "type" else "select"
            raise ActionFailed(_first_line(error), await self._facts_about(name, selector)) from error
        return None

    def _secret_mark(self, value: str) -> str:
        """The same mark for the same secret, another for another one (an export reads each from its variable)."""
        number = self._secrets.setdefault(value, len(self._secrets) + 1)
        return f"•••••••• (secret {number})"

    async def _is_password(self, selector: str) -> bool:
        try:
            return bool(await self.page.locator(selector).first.evaluate(
                "(el) => el instanceof HTMLInputElement && el.type === 'password'", timeout=self.timeout_ms))
        except PlaywrightError:
            return False  # the field went away with what typing did (a submit on input): nothing to tell

    async def _ref(self, selector: str) -> str | None:
        """The race engine's ref of the first element the (Playwright) selector matches; None inside a shadow root,
        which the race engine cannot name by a CSS path."""
        target = self.page.locator(selector).first
        try:
            await target.wait_for(state="attached", timeout=self.timeout_ms)
            path = await target.evaluate(DOM_PATH_JS, timeout=self.timeout_ms)
        except PlaywrightError as error:
            if "Timeout" in str(error):
                raise ActionFailed(f"No element matches {selector!r} on {self.page.url} (waited "
                                   f"{self.timeout_ms / 1000:g} s).") from error
            raise ActionFailed(f"{selector!r} cannot be used: {_first_line(error)}") from error
        css = path_selector(path)
        return None if css is None else (await self.race.ref_for_selector(css))[0].ref

    async def _preflight_act(self, name: ActionName, selector: str, key: str | None = None) -> None:
        ref = await self._ref(selector)
        if ref is None:  # no ref to check: Playwright's own actionability checks
            target = self.page.locator(selector).first
            if name == "click":
                await target.click(timeout=self.timeout_ms)
            elif name == "hover":
                await target.hover(timeout=self.timeout_ms)
            else:
                await target.press(key or "", timeout=self.timeout_ms)
            return
        outcome = await self.runner.run(name, ref, key=key)
        if not outcome.acted:  # told once; the acknowledged retry waits for what can clear, then acts
            outcome = await self.runner.run(name, ref, key=key)
        if not outcome.acted:
            facts = blocked_by(outcome.observations)
            raise ActionFailed(f"The {name} on {selector!r} did not happen: {facts.reason}.", facts)

    async def _facts_about(self, name: ActionName, selector: str) -> BlockedAction | None:
        """The preflight's facts about a field an action failed on (None when there is no such element)."""
        try:
            ref = await self._ref(selector)
            if ref is None:
                return None
            return blocked_by(relevant(name, (await self.race.observe_for_action(ref))[0]))
        except (ActionFailed, RaceError):
            return None

    async def _screenshot(self, selector: str | None) -> str:
        self.screenshots_dir.mkdir(parents=True, exist_ok=True)
        path = self.screenshots_dir / f"action-{int(time.time() * 1000)}.png"
        if selector:
            await self.page.locator(selector).first.screenshot(path=str(path), timeout=self.timeout_ms)
        else:
            await self.page.screenshot(path=str(path))
        return f"{self.screenshots_dir.name}/{path.name}"


def _pixels(value: str, page: Page) -> float:
    """A scroll's distance: the value in pixels (negative scrolls up), else one viewport down."""
    try:
        return float(value)
    except ValueError:
        size = page.viewport_size
        return float(size["height"]) if size else 600.0


def _ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st…"""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
