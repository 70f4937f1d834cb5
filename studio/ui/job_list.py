"""The job list: a status-bar button ("Jobs: 1 running, 1 waiting") opening a small panel with every job of the
project that runs, waits for answers or waits to be resumed — what it is, its request, its status, when it started —
with Resume and Discard (Cancel for the one running). It follows the jobs as they change.

Playground jobs are read from the project; a job of another kind that runs now (a game evaluation) is a LiveJob
from a source the window adds with `watch`, so "Jobs: none" is never said while one runs."""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, SignalInstance
from PySide6.QtGui import QHideEvent, QKeyEvent, QMouseEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.app.playground_service import JOB_NAMES, PlaygroundService
from studio.models.context import JobRecord

STATUS_WORDS = {"running": "Running", "paused": "Waiting for your answers", "interrupted": "Waiting to be resumed"}
RUNNING_ELSEWHERE = "Running in another studio or command"


@dataclass(frozen=True)
class LiveJob:
    """A job running now that is not a playground job of the project: what the status bar and the list say of it."""

    id: str
    name: str  # "Game evaluation"
    request: str  # what it works on: the game's URL
    status: str  # "3 Play · 4:12 left"
    started: float  # ms
    cancel: Callable[[], None]


class LiveJobSource(Protocol):
    """Where LiveJobs come from (GameJobClock); `changed` when they do, as often as once a second."""

    changed: SignalInstance

    def live_jobs(self) -> list[LiveJob]: ...


def started_at(job: JobRecord | LiveJob, now: float | None = None) -> str:
    """"started 14:02", or with the day when it was not today."""
    when = time.localtime((job.started if isinstance(job, LiveJob) else job.created_at) / 1000)
    today = time.localtime(now if now is not None else time.time())
    if when[:3] == today[:3]:
        return f"started {time.strftime('%H:%M', when)}"
    return f"started {time.strftime('%d %b %H:%M', when)}"


def counts(jobs: list[JobRecord], live: list[LiveJob] | tuple[LiveJob, ...] = ()) -> str:
    """The button's text: "Jobs: 1 running, 1 waiting", "Jobs: none"; a live job says what it does now, alone
    ("Game evaluation: 3 Play · 4:12 left") or after the count ("Jobs: 2 running, 1 waiting · Game evaluation: …")."""
    playground_running = sum(1 for job in jobs if job.status == "running")
    running, waiting = playground_running + len(live), len(jobs) - playground_running
    doing = " · ".join(f"{job.name}: {job.status}" for job in live)
    if live and not jobs:
        return doing
    parts = ([f"{running} running"] if running else []) + ([f"{waiting} waiting"] if waiting else [])
    text = f"Jobs: {', '.join(parts)}" if parts else "Jobs: none"
    return f"{text} · {doing}" if doing else text


class JobListPanel(QFrame):
    """The popup: one row per open job with its buttons; rebuilt when the jobs change. It floats over the window
    (a child widget, not a window of its own) and goes away with Esc, its close button, or a click elsewhere."""

    def __init__(self, service: PlaygroundService, parent: QWidget) -> None:
        super().__init__(parent)
        self.service = service
        self.setObjectName("job-list")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("QFrame#job-list { background: palette(base); border: 1px solid #9ca3af; "
                           "border-radius: 4px; }")
        self.setAutoFillBackground(True)
        self.rows: dict[str, dict[str, QWidget]] = {}  # job id -> its widgets ("title", "status", "resume", ...)
        self.parent_button: QWidget | None = None  # the Jobs button: a click on it toggles the list itself
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        head = QHBoxLayout()
        head.addWidget(QLabel("<b>Jobs</b> of this project that run or wait", self), 1)
        self.close_button = QToolButton(self)
        self.close_button.setText("Close")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Close the job list (Esc)")
        self.close_button.clicked.connect(self.hide)
        head.addWidget(self.close_button)
        layout.addLayout(head)
        self.grid_host = QWidget(self)
        self.grid = QGridLayout(self.grid_host)
        self.grid.setContentsMargins(0, 4, 0, 0)
        self.grid.setHorizontalSpacing(12)
        layout.addWidget(self.grid_host)
        self.empty = QLabel("No job runs or waits. Start one from the Playground bar.", self)
        self.empty.setStyleSheet("color:#4b5563;")
        layout.addWidget(self.empty)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def hideEvent(self, event: QHideEvent) -> None:
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        super().hideEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            inside = self.rect().contains(self.mapFromGlobal(event.globalPosition().toPoint()))
            opener = self.parent_button
            on_opener = opener is not None and opener.rect().contains(
                opener.mapFromGlobal(event.globalPosition().toPoint()))
            if not inside and not on_opener:
                self.hide()
        elif event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() == Qt.Key.Key_Escape:
            self.hide()
            return True
        return False

    def refresh(self, jobs: list[JobRecord], live: list[LiveJob] | None = None) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows = {}
        live = live or []
        for row, live_job in enumerate(live):
            self._add_live_row(row, live_job)
        for row, job in enumerate(jobs, start=len(live)):
            self._add_row(row, job)
        self.empty.setVisible(not jobs and not live)
        self.grid_host.setVisible(bool(jobs or live))
        self.adjustSize()

    def update_live(self, live: list[LiveJob]) -> bool:
        """Say the live jobs' new status in their rows (no rebuild: a button under the mouse stays); False when the
        rows are not those jobs' any more."""
        if {f"live:{job.id}" for job in live} != {key for key in self.rows if key.startswith("live:")}:
            return False
        for job in live:
            status = self.rows[f"live:{job.id}"]["status"]
            assert isinstance(status, QLabel)
            status.setText(f"Running · {job.status} · {started_at(job)}")
        return True

    def _add_live_row(self, row: int, job: LiveJob) -> None:
        title = QLabel(f"<b>{html.escape(job.name)}</b> · {html.escape(job.request)}", self.grid_host)
        title.setToolTip(job.request)
        status = QLabel(f"Running · {job.status} · {started_at(job)}", self.grid_host)
        status.setStyleSheet("color:#1d4ed8;")
        cancel = self._button("Cancel", "Stop it; what it found so far is kept", job.cancel)
        self.grid.addWidget(title, row, 0)
        self.grid.addWidget(status, row, 1)
        self.grid.addWidget(cancel, row, 2)
        self.rows[f"live:{job.id}"] = {"title": title, "status": status, "cancel": cancel}

    def _add_row(self, row: int, job: JobRecord) -> None:
        ours = self.service.is_running(job.id)
        name = JOB_NAMES.get(job.kind, job.kind)
        request = f"“{job.request}”" if job.request else "the whole app"
        title = QLabel(f"<b>{name}</b> · {request}", self.grid_host)
        title.setToolTip(job.message or f"Job {job.id}")
        status_text = STATUS_WORDS.get(job.status, job.status)
        if job.status == "running" and not ours:
            status_text = RUNNING_ELSEWHERE
        status = QLabel(f"{status_text} · {started_at(job)}", self.grid_host)
        status.setStyleSheet("color:#b45309;" if job.status != "running" else "color:#1d4ed8;")
        widgets: dict[str, QWidget] = {"title": title, "status": status}
        self.grid.addWidget(title, row, 0)
        self.grid.addWidget(status, row, 1)
        if job.status == "running":
            if ours:
                widgets["cancel"] = self._button("Cancel", "End it cleanly; what it found so far is kept",
                                                 lambda: self.service.cancel())
        else:
            widgets["resume"] = self._button(
                "Resume", "Open its questions" if job.status == "paused" else "Go on from where it stopped",
                lambda job=job: self.service.resume(job))
            widgets["discard"] = self._button("Discard", "Close it for good; what it found is kept",
                                              lambda job=job: self.service.discard(job))
        for column, key in enumerate(("resume", "discard", "cancel"), start=2):
            if key in widgets:
                self.grid.addWidget(widgets[key], row, column if key != "cancel" else 2)
        self.rows[job.id] = widgets

    def _button(self, text: str, tip: str, slot) -> QPushButton:
        button = QPushButton(text, self.grid_host)
        button.setToolTip(tip)
        button.setAutoDefault(False)
        def clicked(_checked: bool = False) -> None:
            self.hide()
            slot()

        button.clicked.connect(clicked)
        return button


