"""PilotExecutor: runs one pilot action on the page (seed 003's ActionExecutor), through the page's PageDriver.

In the seed's order: repetition detection (a third identical action in a row is refused), selector normalization,
then the action. Clicks, hovers, key presses, typing, choosing an option and uploads go through the driver with the
normalized selector as the target: it is checked first by the race preflight, the facts are told once and the
acknowledged retry acts once what can clear has cleared; a target that stays blocked is not acted on, and the
outcome carries its facts and a sentence made of them. Navigating, waiting, scrolling, verifying and screenshots are
the driver's too (its navigation, waits, bounded evaluations and captures).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from pydantic import BaseModel, Field

from studio.browser.urls import normalize_url
from studio.models.race import ActionName
from studio.models.race import Observation as Fact
from studio.pilot.actions import PilotAction
from studio.pilot.normalize import normalize_selector
from studio.pilot.verify import verify
from studio.race.actions import INFORMATIONAL
from studio.race.driver import PageDriver
from studio.race.errors import RaceError, context_closed
from studio.race.fact_lines import fact_line

ACT_TIMEOUT_MS = 5_000
NAVIGATION_TIMEOUT_MS = 20_000
SCREENSHOT_TIMEOUT_MS = 15_000
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


# Scroll an element into view unless it is wholly in view already (as Playwright's scrollIntoViewIfNeeded).
SCROLL_INTO_VIEW_JS = """(el) => {
  const r = el.getBoundingClientRect();
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  if (!inside) el.scrollIntoView({block: 'center', inline: 'center'});
  return true;
}"""
IS_PASSWORD_JS = "(el) => el instanceof HTMLInputElement && el.type === 'password'"
# The pilot's action types that act on an element, as the driver names them.
DRIVER_ACTIONS: dict[str, ActionName] = {"click": "click", "hover": "hover", "press": "press", "type": "fill",
                                         "select": "select", "upload": "upload"}


class PilotExecutor:
    """Runs pilot actions through one page's driver, remembering the last action for the repetition limit (the
    driver keeps the race engine's state — facts already told — for the page's life).

    The driver is the pilot's own: its acknowledged retry waits up to `timeout_ms` for what can clear."""

    def __init__(self, driver: PageDriver, screenshots_dir: Path, timeout_ms: float = ACT_TIMEOUT_MS,
                 allow_files: bool = False, uploads_dir: Path | None = None) -> None:
        self.driver, self.screenshots_dir, self.timeout_ms = driver, screenshots_dir, timeout_ms
        self.allow_files = allow_files
        self.uploads_dir = uploads_dir or screenshots_dir.parent / "uploads"
        driver.runner.timeout_ms = timeout_ms
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
        # What the action does (its description aside): two verifies of different texts are not the same action.
        key = (action.action, selector, action.value, action.url, action.duration,
               repr([e.model_dump() for e in action.expect or []]))
        self._repeats = self._repeats + 1 if key == self._last else 1
        self._last = key
        if self._repeats >= MAX_REPEATS:
            outcome.refused = True
            outcome.error = (f"Refused: this is the {_ordinal(self._repeats)} identical {action.action} in a row "
                             f"(the limit is {MAX_REPEATS - 1}); it did not run. Repeating it will not change the page: "
                             "read the observation and try something else.")
            return outcome
        try:
            with self.driver.requests() as watch:
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
            if error.kind == "context_closed" or self.driver.closed:
                raise context_closed() from error
            outcome.error = error.message
        outcome.durationMs = round((time.monotonic() - started) * 1000)
        return outcome

    def _uploadable(self, name: str) -> str:
        """A file the AI may send: a regular file inside the uploads folder the tester chose (the session's
        uploads/, or --upload-dir), named relative to it; never a path elsewhere, nor a link out of it."""
        folder = self.uploads_dir.resolve()
        path = (folder / name).resolve()
        if not path.is_relative_to(folder):
            raise ActionFailed(f"Refused to upload {name!r}: files are sent only from the uploads folder "
                               f"({self.uploads_dir}); put the file there and name it relative to it.")
        if not path.is_file():
            raise ActionFailed(f"Refused to upload {name!r}: there is no such file in the uploads folder "
                               f"({self.uploads_dir}).")
        return str(path)

    def _openable(self, url: str) -> str:
        """`url` when the session may open it: the URL policy of every command (http and https; file: only when
        allowed), on the session's origins (ActionFailed with the sentence otherwise)."""
        shown = url if len(url) <= 120 else url[:117] + "..."
        try:
            url = normalize_url(url, allow_files=self.allow_files)
        except ValueError as error:
            raise ActionFailed(f"Refused to open {shown}: {error}.") from None
        pin = self.driver.pin
        if pin is not None and not pin.allows(url):
            origin = pin.origin_of(url) or url
            raise ActionFailed(f"Refused to open {shown}: {origin} is not one of this session's origins "
                               f"({', '.join(sorted(pin.allowed_origins))}). If the AI should go there, start the "
                               f"session again with --allow-origin {origin}.")
        return url

    async def _route(self, action: PilotAction, selector: str | None) -> str | None:
        kind, value, driver = action.action, action.value or "", self.driver
        if kind == "navigate":
            await driver.navigate(self._openable(urljoin(driver.url, action.url or value)), wait_until="load",
                                  timeout_ms=NAVIGATION_TIMEOUT_MS)
        elif kind == "wait":
            await self._wait(selector, action.duration)
        elif kind == "screenshot":
            return await self._screenshot(selector)
        elif kind == "scroll":
            await self._scroll(selector, value)
        elif kind == "verify":
            failed = await verify(driver, action.expect or [])
            if failed:
                raise ActionFailed(failed)
        elif kind == "press" and not selector:
            await driver.press(value)
        else:
            assert selector is not None  # the action's model requires one for the others
            await self._act(kind, selector, value)
        return None

    async def _act(self, kind: str, selector: str, value: str) -> None:
        """An action on the element the selector names, through the driver's preflight (facts, acknowledged retry)."""
        name = DRIVER_ACTIONS[kind]
        if name == "upload":
            files = [self._uploadable(p.strip()) for p in value.split(",") if p.strip()]
            outcome = await self.driver.upload(selector, files, timeout_ms=self.timeout_ms)
        else:
            outcome = await self.driver.do(name, selector, value=value if name in ("fill", "select") else None,
                                           key=value if name == "press" else None, timeout_ms=self.timeout_ms)
        if not outcome.acted:
            facts = blocked_by(outcome.observations)
            raise ActionFailed(f"The {kind} on {selector!r} did not happen: {facts.reason}.", facts)

    async def _wait(self, selector: str | None, duration: float | None) -> None:
        if not selector:
            await asyncio.sleep((duration or 0) / 1000)
            return
        timeout = duration if duration is not None else self.timeout_ms
        if not await self.driver.wait_for(selector, "visible", timeout_ms=timeout):
            raise ActionFailed(f"{selector!r} was not visible on {self.driver.url} within {timeout / 1000:g} s.")

    async def _scroll(self, selector: str | None, value: str) -> None:
        if not selector:
            await self.driver.evaluate("(dy) => window.scrollBy(0, dy)", _pixels(value, self.driver),
                                       during="scrolling the page")
        elif await self.driver.evaluate_on(selector, SCROLL_INTO_VIEW_JS, timeout_ms=self.timeout_ms) is None:
            raise ActionFailed(f"No element matches {selector!r} on {self.driver.url} (waited "
                               f"{self.timeout_ms / 1000:g} s).")

    def _secret_mark(self, value: str) -> str:
        """The same mark for the same secret, another for another one (an export reads each from its variable)."""
        number = self._secrets.setdefault(value, len(self._secrets) + 1)
        return f"•••••••• (secret {number})"

    async def _is_password(self, selector: str) -> bool:
        # None: the field went away with what typing did (a submit on input): nothing to tell
        return bool(await self.driver.evaluate_on(selector, IS_PASSWORD_JS, timeout_ms=self.timeout_ms))

    async def _screenshot(self, selector: str | None) -> str:
        self.screenshots_dir.mkdir(parents=True, exist_ok=True)
        path = self.screenshots_dir / f"action-{int(time.time() * 1000)}.png"
        if selector:
            await self.driver.screenshot(path=path, target=selector, timeout_ms=self.timeout_ms)
        else:
            await self.driver.screenshot(path=path, timeout_ms=SCREENSHOT_TIMEOUT_MS)
        return f"{self.screenshots_dir.name}/{path.name}"


def _pixels(value: str, driver: PageDriver) -> float:
    """A scroll's distance: the value in pixels (negative scrolls up), else one viewport down."""
    try:
        return float(value)
    except ValueError:
        return float(driver.viewport[1])


def _ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st…"""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
