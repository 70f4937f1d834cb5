"""RaceService: race preflight on the live page for the GUI — observe, act, pick, inspect, highlight and record.

The engine does the work (RacePage, ActionRunner, StepRecorder); this service follows the page the tester
sees, owns every task, turns engine errors into message-bar sentences, and routes the live view's input
while picking or recording. Recorded steps go into the open project file.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from PySide6.QtCore import QObject, Signal

from studio.app.browser_service import BrowserService
from studio.app.project_service import ProjectService
from studio.app.race_entries import Inspection, RaceEntry, RememberedField, is_text_field, starts_step
from studio.app.tasks import TaskOwner
from studio.browser.errors import BrowserError, describe_navigation_failure, first_line
from studio.browser.input import InputAction
from studio.browser.urls import normalize_url
from studio.models.locator import LocatorSpec
from studio.models.race import ActionName, Observation, Rect
from studio.models.recording import RecordedStep
from studio.race.actions import ActionRunner
from studio.race.errors import RaceError
from studio.race.locators import resolve, synthesize
from studio.race.page import RacePage
from studio.race.recorder import StepRecorder

log = logging.getLogger(__name__)

GESTURE_WAIT_S = 10.0  # how long a recorded press waits for its release before releasing it itself
HOVER_SPACING_S = 0.04
RectsCallback = Callable[[dict[str, Rect | None]], None]


async def _nothing() -> None:
    return None


class RaceService(QObject):
    """The GUI's handle on race preflight for the BrowserService's active page."""

    entryAdded = Signal(object)  # RaceEntry
    entryUpdated = Signal(object)  # the same RaceEntry, now with its locator
    inspected = Signal(object)  # Inspection
    hovered = Signal(object)  # (ElementInfo, Rect) or None
    pickModeChanged = Signal(bool)
    recordingChanged = Signal(bool)
    stepRecorded = Signal(object)  # RecordedStep
    stepsChanged = Signal()
    errorOccurred = Signal(str)
    notice = Signal(str)

    def __init__(self, browser: BrowserService, project: ProjectService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.browser = browser
        self.project = project
        self.race: RacePage | None = None
        self.runner: ActionRunner | None = None
        self.recorder: StepRecorder | None = None
        self.session_id: str | None = None
        self.picking = False
        self.recording = False
        self._tasks = TaskOwner(on_error=self._unexpected)
        self._unsubscribe_page: Callable[[], None] | None = None
        self._lock = asyncio.Lock()
        self._queue: deque[InputAction] = deque()
        self._arrived = asyncio.Event()
        self._worker: asyncio.Task | None = None
        self._field: RememberedField | None = None
        self._swallow_up = False
        self._hover_point: tuple[float, float] | None = None
        self._hover_task: asyncio.Task | None = None
        self._deleted: list[RecordedStep] = []
        browser.sessionStarted.connect(self._on_session_started)
        browser.sessionEnded.connect(self._on_session_ended)
        project.projectChanged.connect(lambda _path: self._deleted.clear())

    # -- following the page ------------------------------------------------------------------------

    def _on_session_started(self, session_id: str) -> None:
        session = self.browser.session
        if session is None:
            return
        self.session_id = session_id
        if self._unsubscribe_page:
            self._unsubscribe_page()
        self._unsubscribe_page = session.on_active_page(self._on_page)
        self._on_page(session.page)

    def _on_page(self, page: Page) -> None:
        self.race = RacePage(page)
        self.runner = ActionRunner(self.race)
        if self.recording:
            self.recorder = self._new_recorder()
        self._field = None

    def _on_session_ended(self, _reason: str, _message: str) -> None:
        if self._unsubscribe_page:
            self._unsubscribe_page()
            self._unsubscribe_page = None
        self.race = self.runner = self.recorder = None
        self._field = None
        self._queue.clear()
        self.set_pick_mode(False)
        if self.recording:
            self.recording = False
            self.recordingChanged.emit(False)

    def _require_race(self) -> RacePage:
        if self.race is None or not self.browser.alive:
            raise RaceError("context_closed", "There is no page to check. Start a session with Session > New Session "
                                              "(Ctrl+Shift+N) and open a page.")
        return self.race

    # -- observe, act, inspect -----------------------------------------------------------------------

    def observe(self, ref: str) -> None:
        self._spawn(self._observe(ref), f"observing {ref}")

    def act(self, action: ActionName, ref: str, value: str | None = None, key: str | None = None) -> None:
        """Run an action through the preflight; the outcome becomes an entry (and a step while recording)."""
        self._spawn(self._act(action, ref, value, key), f"the {action} on {ref}")

    def pick(self, x: float, y: float) -> None:
        """Inspect the meaningful element at a point of the page (CSS pixels)."""
        self._spawn(self._pick(x, y), "picking an element")

    def inspect(self, ref: str) -> None:
        self._spawn(self._inspect(ref), f"inspecting {ref}")

    def request_rects(self, refs: list[str], done: RectsCallback) -> None:
        """Look up the current boxes of refs for highlights; `done` gets {ref: Rect or None}."""

        async def run() -> None:
            done(await self._require_race().rects(refs))

        self._spawn(run(), "finding the elements to highlight", quiet=True)

    async def _observe(self, ref: str) -> RaceEntry:
        race = self._require_race()
        observations = await race.observe(ref)
        return await self._add_entry(RaceEntry(at=_now(), action="observe", ref=ref, observations=observations))

    async def _act(self, action: ActionName, ref: str, value: str | None, key: str | None) -> RaceEntry:
        race = self._require_race()
        async with self._lock:
            if self.recorder is not None:
                await self._flush_field()
                outcome = await self.recorder.act(action, ref, value=value, key=key)
            else:
                assert self.runner is not None and self.runner.race is race
                outcome = await self.runner.run(action, ref, value=value, key=key)
        return await self._add_entry(RaceEntry(at=_now(), action=action, ref=ref,
                                               observations=outcome.observations, outcome=outcome))

    async def _add_entry(self, entry: RaceEntry) -> RaceEntry:
        # Facts first, locator after: synthesis takes many round trips (seconds while the page animates), and
        # before a check it would make the facts stale. After a click that re-rendered the element, none is found.
        self.entryAdded.emit(entry)
        try:
            entry.locator = await self._locator(entry.ref)
        finally:
            entry.locating = False
            self.entryUpdated.emit(entry)
        return entry

    async def _pick(self, x: float, y: float) -> Inspection | None:
        picked = await self._require_race().pick(x, y)
        if picked is None:
            self.notice.emit("There is no element at that point. Point at a button, link or field.")
            return None
        info, box = picked
        return await self._inspect(info.ref, box)

    async def _inspect(self, ref: str, box: Rect | None = None) -> Inspection:
        race = self._require_race()
        element = await race.info(ref)
        observations = await race.observe(ref)
        ancestors = await race.ancestors(ref)
        siblings = await race.siblings(ref)
        locator = await self._locator(ref)
        if box is None:
            box = (await race.rects([ref])).get(ref)
        inspection = Inspection(element, box, ancestors, siblings, locator, observations)
        self.inspected.emit(inspection)
        return inspection

    async def _locator(self, ref: str) -> LocatorSpec | None:
        try:
            return await synthesize(self._require_race(), ref)
        except RaceError:
            return None  # gone already: the entry's facts say so

    # -- pick mode -----------------------------------------------------------------------------------

    def set_pick_mode(self, on: bool) -> None:
        if on == self.picking:
            return
        if on and self.race is None:
            self.errorOccurred.emit("There is no page to pick from. Open a page first, then pick an element.")
            self.pickModeChanged.emit(False)
            return
        self.picking = on
        self._hover_point = None
        self.pickModeChanged.emit(on)

    def _hover_at(self, x: float, y: float) -> None:
        # Only the newest point matters, and only one query is in flight at a time.
        self._hover_point = (x, y)
        if self._hover_task is None:
            self._hover_task = self._tasks.spawn(self._hover_loop(), name="hover")

    async def _hover_loop(self) -> None:
        try:
            while self._hover_point is not None and self.picking and self.race is not None:
                (x, y), self._hover_point = self._hover_point, None
                try:
                    picked = await self.race.pick(x, y)
                except (RaceError, PlaywrightError):
                    picked = None  # the page is changing; the next move asks again
                if self.picking:
                    self.hovered.emit(picked)
                await asyncio.sleep(HOVER_SPACING_S)
        finally:
            self._hover_task = None

    # -- the live view's input -----------------------------------------------------------------------

    def filter_input(self, action: InputAction) -> bool:
        """Called by the live view for every gesture; True when this service took it over."""
        if self._swallow_up and action.kind == "up":
            self._swallow_up = False
            return True
        if self.picking:
            return self._pick_input(action)
        if self._queue or self._worker is not None or (self.recording and starts_step(action)):
            self._queue.append(action)
            self._arrived.set()
            if self._worker is None:
                self._worker = self._tasks.spawn(self._work_queue(), name="recording-input")
            return True
        return False

    def _pick_input(self, action: InputAction) -> bool:
        if action.kind == "move":
            self._hover_at(action.x, action.y)
            return True
        if action.kind == "down":
            if action.button == "left":
                self.set_pick_mode(False)  # like the browser's inspector: one pick, then back to the page
                self._swallow_up = True
                self.pick(action.x, action.y)
            return True
        if action.kind == "up" or (action.kind in ("key_down", "key_up") and action.key == "Escape"):
            if action.kind == "key_down":
                self.set_pick_mode(False)
            return True
        return False  # wheel and keys still reach the page

    async def _work_queue(self) -> None:
        try:
            while self._queue:
                action = self._queue.popleft()
                recording = self.recording and self.recorder is not None and starts_step(action)
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

        All of it holds the lock, so a typed URL or an act() waits until this gesture and the input queued
        behind it reached the page (a fill is only read after the keys that made it).
        """
        performed = False

        async def perform() -> None:
            nonlocal performed
            performed = True
            await self._forward_gesture(start)

        async with self._lock:
            try:
                await self._record_gesture(start, kind, perform)
            except (RaceError, BrowserError, PlaywrightError) as error:
                self._report(error, "recording your click" if kind == "click" else "recording the key press")
            except asyncio.CancelledError:
                performed = True  # shutting down: nothing to deliver to
                raise
            finally:
                if not performed:
                    await perform()  # the tester's gesture is never lost, recorded or not

    async def _record_gesture(self, start: InputAction, kind: str, perform: Callable[[], Coroutine]) -> None:
        race, recorder = self._require_race(), self.recorder
        if recorder is None:
            return
        await self.browser.input_sent()  # a wheel turn just before the click decides what is at the point
        if kind == "press":
            ref = self._field.ref if self._field else None
            await self._flush_field()
            if ref is not None:
                facts, step = await recorder.record_external("press", ref, perform, key=start.key)
                self._add_tester_entry("press", ref, facts, step)
            return
        await self._flush_field()
        picked = await race.pick(start.x, start.y)
        if picked is None:
            return
        info, _ = picked
        if is_text_field(info):
            await self._remember_field(info.ref)
            return  # focusing a field is not a step; the fill that follows is
        facts, step = await recorder.record_external("click", info.ref, perform)
        self._add_tester_entry("click", info.ref, facts, step)

    def _add_tester_entry(self, action: str, ref: str, observations: list[Observation], step: RecordedStep) -> None:
        """The tester's recorded action in the Observations dock, with the facts seen just before it."""
        self.entryAdded.emit(RaceEntry(at=step.at, action=action, ref=ref, observations=observations,
                                       locator=step.locator, locating=False, by_tester=True))

    async def _forward_gesture(self, start: InputAction) -> None:
        """Send the press and everything queued after it up to its release (waiting for the release)."""
        self.browser.send_input(start)
        end = "up" if start.kind == "down" else "key_up"
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

    async def _remember_field(self, ref: str) -> None:
        locator = await synthesize(self._require_race(), ref)
        self._field = RememberedField(ref, locator, await self._field_value(locator) or "")

    async def _field_value(self, locator: LocatorSpec) -> str | None:
        try:
            return await resolve(self._require_race().page, locator.steps).input_value(timeout=1000)
        except PlaywrightError:
            return None  # gone or no longer unique: nothing to compare

    async def _flush_field(self) -> None:
        """Record a fill for the field the tester typed into, when its value changed."""
        remembered, self._field = self._field, None
        if remembered is None or self.recorder is None:
            return
        await self.browser.input_sent()  # the keys typed last may still be on their way to the field
        value = await self._field_value(remembered.locator)
        if value is None or value == remembered.before:
            return
        try:
            facts, step = await self.recorder.record_external("fill", remembered.ref, _nothing, value=value)
            self._add_tester_entry("fill", remembered.ref, facts, step)
        except RaceError as error:
            self._report(error, "recording what you typed")

    # -- recording -----------------------------------------------------------------------------------

    def set_recording(self, on: bool) -> None:
        if on == self.recording:
            return
        if on:
            problem = self._recording_problem()
            if problem:
                self.errorOccurred.emit(problem)
                self.recordingChanged.emit(False)
                return
            self.recording = True
            self.recorder = self._new_recorder()
        else:
            self.recording = False
            self._spawn(self._stop_recording(), "finishing the recording")
        self.recordingChanged.emit(on)

    async def _stop_recording(self) -> None:
        async with self._lock:
            await self.browser.input_sent()
            await self._flush_field()
            if not self.recording:
                self.recorder = None

    def _recording_problem(self) -> str | None:
        if self.project.project is None:
            return "There is no open project to record into. Create or open one with File > New Project (Ctrl+N)."
        if self.race is None or not self.browser.alive or self.session_id is None:
            return "There is no browser session to record. Start one with Session > New Session (Ctrl+Shift+N)."
        return None

    def _new_recorder(self) -> StepRecorder:
        assert self.race is not None and self.runner is not None and self.session_id is not None
        project = self.project.project
        first = project.next_step_index(self.session_id) if project else 0
        return StepRecorder(self.race, self.runner, self.session_id, self._store_step, origin="tester",
                            first_index=first)

    def _store_step(self, step: RecordedStep) -> None:
        project = self.project.project
        if project is None:
            raise RaceError("context_closed", "The step was not saved because no project is open. Open one and "
                                              "record again.")
        # The file decides the index, so steps from any recorder of this session never collide.
        step = step.model_copy(update={"index": project.next_step_index(step.session_id)})
        project.add_step(step)
        self._deleted.clear()
        self.stepRecorded.emit(step)

    def navigate(self, text: str) -> None:
        """A URL typed by the tester: a navigate step while recording, a plain navigation otherwise."""
        if not self.recording or self.recorder is None:
            self.browser.navigate(text)
            return
        try:
            url = normalize_url(text, allow_files=self.browser.allow_file_urls)
        except ValueError as error:
            self.errorOccurred.emit(str(error))
            return
        self._spawn(self._navigate(url), f"opening {url}")

    async def _navigate(self, url: str) -> None:
        async with self._lock:
            await self._flush_field()
            if self.recorder is None:
                return
            try:
                await self.recorder.navigate(url)
            except PlaywrightError as error:
                raise describe_navigation_failure(url, error) from error

    def steps(self) -> list[RecordedStep]:
        project = self.project.project
        return project.steps(self.session_id) if project and self.session_id else []

    def delete_last_step(self) -> RecordedStep | None:
        project = self.project.project
        if project is None or self.session_id is None:
            return None
        removed = project.remove_last_step(self.session_id)
        if removed is not None:
            self._deleted.append(removed)
            self.stepsChanged.emit()
        return removed

    @property
    def can_undo(self) -> bool:
        return bool(self._deleted)

    def undo_delete(self) -> RecordedStep | None:
        project = self.project.project
        if project is None or not self._deleted:
            return None
        step = self._deleted.pop()
        project.add_step(step)
        self.stepsChanged.emit()
        return step

    # -- tasks and errors ----------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, Any], doing: str, quiet: bool = False) -> asyncio.Task:
        async def guarded() -> Any:
            try:
                return await coro
            except (RaceError, BrowserError, PlaywrightError) as error:
                if not quiet:
                    self._report(error, doing)
                return None

        task = self._tasks.spawn(guarded(), name=doing)
        task.add_done_callback(lambda _task: coro.close())  # cancelled before it started: never awaited
        return task

    def _report(self, error: BaseException, doing: str) -> None:
        if isinstance(error, RaceError):
            self.errorOccurred.emit(error.message)
        elif isinstance(error, BrowserError):
            self.errorOccurred.emit(str(error))
        else:
            log.info("%s failed", doing, exc_info=error)
            self.errorOccurred.emit(f"{doing[0].upper()}{doing[1:]} did not work: {first_line(error)}. "
                                    "Wait until the page settles and try again.")

    def _unexpected(self, error: BaseException) -> None:
        self.errorOccurred.emit(f"Something went wrong in race preflight: {first_line(error)}. "
                                "Try again; the details are in the log.")

    async def shutdown(self) -> None:
        self.picking = self.recording = False
        await self._tasks.cancel_all()


def _now() -> float:
    return time.time() * 1000
