"""RaceService: race preflight on the live page for the GUI — observe, act, pick, inspect, highlight and record.

The engine does the work through a PageDriver on the page the tester sees (race preflight, the action runner, the
recorder while recording, one lock); the tester's own gestures are recorded by TesterInput. This service follows
the page, owns every task, turns engine errors into message-bar sentences, and keeps the recorded steps in the
open project file.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from studio.app.browser_service import BrowserService
from studio.app.element_inspector import FIND_AGAIN_S, ElementInspector
from studio.app.pick_mode import PickMode
from studio.app.project_service import ProjectService
from studio.app.race_entries import Inspection, RaceEntry
from studio.app.race_sentences import for_the_window
from studio.app.step_edits import StepEditor
from studio.app.tasks import TaskOwner
from studio.app.tester_input import TesterInput
from studio.browser.errors import BrowserError, first_line
from studio.browser.input import InputAction
from studio.browser.urls import normalize_url
from studio.models.locator import LocatorSpec
from studio.models.pick import PointStack
from studio.models.race import ActionName, Rect
from studio.models.recording import RecordedStep
from studio.race.assertion_steps import AssertionKind, assertion_for
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.page import RacePage
from studio.runtime.live import LivePage

log = logging.getLogger(__name__)

RectsCallback = Callable[[dict[str, Rect | None]], None]


class RaceService(QObject):
    """The GUI's handle on race preflight for the BrowserService's active page."""

    entryAdded = Signal(object)  # RaceEntry
    entryUpdated = Signal(object)  # the same RaceEntry, now with its locator
    inspected = Signal(object)  # Inspection
    hovered = Signal(object)  # StackPosition (pick mode's highlighted element) or None
    pickLost = Signal(str)  # the picked element is not on the page any more (after a reload): the sentence
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
        self.driver: PageDriver | None = None
        self.live: LivePage | None = None  # the live session's page, followed as it changes
        self.session_id: str | None = None
        self.recording = False
        self._tasks = TaskOwner(on_error=self._unexpected)
        self.tester = TesterInput(browser, lambda: self.driver, self._tasks, self.entryAdded.emit, self._report)
        self.inspector = ElementInspector(self._require_driver, self.inspected.emit)  # tells of replacements
        self.pick_mode = PickMode(lambda: self.driver is not None, self.inspector.stack_at, self._tasks,
                                  self.pickModeChanged.emit, self.hovered.emit, self.pick, self.errorOccurred.emit)
        self._finding_again: asyncio.Task | None = None
        self._unsubscribe_page: Callable[[], None] | None = None
        self.step_edits = StepEditor(project, lambda: self.session_id, self)  # delete, move, undo, redo
        self._picked_at: tuple[str, float, float] | None = None  # the last pick: its ref and the point
        # While set (a pilot takeover), the tester's steps go here, not to the project's recording: see capture()
        self._capture: Callable[[RecordedStep], None] | None = None
        browser.sessionStarted.connect(self._on_session_started)
        browser.sessionEnded.connect(self._on_session_ended)
        browser.urlChanged.connect(self._on_navigated)

    @property
    def race(self) -> RacePage | None:
        return self.driver.race if self.driver is not None else None

    # -- following the page ------------------------------------------------------------------------

    def _on_session_started(self, session_id: str) -> None:
        session = self.browser.session
        if session is None:
            return
        if session_id != self.session_id:
            self.step_edits.stack.clear()  # its edits were of the previous session's steps
        self.session_id = session_id
        if self._unsubscribe_page:
            self._unsubscribe_page()
        self.live = LivePage(session)
        self._unsubscribe_page = session.on_active_page(self._on_page)
        self._on_page(session.page)

    def _on_page(self, _page: object) -> None:
        if self.live is None:
            return
        self.driver = self.live.driver  # the session's newest page, as the one driver the tester's work goes through
        if self._recording_steps:
            self._record_on(self.driver)
        self.tester.reset()

    def _on_session_ended(self, _reason: str, _message: str) -> None:
        if self._unsubscribe_page:
            self._unsubscribe_page()
            self._unsubscribe_page = None
        self.driver = None
        self.live = None
        self.tester.clear()
        self._capture = None
        self.inspector.forget()
        self.set_pick_mode(False)
        if self.recording:
            self.recording = False
            self.recordingChanged.emit(False)

    def _require_driver(self) -> PageDriver:
        if self.driver is None or not self.browser.alive:
            raise RaceError("context_closed", "There is no page to check. Start a session with Session > New Session "
                                              "(Ctrl+Shift+N) and open a page.")
        return self.driver

    # -- observe, act, inspect -----------------------------------------------------------------------

    def observe(self, ref: str) -> None:
        self._spawn(self._observe(ref), f"observing {ref}")

    def act(self, action: ActionName, ref: str, value: str | None = None, key: str | None = None) -> None:
        """Run an action through the preflight; the outcome becomes an entry (and a step while recording)."""
        self._spawn(self._act(action, ref, value, key), f"the {action} on {ref}")

    def pick(self, x: float, y: float, index: int = 0, stack: PointStack | None = None) -> None:
        """Inspect the meaningful element at a point of the page (CSS pixels): the one a click reaches, or with
        `index` one beneath it (`stack`: the elements there, when pick mode read them already)."""
        self._spawn(self._pick(x, y, index, stack), "picking an element")

    def inspect(self, ref: str) -> None:
        self._spawn(self._inspect(ref), f"inspecting {ref}")

    def walk_stack(self, step: int) -> None:
        """Inspect the element above (-1) or beneath (+1) the inspected one, at the point it was picked at."""
        self._spawn(self._walk(step), "reaching beneath the element")

    def request_rects(self, refs: list[str], done: RectsCallback) -> None:
        """Look up the current boxes of refs for highlights; `done` gets {ref: Rect or None}."""

        async def run() -> None:
            done(await self._require_driver().race.rects(refs))

        self._spawn(run(), "finding the elements to highlight", quiet=True)

    async def _observe(self, ref: str) -> RaceEntry:
        ref = await self.inspector.follow(ref)
        observations = await self._require_driver().observe(ref)
        return await self._add_entry(RaceEntry(at=_now(), action="observe", ref=ref, observations=observations))

    async def _act(self, action: ActionName, ref: str, value: str | None, key: str | None) -> RaceEntry:
        driver = self._require_driver()
        ref = await self.inspector.follow(ref)
        async with driver.lock:
            await self.tester.flush_field()
            outcome = await driver.act(action, ref, value=value, key=key)
        moved = getattr(outcome, "reResolved", None)  # the picked element, re-rendered: show what was acted on
        self._spawn(self.inspector.after_action(ref, moved.to_ref if moved else None), "following the element",
                    quiet=True)
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

    async def _pick(self, x: float, y: float, index: int = 0, stack: PointStack | None = None) -> Inspection | None:
        inspection = await self.inspector.pick(x, y, index, stack)
        if inspection is None:
            self.notice.emit("There is no element at that point. Point at a button, link or field.")
            return None
        self._picked_at = (inspection.element.ref, x, y)  # an Assert text on it means the text under the pointer
        self.inspected.emit(inspection)
        return inspection

    async def _inspect(self, ref: str) -> Inspection:
        inspection = await self.inspector.inspect(await self.inspector.follow(ref))
        self.inspected.emit(inspection)
        return inspection

    async def _walk(self, step: int) -> None:
        inspection = await self.inspector.walk(step)
        if inspection is None:
            self.notice.emit("There is nothing beneath it at that point." if step > 0
                             else "Nothing lies over it at that point.")
            return
        self.inspected.emit(inspection)

    async def _locator(self, ref: str) -> LocatorSpec | None:
        return await self.inspector.locator(ref)

    def _on_navigated(self, _url: str) -> None:
        """A reload or another page: look for the picked element there by its locator, and show it again."""
        if self.inspector.current is None or self.driver is None:
            return
        if self._finding_again is not None:
            self._finding_again.cancel()
        self._finding_again = self._spawn(self._find_again(), "finding the picked element again", quiet=True)

    async def _find_again(self) -> None:
        lost = self.inspector.current
        found = await self.inspector.find_again(FIND_AGAIN_S)
        if found is not None:
            self.inspected.emit(found)
        elif lost is not None and self.inspector.current is lost:
            self.pickLost.emit("The picked element is not on this page. Pick one with Ctrl+Shift+C.")

    # -- pick mode and the live view's input ---------------------------------------------------------

    @property
    def picking(self) -> bool:
        return self.pick_mode.on

    def set_pick_mode(self, on: bool) -> None:
        self.pick_mode.set(on)

    def filter_input(self, action: InputAction) -> bool:
        """Called by the live view for every gesture; True when this service took it over."""
        return self.pick_mode.take(action) or self.tester.take(action, self._recording_steps)

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
            assert self.driver is not None
            self._record_on(self.driver)
        else:
            self.recording = False
            self._spawn(self._stop_recording(), "finishing the recording")
        self.recordingChanged.emit(on)

    async def input_settled(self, then: Callable[[PageDriver], None] | None = None) -> None:
        """Wait until the tester's input so far has reached the page and its steps are recorded (then, still under
        the page driver's lock, call `then(driver)`)."""
        driver = self.driver
        if driver is None:
            return
        async with driver.lock:
            await self.browser.input_sent()
            await self.tester.flush_field()
            if then is not None:
                then(driver)

    async def _stop_recording(self) -> None:
        await self.input_settled(lambda driver: None if self._recording_steps else driver.stop_recording())

    @property
    def _recording_steps(self) -> bool:  # a recorder is wanted: the Steps recording, or a capture() for the pilot
        return self.recording or self._capture is not None

    def capture(self, sink: Callable[[RecordedStep], None]) -> bool:
        """Record the tester's gestures into `sink` alone (a pilot takeover: they belong to the pilot session), not
        into the project; the Steps recording, on or off, is left as it is. False when there is no page."""
        if self.driver is None or self.session_id is None or not self.browser.alive:
            return False
        self._capture = sink
        if not self.recording:
            self._record_on(self.driver)
        return True

    async def end_capture(self) -> None:
        """Stop capture() once the tester's last input is recorded (into the sink); recording goes on if it was on."""
        def end(driver: PageDriver) -> None:  # under the lock: no gesture slips into the project in between
            self._capture = None
            if not self.recording:
                driver.stop_recording()

        await self.input_settled(end)
        self._capture = None

    def _recording_problem(self) -> str | None:
        if self.project.project is None:
            return "There is no open project to record into. Create or open one with File > New Project (Ctrl+N)."
        if self.driver is None or not self.browser.alive or self.session_id is None:
            return "There is no browser session to record. Start one with Session > New Session (Ctrl+Shift+N)."
        return None

    def _record_on(self, driver: PageDriver) -> None:
        assert self.session_id is not None
        project = self.project.project
        first = project.next_step_index(self.session_id) if project else 0
        driver.record(self.session_id, self._store_step, origin="tester", first_index=first)

    def _store_step(self, step: RecordedStep) -> None:
        if self._capture is not None:
            self._capture(step)
            return
        project = self.project.project
        if project is None:
            raise RaceError("context_closed", "The step was not saved because no project is open. Open one and "
                                              "record again.")
        # The file decides the index, so steps from any recorder of this session never collide.
        step = step.model_copy(update={"index": project.next_step_index(step.session_id)})
        project.add_step(step)  # after the last step, edited or not; the edits stay undoable around it
        self.stepRecorded.emit(step)

    def navigate(self, text: str) -> None:
        """A URL typed by the tester: a navigate step while recording, a plain navigation otherwise."""
        if not self._recording_steps or self.driver is None:
            self.browser.navigate(text)
            return
        try:
            url = normalize_url(text, allow_files=self.browser.allow_file_urls)
        except ValueError as error:
            self.errorOccurred.emit(str(error))
            return
        self._spawn(self._navigate(self.driver, url), f"opening {url}")

    async def _navigate(self, driver: PageDriver, url: str) -> None:
        async with driver.lock:
            await self.tester.flush_field()
            await driver.navigate(url)  # a URL that cannot be opened is a RaceError with the browser's reason

    def add_assertion(self, kind: AssertionKind, ref: str) -> None:
        """While recording: an expect step on the element with its state now (the Steps dock's Assert tools)."""
        self._spawn(self._add_assertion(kind, ref), f"adding the {kind} assertion")

    async def _add_assertion(self, kind: AssertionKind, ref: str) -> None:
        driver = self._require_driver()
        if not self.recording or driver.recorder is None:
            raise RaceError("bad_input", "Assertions are steps of a recording: start recording (Ctrl+E), then pick "
                                         "the element and assert on it.")
        async with driver.lock:
            await self.tester.flush_field()
            await driver.settle()
            ref = await self.inspector.follow(ref)  # re-rendered since the pick: its replacement, as the inspector
            ref_picked, x, y = self._picked_at or ("", 0.0, 0.0)
            point = (x, y) if ref_picked in self.inspector.picked_as(ref) else None
            step = await assertion_for(driver.race, ref, kind, point, self.inspector.shown_locator(ref))
            driver.record_check(step.action, step.locator, step.value)

    def steps(self) -> list[RecordedStep]:
        project = self.project.project
        return project.steps(self.session_id) if project and self.session_id else []

    # -- tasks and errors ----------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, Any], doing: str, quiet: bool = False) -> asyncio.Task:
        async def guarded() -> Any:
            try:
                return await coro
            except (RaceError, BrowserError) as error:
                if not quiet:
                    self._report(error, doing)
                return None

        task = self._tasks.spawn(guarded(), name=doing)
        task.add_done_callback(lambda _task: coro.close())  # cancelled before it started: never awaited
        return task

    def _report(self, error: BaseException, doing: str) -> None:
        if isinstance(error, RaceError):
            self.errorOccurred.emit(for_the_window(error))
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
        self.pick_mode.on = self.recording = False
        await self._tasks.cancel_all()


def _now() -> float:
    return time.time() * 1000
