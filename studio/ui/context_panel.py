"""The Context dock: the job's header (status, kind, request, the step or item it is on, Cancel) above its
context_collection as a navigable tree that follows the job live. The progress bar is in the Playground bar."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QTreeWidgetItemIterator,
    QVBoxLayout,
    QWidget,
)

from studio.app.case_service import CaseService
from studio.app.playground_service import JOB_NAMES, PlaygroundService
from studio.models.context import JobRecord
from studio.models.events import (
    EngineEvent,
    ItemProgress,
    MainJobCompleted,
    MainJobStarted,
    PreflightCompleted,
    PreflightProgress,
)
from studio.models.nothing import NOTHING, NothingProduced
from studio.playground.outcomes import auth_words
from studio.ui.context_tree import (
    CASE_ROLE,
    KEY_ROLE,
    SCREENSHOT_ROLE,
    ConfidenceDelegate,
    WrappingDelegate,
    fill_tree,
)
from studio.ui.findings_panel import FindingsPanel

OPEN_BY_DEFAULT = {"entries", "changes", "gaps", "confidence"}
OPEN_PREFIXES = ("change:", "gaps:")  # what the tester must act on is open from the start
STATUS_COLORS = {"running": "#1d4ed8", "paused": "#b45309", "completed": "#15803d", "cancelled": "#4b5563",
                 "failed": "#b91c1c", "budget_exhausted": "#b45309", "interrupted": "#b45309"}
STATUS_WORDS = {"running": "Running", "paused": "Waiting for your answers", "completed": "Completed",
                "cancelled": "Cancelled", "failed": "Failed", "budget_exhausted": "Budget used up",
                "interrupted": "Waiting to be resumed", NOTHING: "Finished with nothing"}
STATUS_COLORS[NOTHING] = "#b91c1c"


class ContextPanel(QWidget):
    """Renders the service's current job; double-clicks open impacted cases and evidence screenshots."""

    caseActivated = Signal(str)
    screenshotActivated = Signal(int)

    def __init__(self, service: PlaygroundService, parent: QWidget | None = None,
                 cases: CaseService | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.cases = cases
        self.job: JobRecord | None = None
        self.steps_text = ""
        self._seen: set[str] = set()  # node keys shown before (those opened by default are opened once only)
        self.status = QLabel("No job yet. Start one from the Playground menu.", self)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("End the job cleanly; what it found so far is kept")
        self.cancel_button.clicked.connect(service.cancel)
        self.cancel_button.setEnabled(False)
        self.detail = QLabel("", self)
        self.detail.setWordWrap(True)
        self.detail.setStyleSheet("color:#4b5563;")
        self.item_progress = QLabel("", self)
        self.item_progress.setWordWrap(True)

        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Context", "Value"])
        self.tree.setAccessibleName("Context collection")
        self.tree.setItemDelegateForColumn(0, WrappingDelegate(self.tree))
        self.tree.setItemDelegateForColumn(1, ConfidenceDelegate(self.tree))
        self.tree.setWordWrap(False)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.tree.setColumnWidth(0, 200)
        self.tree.itemActivated.connect(self._activated)

        # The job's suspected defects, above the tree: what the tester decides on comes first.
        self.findings: FindingsPanel | None = None
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        if cases is not None:
            self.findings = FindingsPanel(cases, self.split)
            self.findings.setVisible(False)
            self.findings.caseActivated.connect(self.caseActivated)
            cases.findingsChanged.connect(self._findings_decided)
            self.split.addWidget(self.findings)
        self.split.addWidget(self.tree)
        self.split.setStretchFactor(self.split.count() - 1, 1)

        head = QHBoxLayout()
        head.addWidget(self.status, 1)
        head.addWidget(self.cancel_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(head)
        layout.addWidget(self.detail)
        layout.addWidget(self.item_progress)
        layout.addWidget(self.split, 1)

        # Progress ticks arrive many times a second; the header repaints at most ~7 times a second.
        self._pending_event: EngineEvent | None = None
        self._tick = QTimer(self, singleShot=True, interval=150)
        self._tick.timeout.connect(self._show_event)
        service.jobChanged.connect(self.show_job)
        service.progress.connect(self._on_progress)
        service.runningChanged.connect(lambda _on: self._update_header())

    def resizeEvent(self, event: QResizeEvent) -> None:
        # The labels get a little over half the width and the values (bars, URLs) the rest, however narrow the dock.
        super().resizeEvent(event)
        self.tree.setColumnWidth(0, max(150, int(self.tree.viewport().width() * 0.55)))
        if event.size().width() != event.oldSize().width():
            self.tree.doItemsLayout()  # wrapped sentences take new heights at the new width

    # -- the job --------------------------------------------------------------------------------------

    def show_job(self, job: JobRecord) -> None:
        if self.job is None or self.job.id != job.id:
            self.steps_text = ""
            self.item_progress.setText("")
            self._seen = set()
            self.tree.clear()
        self.job = job
        self._update_header()
        self._rebuild()
        self._show_findings()

    def _show_findings(self) -> None:
        job = self.job
        if self.findings is None or job is None:
            return
        running = self.service.running and job.status == "running"
        titles = self.service.case_titles([f.case_id for f in job.context.findings if f.case_id])
        self.findings.show_findings(job, running, titles)

    def _findings_decided(self, job: JobRecord) -> None:
        if self.job is not None and self.job.id == job.id:
            self.job = job
            self._rebuild()
            self._show_findings()

    def _update_header(self) -> None:
        job = self.job
        if job is None:
            return
        running = self.service.running and job.status == "running"
        # A job that finished with nothing is a problem to explain, never "Completed".
        nothing = job.status == "completed" and job.result.get("outcome") == NOTHING
        shown = NOTHING if nothing else job.status
        word = STATUS_WORDS.get(shown, job.status) if not running else "Running"
        color = STATUS_COLORS.get("running" if running else shown, "#111827")
        request = f" · “{job.request}”" if job.request else ""
        self.status.setText(f"<b style='color:{color}'>{word}</b> · {JOB_NAMES.get(job.kind, job.kind)}{request}")
        parts = [self.steps_text] if self.steps_text else []
        if nothing and not running:
            said = NothingProduced.model_validate(job.result)
            parts.append(said.headline(JOB_NAMES.get(job.kind, job.kind)))
            parts += [f"• {reason.said()}" for reason in said.reasons]
            self.detail.setText("\n".join(parts))
            self.detail.setStyleSheet("color:#b91c1c;")
        else:
            if job.message and not running:
                parts.append(job.message)
            self.detail.setText(" · ".join(parts))
            self.detail.setStyleSheet("color:#4b5563;")
        self.detail.setVisible(bool(self.detail.text()))  # an empty line would push the findings down
        self.cancel_button.setEnabled(running or job.status == "paused")

    def _rebuild(self) -> None:
        job = self.job
        if job is None:
            return
        expanded, scrolled = self._expanded_keys(), self.tree.verticalScrollBar().value()
        self.tree.setUpdatesEnabled(False)
        self.tree.clear()
        fill_tree(self.tree, job.context, self.service.catalogs(job.id), auth_words(job),
                  self.service.case_titles(_impacted(job)))
        for item in self._items():
            key = item.data(0, KEY_ROLE)
            # A node opens by default when it first appears; after that the tester's choice is kept.
            new = key and key not in self._seen and (key in OPEN_BY_DEFAULT or key.startswith(OPEN_PREFIXES))
            if key in expanded or new:
                item.setExpanded(True)
            if key:
                self._seen.add(key)
        self.tree.setUpdatesEnabled(True)
        self.tree.verticalScrollBar().setValue(scrolled)

    def _expanded_keys(self) -> set[str]:
        if self.tree.topLevelItemCount() == 0:
            return set()
        return {item.data(0, KEY_ROLE) for item in self._items() if item.isExpanded() and item.data(0, KEY_ROLE)}

    def _items(self) -> list[QTreeWidgetItem]:
        found = []
        iterator = QTreeWidgetItemIterator(self.tree)
        while iterator.value():
            found.append(iterator.value())
            iterator += 1
        return found

    def find_item(self, key: str) -> QTreeWidgetItem | None:
        """The node with `key` (e.g. "gaps", "entry:/disputes", "confidence:Coverage")."""
        return next((item for item in self._items() if item.data(0, KEY_ROLE) == key), None)

    # -- live progress ---------------------------------------------------------------------------------

    def _on_progress(self, event: EngineEvent) -> None:
        if isinstance(event, ItemProgress):
            self.item_progress.setText(f"{event.index}/{event.total} {event.message or f'{event.status} {event.item}'}"
                                       if event.index else event.message)
        elif isinstance(event, MainJobStarted):
            self.item_progress.setText(f"{JOB_NAMES.get(event.kind, event.kind)}: writing…")
        elif isinstance(event, MainJobCompleted):
            self.item_progress.setText("")  # the job's summary shows in the detail line
        elif isinstance(event, PreflightCompleted):
            self.steps_text = f"{event.steps} browser steps used"
        self._pending_event = event
        if not self._tick.isActive():
            self._tick.start()

    def _show_event(self) -> None:
        event, self._pending_event = self._pending_event, None
        if isinstance(event, PreflightProgress):
            self.steps_text = f"Step {event.step} of at most {event.max_steps} · {event.objective.replace('_', ' ')}: " \
                              f"{event.message}"
        self._update_header()

    # -- activation ------------------------------------------------------------------------------------

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        case_id = item.data(0, CASE_ROLE)
        if case_id:
            self.caseActivated.emit(case_id)
            return
        screenshot = item.data(0, SCREENSHOT_ROLE)
        if screenshot is not None:
            self.screenshotActivated.emit(int(screenshot))


def _impacted(job: JobRecord) -> list[str]:
    return [case_id for change in job.context.detected_changes for case_id in change.impacted_testcase_ids or []]
