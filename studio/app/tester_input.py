"""TesterInput: the tester's own clicks, Enter presses and typing in the live view, recorded as steps while
recording — facts and locator first, then the gesture reaches the page, so nothing the tester does is lost.

Input goes through a queue once recording (or a gesture being recorded) is involved, so a typed URL or an
action waits until the keys before it reached the page. Everything is done under the page driver's lock.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from studio.app.browser_service import BrowserService
from studio.app.race_entries import RaceEntry, RememberedField, is_text_field, starts_step
from studio.app.tasks import TaskOwner
from studio.browser.errors import BrowserError
from studio.browser.input import InputAction, InputKind
from studio.models.locator import LocatorSpec
from studio.models.race import Observation
from studio.models.recording import RecordedStep
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.locators import synthesize

GESTURE_WAIT_S = 10.0  # how long a recorded press waits for its release before releasing it itself

EntrySink = Callable[[RaceEntry], None]
ErrorSink = Callable[[BaseException, str], None]


async def _nothing() -> None:
    return None


class TesterInput:
    """Routes the live view's gestures to the page, recording the ones that start a step while recording."""

    def __init__(self, browser: BrowserService, driver: Callable[[], PageDriver | None], tasks: TaskOwner,
                 on_entry: EntrySink, on_error: ErrorSink) -> None:
        self.browser = browser
        self._driver = driver
        self._tasks = tasks
        self._on_entry = on_entry
        self._on_error = on_error
        self._queue: deque[InputAction] = deque()
        self._arrived = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._field: RememberedField | None = None

    def take(self, action: InputAction, recording: bool) -> bool:
        """True when the gesture is queued here (recording, or input already waiting); False: send it directly."""
        if self._queue or self._worker is not None or (recording and starts_step(action)):
            self._queue.append(action)
            self._arrived.set()
            if self._worker is None:
                self._worker = self._tasks.spawn(self._work_queue(), name="recording-input")
            return True
        return False

    def reset(self) -> None:
        """The page changed or the session ended: nothing typed so far belongs to the next page."""
        self._field = None

    def clear(self) -> None:
        self._field = None
        self._queue.clear()

    async def flush_field(self) -> None:
        """Record a fill for the field the tester typed into, when its value changed (call under the lock)."""
        remembered, self._field = self._field, None
        driver = self._driver()
        if remembered is None or driver is None or driver.recorder is None:
            return
        await self.browser.input_sent()  # the keys typed last may still be on their way to the field
        value = await _field_value(driver, remembered.locator)
        if value is None or value == remembered.before:
            return
        try:
            facts, step = await driver.recorder.record_external("fill", remembered.ref, _nothing, value=value)
            self._entry("fill", remembered.ref, facts, step)
        except RaceError as error:
            self._on_error(error, "recording what you typed")

    # -- internals -----------------------------------------------------------------------------------

    async def _work_queue(self) -> None:
        try:
            while self._queue:
                action = self._queue.popleft()
                driver = self._driver()
                recording = driver is not None and driver.recorder is not None and starts_step(action)
                if recording and action.kind == "down":
                    await self._recorded_gesture(action, "click")
                elif recording and self._field is not None:
                    await self._recorded_gesture(action, "press")  # Enter in the field the tester typed into
                else:
                    self.browser.send_input(action)
        finally:
            self._worker = None

    async def _recorded_gesture(self, start: InputAction, kind: str) -> None:
        """Record the tester's click or Enter: facts and locator first, then the gesture reaches the page.

        All of it holds the driver's lock, so a typed URL or an action waits until this gesture and the input
        queued behind it reached the page (a fill is only read after the keys that made it).
        """
        performed = False

        async def perform() -> None:
            nonlocal performed
            performed = True
            await self._forward_gesture(start)

        driver = self._driver()
        if driver is None:
            await perform()
            return
        async with driver.lock:
            try:
                await self._record_gesture(driver, start, kind, perform)
            except (RaceError, BrowserError) as error:
                self._on_error(error, "recording your click" if kind == "click" else "recording the key press")
            except asyncio.CancelledError:
                performed = True  # shutting down: nothing to deliver to
                raise
            finally:
                if not performed:
                    await perform()  # the tester's gesture is never lost, recorded or not

    async def _record_gesture(self, driver: PageDriver, start: InputAction, kind: str,
                              perform: Callable[[], Coroutine[Any, Any, None]]) -> None:
        recorder = driver.recorder
        if recorder is None:
            return
        await self.browser.input_sent()  # a wheel turn just before the click decides what is at the point
        if kind == "press":
            ref = self._field.ref if self._field else None
            await self.flush_field()
            if ref is not None:
                facts, step = await recorder.record_external("press", ref, perform, key=start.key)
                self._entry("press", ref, facts, step)
            return
        await self.flush_field()
        picked = await driver.race.pick(start.x, start.y)
        if picked is None:
            return
        info, _ = picked
        if is_text_field(info):
            locator = await synthesize(driver.race, info.ref)
            self._field = RememberedField(info.ref, locator, await _field_value(driver, locator) or "")
            return  # focusing a field is not a step; the fill that follows is
        facts, step = await recorder.record_external("click", info.ref, perform)
        self._entry("click", info.ref, facts, step)

    def _entry(self, action: str, ref: str, observations: list[Observation], step: RecordedStep) -> None:
        """The tester's recorded action in the Observations dock, with the facts seen just before it."""
        self._on_entry(RaceEntry(at=step.at, action=action, ref=ref, observations=observations,
                                 locator=step.locator, locating=False, by_tester=True))

    async def _forward_gesture(self, start: InputAction) -> None:
        """Send the press and everything queued after it up to its release (waiting for the release)."""
        self.browser.send_input(start)
        end: InputKind = "up" if start.kind == "down" else "key_up"
        deadline = time.monotonic() + GESTURE_WAIT_S
        while time.monotonic() < deadline:
            while self._queue:
                action = self._queue.popleft()
                self.browser.send_input(action)
                if action.kind == end and (end == "up" or action.key == start.key):
                    await self.browser.input_sent()
                    return
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
        # No release came (focus left the view): release it, or the page keeps a button or key held down.
        self.browser.send_input(InputAction(end, start.x, start.y, button=start.button, key=start.key))
        await self.browser.input_sent()


async def _field_value(driver: PageDriver, locator: LocatorSpec) -> str | None:
    value = await driver.evaluate_on(locator, "(el) => el.value ?? null")
    return None if value is None else str(value)  # None: gone or no longer unique, nothing to compare
