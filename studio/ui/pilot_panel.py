"""The Pilot dock: start a pilot session on the live view's page (an outside AI then drives the browser by writing
action.json into the session folder), the folder with a Copy button, the status, the warnings (refused repetitions,
stuck progress, malformed action files — shown under their count once there is one, so no empty box waits under the
status), the actions as they come with their outcome and its reason (pilot_actions), the latest observation as a
tree (its screenshot as one line, the image on double-click: pilot_screenshot), and Take Over / Hand Back so the
tester can act between the AI's batches."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.playground.outcomes import plural
from studio.ui.pilot_actions import ActionTable, ObservationTree
from studio.ui.pilot_screenshot import SCREENSHOT_ROLE, ScreenshotUnreadable, image, mark_screenshot_row

STATUS_COLOURS = {"WAITING_FOR_AI": "#2563eb", "RUNNING": "#ca8a04", "DONE": "#16a34a", "TAKEN_OVER": "#9333ea"}
STATUS_WORDS = {"WAITING_FOR_AI": "Waiting for the AI's action.json", "RUNNING": "Running the AI's actions",
                "DONE": "Done", "TAKEN_OVER": "Taken over: act in the live view, then Hand Back"}
WARNINGS_HEIGHT = 90  # px at most: the list grows with its first rows, then scrolls
MAX_TREE_ITEMS = 400  # an observation's visible text can be long: the tree shows the first items of a list


def fill_tree(parent: QTreeWidgetItem | QTreeWidget, value: Any, key: str = "") -> None:
    """Add `value` (JSON) under `parent`: objects and lists as branches, scalars as `key: value` leaves."""
    def add(text: str, detail: str = "") -> QTreeWidgetItem:
        item = QTreeWidgetItem([text, detail])
        if isinstance(parent, QTreeWidget):
            parent.addTopLevelItem(item)
        else:
            parent.addChild(item)
        return item

    if isinstance(value, dict):
        branch = add(key, plural(len(value), "field")) if key else parent
        for name, item in value.items():
            fill_tree(branch, item, str(name))
    elif isinstance(value, list):
        branch = add(key, plural(len(value), "item"))
        for index, item in enumerate(value[:MAX_TREE_ITEMS]):
            fill_tree(branch, item, f"[{index}]")
    else:
        text = value if isinstance(value, str) else json.dumps(value)
        leaf = add(key, text if len(text) < 300 else text[:300] + "…")
        leaf.setToolTip(1, text[:2000])


class PilotPanel(QWidget):
    """The pilot session's controls and what it shows; the front connects it to the PilotService."""

    startRequested = Signal(str, int)  # goal, max steps
    stopRequested = Signal()
    takeOverToggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.goal = QLineEdit(self)
        self.goal.setPlaceholderText("What the AI should do, e.g. “File a dispute for the Visa card”")
        self.goal.setAccessibleName("Pilot goal")
        self.max_steps = QSpinBox(self)
        self.max_steps.setRange(1, 1000)
        self.max_steps.setValue(50)
        self.max_steps.setAccessibleName("Maximum actions")
        self.start_button = QPushButton("Start Pilot Session", self)
        self.start_button.setToolTip("Start a pilot session on the page in the live view (Ctrl+Alt+I)")
        self.start_button.clicked.connect(lambda: self.startRequested.emit(self.goal.text().strip(),
                                                                          self.max_steps.value()))
        self.stop_button = QPushButton("Stop", self)
        self.stop_button.setToolTip("End the session: status DONE and report.json are written")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stopRequested.emit)
        self.take_over = QPushButton("Take Over", self)
        self.take_over.setCheckable(True)
        self.take_over.setEnabled(False)
        self.take_over.setToolTip("Act in the live view yourself; the AI's next actions wait until you hand back. "
                                  "What you do appears in the next observation's previousActions.")
        self.take_over.toggled.connect(self._toggled)
        self.folder = QLineEdit(self)
        self.folder.setReadOnly(True)
        self.folder.setAccessibleName("Session folder")
        self.folder.setPlaceholderText("The session folder appears here when a session starts")
        self.copy_button = QPushButton("Copy", self)
        self.copy_button.setToolTip("Copy the session folder's path (give it to the AI)")
        self.copy_button.clicked.connect(self.copy_folder)
        self.status = QLabel("No pilot session.", self)
        self.status.setAccessibleName("Pilot status")
        self.status.setWordWrap(True)
        self.warnings_label = QLabel(self)
        self.warnings_label.setAccessibleName("Pilot warnings count")
        self.warnings = QListWidget(self)
        self.warnings.setAccessibleName("Pilot warnings")
        self.warnings.setWordWrap(True)
        self.warnings.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.warnings_label.setBuddy(self.warnings)
        self._warning_counts = {"warning": 0, "error": 0}
        self._show_warning_count()
        self.action_list = ActionTable(self)
        # the full reason of the latest failure (or of the row selected), wrapped: the Outcome column elides it
        self.reason = QLabel(self)
        self.reason.setAccessibleName("Why the action did not succeed")
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason.setVisible(False)
        self.action_list.currentItemChanged.connect(lambda item, _previous: self._show_reason(item))
        self.observation = ObservationTree(self)
        self.observation.setAccessibleName("Latest observation")
        self.observation.setHeaderLabels(["Field", "Value"])
        self.observation.setColumnWidth(0, 170)
        self.observation.itemActivated.connect(self._open_screenshot)
        self._step: Any = None  # the shown observation's stepNumber

        form = QFormLayout()
        form.addRow("Goal", self.goal)
        form.addRow("Max actions", self.max_steps)
        buttons = QHBoxLayout()
        for button in (self.start_button, self.stop_button, self.take_over):
            buttons.addWidget(button)
        buttons.addStretch(1)
        folder = QHBoxLayout()
        folder.addWidget(self.folder, 1)
        folder.addWidget(self.copy_button)
        split = QSplitter(Qt.Orientation.Vertical, self)
        actions = QWidget(split)
        actions_layout = QVBoxLayout(actions)
        actions_layout.setContentsMargins(0, 0, 0, 0)
        actions_layout.addWidget(self.action_list, 1)
        actions_layout.addWidget(self.reason)
        split.addWidget(actions)
        split.addWidget(self.observation)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addLayout(folder)
        layout.addWidget(self.status)
        layout.addWidget(self.warnings_label)
        layout.addWidget(self.warnings)
        layout.addWidget(split, 1)

    # -- what the service says ------------------------------------------------------------------------

    def session_started(self, folder: str) -> None:
        self.folder.setText(folder)
        self.action_list.clear_actions()
        self._show_reason(None)
        self.warnings.clear()
        self._warning_counts = {"warning": 0, "error": 0}
        self._show_warning_count()
        self.observation.clear()
        self.set_running(True)

    def set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.take_over.setEnabled(running)
        if not running and self.take_over.isChecked():
            self.take_over.blockSignals(True)
            self.take_over.setChecked(False)
            self.take_over.blockSignals(False)
            self.take_over.setText("Take Over")

    def show_status(self, status: str, detail: str = "") -> None:
        colour = STATUS_COLOURS.get(status, "#374151")
        words = STATUS_WORDS.get(status, status)
        self.status.setText(f'<b style="color:{colour}">{status}</b> — {words}' + (f". {detail}" if detail else ""))

    def show_observation(self, observation: dict[str, Any]) -> None:
        self.observation.clear()
        fill_tree(self.observation, observation)
        for index in range(self.observation.topLevelItemCount()):
            item = self.observation.topLevelItem(index)
            if item is not None and item.text(0) in ("domState", "progress", "lastBatch", "newErrors"):
                item.setExpanded(True)
            if item is not None and item.text(0) == "screenshot" and isinstance(observation.get("screenshot"), str):
                mark_screenshot_row(item, observation["screenshot"])
        self._step = observation.get("stepNumber")

    def _open_screenshot(self, item: QTreeWidgetItem, _column: int = 1) -> None:
        """Show the observation's screenshot in the viewer (a row that is not the screenshot's does nothing)."""
        from studio.ui.dialogs import ScreenshotViewer

        value = item.data(1, SCREENSHOT_ROLE)
        if not value:
            return
        try:
            png = image(str(value), self.folder.text())
        except ScreenshotUnreadable as error:
            item.setText(1, str(error))  # names the file, or says the value is neither
            item.setToolTip(1, str(error))
            return
        title = f"Screenshot of pilot observation {self._step}" if self._step else "Pilot observation screenshot"
        viewer = ScreenshotViewer(png, title, self)
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.show()

    def add_action(self, action: dict[str, Any], outcome: dict[str, Any] | None, by: str = "ai") -> QTreeWidgetItem:
        item = self.action_list.add_action(action, outcome, by)
        if self.action_list.reason_html(item):
            self._show_reason(item)
        return item

    def _show_reason(self, item: QTreeWidgetItem | None) -> None:
        text = self.action_list.reason_html(item)
        self.reason.setText(text)
        self.reason.setVisible(bool(text))

    def add_warning(self, text: str, level: str = "warning") -> None:
        item = QListWidgetItem(("⚠ " if level == "warning" else "✗ ") + text)
        item.setForeground(QColor("#b45309" if level == "warning" else "#dc2626"))
        item.setToolTip(text)
        self.warnings.addItem(item)
        self.warnings.scrollToBottom()
        kind = "warning" if level == "warning" else "error"
        self._warning_counts[kind] += 1
        self._show_warning_count()

    def _show_warning_count(self) -> None:
        """The warnings list under its count, or neither while there is none (an empty box would say nothing)."""
        warnings, errors = self._warning_counts["warning"], self._warning_counts["error"]
        parts = ([plural(warnings, "warning")] if warnings else []) + \
                ([plural(errors, "action file error")] if errors else [])
        self.warnings_label.setText("<b>" + " and ".join(parts).capitalize() + "</b>" if parts else "")
        self.warnings_label.setVisible(bool(parts))
        self.warnings.setVisible(bool(parts))
        rows = sum(self.warnings.sizeHintForRow(row) for row in range(min(self.warnings.count(), 4)))
        self.warnings.setFixedHeight(min(rows + 2 * self.warnings.frameWidth() + 2, WARNINGS_HEIGHT))

    def copy_folder(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None and self.folder.text():
            clipboard.setText(self.folder.text())

    def _toggled(self, on: bool) -> None:
        self.take_over.setText("Hand Back" if on else "Take Over")
        self.takeOverToggled.emit(on)
