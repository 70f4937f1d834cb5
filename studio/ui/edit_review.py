"""Reviewing the EDIT agent's changes: the edited cases by title, the cases the detected changes impact (each a
link that opens it), the selected edit as a step-aware diff, and Accept / Reject per case or for all at once —
every decision undoable (Ctrl+Z, the Undo button), in the project file too."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence, QResizeEvent, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid as shiboken_valid

from studio.app.case_service import CaseService
from studio.models.testcase import CaseEdit, TestCase
from studio.ui.case_diff import diff_html

EDIT_ROLE = Qt.ItemDataRole.UserRole
DECISION_COLORS = {"accepted": "#15803d", "rejected": "#b91c1c"}
DECISION_MARKS = {"accepted": "✓", "rejected": "✗"}
EMPTY = "The agent's edits appear here after an Edit Test Cases job."
SIDE_BY_SIDE = 760  # narrower than this (a side panel), the list sits above the diff


class Decide(QUndoCommand):
    """Accept or reject some edits; undo puts every case a rejection rewrote back as it was just before."""

    def __init__(self, review: EditReview, edits: list[CaseEdit], decision: str) -> None:
        verb = "Accept" if decision == "accepted" else "Reject"
        what = f"all {len(edits)} edits" if len(edits) > 1 else f"the edit of '{edits[0].after.title}'"
        super().__init__(f"{verb} {what}")
        self.review, self.edits, self.decision = review, edits, decision
        self.previous: dict[str, TestCase] = {}  # each case as it was before the rejection
        self.written: dict[str, int] = {}  # the version the rejection wrote, per case

    def redo(self) -> None:
        service = self.review.service
        if self.decision == "rejected":
            self.previous = service.reject_edits(self.edits) or {}
            self.written = {case_id: case.version for case_id in self.previous
                            if (case := service.case(case_id)) is not None}
        else:
            service.accept_edits(self.edits)
        self.review.mark(self.edits, self.decision)

    def undo(self) -> None:
        service = self.review.service
        left = service.restore_cases(self.previous, "Undid the rejection of the agent's edit.", self.written) \
            if self.previous else []
        self.review.mark(self.edits, None)
        waits = "These edits wait" if len(self.edits) > 1 else "The edit waits"
        kept = (f" {', '.join(repr(title) for title in left)} changed after the rejection, so "
                f"{'they were' if len(left) > 1 else 'it was'} left as {'they are' if len(left) > 1 else 'it is'}."
                if left else "")
        service.notice.emit(f"Undone: {self.text()[0].lower()}{self.text()[1:]}. {waits} for your decision again."
                            + kept)


class EditReview(QWidget):
    """One row per edited case; the selected edit's diff, summary and reasons; Accept, Reject and their All forms."""

    countChanged = Signal(int)  # edits still waiting for a decision
    caseOpenRequested = Signal(str)  # a case id the tester wants to open in the editor

    def __init__(self, service: CaseService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.edits: list[CaseEdit] = []
        self.decisions: dict[str, str] = {}
        self.undo_stack = QUndoStack(self)
        self.shown_html = ""  # the diff shown, as HTML
        self._sized = False

        self.impacted = QLabel("", self)
        self.impacted.setWordWrap(True)
        self.impacted.setTextFormat(Qt.TextFormat.RichText)
        self.impacted.setAccessibleName("Impacted cases")
        self.impacted.linkActivated.connect(self.caseOpenRequested)
        impacted_area = self.impacted_area = QScrollArea(self)
        impacted_area.setWidget(self.impacted)
        impacted_area.setWidgetResizable(True)
        impacted_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.impacted.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        impacted_area.verticalScrollBar().setSingleStep(self.impacted.fontMetrics().lineSpacing())
        impacted_area.setVisible(False)

        self.list = QListWidget(self)
        self.list.setAccessibleName("Edited cases")
        # Whole titles, wrapped when the panel is narrow: the ends tell "step 1" from "step 2" cases apart.
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)  # a single word longer than the row
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.setMinimumWidth(200)
        self.list.currentRowChanged.connect(self._show)
        self.list.itemDoubleClicked.connect(lambda item: self.caseOpenRequested.emit(item.data(EDIT_ROLE)))
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.accept_all_button = QPushButton("Accept All", self)
        self.accept_all_button.setToolTip("Keep the agent's version of every case still waiting for a decision")
        self.reject_all_button = QPushButton("Reject All", self)
        self.reject_all_button.setToolTip("Put every case still waiting back as it was before the agent's edit")
        self.undo_button = QPushButton("Undo", self)
        self.accept_all_button.clicked.connect(lambda: self.decide_all("accepted"))
        self.reject_all_button.clicked.connect(lambda: self.decide_all("rejected"))
        self.undo_button.clicked.connect(self.undo_stack.undo)

        self.summary = QLabel(EMPTY, self)  # the selected edit's title, a link that opens the case
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.summary.linkActivated.connect(self.caseOpenRequested)
        self.diff = QTextBrowser(self)
        self.diff.setOpenLinks(False)
        self.diff.setAccessibleName("Changes of the edit")
        self.accept_button = QPushButton("Accept", self)
        self.accept_button.setToolTip("Keep the agent's version of this case")
        self.reject_button = QPushButton("Reject", self)
        self.reject_button.setToolTip("Put the case back as it was before the edit (saved as a new version)")
        self.accept_button.clicked.connect(lambda: self.decide_current("accepted"))
        self.reject_button.clicked.connect(lambda: self.decide_current("rejected"))
        self._shortcuts()
        self._lay_out()
        self.undo_stack.indexChanged.connect(self._undo_moved)
        self._update_buttons()

    def _shortcuts(self) -> None:
        self.undo_action = QAction("Undo", self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo_stack.undo)
        self.redo_action = QAction("Redo", self)
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence(QKeySequence.StandardKey.Redo)])
        self.redo_action.triggered.connect(self.undo_stack.redo)
        for action in (self.undo_action, self.redo_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(action)

    def _lay_out(self) -> None:
        left = QWidget(self)
        left_column = QVBoxLayout(left)
        left_column.setContentsMargins(0, 0, 0, 0)
        left_column.addWidget(self.list, 1)
        all_buttons = QHBoxLayout()
        for button in (self.accept_all_button, self.reject_all_button):
            all_buttons.addWidget(button)
        all_buttons.addStretch(1)
        all_buttons.addWidget(self.undo_button)
        left_column.addLayout(all_buttons)
        right = QWidget(self)
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.summary)
        column.addWidget(self.diff, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.reject_button)
        buttons.addWidget(self.accept_button)
        column.addLayout(buttons)
        self.splitter = QSplitter(self)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 2)  # titles are long: the list keeps about two fifths of the width
        self.splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.impacted_area)
        layout.addWidget(self.splitter, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Side by side when there is room for a title beside the diff; in a side panel, the list above the diff."""
        super().resizeEvent(event)
        self._fit_impacted()
        wanted = Qt.Orientation.Horizontal if self.width() >= SIDE_BY_SIDE else Qt.Orientation.Vertical
        if wanted != self.splitter.orientation() or not self._sized:
            self._sized = True
            self.splitter.setOrientation(wanted)
            if wanted == Qt.Orientation.Horizontal:
                self.splitter.setSizes([self.width() * 2 // 5, self.width() * 3 // 5])
            else:
                self.splitter.setSizes([self.height() * 3 // 10, self.height() * 7 // 10])

    # -- the edits ---------------------------------------------------------------------------------------

    def set_edits(self, edits: list[CaseEdit], impacted: list[TestCase] | None = None) -> None:
        """Show a job's edits (all waiting), and the cases its detected changes impact, by title."""
        self.edits = list(edits)
        self.decisions = {}
        self.undo_stack.clear()  # decisions on an earlier job's edits cannot be undone from this list
        self.list.clear()
        for edit in self.edits:
            item = QListWidgetItem(self.list)
            item.setData(EDIT_ROLE, edit.case_id)
            self._paint(item, edit)
        self._show_impacted(impacted or [])
        if self.edits:
            self.list.setCurrentRow(0)
        else:
            self._show(-1)
        self.countChanged.emit(self.waiting)

    def _show_impacted(self, cases: list[TestCase]) -> None:
        edited = {edit.case_id for edit in self.edits}
        cases = sorted(cases, key=lambda case: case.id in edited)  # those not in the list below come first
        links = [f'<a href="{escape(case.id)}">{escape(case.title)}</a>'
                 + ("" if case.id in edited else ' <span style="color:#6b7280;">(not edited)</span>')
                 for case in cases]
        self.impacted.setText(f"<b>Impacted cases ({len(cases)}):</b> " + " · ".join(links) if links else "")
        self.impacted.setToolTip("Click a case to open it in the Cases tab.")
        self.impacted_area.setVisible(bool(links))
        self._fit_impacted()

    def _fit_impacted(self) -> None:
        """As tall as its lines, at most three whole lines (then it scrolls a line at a time)."""
        line = self.impacted.fontMetrics().lineSpacing()
        width = self.width() - self.impacted_area.verticalScrollBar().sizeHint().width()  # the strip spans the panel
        needed = self.impacted.heightForWidth(width) if self.impacted.text() else 0
        fits = needed <= 3 * line
        self.impacted_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff if fits
                                                      else Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.impacted_area.setFixedHeight(max(line, needed) if fits else 3 * line)

    @property
    def waiting(self) -> int:
        return sum(1 for edit in self.edits if edit.case_id not in self.decisions)

    @property
    def current(self) -> CaseEdit | None:
        row = self.list.currentRow()
        return self.edits[row] if 0 <= row < len(self.edits) else None

    def select(self, case_id: str) -> None:
        for row, edit in enumerate(self.edits):
            if edit.case_id == case_id:
                self.list.setCurrentRow(row)

    def _paint(self, item: QListWidgetItem, edit: CaseEdit) -> None:
        decision = self.decisions.get(edit.case_id)
        # A mark, not a word after the title: "— accepted" would wrap every title of a side panel onto two lines.
        item.setText(f"{DECISION_MARKS[decision]} {edit.after.title}" if decision else edit.after.title)
        item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{edit.after.title}, {decision or 'waiting'}")
        item.setToolTip(f"{edit.after.title}\n{edit.summary}" + (f"\n{decision.capitalize()}." if decision else ""))
        item.setForeground(QBrush(QColor(DECISION_COLORS.get(decision or "", "#111827"))))

    def _show(self, row: int) -> None:
        edit = self.current if row >= 0 else None
        if edit is None:
            self.summary.setText(EMPTY if not self.edits else "")
            self.shown_html = ""
            self.diff.setHtml("")
            self._update_buttons()
            return
        self.summary.setText(f'<b><a href="{escape(edit.case_id)}">{escape(edit.after.title)}</a></b>')
        self.summary.setToolTip("Open the case in the Cases tab")
        # The summary is often the reasons joined; then listing them again says nothing new.
        reasons = [] if " ".join(edit.reasons) == edit.summary else edit.reasons
        lead = f"<p>{escape(edit.summary, quote=False)}</p>" + (
            "<ul>" + "".join(f"<li>{escape(reason, quote=False)}</li>" for reason in reasons) + "</ul>"
            if reasons else "")
        suites = {suite.id: suite.title for suite in self.service.suites()}
        self.shown_html = diff_html(edit.before, edit.after, suites, lead)
        self.diff.setHtml(self.shown_html)
        self._update_buttons()

    def _undo_moved(self, _index: int) -> None:
        if shiboken_valid(self.undo_stack):  # the stack announces its own clearing while the window closes
            self._update_buttons()

    def _update_buttons(self) -> None:
        edit = self.current
        open_ = edit is not None and edit.case_id not in self.decisions
        self.accept_button.setEnabled(open_)
        self.reject_button.setEnabled(open_)
        waiting = self.waiting
        self.accept_all_button.setEnabled(waiting > 0)
        self.reject_all_button.setEnabled(waiting > 0)
        self.accept_all_button.setText(f"Accept All ({waiting})" if waiting else "Accept All")
        can_undo = self.undo_stack.canUndo()
        self.undo_button.setEnabled(can_undo)
        self.undo_action.setEnabled(can_undo)
        self.redo_action.setEnabled(self.undo_stack.canRedo())
        self.undo_button.setToolTip(f"{self.undo_stack.undoText()} (Ctrl+Z)" if can_undo else "Nothing to undo")

    # -- decisions ---------------------------------------------------------------------------------------

    def decide_current(self, decision: str) -> None:
        edit = self.current
        if edit is not None and edit.case_id not in self.decisions:
            self.undo_stack.push(Decide(self, [edit], decision))

    def decide_all(self, decision: str) -> None:
        """Accept or reject every edit still waiting, as one undoable step."""
        waiting = [edit for edit in self.edits if edit.case_id not in self.decisions]
        if waiting:
            self.undo_stack.push(Decide(self, waiting, decision))

    def mark(self, edits: list[CaseEdit], decision: str | None) -> None:
        """Record (or, with None, forget) the decision on `edits`; then show the next edit still waiting."""
        for edit in edits:
            if decision is None:
                self.decisions.pop(edit.case_id, None)
            else:
                self.decisions[edit.case_id] = decision
        for row, edit in enumerate(self.edits):
            item = self.list.item(row)
            if item is not None:
                self._paint(item, edit)
        rows = [row for row, edit in enumerate(self.edits) if edit.case_id not in self.decisions]
        if decision is None and edits:
            self.select(edits[0].case_id)
        elif rows and self.current is not None and self.current.case_id in self.decisions:
            self.list.setCurrentRow(rows[0])
        self._show(self.list.currentRow())
        self.countChanged.emit(self.waiting)

    def _menu(self, at: QPoint) -> None:
        item = self.list.itemAt(at)
        menu = QMenu(self)
        if item is not None:
            self.list.setCurrentItem(item)
            case_id = item.data(EDIT_ROLE)
            menu.addAction("Open the Case", lambda: self.caseOpenRequested.emit(case_id))
            accept = menu.addAction("Accept", lambda: self.decide_current("accepted"))
            reject = menu.addAction("Reject", lambda: self.decide_current("rejected"))
            accept.setEnabled(self.accept_button.isEnabled())
            reject.setEnabled(self.reject_button.isEnabled())
            menu.addSeparator()
        menu.addAction(self.undo_action)
        menu.addAction(self.redo_action)
        menu.exec(self.list.viewport().mapToGlobal(at))
