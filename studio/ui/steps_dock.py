"""The Steps dock: the Record toggle, the Assert tools (as in Playwright codegen: assert that the picked element is
visible, its text, value, checked state or how many like it), the current session's recorded steps — a draft the
tester edits (select, delete, move, undo and redo: studio.ui.steps_editing) — and Export."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from shiboken6 import isValid

from studio.app.race_entries import Inspection
from studio.app.race_service import RaceService
from studio.browser.urls import path_of
from studio.models.locator import LocatorSpec
from studio.models.outcomes import (
    CheckedOutcome,
    CountOutcome,
    Outcome,
    TextOutcome,
    TextsOutcome,
    ValueOutcome,
    VisibleOutcome,
)
from studio.models.recording import RecordedStep
from studio.race.assertion_steps import AssertionKind
from studio.ui.steps_editing import INDEX_ROLE, StepsEditing, delete_text

if TYPE_CHECKING:  # the exporter takes ~0.6 s to import; the studio loads it on the first Export…
    from studio.export import ExportResult
    from studio.ui.export_dialog import ExportDialog

RECORD_SHORTCUT = "Ctrl+E"  # as in Chrome DevTools' Recorder; F5 reloads the page
COLUMNS = ("#", "Action", "Locator", "Value", "Facts", "Requests", "Outcome")
ASSERTIONS: tuple[tuple[AssertionKind, str, str], ...] = (
    ("visible", "Visible", "Assert that the picked element is visible"),
    ("text", "Text", "Assert the picked element's text, as it reads now"),
    ("value", "Value", "Assert the picked field's value, as it is now"),
    ("checked", "Checked", "Assert whether the picked checkbox, radio or switch is checked, as it is now"),
    ("count", "Count", "Assert how many elements like the picked one there are (the rows, the checkboxes)"),
)


def value_text(step: RecordedStep) -> str:
    if step.action in ("navigate", "reload"):
        return step.url
    if step.key:
        return step.key
    if step.secret_env:
        return f"${step.secret_env}"
    return step.value or ""


def requests_text(step: RecordedStep) -> str:
    return ", ".join(f"{r.method} {urlsplit(r.url).path} {r.status if r.status is not None else 'failed'}"
                     for r in step.requests)


def outcome_text(step: RecordedStep) -> str:
    """What the step changed, short: status texts, where it led, then what the export will check."""
    outcome = step.outcome
    parts = list(outcome.status_texts) if outcome else []
    if outcome is not None and outcome.url_after and outcome.url_after != outcome.url_before:
        parts.append(f"→ {path_of(outcome.url_after)}")
    parts += [said for said in map(_checked, step.outcomes) if said]
    return " · ".join(parts)


def _checked(outcome: Outcome) -> str:
    match outcome:
        case TextOutcome(text=text):
            return f"“{text}”"
        case VisibleOutcome(visible=visible, locator=locator):
            return f"{'shows' if visible else 'hides'} “{_named(locator)}”"
        case CountOutcome(count=count, locator=locator):
            return f"{count} × “{_named(locator)}”"
        case TextsOutcome(texts=texts):
            return f"{len(texts)} items"
        case CheckedOutcome(checked=checked):
            return "checked" if checked else "unchecked"
        case ValueOutcome(value=value):
            return f"value “{value}”"
    return ""


def _named(locator: LocatorSpec) -> str:
    last = locator.steps[-1]
    return last.value or last.name or last.role or ""


class TypedUrlRoute(QObject):
    """While recording, Enter in the URL field becomes a recorded navigation instead of a plain one."""

    def __init__(self, url_edit: QLineEdit, service: RaceService) -> None:
        super().__init__(url_edit)
        self.url_edit = url_edit
        self.service = service
        url_edit.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.url_edit and event.type() == QEvent.Type.KeyPress and self.service.recording
                and isinstance(event, QKeyEvent) and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):
            self.service.navigate(self.url_edit.text())
            return True
        return False


class StepsPanel(QWidget):
    """Lists the steps of the session being recorded, as they are written to the project file."""

    notice = Signal(str)

    def __init__(self, service: RaceService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.dialog: ExportDialog | None = None

        self.record_action = QAction("Record", self)
        self.record_action.setCheckable(True)
        self.record_action.setShortcut(QKeySequence(RECORD_SHORTCUT))
        self.record_action.setToolTip(f"Record your clicks, typing and typed URLs as test steps ({RECORD_SHORTCUT})")
        self.record_action.toggled.connect(service.set_recording)
        record_button = QToolButton(self)
        record_button.setDefaultAction(self.record_action)
        self.state = QLabel("Not recording.", self)
        self.state.setWordWrap(True)

        self.table = QTreeWidget(self)
        self.table.setHeaderLabels(COLUMNS)
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(True)
        self.table.setAlternatingRowColors(True)
        self.table.setAccessibleName("Recorded steps")
        header = self.table.header()
        header.setStretchLastSection(False)
        for column, width in ((0, 30), (1, 104), (3, 170), (4, 44), (5, 210), (6, 240)):
            self.table.setColumnWidth(column, width)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)  # the locator is what matters most

        self.editing = StepsEditing(self, self.table, service.step_edits)
        self.delete_button = QPushButton("Delete Last", self)
        self.delete_button.clicked.connect(self.delete_chosen)
        self.undo_action, self.redo_action = self.editing.undo_action, self.editing.redo_action
        # Short buttons whose tips say what they undo ("Undo Move 2 steps up (Ctrl+Z)"): the action's own text
        # would make the row as wide as the longest edit, too wide for a dock beside the page.
        self.undo_button = self._short_button("Undo", self.undo_action)
        self.redo_button = self._short_button("Redo", self.redo_action)
        self.table.itemSelectionChanged.connect(self._name_delete)
        self.target: Inspection | None = None  # the element picked or inspected last: what Assert acts on
        self.target_label = QLabel(self)
        self.target_label.setTextFormat(Qt.TextFormat.PlainText)
        self.assert_buttons: dict[AssertionKind, QToolButton] = {}
        asserts = QHBoxLayout()
        asserts.addWidget(QLabel("Assert:", self))
        for kind, label, tip in ASSERTIONS:
            button = QToolButton(self)
            button.setText(label)
            button.setToolTip(f"{tip} (while recording; pick the element with the Inspector first)")
            button.setAccessibleName(f"Assert {label.lower()}")
            button.clicked.connect(lambda _checked=False, kind=kind: self.add_assertion(kind))
            self.assert_buttons[kind] = button
            asserts.addWidget(button)
        asserts.addWidget(self.target_label, 1)

        self.export_button = QPushButton("Export…", self)
        self.export_button.setToolTip("Write these steps as a Playwright test (Python or TypeScript)")
        self.export_button.clicked.connect(self.ask_export)

        head = QHBoxLayout()
        head.addWidget(record_button)
        head.addWidget(self.state, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.delete_button)
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.redo_button)
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(head)
        layout.addLayout(asserts)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)

        service.recordingChanged.connect(self._recording_changed)
        service.inspected.connect(self._inspected)
        service.stepRecorded.connect(lambda _step: self.refresh())
        service.stepsChanged.connect(self.refresh)
        service.step_edits.edited.connect(self.refresh)
        service.project.projectChanged.connect(lambda _path: self.refresh())
        service.browser.sessionStarted.connect(lambda _id: self.refresh())
        self.refresh()
        self._show_target()

    def add_assertion(self, kind: AssertionKind) -> None:
        """Record an expect step on the picked element (the service says why in the message bar if it cannot)."""
        if self.target is not None:
            self.service.add_assertion(kind, self.target.element.ref)

    def _inspected(self, inspection: Inspection) -> None:
        self.target = inspection
        self._show_target()

    def _show_target(self) -> None:
        target, recording = self.target, self.service.recording
        for button in self.assert_buttons.values():
            button.setEnabled(recording and target is not None)
        if target is None:
            self.target_label.setText("Pick an element (Inspector › Pick) to assert on it.")
        else:
            named = target.locator.python() if target.locator else f"<{target.element.tag}> {target.element.ref}"
            self.target_label.setText(f"on {named}")
        self.target_label.setToolTip(self.target_label.text())

    def refresh(self, select: list[int] | None = None) -> None:
        """List the session's steps again, keeping the selection (or selecting `select`, step indexes, after an
        edit)."""
        keep = self.editing.selected() if select is None else select
        steps = self.service.steps()
        self.table.clear()
        for step in steps:
            item = QTreeWidgetItem([str(step.index), step.action, step.locator.python() if step.locator else "",
                                    value_text(step), str(len(step.observations)), requests_text(step),
                                    outcome_text(step)])
            for column in (2, 3, 5, 6):
                item.setToolTip(column, item.text(column))
            if step.observations:
                item.setToolTip(4, "Facts seen before the step: " + ", ".join(o.type for o in step.observations))
            item.setData(0, INDEX_ROLE, step.index)
            self.table.addTopLevelItem(item)
        last = self.table.topLevelItem(len(steps) - 1) if steps else None
        if last is not None and select is None:
            self.table.scrollToItem(last)  # a new step: show it
        self.editing.select(keep, scroll=select is not None)  # after an edit, show the edited steps
        self.delete_button.setEnabled(bool(steps))
        self.export_button.setEnabled(bool(steps))
        self._name_delete()

    def _recording_changed(self, on: bool) -> None:
        if self.record_action.isChecked() != on:
            self.record_action.blockSignals(True)
            self.record_action.setChecked(on)
            self.record_action.blockSignals(False)
        self.record_action.setText("● Stop Recording" if on else "Record")
        self.state.setText(f"Recording session {self.service.session_id}." if on else "Not recording.")
        self.state.setStyleSheet("color:#b91c1c; font-weight:600;" if on else "")
        self._show_target()

    def _short_button(self, text: str, action: QAction) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.clicked.connect(action.trigger)

        def follow() -> None:
            if not (isValid(action) and isValid(button)):  # the panel is going away
                return
            button.setEnabled(action.isEnabled())
            button.setToolTip(action.toolTip())

        action.changed.connect(follow)
        follow()
        return button

    def _name_delete(self) -> None:
        """The button deletes the selected steps, or with none selected the newest one; its name says which."""
        count = len(self.table.selectedItems())
        self.delete_button.setText(delete_text(count) if count else "Delete Last")
        self.delete_button.setToolTip(("Delete the selected steps (Delete in the list)" if count else
                                       "Delete the newest step") + "; Ctrl+Z in this panel undoes it")

    def delete_chosen(self) -> None:
        if self.table.selectedItems():
            self.editing.delete_selected()
        else:
            self.service.step_edits.delete_last()

    def export_dialog(self) -> ExportDialog | None:
        """A dialog for the current steps, not shown yet (tests drive it directly)."""
        from studio.ui.export_dialog import ExportDialog

        steps = self.service.steps()
        if not steps:
            return None
        path = self.service.project.path
        # Beside the project; an untitled project lives in a hidden data folder, so then beside the studio.
        base = path.parent if path is not None and not self.service.project.untitled else Path.cwd()
        return ExportDialog(steps, base / "exported-tests", self)

    def ask_export(self) -> None:
        self.dialog = self.export_dialog()
        if self.dialog is not None:
            self.dialog.exported.connect(self._exported)
            self.dialog.open()  # window-modal without a nested loop (exec() would break qasync)

    def _exported(self, result: ExportResult) -> None:
        env = f" Set {', '.join(result.env_vars)} before running it." if result.env_vars else ""
        self.notice.emit(f"Exported the test to {result.test_file}.{env}")
