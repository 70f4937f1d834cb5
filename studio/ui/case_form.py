"""The case form: every field of a TestCase, the steps table, and the version history; edits are undoable
(Ctrl+Z / Ctrl+Shift+Z) and any stored version can be read (read-only) in the History tab."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.models.testcase import CaseVersion, TestCase, TestSuite
from studio.preflight.gaps import CATEGORIES
from studio.ui.case_diff import case_as_text
from studio.ui.case_steps_model import ActionDelegate, StepsModel

PRIORITIES = ("P0", "P1", "P2", "P3")
STATUSES = ("draft", "active", "stale")
VERSION_ROLE = Qt.ItemDataRole.UserRole


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


class SetField(QUndoCommand):
    """A change of one form field; consecutive changes of the same field merge into one undo step."""

    def __init__(self, form: CaseForm, name: str, old: str, new: str) -> None:
        super().__init__(f"Edit {name.replace('_', ' ')}")
        self.form, self.name, self.old, self.new = form, name, old, new

    def id(self) -> int:
        return 1000 + list(self.form.fields).index(self.name)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SetField) or other.name != self.name:
            return False
        self.new = other.new
        return True

    def redo(self) -> None:
        self.form._put(self.name, self.new)

    def undo(self) -> None:
        self.form._put(self.name, self.old)


class _UndoKeysToForm(QObject):
    """Ctrl+Z in a text field undoes the form's last change, not only the field's own typing."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        undo_keys = (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                     and (event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo)))
        if undo_keys:
            event.ignore()
            return True
        return False