class JobListButton(QToolButton):
    """The status bar's "Jobs: …" button; clicking it opens the list above it."""

    def __init__(self, service: PlaygroundService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.setObjectName("job-list-button")
        self.setAutoRaise(True)
        self.setToolTip("The jobs of this project that run or wait, with Resume and Discard")
        self.setAccessibleName("Jobs")
        self.panel = JobListPanel(service, parent.window() if parent is not None else self)
        self.panel.parent_button = self
        self.panel.hide()
        self.jobs: list[JobRecord] = []
        self.sources: list[LiveJobSource] = []
        self.live: list[LiveJob] = []
        self._shown: tuple[str, str] | None = None  # (id, status) of the live job last seen
        self.clicked.connect(lambda: self.panel.hide() if self.panel.isVisible() else self.open_list())
        service.jobsChanged.connect(self.refresh)
        service.jobChanged.connect(self._job_changed)
        self.refresh()

    def _job_changed(self, job: JobRecord) -> None:
        # The live job is re-read several times a second; the list is read again only when its status moves.
        if (job.id, job.status) != self._shown:
            self._shown = (job.id, job.status)
            self.refresh()

    def watch(self, source: LiveJobSource) -> None:
        """Count and list `source`'s running jobs too (the project's playground jobs are read from the project)."""
        self.sources.append(source)
        source.changed.connect(self.refresh_live)
        self.refresh_live()

    def refresh(self) -> None:
        self.jobs = self.service.open_jobs()
        self.live = [job for source in self.sources for job in source.live_jobs()]
        self._say()
        if self.panel.isVisible():
            self.panel.refresh(self.jobs, self.live)

    def refresh_live(self) -> None:
        """The live jobs again (once a second while one runs): the text, and their rows if the list is open."""
        before = [job.id for job in self.live]
        self.live = [job for source in self.sources for job in source.live_jobs()]
        if [job.id for job in self.live] != before:
            self.refresh()  # one started or ended: the project's jobs may have moved with it
            return
        self._say()
        if self.panel.isVisible() and not self.panel.update_live(self.live):
            self.panel.refresh(self.jobs, self.live)

    def _say(self) -> None:
        self.setText(counts(self.jobs, self.live))
        # A running job's phase and time left are never cut short; the session's line beside it gives way.
        self.setMinimumWidth(self.sizeHint().width() if self.live else 0)
        waiting = any(job.status != "running" for job in self.jobs)
        self.setStyleSheet("QToolButton { color: #b45309; font-weight: 600; }" if waiting else "")

    def open_list(self) -> None:
        """Show the list over the window, just above the button (the status bar is at the window's bottom)."""
        self.panel.refresh(self.jobs, self.live)
        host = self.panel.parentWidget()
        size = self.panel.sizeHint()
        self.panel.resize(size)
        corner = self.mapTo(host, QPoint(self.width(), 0)) if host is not None else QPoint(size.width(), size.height())
        self.panel.move(max(0, corner.x() - size.width()), max(0, corner.y() - size.height() - 2))
        self.panel.show()
        self.panel.raise_()
