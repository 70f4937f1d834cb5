"""PageDriver: the one class that acts on a page — race preflight on it, the action runner, an optional step
recorder, the typing rules (pinned origins), and one lock so that a click never interleaves with a snapshot or a
recorded gesture.

Every front end and agent that acts on a page (the GUI's race service, the toolbelt and so MCP, preflight and its
sandbox, the playground, game evaluation, goal scenarios, the pilot, the demo tour) goes through a driver: while it
records, actions and navigations become steps; otherwise they just run. A capability names its target however it
likes (a ref, a Playwright selector, a LocatorSpec: `do`), and adds its own vocabulary on top, never its own click.
The lock is the caller's to hold around a unit of work (`async with driver.lock:`); the methods do not take it,
so a recorded gesture can hold it across several of them.

A recorder may finish a step in the background: the action's outcome is answered as soon as it is known, while the
recorder still waits for the requests the action caused and the messages they bring. The next call that touches
the page waits for that step first (`settle`), so steps stay in order and nothing else reads the page meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Literal

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from studio.browser.errors import describe_navigation_failure
from studio.browser.fleet import FleetMember
from studio.browser.origins import OriginPolicy
from studio.models.locator import LocatorSpec
from studio.models.race import ActionName, ActionOutcome, Observation, PageSnapshot
from studio.models.recording import RecordedStep, StepAction, StepOrigin
from studio.race.actions import INFORMATIONAL, ActionRunner, RunOutcome
from studio.race.errors import RaceError, context_closed, page_unresponsive
from studio.race.fact_lines import fact_line
from studio.race.page import RacePage
from studio.race.page_reads import PageReads
from studio.race.recorder import RequestWatch, StepRecorder, StepSink
from studio.race.targets import State, Target, describe, ref_of
from studio.race.typing_rules import check_pinned, focused_field, is_secret_field, types_text
from studio.race.world import PAGE_TIMEOUT_S

log = logging.getLogger(__name__)

# Longer than any step may take to finish (the recorder's 5 s wait for requests, then a few page reads).
SETTLE_TIMEOUT_S = 20.0
NAVIGATION_TIMEOUT_MS = 15_000
WaitUntil = Literal["commit", "domcontentloaded", "load", "networkidle"]
TYPING = frozenset({"fill", "type"})
Closer = Callable[[], Awaitable[None]]


class PageDriver(PageReads):
    """The race engine on one page, with its runner, its recorder while recording, its typing rules and its lock.

    `pin`: the origins text may be typed on (None: anywhere). `closer`: closes what the driver was opened with (the
    runtime's fresh context for it), called by `close()`. `where`: the browser it runs on, for records.
    """

    def __init__(self, page: Page, preflight: bool = True, first_ref: int = 1,
                 timeout_s: float = PAGE_TIMEOUT_S, pin: OriginPolicy | None = None,
                 closer: Closer | None = None, where: str = "") -> None:
        self.page = page
        self.race = RacePage(page, preflight=preflight, first_ref=first_ref, timeout_s=timeout_s)
        self.runner = ActionRunner(self.race)
        self.recorder: StepRecorder | None = None
        self.lock = asyncio.Lock()
        self.pin = pin
        self.where = where
        self.member: FleetMember | None = None  # the fleet's browser it was placed on (None: not the fleet's)
        self._closer = closer
        self._cdp: CDPSession | None = None
        self._background = False
        self._finishing: asyncio.Task[ActionOutcome] | None = None

    @property
    def recording(self) -> bool:
        return self.recorder is not None

    def record(self, session_id: str, sink: StepSink, origin: StepOrigin, first_index: int = 0,
               background: bool = False) -> StepRecorder:
        """Record from now on: every executed action and navigation becomes a RecordedStep in `sink`. With
        `background`, an action answers before its step is finished (see the module docstring)."""
        self.recorder = StepRecorder(self.race, self.runner, session_id, sink, origin=origin, first_index=first_index)
        self._background = background
        return self.recorder

    def stop_recording(self) -> None:
        self.recorder = None

    async def settle(self) -> None:
        """Wait until the step being finished in the background is recorded (at most SETTLE_TIMEOUT_S)."""
        task, self._finishing = self._finishing, None
        if task is None:
            return
        try:
            await asyncio.wait_for(task, SETTLE_TIMEOUT_S)
        except asyncio.CancelledError:
            if not task.done():
                raise  # we were cancelled, not the step
            log.warning("A step was cancelled before it was recorded.")
        except Exception as error:  # the action was answered long ago; only its record is lost
            log.warning("A step could not be recorded: %s", error, exc_info=error)

    async def navigate(self, url: str, wait_until: WaitUntil = "load",
                       timeout_ms: float | None = None) -> int | None:
        """Open `url` (a navigate step while recording); the HTTP status, None for same-document navigations.
        A URL that cannot be opened raises RaceError(navigation_failed) with the reason and a next step."""
        await self.settle()
        try:
            if self.recorder is not None:
                return await self.recorder.navigate(url)
            response = await self.page.goto(url, wait_until=wait_until, timeout=timeout_ms)
        except PlaywrightError as error:
            if self.page.is_closed():
                raise context_closed() from error
            raise RaceError("navigation_failed", str(describe_navigation_failure(url, error))) from error
        return response.status if response else None

    async def reload(self, wait_until: WaitUntil = "load", timeout_ms: float = NAVIGATION_TIMEOUT_MS) -> int | None:
        """Reload the page (a reload step while recording); the HTTP status."""
        await self.settle()
        try:
            response = await self.page.reload(wait_until=wait_until, timeout=timeout_ms)
        except PlaywrightError as error:
            if self.page.is_closed():
                raise context_closed() from error
            raise RaceError("navigation_failed", f"Reloading {self.page.url} failed: "
                                                 f"{str(error).splitlines()[0]}") from error
        self._record_plain("reload", url=self.page.url)
        return response.status if response else None

    async def go_back(self) -> int | None:
        """Go back in the page's history (a navigate step to where it lands, while recording); the HTTP status, None
        for same-document moves (a hash route) or when there is no earlier page."""
        await self.settle()
        before = self.page.url
        try:
            response = await self.page.go_back()
        except PlaywrightError as error:
            if self.page.is_closed():
                raise context_closed() from error
            raise RaceError("navigation_failed", f"Going back failed: {str(error).splitlines()[0]}") from error
        if response is not None or self.page.url != before:
            self._record_plain("navigate", url=self.page.url)
        return response.status if response else None

    async def act(self, action: ActionName, ref: str, value: str | None = None,
                  key: str | None = None, force: bool = False) -> ActionOutcome:
        """Run an action through the race preflight (and the recorder, while recording): facts instead of acting
        when something stands in the way; the same action again once they were told waits for what can clear.
        Typing follows the typing rules (pinned origins). `force` acts without the preflight."""
        await self.settle()
        if action in TYPING or (action == "press" and key and types_text(key)):
            await self.check_typing(ref, action)
        recorder = self.recorder
        if recorder is None or force:
            return await self.runner.run(action, ref, value=value, key=key, force=force)
        if not self._background:
            return await recorder.act(action, ref, value=value, key=key)
        known: asyncio.Future[ActionOutcome] = asyncio.get_running_loop().create_future()

        def answer(outcome: ActionOutcome) -> None:
            if not known.done():
                known.set_result(outcome)

        self.runner.on_outcome = answer
        step = asyncio.ensure_future(recorder.act(action, ref, value=value, key=key))
        try:
            await asyncio.wait({step, known}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            step.cancel()
            raise
        finally:
            self.runner.on_outcome = None
        if step.done() or not known.done():
            return await step  # done already (or failed before acting)
        self._finishing = step
        return known.result()

    async def do(self, action: ActionName, target: Target, value: str | None = None, key: str | None = None,
                 force: bool = False, timeout_ms: float = 5000, state: State = "attached") -> RunOutcome:
        """Act as a script means it: find the target (a ref, a selector or a locator, waiting up to `timeout_ms`
        for it), act through the preflight, and when facts stand in the way, acknowledge them at once (the retry
        waits for what can clear, as Playwright's actionability checks do). With `force`, a target still blocked
        after that wait is acted on anyway (the seed's force: true), and the outcome says `forced`. A target that
        stays blocked comes back not acted, with its facts; errors are RaceError."""
        ref = await self.ref_of(target, timeout_ms=timeout_ms, state=state)
        outcome = await self.act(action, ref, value=value, key=key)
        told = list(outcome.observations)
        if not outcome.acted:  # told once (a link's navigation fact too); the acknowledged retry acts when it can
            outcome = await self.act(action, outcome.ref, value=value, key=key)
            told = list(outcome.observations) or told  # still blocked: what stands in the way now
        if not outcome.acted and _blocked(outcome) and force:
            outcome = await self.act(action, outcome.ref, value=value, key=key, force=True)
        assert isinstance(outcome, RunOutcome)
        outcome.told = told
        return outcome

    async def must(self, action: ActionName, target: Target, value: str | None = None, key: str | None = None,
                   timeout_ms: float = 5000) -> RunOutcome:
        """`do`, for a script that cannot go on without the action: one that stays blocked raises
        RaceError(not_actionable) with the facts that stood in the way as a sentence."""
        outcome = await self.do(action, target, value=value, key=key, timeout_ms=timeout_ms)
        if not outcome.acted:
            raise RaceError("not_actionable", f"The {action} on {describe(target)} did not happen: "
                                              f"{blocked_sentence(outcome.observations)}.")
        return outcome

    async def upload(self, target: Target, files: list[str], timeout_ms: float = 5000) -> RunOutcome:
        """Set a file input's files (the caller decides which files may be sent)."""
        return await self.do("upload", target, value="\n".join(files), timeout_ms=timeout_ms)

    async def ref_of(self, target: Target, timeout_ms: float = 5000, state: State = "attached") -> str:
        """The ref of the first element a ref, selector or locator names (waiting for it); RaceError otherwise."""
        await self.settle()
        return await ref_of(self.race, target, timeout_ms, state)

    async def check_typing(self, ref: str | None, what: str) -> None:
        """The typing rules: the field's document (the focused one when `ref` is None) must be on a pinned origin,
        and a key that types a character never goes into a password or one-time-code field."""
        if self.pin is None:
            return
        check_pinned(self.pin, self.page.url, what)
        if ref is not None:
            url = (await self.race.world.with_ref("documentUrl", ref, during=f"checking where {ref} is"))["value"]
            check_pinned(self.pin, str(url), what)
        else:
            focus = await focused_field(self.page)
            check_pinned(self.pin, focus.url, what)

    def requests(self) -> RequestWatch:
        """`with driver.requests() as watch: …; await watch.quiet(settle_s, max_s)` — the requests started meanwhile."""
        return RequestWatch(self.race)

    async def close(self) -> None:
        """Close what the driver was opened with (its context, when the runtime opened one for it); idempotent."""
        await self.settle()
        closer, self._closer = self._closer, None
        if closer is not None:
            await closer()

    async def bring_to_front(self) -> None:
        """Make the page the browser's active tab (it gets the keys and draws its frames); never raises."""
        try:
            await self._bounded(self.page.bring_to_front(), "bringing the page to the front")
        except (PlaywrightError, RaceError) as error:
            log.info("could not bring the page to the front: %s", error)

    async def press(self, key: str, rules_checked: bool = False) -> None:
        """Press a key on whatever has the keyboard focus (the page itself when nothing does); a press step
        without a locator while recording. A key that types a character follows the typing rules (unless the
        caller checked them itself: `rules_checked`)."""
        await self.settle()
        if types_text(key) and self.pin is not None and not rules_checked:  # a pinned job's key: a look at the focus
            focus = await focused_field(self.page)
            check_pinned(self.pin, self.page.url, f"pressing {key}")
            check_pinned(self.pin, focus.url, f"pressing {key}")
            if is_secret_field(focus.field):
                raise RaceError("bad_input", f"Refused to type {key!r} into a password or one-time-code field: fill "
                                             "the field instead, which never records secrets.")
        try:
            if self.recorder is not None:
                await self.recorder.press_key(key)  # it watches what the key caused, as for any step
                return
            await asyncio.wait_for(self.page.keyboard.press(key), self.race.world.timeout_s)
        except TimeoutError as error:
            raise page_unresponsive(f"pressing {key}", self.race.world.timeout_s) from error
        except PlaywrightError as error:  # a key Playwright does not know ("Unknown key"), or the page closed
            if self.page.is_closed():
                raise context_closed() from error
            raise RaceError("bad_input", f"Pressing {key!r} failed: {str(error).splitlines()[0]}. Keys are named as "
                                         "in Playwright: 'Enter', 'Tab', 'ArrowLeft', 'Control+A', 'a'.") from error

    def record_check(self, action: StepAction, locator: LocatorSpec | None = None, value: str | None = None) -> None:
        """While recording: a check the agent waited for (text shown, an element's state, the URL) becomes a step,
        so the exported test waits for it too."""
        self._record_plain(action, url=self.page.url, locator=locator, value=value)

    async def snapshot(self, offset: int = 0, part_chars: int | None = None) -> PageSnapshot:
        """The page's snapshot with refs (in parts: see RacePage.snapshot); the runner keeps what it says of each
        ref, so that an element the page replaces before an action reaches it can still be found (see
        studio.race.rebind)."""
        snapshot = await self.race.snapshot(offset, part_chars)
        self.runner.rebind.note_snapshot(snapshot.text)
        return snapshot

    async def observe(self, ref: str) -> list[Observation]:
        """Every fact about the element, without acting."""
        return await self.race.observe(ref)

    def _record_plain(self, action: StepAction, url: str, locator: LocatorSpec | None = None,
                      value: str | None = None) -> None:
        """A step that needs no preflight nor request watch: a history move, or a check the agent waited for."""
        recorder = self.recorder
        if recorder is None:
            return
        step = RecordedStep(session_id=recorder.session_id, index=recorder.index, at=time.time() * 1000,
                            origin=recorder.origin, action=action, url=url, locator=locator, value=value)
        recorder.index += 1
        recorder.sink(step)


def blocked_sentence(facts: list[Observation], otherwise: str = "the action did not happen") -> str:
    """The facts that stood in the way, as one sentence (informational ones left out)."""
    return "; ".join(fact_line(fact) for fact in facts if fact.type not in INFORMATIONAL) or otherwise


def _blocked(outcome: ActionOutcome) -> bool:
    """Facts other than the informational ones stood in the way (a link's navigation fact is no obstacle)."""
    return any(item.type not in INFORMATIONAL for item in outcome.observations)
