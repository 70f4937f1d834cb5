"""GameService: game evaluation (seed 002) for the GUI — start one on the live browser, follow its four phases, the
controls it finds, its decisions and its screenshots as they are written to the project, cancel it, and read the
project's earlier runs of a game for the history chart.

The evaluation is the engine's GameEvaluation run by the runtime's JobRunner (see JobService); it plays on the live
session, so the tester watches it in the live view. While it runs, the service re-reads the run's new rows from the
project at most twice a second (the engine writes each one the moment it has it) and emits only what is new.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, QTimer, Signal

from studio.app.browser_service import BrowserService
from studio.app.job_service import JobService
from studio.app.project_service import ProjectService
from studio.game import GameEvaluation, GameOptions, GameUrlError, InputSchemaError, game_url, parse_input_schema
from studio.models.events import EngineEvent
from studio.models.game import (
    GamePhaseCompleted,
    GameProgressEvent,
    GameRun,
    GameRunCompleted,
    GameStatusEvent,
    InputSchema,
)
from studio.store.game import GameStore

log = logging.getLogger(__name__)

REFRESH_MS = 500


class GameService(JobService):
    """The GUI's handle on game evaluations of the open project."""

    runChanged = Signal(object)  # GameRun: status, phases and evidence so far, live while it runs
    progress = Signal(str)  # what the agent does now (at most one every few seconds, as the engine says it)
    controlsFound = Signal(object)  # list[ControlDiscovery] of the run (all of them, when they change)
    decisionsAdded = Signal(object)  # list[DecisionEntry]: the new ones
    screenshotsAdded = Signal(object)  # list[EvidenceShot]: the new ones
    finished = Signal(object)  # GameRun that ended (completed or failed), its scores stored
    historyChanged = Signal(str)  # a game URL whose runs changed (history chart)

    def __init__(self, browser: BrowserService, project: ProjectService, parent: QObject | None = None) -> None:
        super().__init__(browser.runtime, parent)
        self.browser = browser
        self.project = project
        self.run: GameRun | None = None  # the run shown: the running one, else the last one started or opened
        self.options = GameOptions()
        self._seen: dict[str, int] = {"controls": 0, "decisions": 0, "screenshots": 0}
        self._refresh = QTimer(self, interval=REFRESH_MS)
        self._refresh.timeout.connect(self.refresh)
        self._unsubscribe_events = self.runtime.bus.subscribe(
            self._on_event, GameStatusEvent, GamePhaseCompleted, GameProgressEvent, GameRunCompleted)

    # -- commands ----------------------------------------------------------------------------------

    def check(self, url: str, schema_text: str) -> tuple[str, InputSchema | None]:
        """The game URL and the InputSchema as the engine takes them; raises GameUrlError or InputSchemaError with
        the sentence to show."""
        schema = parse_input_schema(schema_text) if schema_text.strip() else None
        return game_url(url), schema

    def start(self, url: str, schema_text: str = "") -> None:
        """Evaluate the game at `url` (with an optional InputSchema as JSON text); the outcome arrives as signals."""
        self.spawn(self.run_start(url, schema_text), name="game-evaluation")

    async def run_start(self, url: str, schema_text: str = "") -> GameRun | None:
        if self.project.project is None:
            self.errorOccurred.emit("No project is open. Open or create one with File › New Project, then start again.")
            return None
        try:
            url, schema = self.check(url, schema_text)
        except (GameUrlError, InputSchemaError) as error:
            self.errorOccurred.emit(str(error))
            return None
        if not self.browser.alive and await self.browser.start(self.runtime.session_options(label="game")) is None:
            return None
        evaluation = await GameEvaluation.on(self.runtime, url, input_schema=schema, options=self.options)
        self.run = evaluation.run_record
        self._seen = {"controls": 0, "decisions": 0, "screenshots": 0}
        self.runChanged.emit(self.run)
        self._refresh.start()
        try:
            return await self.run_job(evaluation)
        finally:
            self._refresh.stop()

    def settle(self, record: GameRun | None) -> GameRun | None:
        if record is None:
            return None
        self.run = record
        self.refresh()
        self.runChanged.emit(record)
        self.finished.emit(record)
        self.historyChanged.emit(record.url)
        return record

    def cancel(self) -> None:
        """Stop the running evaluation; what it found so far is kept and scored."""
        if self.running:
            self.spawn(self.cancel_running(), name="game-cancel")

    def show_run(self, run_id: str) -> GameRun | None:
        """Show an earlier run of the project (its controls, decisions and screenshots)."""
        store = self.store()
        run = store.run(run_id) if store is not None else None
        if run is None:
            return None
        self.run = run
        self._seen = {"controls": 0, "decisions": 0, "screenshots": 0}
        self.runChanged.emit(run)
        self.refresh()
        return run

    # -- reading the project -------------------------------------------------------------------------

    def store(self) -> GameStore | None:
        project = self.project.project
        return GameStore(project.db) if project is not None else None

    def runs(self, url: str | None = None) -> list[GameRun]:
        """The project's runs (of one game when `url` is given), oldest first."""
        store = self.store()
        return store.runs(url) if store is not None else []

    def scores(self, run_id: str) -> dict[str, tuple[int, str]]:
        """metric (and "overall") -> (score, justification) of a run, as stored."""
        store = self.store()
        return store.scores(run_id) if store is not None else {}

    def screenshot_png(self, shot_id: int) -> bytes | None:
        store = self.store()
        try:
            return store.screenshot_png(shot_id) if store is not None else None
        except KeyError:
            return None

    def refresh(self) -> None:
        """Emit what the shown run added to the project since the last look."""
        store, run = self.store(), self.run
        if store is None or run is None:
            return
        try:
            controls = store.controls(run.id)
            decisions = store.decisions(run.id)
            shots = store.screenshots(run.id)
        except Exception as error:  # a closed or replaced project: nothing to show
            log.debug("game rows of %s: %s", run.id, error)
            return
        if len(controls) != self._seen["controls"]:
            self._seen["controls"] = len(controls)
            self.controlsFound.emit(controls)
        if len(decisions) > self._seen["decisions"]:
            self.decisionsAdded.emit(decisions[self._seen["decisions"]:])
            self._seen["decisions"] = len(decisions)
        if len(shots) > self._seen["screenshots"]:
            self.screenshotsAdded.emit(shots[self._seen["screenshots"]:])
            self._seen["screenshots"] = len(shots)

    async def shutdown(self) -> None:
        self._unsubscribe_events()
        self._refresh.stop()
        await super().shutdown()

    # -- engine events -------------------------------------------------------------------------------

    def _on_event(self, event: EngineEvent) -> None:
        run = self.run
        if run is None or getattr(event, "job_id", None) != run.id:
            return
        if isinstance(event, GameProgressEvent):
            self.progress.emit(event.message)
        elif isinstance(event, GameStatusEvent):
            if event.message:
                self.progress.emit(event.message)
            self.runChanged.emit(run)  # the engine's record object: phases and status as they are now
        elif isinstance(event, GamePhaseCompleted):
            self.refresh()
            self.runChanged.emit(run)
