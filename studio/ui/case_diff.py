"""Reviewing the EDIT agent's changes: each case's before/after as a unified text diff, the edit's summary and
reasons, and Accept / Reject per case. Also the plain-text rendering of a case the diff and history use."""

from __future__ import annotations

import difflib

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.models.testcase import CaseEdit, CaseStep, TestCase

EDIT_ROLE = Qt.ItemDataRole.UserRole


def step_text(number: int, step: CaseStep) -> list[str]:
    head = f"  {number}. {step.action} {step.target}".rstrip()
    lines = [head]
    if step.locator is not None:
        lines.append(f"       locator: {step.locator.python()}")
    if step.url:
        lines.append(f"       url: {step.url}")
    if step.data:
        lines.append(f"       data: {step.data}")
    if step.expected:
        lines.append(f"       expect: {step.expected}")
    return lines


def case_as_text(case: TestCase) -> list[str]:
    """The case as lines a tester reads (and difflib compares): fields, preconditions, steps, expectations."""
    lines = [f"Title: {case.title}",
             f"Priority: {case.priority} · Status: {case.status} · Gap type: {case.gap_type or '—'}",
             f"Tags: {', '.join(case.tags) or '—'}",
             "Preconditions:", *(f"  - {item}" for item in case.preconditions or ["(none)"]),
             "Steps:"]
    for number, step in enumerate(case.steps, 1):
        lines += step_text(number, step)
    if not case.steps:
        lines.append("  (none)")
    lines += ["Expected results:", *(f"  - {item}" for item in case.expected_results or ["(none)"])]
    return lines


def unified_diff(before: TestCase, after: TestCase) -> str:
    diff = difflib.unified_diff(case_as_text(before), case_as_text(after), fromfile=f"version {before.version}",
                                tofile=f"version {after.version} (agent)", lineterm="", n=2)
    return "\n".join(diff) or "(no visible change)"


class DiffHighlighter(QSyntaxHighlighter):
    """Green background for added lines, red for removed ones, grey for hunk headers."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.formats = {}
        for mark, background, foreground in (("+", "#dcfce7", "#14532d"), ("-", "#fee2e2", "#7f1d1d"),
                                             ("@", "#f3f4f6", "#6b7280")):
            fmt = QTextCharFormat()
            fmt.setBackground(QBrush(QColor(background)))
            fmt.setForeground(QBrush(QColor(foreground)))
            self.formats[mark] = fmt

    def highlightBlock(self, text: str) -> None:
        if text.startswith(("+++", "---")):
            self.setFormat(0, len(text), self.formats["@"])
        elif text[:1] in self.formats:
            self.setFormat(0, len(text), self.formats[text[:1]])


class EditReview(QWidget):
    """One row per edited case; the selected edit's diff, summary and reasons, with Accept and Reject."""

    acceptRequested = Signal(object)  # CaseEdit
    rejectRequested = Signal(object)  # CaseEdit
    countChanged = Signal(int)  # edits still waiting for a decision

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edits: list[CaseEdit] = []
        self.decisions: dict[str, str] = {}
        self.list = QListWidget(self)
        self.list.setAccessibleName("Edited cases")
        self.list.currentRowChanged.connect(self._show)
        self.summary = QLabel("The EDIT agent's changes appear here after an Edit Test Cases job.", self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reasons = QLabel("", self)
        self.reasons.setWordWrap(True)
        self.reasons.setStyleSheet("color:#374151;")
        self.diff = QPlainTextEdit(self)
        self.diff.setReadOnly(True)
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.diff.setAccessibleName("Diff of the edit")
        self.highlighter = DiffHighlighter(self.diff.document())
        self.accept_button = QPushButton("Accept", self)
        self.accept_button.setToolTip("Keep the agent's version of this case")
        self.reject_button = QPushButton("Reject", self)
        self.reject_button.setToolTip("Restore the case as it was before the edit (saved as a new version)")
        self.accept_button.clicked.connect(lambda: self._decide("accepted"))
        self.reject_button.clicked.connect(lambda: self._decide("rejected"))

        right = QWidget(self)
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.summary)
        column.addWidget(self.reasons)
        column.addWidget(self.diff, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.reject_button)
        buttons.addWidget(self.accept_button)
        column.addLayout(buttons)
        splitter = QSplitter(self)
        splitter.addWidget(self.list)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([240, 800])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self._update_buttons()

    def set_edits(self, edits: list[CaseEdit]) -> None:
        self.edits = list(edits)
        self.decisions = {}
        self.list.clear()
        for edit in self.edits:
            item = QListWidgetItem(self._label(edit), self.list)
            item.setData(EDIT_ROLE, edit.case_id)
        if self.edits:
            self.list.setCurrentRow(0)
        else:
            self._show(-1)
        self.countChanged.emit(self.waiting)

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

    def _label(self, edit: CaseEdit) -> str:
        decision = self.decisions.get(edit.case_id)
        return f"{edit.after.title}" + (f"  — {decision}" if decision else "")

    def _show(self, row: int) -> None:
        edit = self.current if row >= 0 else None
        if edit is None:
            self.diff.setPlainText("")
            self.reasons.setText("")
            self._update_buttons()
            return
        self.summary.setText(f"<b>{edit.after.title}</b> ({edit.case_id}): {edit.summary}")
        # The summary is often the reasons joined; then listing them again says nothing new.
        reasons = [] if " ".join(edit.reasons) == edit.summary else edit.reasons
        self.reasons.setText("\n".join(f"• {reason}" for reason in reasons))
        self.reasons.setVisible(bool(reasons))
        self.diff.setPlainText(unified_diff(edit.before, edit.after))
        self._update_buttons()

    def _update_buttons(self) -> None:
        edit = self.current
        open_ = edit is not None and edit.case_id not in self.decisions
        self.accept_button.setEnabled(open_)
        self.reject_button.setEnabled(open_)

    def _decide(self, decision: str) -> None:
        edit = self.current
        if edit is None or edit.case_id in self.decisions:
            return
        self.decisions[edit.case_id] = decision
        self.list.currentItem().setText(self._label(edit))
        (self.acceptRequested if decision == "accepted" else self.rejectRequested).emit(edit)
        self._update_buttons()
        self.countChanged.emit(self.waiting)
        if self.waiting:
            rows = [row for row, other in enumerate(self.edits) if other.case_id not in self.decisions]
            self.list.setCurrentRow(rows[0])
