"""The Playground bar: the request (an area such as "disputes wizard"), the four jobs, and while one runs, its
progress (preflight steps, then one tick per case or suite) and Cancel."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QLineEdit, QProgressBar, QToolBar, QWidget

from studio.app.playground_service import JOB_NAMES, PlaygroundService
from studio.models.context import JobKind, JobRecord
from studio.models.events import (
    EngineEvent,
    ItemProgress,
    MainJobCompleted,
    MainJobStarted,
    PreflightProgress,
    PreflightStarted,
)

# (kind, menu text, shortcut, tooltip)
JOBS: tuple[tuple[JobKind, str, str, str], ...] = (
    ("preflight", "&Preflight", "Ctrl+Alt+P", "Look at the app first: base URL, login, UI map, entry points, gaps"),
    ("new_testsuite", "New &Suite", "Ctrl+Alt+S", "Propose test suites for the areas of the app no suite covers yet"),
    ("new_test_case", "New &Cases", "Ctrl+Alt+C", "Write cases for the area in the request field, gaps first"),
    ("edit_test_case", "&Edit Cases", "Ctrl+Alt+E",
     "Update the cases selected in Test Cases (or, with none selected, those a detected change impacts)"),
)
CANCEL_SHORTCUT = "Ctrl+Alt+X"
TRY_FORMS_TIP = ("Let the preflight send the app's forms with sample data, to see and assert what they do: an empty "
                 "submission's errors, a saved record's values and confirmation, and deleting the record it saved. "
                 "Writes reach the app, so use it on a test or staging app only. Off: nothing is ever sent.")
REQUEST_SHORTCUT = "Ctrl+Alt+R"


class PlaygroundBar(QToolBar):
    """Emits `startRequested(kind, request)`; shows the running job's progress; Cancel ends it cleanly."""

    startRequested = Signal(str, str)

    def __init__(self, service: PlaygroundService, parent: QWidget | None = None) -> None:
        super().__init__("Playground", parent)
        self.setObjectName("playground-bar")
        self.setMovable(False)
        self.service = service
        self.addWidget(QLabel(" Request ", self))
        self.request = QLineEdit(self)
        self.request.setPlaceholderText("Area or request, e.g. disputes wizard (Enter writes new cases)")
        self.request.setToolTip(f"What the job is about; empty means the whole app ({REQUEST_SHORTCUT})")
        self.request.setAccessibleName("Playground request")
        self.request.setClearButtonEnabled(True)
        self.request.setMinimumWidth(260)
        self.request.returnPressed.connect(lambda: self.start("new_test_case"))
        self.addWidget(self.request)
        self.job_actions: dict[str, QAction] = {}
        for kind, text, shortcut, tip in JOBS:
            action = QAction(text, self)
            action.setShortcut(QKeySequence(shortcut))
            action.setToolTip(f"{tip} ({shortcut})")
            action.triggered.connect(lambda _checked=False, k=kind: self.start(k))
            self.addAction(action)
            self.job_actions[kind] = action
        self.try_forms_action = QAction("Try &Forms", self)
        self.try_forms_action.setCheckable(True)
        self.try_forms_action.setToolTip(TRY_FORMS_TIP)
        self.try_forms_action.setStatusTip(TRY_FORMS_TIP)
        self.try_forms_action.toggled.connect(service.set_try_forms)
        self.addAction(self.try_forms_action)
        self.addSeparator()
        self.progress = QProgressBar(self)
        self.progress.setAccessibleName("Job progress")
        self.progress.setFixedWidth(230)
        self.progress.setMaximumHeight(18)
        self.progress_action = self.addWidget(self.progress)
        self.progress_action.setVisible(False)
        self.cancel_action = QAction("Cancel Job", self)
        self.cancel_action.setShortcut(QKeySequence(CANCEL_SHORTCUT))
        self.cancel_action.setToolTip(f"End the job cleanly; what it found so far is kept ({CANCEL_SHORTCUT})")
        self.cancel_action.triggered.connect(service.cancel)
        self.cancel_action.setEnabled(False)
        self.addAction(self.cancel_action)
        self.focus_action = QAction("Focus the Request Field", self)  # the Playground menu lists it
        self.focus_action.setShortcut(QKeySequence(REQUEST_SHORTCUT))
        self.focus_action.triggered.connect(self.focus_request)

        self.ticks: list[int] = []  # item indexes shown, in order (what a tester saw tick by)
        service.runningChanged.connect(self._running)
        service.progress.connect(self._on_progress)
        service.finished.connect(self._ended)
        service.questionsAsked.connect(self._paused)

    def start(self, kind: JobKind) -> None:
        self.startRequested.emit(kind, self.request.text().strip())

    def focus_request(self) -> None:
        self.request.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.request.selectAll()

    # -- progress ------------------------------------------------------------------------------------

    def _running(self, running: bool) -> None:
        self.cancel_action.setEnabled(running or self._waiting())
        if running:
            self.ticks = []
            self._show(0, 0, "Starting…")
        else:
            self.progress_action.setVisible(False)

    def _waiting(self) -> bool:
        job = self.service.job
        return job is not None and job.status == "paused"

    def _show(self, value: int, maximum: int, text: str) -> None:
        self.progress.setRange(0, maximum)  # 0..0 is Qt's busy indicator
        self.progress.setValue(value)
        self.progress.setFormat(text)
        self.progress.setToolTip(text)
        self.progress_action.setVisible(True)

    def _on_progress(self, event: EngineEvent) -> None:
        if not self.service.running:
            return
        if isinstance(event, PreflightStarted):
            self._show(0, 0, "Preflight starting…")
        elif isinstance(event, PreflightProgress):
            top = max(event.max_steps, 1)
            self._show(min(event.step, top), top, f"Preflight: step {event.step} of at most {top}")
        elif isinstance(event, MainJobStarted):
            self._show(0, 0, f"{JOB_NAMES.get(event.kind, event.kind)}: writing…")
        elif isinstance(event, ItemProgress) and event.index > 0:
            self.ticks.append(event.index)
            noun = "suite" if event.item.startswith("suite") else "case"
            self._show(event.index, max(event.total, event.index), f"{noun.capitalize()} {event.index} of {event.total}"
                       f" {event.status}")
        elif isinstance(event, MainJobCompleted):
            self._show(1, 1, "Finishing…")

    def _paused(self, _job: JobRecord) -> None:
        self.progress_action.setVisible(False)
        self.cancel_action.setEnabled(True)

    def _ended(self, _job: JobRecord) -> None:
        self.progress_action.setVisible(False)
        self.cancel_action.setEnabled(self.service.running)
