"""PageDriver: one page as an agent or the tester drives it — race preflight on it, the action runner, an optional
step recorder, and one lock so that a click never interleaves with a snapshot or a recorded gesture.

Every front end that acts on a page (the GUI's race service, the MCP contexts, later the pilot, game and scenario
agents) goes through a driver: while it records, actions and navigations become steps; otherwise they just run.
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

from playwright.async_api import Page

from studio.models.locator import LocatorSpec
from studio.models.race import ActionName, ActionOutcome, Observation, PageSnapshot
from studio.models.recording import RecordedStep, StepAction, StepOrigin
from studio.race.actions import ActionRunner
from studio.race.errors import page_unresponsive
from studio.race.page import RacePage
from studio.race.recorder import StepRecorder, StepSink
from studio.race.world import PAGE_TIMEOUT_S

log = logging.getLogger(__name__)

# Longer than any step may take to finish (the recorder's 5 s wait for requests, then a few page reads).
SETTLE_TIMEOUT_S = 20.0


class PageDriver:
    """The race engine on one page, with its runner, its recorder while recording, and its lock."""

    def __init__(self, page: Page, preflight: bool = True, first_ref: int = 1,
                 timeout_s: float = PAGE_TIMEOUT_S) -> None:
        self.page = page
        self.race = RacePage(page, preflight=preflight, first_ref=first_ref, timeout_s=timeout_s)
        self.runner = ActionRunner(self.race)
        self.recorder: StepRecorder | None = None
        self.lock = asyncio.Lock()
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

    async def navigate(self, url: str) -> int | None:
        """Open `url` (a navigate step while recording); the HTTP status, None for same-document navigations."""
        await self.settle()
        if self.recorder is not None:
            return await self.recorder.navigate(url)
        response = await self.page.goto(url)
        return response.status if response else None

    async def go_back(self) -> int | None:
        """Go back in the page's history (a navigate step to where it lands, while recording); the HTTP status, None
        for same-document moves (a hash route) or when there is no earlier page."""
        await self.settle()
        before = self.page.url
        response = await self.page.go_back()
        if response is not None or self.page.url != before:
            self._record_plain("navigate", url=self.page.url)
        return response.status if response else None

    async def act(self, action: ActionName, ref: str, value: str | None = None,
                  key: str | None = None) -> ActionOutcome:
        """Run an action through the race preflight (and the recorder, while recording)."""
        await self.settle()
        recorder = self.recorder
        if recorder is None:
            return await self.runner.run(action, ref, value=value, key=key)
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

    async def press(self, key: str) -> None:
        """Press a key on whatever has the keyboard focus (the page itself when nothing does); a press step
        without a locator while recording."""
        await self.settle()
        if self.recorder is not None:
            await self.recorder.press_key(key)  # it watches what the key caused, as for any step
            return
        try:
            await asyncio.wait_for(self.page.keyboard.press(key), self.race.world.timeout_s)
        except TimeoutError as error:
            raise page_unresponsive(f"pressing {key}", self.race.world.timeout_s) from error

    def record_check(self, action: StepAction, locator: LocatorSpec | None = None, value: str | None = None) -> None:
        """While recording: a check the agent waited for (text shown, an element's state, the URL) becomes a step,
        so the exported test waits for it too."""
        self._record_plain(action, url=self.page.url, locator=locator, value=value)

    async def snapshot(self) -> PageSnapshot:
        """The page's snapshot with refs; the runner keeps what it says of each ref, so that an element the page
        replaces before an action reaches it can still be found (see studio.race.rebind)."""
        snapshot = await self.race.snapshot()
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