class CaseForm(QWidget):
    """Edits a working copy of one case; the editor saves it through the CaseService."""

    dirtyChanged = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.case: TestCase | None = None
        self.history: list[CaseVersion] = []
        self.undo = QUndoStack(self)
        self.undo_action = self.undo.createUndoAction(self, "Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo.createRedoAction(self, "Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence(QKeySequence.StandardKey.Redo)])
        for action in (self.undo_action, self.redo_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(action)
        self.undo.cleanChanged.connect(self._clean_changed)

        self.title = QLineEdit(self)
        self.suite = QComboBox(self)
        self.priority = QComboBox(self)
        self.priority.addItems(PRIORITIES)
        self.status = QComboBox(self)
        self.status.addItems(STATUSES)
        self.gap_type = QComboBox(self)
        self.gap_type.setEditable(True)
        self.gap_type.addItems(["", *CATEGORIES])
        self.tags = QLineEdit(self)
        self.tags.setPlaceholderText("comma-separated, e.g. disputes, smoke")
        self.origin = QLabel(self)
        self.preconditions = QPlainTextEdit(self)
        self.preconditions.setPlaceholderText("One precondition per line")
        self.expected = QPlainTextEdit(self)
        self.expected.setPlaceholderText("One expected result per line")
        for edit in (self.preconditions, self.expected):
            edit.setUndoRedoEnabled(False)  # the form's stack undoes them
        self.fields: dict[str, QLineEdit | QComboBox | QPlainTextEdit] = {
            "title": self.title, "suite_id": self.suite, "priority": self.priority, "status": self.status,
            "gap_type": self.gap_type, "tags": self.tags, "preconditions": self.preconditions,
            "expected_results": self.expected}
        self._values: dict[str, str] = {}
        self._loading = False
        keys = _UndoKeysToForm(self)
        for name, widget in self.fields.items():
            widget.installEventFilter(keys)
            if isinstance(widget, QComboBox):
                widget.currentTextChanged.connect(lambda _text, n=name: self._changed(n))
                line_edit = widget.lineEdit()
                if line_edit is not None:
                    line_edit.installEventFilter(keys)
            else:
                widget.textChanged.connect(lambda *_args, n=name: self._changed(n))

        self.steps_model = StepsModel(self.undo, self)
        self.steps = QTableView(self)
        self.steps.setModel(self.steps_model)
        self.steps.setAccessibleName("Steps")
        self.steps.setItemDelegateForColumn(0, ActionDelegate(self.steps))
        self.steps.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.steps.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # Every column shares the table's width and long texts wrap (rows grow to fit), so a side panel shows
        # all five columns of a step without scrolling sideways; the full text is each cell's tooltip too.
        self.steps.setWordWrap(True)
        self.steps.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.steps.verticalHeader().setMinimumSectionSize(24)
        self.steps.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.steps.horizontalHeader()
        header.setMinimumSectionSize(40)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        self.steps.setColumnWidth(0, 84)
        header.setStretchLastSection(False)
        self.steps.installEventFilter(keys)
        step_buttons = QHBoxLayout()
        self.step_buttons = {}
        for label, tip, slot in (("Add", "Add a step below the selected one", self.add_step),
                                 ("Remove", "Remove the selected step", self.remove_step),
                                 ("Up", "Move the selected step up", lambda: self.move_step(-1)),
                                 ("Down", "Move the selected step down", lambda: self.move_step(1))):
            button = QPushButton(label, self)
            button.setToolTip(tip)
            button.clicked.connect(slot)
            step_buttons.addWidget(button)
            self.step_buttons[label] = button
        step_buttons.addStretch(1)

        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        form.addRow("Title", self.title)
        # One field a row, with the two short ones (P1, active) side by side: the form fits a side panel a third of
        # a 1366-pixel laptop screen wide, every field whole, with no sideways scrolling.
        form.addRow("Suite", self.suite)
        short = QHBoxLayout()
        short.addWidget(self.priority, 1)
        short.addWidget(QLabel("Status", self))
        short.addWidget(self.status, 1)
        form.addRow("Priority", short)
        form.addRow("Gap type", self.gap_type)
        for widget in (self.suite, self.priority, self.status, self.gap_type):
            widget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            widget.setMinimumContentsLength(6)
        form.addRow("Tags", self.tags)
        self.origin.setStyleSheet("color:#6b7280;")
        form.addRow(self.origin)  # its own row: beside the tags a side panel cut it off
        # A case written for a suspected defect says so: it checks behaviour the app does not show today.
        self.defect = QLabel(self)
        self.defect.setWordWrap(True)
        self.defect.setStyleSheet("color:#b45309; font-weight:600;")
        self.defect.setVisible(False)
        form.addRow(self.defect)

        # Steps, the texts around them and the history share one tabbed area, so a dock of ~400 pixels still
        # shows eight or more steps at once.
        steps_page = QWidget(self)
        steps_layout = QVBoxLayout(steps_page)
        steps_layout.setContentsMargins(0, 4, 0, 0)
        steps_layout.addWidget(self.steps, 1)
        steps_layout.addLayout(step_buttons)
        texts_page = QWidget(self)
        texts = QFormLayout(texts_page)
        texts.addRow("Preconditions", self.preconditions)
        texts.addRow("Expected results", self.expected)
        self.history_list = QListWidget(self)
        self.history_list.setAccessibleName("Version history")
        self.history_list.currentItemChanged.connect(self._history_selected)
        self.version_note = QLabel(self)
        self.version_note.setWordWrap(True)
        self.version_note.setStyleSheet("background:#fef3c7; padding:4px;")
        self.version_text = QPlainTextEdit(self)
        self.version_text.setReadOnly(True)
        self.version_text.setAccessibleName("Selected version (read-only)")
        history_page = QSplitter(Qt.Orientation.Horizontal, self)
        history_page.addWidget(self.history_list)
        past = QWidget(self)
        past_layout = QVBoxLayout(past)
        past_layout.setContentsMargins(0, 0, 0, 0)
        past_layout.addWidget(self.version_note)
        past_layout.addWidget(self.version_text, 1)
        history_page.addWidget(past)
        self.sections = QTabWidget(self)
        self.sections.addTab(steps_page, "Steps")
        self.sections.addTab(texts_page, "Preconditions and results")
        self.sections.setTabToolTip(1, "Preconditions and expected results")
        self.sections.addTab(history_page, "History")
        for signal in (self.steps_model.rowsInserted, self.steps_model.rowsRemoved, self.steps_model.modelReset):
            signal.connect(self._count_steps)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(self.sections, 1)
        self.setEnabled(False)

    def _count_steps(self, *_args) -> None:
        self.sections.setTabText(0, f"Steps ({self.steps_model.rowCount()})")

    # -- loading -------------------------------------------------------------------------------------

    def load(self, case: TestCase, history: list[CaseVersion], suites: list[TestSuite],
             draft: TestCase | None = None) -> None:
        """Show `case` (or an unsaved `draft` of it) for editing; the undo history starts empty."""
        self._loading = True
        self.case, self.history = case, history
        self.suite.clear()
        self.suite.addItem("Unsorted", None)
        for suite in suites:
            self.suite.addItem(suite.title, suite.id)
        shown = draft or case
        self.title.setText(shown.title)
        self.suite.setCurrentIndex(max(0, self.suite.findData(shown.suite_id)))
        self.priority.setCurrentText(shown.priority)
        self.status.setCurrentText(shown.status)
        self.gap_type.setCurrentText(shown.gap_type or "")
        self.tags.setText(", ".join(shown.tags))
        self.preconditions.setPlainText("\n".join(shown.preconditions))
        self.expected.setPlainText("\n".join(shown.expected_results))
        self.origin.setText(f"Written by the {case.origin} · version {case.version} · id {case.id}")
        mark = shown.suspected_defect
        self.defect.setText(f"{mark.mark} (Context › Findings)" if mark else "")
        self.defect.setVisible(mark is not None)
        self.steps_model.set_steps(shown.steps)
        self._values = {name: self._get(name) for name in self.fields}
        self._loading = False
        self.undo.clear()
        if draft is not None:
            self.undo.resetClean()  # an unsaved draft: clean would mean "as stored"
            self.dirtyChanged.emit(True)
        self._fill_history()
        self.setEnabled(True)

    def _fill_history(self) -> None:
        self.history_list.blockSignals(True)
        self.history_list.clear()
        for version in reversed(self.history):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(version.at / 1000))
            item = QListWidgetItem(f"v{version.version} · {version.author} · {when} — {version.summary}",
                                   self.history_list)
            item.setData(VERSION_ROLE, version.version)
            item.setToolTip(version.summary)
        self.history_list.blockSignals(False)
        self.sections.setTabText(2, f"History ({len(self.history)})")
        self.history_list.setCurrentRow(0)

    def _history_selected(self, item: QListWidgetItem | None, _previous=None) -> None:
        version = item.data(VERSION_ROLE) if item is not None else None
        record = next((v for v in self.history if v.version == version), None)
        if record is None:
            self.version_note.setText("")
            self.version_text.setPlainText("")
            return
        latest = record is self.history[-1]
        self.version_note.setText(f"Version {version} by the {record.author}{' (the stored one)' if latest else ''}: "
                                  f"{record.summary}")
        self.version_text.setPlainText("\n".join(case_as_text(record.case)))

    def show_version(self, version: int) -> None:
        """Bring the History tab forward with `version` selected."""
        for row in range(self.history_list.count()):
            if self.history_list.item(row).data(VERSION_ROLE) == version:
                self.history_list.setCurrentRow(row)
                self.sections.setCurrentIndex(2)

    def _clean_changed(self, clean: bool) -> None:
        self.dirtyChanged.emit(not clean)

    @property
    def dirty(self) -> bool:
        return not self.undo.isClean()

    # -- the working copy ----------------------------------------------------------------------------------

    def current_case(self) -> TestCase:
        """The case as edited; LocatorTextError when a step's locator text is not a locator."""
        assert self.case is not None
        return self.case.model_copy(update={
            "title": self.title.text().strip() or self.case.title,
            "suite_id": self.suite.currentData(),
            "priority": self.priority.currentText(),
            "status": self.status.currentText(),
            "gap_type": self.gap_type.currentText().strip() or None,
            "tags": [tag.strip() for tag in self.tags.text().split(",") if tag.strip()],
            "preconditions": _lines(self.preconditions.toPlainText()),
            "expected_results": _lines(self.expected.toPlainText()),
            "steps": self.steps_model.steps(),
        })

    def mark_saved(self) -> None:
        self.undo.setClean()

    def _get(self, name: str) -> str:
        widget = self.fields[name]
        if isinstance(widget, QComboBox):
            return widget.currentText()
        if isinstance(widget, QPlainTextEdit):
            return widget.toPlainText()
        return widget.text()

    def _put(self, name: str, value: str) -> None:
        """Set a field from an undo command (the first redo finds the widget already there)."""
        self._values[name] = value
        if self._get(name) == value:
            return
        widget = self.fields[name]
        widget.blockSignals(True)
        if isinstance(widget, QComboBox):
            widget.setCurrentText(value)
        elif isinstance(widget, QPlainTextEdit):
            widget.setPlainText(value)
        else:
            widget.setText(value)
        widget.blockSignals(False)

    def _changed(self, name: str) -> None:
        if self._loading:
            return
        new, old = self._get(name), self._values.get(name, "")
        if new != old:
            self.undo.push(SetField(self, name, old, new))

    # -- steps ---------------------------------------------------------------------------------------------

    def selected_row(self) -> int:
        rows = self.steps.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def add_step(self) -> None:
        row = self.selected_row()
        at = row + 1 if row >= 0 else self.steps_model.rowCount()
        self.steps_model.add_step(at)
        self.steps.selectRow(at)

    def remove_step(self) -> None:
        row = self.selected_row()
        if row >= 0:
            self.steps_model.remove_step(row)

    def move_step(self, delta: int) -> None:
        row = self.selected_row()
        if row >= 0 and 0 <= row + delta < self.steps_model.rowCount():
            self.steps_model.move_step(row, delta)
            self.steps.selectRow(row + delta)
