"""A running game evaluation as the status bar's job list sees it: "Game evaluation: 3 Play · 4:12 left", ticking
each second while it runs.

A game evaluation is not one of the project's playground jobs (those are JobRecord rows the job list reads from the
project); it is a GameRun the GameService runs on the same JobRunner. So the list learns of it from here: the phase
from the run record the engine updates as it goes, the time left from when that phase started and its limit."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal

from studio.app.game_service import GameService
from studio.game import GameOptions
from studio.game.evaluation import phase_limit_s
from studio.models.game import GameRun, PhaseOutcome
from studio.ui.game_panel import PHASE_SHORT
from studio.ui.job_list import LiveJob

JOB_NAME = "Game evaluation"
TICK_MS = 1000


def clock(seconds: float) -> str:
    """4:07 for 247 s; never below 0:00."""
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


def retries_of(outcome: PhaseOutcome) -> int:
    """How often the engine tried the phase again after the browser failed (0 where the record has no count)."""
    return int(getattr(outcome, "retries", 0) or 0)


def time_left_s(outcome: PhaseOutcome, options: GameOptions, now: float | None = None) -> float:
    """Seconds the running phase `outcome` has left of its limit (negative once past it)."""
    now = time.time() if now is None else now
    started = outcome.started_at / 1000 if outcome.started_at is not None else now
    return phase_limit_s(outcome.phase, options) - (now - started)


def phase_status(run: GameRun, options: GameOptions, now: float | None = None) -> str:
    """"3 Play · 4:12 left" for the running phase; "starting" before the first, "finishing" after the last. A phase
    tried again after the browser failed says so instead ("3 Play · try 2"): each try has the whole limit, and when
    the try began is not in the run record."""
    running = next((outcome for outcome in run.phases if outcome.status == "running"), None)
    if running is None or running.started_at is None:
        started = any(outcome.status != "pending" for outcome in run.phases)
        return "finishing" if started else "starting"
    retries = retries_of(running)
    if retries:
        return f"{PHASE_SHORT[running.phase]} · try {retries + 1}"
    return f"{PHASE_SHORT[running.phase]} · {clock(time_left_s(running, options, now))} left"


class GameJobClock(QObject):
    """The service's running evaluation as a LiveJob; `changed` when its phase moves and once a second."""

    changed = Signal()

    def __init__(self, service: GameService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self._tick = QTimer(self, interval=TICK_MS)
        self._tick.timeout.connect(self.changed.emit)
        service.runningChanged.connect(self._running)
        service.runChanged.connect(lambda _run: self.changed.emit() if service.running else None)

    def live_jobs(self) -> list[LiveJob]:
        """The running evaluation, if one runs in this studio."""
        run = self.service.run
        if not self.service.running or run is None:
            return []
        return [LiveJob(id=f"game:{run.id}", name=JOB_NAME, request=run.url,
                        status=phase_status(run, self.service.options), started=run.created_at,
                        cancel=self.service.cancel)]

    def phase_left(self, outcome: PhaseOutcome) -> str | None:
        """"5:48 left" for the running phase of the running evaluation, else None (an old run's phase)."""
        if not self.service.running or outcome.status != "running" or outcome.started_at is None:
            return None
        if retries_of(outcome):
            return None
        return f"{clock(time_left_s(outcome, self.service.options))} left"

    def text(self) -> str:
        """"Game evaluation: 3 Play · 4:12 left", or "" when none runs."""
        jobs = self.live_jobs()
        return f"{jobs[0].name}: {jobs[0].status}" if jobs else ""

    def _running(self, running: bool) -> None:
        if running:
            self._tick.start()
        else:
            self._tick.stop()
        self.changed.emit()
