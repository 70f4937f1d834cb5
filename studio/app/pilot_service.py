"""PilotService: the pilot file protocol (seed 003) in the GUI — start a pilot session on the live view's page (an
outside AI then drives it by writing action.json into the session folder), follow what the session says as Qt
signals, stop it, and Take Over / Hand Back: while taken over the AI's action files wait, the tester acts in the
live view (recorded by the race recorder into this session alone, never into the Steps recording, which stays on or
off as it was), and on hand back those actions join the observation's previousActions.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from studio.app.browser_service import BrowserService
from studio.app.job_service import JobService
from studio.app.project_service import ProjectService
from studio.app.race_service import RaceService
from studio.models.recording import RecordedStep
from studio.pilot.files import SESSIONS_DIR
from studio.pilot.job import PilotJob
from studio.pilot.session import PilotEvent, PilotOptions, PilotReport, PilotSession
from studio.runtime.live import LivePage

log = logging.getLogger(__name__)


def tester_action(step: RecordedStep) -> dict[str, Any]:
    """A step the tester recorded, in the pilot protocol's Action shape (a secret's value is never passed on)."""
    selector = step.locator.python() if step.locator is not None else None
    value = None if step.secret_env else (step.value or step.key)
    return {"action": step.action, "selector": selector, "value": value, "url": step.url,
            "description": step.target or f"{step.action} by the tester"}


class PilotService(JobService):
    """The GUI's handle on a pilot session of the live page."""

    sessionStarted = Signal(str)  # the session folder
    statusChanged = Signal(str)
    observationWritten = Signal(object)  # dict
    batchReceived = Signal(object)  # dict: reasoning and actions as the AI wrote them
    outcomeAdded = Signal(object)  # dict: an ActionOutcome
    warned = Signal(str)
    fileError = Signal(str)  # a malformed action file's message
    finished = Signal(object)  # PilotReport
    takenOverChanged = Signal(bool)

    def __init__(self, browser: BrowserService, project: ProjectService, race: RaceService | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(browser.runtime, parent)
        self.browser = browser
        self.project = project
        self.race = race
        self.session: PilotSession | None = None
        self.sessions_dir: Path | None = None  # None: beside the project file, else the temporary folder
        self._recorded: list[RecordedStep] = []
        self._capturing = False

    def folder_for_sessions(self) -> Path:
        """Where the GUI's session folders go: `<project>-pilot/` beside a saved project file (each project keeps its
        own sessions), else the seed's `fe-pilot-sessions/` in the temporary folder."""
        if self.sessions_dir is not None:
            return self.sessions_dir
        project = self.project.project
        if project is not None and not self.project.untitled:
            return project.path.parent / f"{project.path.stem}-pilot"
        return Path(tempfile.gettempdir()) / SESSIONS_DIR

    # -- the session ----------------------------------------------------------------------------------

    def start(self, goal: str, max_steps: int) -> None:
        self.spawn(self.run_start(goal, max_steps), name="pilot-session")

    async def run_start(self, goal: str, max_steps: int) -> PilotReport | None:
        session = self.browser.session
        if session is None or not self.browser.alive:
            self.errorOccurred.emit("No page in the live view: open the app's page (type its address and press "
                                    "Enter), then start the pilot session.")
            return None
        if not session.url.startswith(("http://", "https://")):
            self.errorOccurred.emit(f"The live view shows {session.url or 'no page'}; a pilot session starts "
                                    "on a web page. Open the app first.")
            return None
        options = PilotOptions(goal=goal, max_steps=max(1, max_steps))
        pilot = PilotSession(LivePage(session).driver, self.folder_for_sessions(), options, self._event)
        self.session = pilot
        self.sessionStarted.emit(str(pilot.folder))
        try:
            return await self.run_job(PilotJob(pilot))
        finally:
            if self._capturing and self.race is not None:
                await self.race.end_capture()
            self._capturing = False

    def settle(self, record: Any) -> Any:
        if isinstance(record, PilotReport):
            self.finished.emit(record)
        return record

    def stop(self) -> None:
        """End the session: status DONE and report.json are written."""
        if self.session is not None:
            self.session.stop()

    def take_over(self) -> None:
        """The tester drives: the AI's action files wait until hand back; what the tester does is recorded."""
        pilot = self.session
        if pilot is None or not self.running:
            return
        pilot.take_over()
        self._recorded = []
        if self.race is not None and not self._capturing:
            self._capturing = self.race.capture(self._step_recorded)
        self.takenOverChanged.emit(True)
        self.statusChanged.emit("TAKEN_OVER")

    def hand_back(self) -> None:
        self.spawn(self._hand_back(), name="pilot-hand-back")

    async def _hand_back(self) -> None:
        pilot = self.session
        if pilot is None:
            return
        if self._capturing and self.race is not None:
            self._capturing = False
            await self.race.end_capture()  # the tester's last click is recorded before it is handed on
        actions = [tester_action(step) for step in self._recorded]
        self._recorded = []
        await pilot.hand_back(actions)
        self.takenOverChanged.emit(False)
        self.statusChanged.emit(pilot.status)

    def _step_recorded(self, step: RecordedStep) -> None:
        """A step of the tester's takeover: it becomes one of the pilot session's actions on hand back."""
        if self.session is not None and self.session.taken_over:
            self._recorded.append(step)

    # -- what the session says ------------------------------------------------------------------------

    def _event(self, event: PilotEvent) -> None:
        data = event.data
        if event.kind == "status":
            self.statusChanged.emit(str(data))
        elif event.kind == "observation":
            self.observationWritten.emit(data)
        elif event.kind == "batch":
            self.batchReceived.emit(data.model_dump(mode="json") if hasattr(data, "model_dump") else data)
        elif event.kind == "outcome":
            self.outcomeAdded.emit(data.model_dump(mode="json") if hasattr(data, "model_dump") else data)
        elif event.kind == "warning":
            self.warned.emit(str(data))
        elif event.kind == "error":
            self.fileError.emit(str(data))
