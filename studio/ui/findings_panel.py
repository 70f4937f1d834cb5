"""The Context dock's Findings list: the job's suspected defects, one card each — kind, status, summary, page, the
case that checks the expected behaviour, the evidence (on hover, or expanded) — with Confirm and Dismiss. A decision
is kept in the project file and updates the case; Undo (Ctrl+Z in the list, or its button) takes it back."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from shiboken6 import isValid as shiboken_valid

from studio.app.case_service import CaseService
from studio.models.context import Finding, FindingStatus, JobRecord
from studio.preflight.finding_decisions import FindingDecision
from studio.preflight.findings import finding_key

KIND_WORDS = {"data_lost_on_reload": "Data lost on reload", "count_disagrees": "Count disagrees with the items",
              "control_does_nothing": "Control does nothing", "page_error": "Uncaught page error",
              "partial_validation": "Validation checks only some fields", "other": "Unexpected behaviour"}
STATUS_WORDS = {"suspected": "suspected — confirm or dismiss", "confirmed": "confirmed defect",
                "dismissed": "dismissed: not a defect"}
STATUS_COLORS = {"suspected": "#b45309", "confirmed": "#b91c1c", "dismissed": "#4b5563"}


class DecideFinding(QUndoCommand):
    """Confirm or dismiss one finding; undo puts the finding and its case back as they were."""

    def __init__(self, panel: FindingsPanel, job_id: str, finding: Finding, status: FindingStatus) -> None:
        verb = "Confirm" if status == "confirmed" else "Dismiss"
        super().__init__(f"{verb} “{finding.summary[:40]}”")
        self.panel, self.job_id, self.key, self.status = panel, job_id, finding_key(finding), status
        self.decision: FindingDecision | None = None

    def redo(self) -> None:
        self.decision = self.panel.cases.decide_finding(self.job_id, self.key, self.status)
        if self.decision is None:
            self.setObsolete(True)  # nothing was written, so there is nothing to undo

    def undo(self) -> None:
        if self.decision is not None:
            self.panel.cases.undo_finding(self.decision)


class WrappedLabel(QLabel):
    """A word-wrapped label that asks for the height its text needs at its present width (a plain QLabel in a
    scrolled list is laid out for another width and overlaps what follows)."""

    def __init__(self, text: str, parent: QWidget) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        needed = self.heightForWidth(self.width())
        if needed > 0 and needed != self.minimumHeight():
            self.setMinimumHeight(needed)


class FindingCard(QFrame):
    """One finding: what it is, where, its status, its evidence and its two buttons."""

    def __init__(self, finding: Finding, case_title: str | None, parent: QWidget) -> None:
        super().__init__(parent)
        self.finding = finding
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("finding")
        self.setStyleSheet("QFrame#finding { border: 1px solid #fcd34d; border-radius: 4px; background: #fffbeb; }"
                           if finding.status == "suspected" else "")
        color = STATUS_COLORS[finding.status]
        self.head = WrappedLabel(f"<b>{KIND_WORDS.get(finding.kind, finding.kind)}</b> · "
                           f"<span style='color:{color}'>{STATUS_WORDS[finding.status]}</span>", self)
        self.summary = WrappedLabel(finding.summary, self)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        evidence = "\n".join(f"• {line}" for line in finding.evidence) or "No evidence was recorded."
        self.summary.setToolTip(evidence)
        where = f"Page: {finding.page_url or 'not recorded'}"
        self.page = WrappedLabel(where + (f" · Case: {case_title}" if case_title else " · no case yet"), self)
        self.page.setStyleSheet("color:#4b5563;")
        self.evidence_button = QToolButton(self)
        self.evidence_button.setText(f"Evidence ({len(finding.evidence)})")
        self.evidence_button.setCheckable(True)
        self.evidence_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.evidence_button.setArrowType(Qt.ArrowType.RightArrow)
        self.evidence = WrappedLabel(evidence, self)
        self.evidence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.evidence.setVisible(False)
        self.evidence_button.toggled.connect(self._show_evidence)
        self.confirm_button = QPushButton("Confirm", self)
        self.confirm_button.setToolTip("It is a defect: keep its case, marked as a known defect (its exported test "
                                       "then fails until the app is fixed)")
        self.dismiss_button = QPushButton("Dismiss", self)
        self.dismiss_button.setToolTip("Not a defect: the app behaves as intended; its case is removed")
        self.open_button = QPushButton("Open Case", self)
        self.open_button.setVisible(bool(case_title))
        # Two short rows rather than one long one: the Context dock is often a third of a laptop screen wide.
        buttons = QHBoxLayout()
        buttons.addWidget(self.confirm_button)
        buttons.addWidget(self.dismiss_button)
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(3)
        for widget in (self.head, self.summary, self.page):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addWidget(self.evidence_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.evidence)

    def _show_evidence(self, shown: bool) -> None:
        self.evidence.setVisible(shown)
        self.evidence_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def enable(self, running: bool) -> None:
        status = self.finding.status
        self.confirm_button.setEnabled(not running and status != "confirmed")
        self.dismiss_button.setEnabled(not running and status != "dismissed")
        if running:
            for button in (self.confirm_button, self.dismiss_button):
                button.setToolTip("Decide once the job has ended (it still writes its findings)")


class FindingsPanel(QWidget):
    """Renders a job's findings; Confirm / Dismiss go to the CaseService as undoable commands."""

    caseActivated = Signal(str)

    def __init__(self, cases: CaseService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cases = cases
        self.job: JobRecord | None = None
        self.cards: dict[str, FindingCard] = {}  # finding key -> its card
        self.undo_stack = QUndoStack(self)
        self.title = WrappedLabel("", self)
        self.undo_button = QPushButton("Undo", self)
        self.undo_button.clicked.connect(self.undo_stack.undo)
        self.undo_action = QAction("Undo Decision", self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.undo_action.triggered.connect(self.undo_stack.undo)
        self.addAction(self.undo_action)
        self.undo_stack.indexChanged.connect(lambda _index: self._undo_state())
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.undo_button)
        self.list_host = QWidget(self)
        self.list_layout = QVBoxLayout(self.list_host)
        self.list_layout.setContentsMargins(0, 0, 0, 0)
        self.list_layout.setSpacing(4)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # cards wrap to the dock's width
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.list_host)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(scroll, 1)
        self._undo_state()

    def show_findings(self, job: JobRecord, running: bool, case_titles: dict[str, str]) -> None:
        """Show `job`'s findings (a decision on an earlier job's findings is no longer undone from here)."""
        if self.job is None or self.job.id != job.id:
            self.undo_stack.clear()
        self.job = job
        findings = job.context.findings
        open_count = sum(1 for f in findings if f.status == "suspected")
        self.title.setText(f"<b>Findings ({len(findings)})</b> · suspected defects: {open_count} to confirm or "
                           "dismiss" if open_count else f"<b>Findings ({len(findings)})</b> · all decided")
        while self.list_layout.count():
            item = self.list_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.cards = {}
        for finding in findings:
            card = FindingCard(finding, case_titles.get(finding.case_id or ""), self.list_host)
            card.enable(running)
            card.confirm_button.clicked.connect(self._decider(finding, "confirmed"))
            card.dismiss_button.clicked.connect(self._decider(finding, "dismissed"))
            case_id = finding.case_id
            if case_id:
                card.open_button.clicked.connect(lambda _checked=False, case=case_id: self.caseActivated.emit(case))
            self.list_layout.addWidget(card)
            self.cards[finding_key(finding)] = card
        self.list_layout.addStretch(1)
        self.setVisible(bool(findings))

    def card(self, summary_part: str) -> FindingCard | None:
        """The card whose summary contains `summary_part` (for tests and for the tester's search)."""
        return next((c for c in self.cards.values() if summary_part in c.finding.summary), None)

    def decide(self, finding: Finding, status: FindingStatus) -> None:
        if self.job is not None:
            self.undo_stack.push(DecideFinding(self, self.job.id, finding, status))

    def _decider(self, finding: Finding, status: FindingStatus) -> Callable[..., None]:
        return lambda _checked=False: self.decide(finding, status)

    def _undo_state(self) -> None:
        if not shiboken_valid(self.undo_stack):  # the stack announces its own clearing while the window closes
            return
        can = self.undo_stack.canUndo()
        self.undo_button.setEnabled(can)
        self.undo_action.setEnabled(can)
        self.undo_button.setToolTip(f"{self.undo_stack.undoText()} (Ctrl+Z)" if can else "Nothing to undo")
