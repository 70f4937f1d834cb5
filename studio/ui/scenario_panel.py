"""The Scenarios dock: the project's scenario files with their validation marks, the YAML editor of the one selected
(problems at their line, completions from the schema, Ctrl+S saves), Run / Run All / Cancel, and the run's live
progress — a line per scenario that fills in while the agent drives the live view."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.app.scenario_service import ScenarioFile, ScenarioService
from studio.ui.scenario_editor import CheckedEditor

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
VALID, INVALID = "✓", "✗"
STATUS_MARKS = {"running": "▶", "success": "✓ passed", "failure": "✗ failed", "error": "⚠ error", "waiting": "…"}


class ScenarioPanel(QWidget):
    """Files, editor and run controls; `base_url()` says which app a run goes to (the live page's)."""

    selectionChanged = Signal(object)  # the selected ScenarioFile (or None)

    def __init__(self, service: ScenarioService, base_url: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.base_url = base_url
        self.current: ScenarioFile | None = None
        self.folder_label = QLabel("No scenario folder: Scenarios › Open Folder…", self)
        self.folder_label.setWordWrap(True)
        self.files = QTreeWidget(self)
        self.files.setAccessibleName("Scenario files")
        self.files.setHeaderLabels(["Scenario", "Valid", "Last run"])
        self.files.setRootIsDecorated(False)
        self.files.setColumnWidth(0, 190)
        self.files.setColumnWidth(1, 40)
        self.files.currentItemChanged.connect(lambda item, _old: self._select(item))
        self.editor = CheckedEditor(self._check, self)
        self.editor.editor.saveRequested.connect(self.save)
        self.save_button = QPushButton("Save", self)
        self.save_button.setToolTip("Save the scenario file (Ctrl+S in the editor)")
        self.save_button.clicked.connect(self.save)
        self.run_button = QPushButton("Run", self)
        self.run_button.setToolTip("Run the selected scenario against the app in the live view (Ctrl+Alt+U)")
        self.run_button.clicked.connect(self.run_selected)
        self.run_all_button = QPushButton("Run All", self)
        self.run_all_button.setToolTip("Run every scenario of the folder (Ctrl+Alt+Shift+U)")
        self.run_all_button.clicked.connect(self.run_all)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop the run before the running scenario's next step; what finished is kept")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(service.cancel)
        self.progress = QProgressBar(self)
        self.progress.setAccessibleName("Run progress")
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.progress_label = QLabel("", self)
        self.progress_label.setWordWrap(True)

        buttons = QHBoxLayout()
        for button in (self.run_button, self.run_all_button, self.cancel_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.files)
        split.addWidget(self.editor)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.folder_label)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.progress_label)
        layout.addWidget(split, 1)

        service.filesChanged.connect(self.show_files)
        service.runningChanged.connect(self._running)
        service.progressChanged.connect(self._progress)
        service.runStarted.connect(self._run_started)
        service.recordWritten.connect(self._record)

    # -- files ------------------------------------------------------------------------------------------

    def show_files(self, files: list[ScenarioFile]) -> None:
        folder = self.service.folder
        self.folder_label.setText(f"{len(files)} scenario file(s) in {folder}" if folder is not None
                                  else "No scenario folder: Scenarios › Open Folder…")
        chosen = self.current.path if self.current is not None else None
        self.files.blockSignals(True)
        self.files.clear()
        for file in files:
            item = QTreeWidgetItem([file.title, VALID if file.valid else INVALID, ""])
            item.setData(0, PATH_ROLE, str(file.path))
            item.setToolTip(0, str(file.path))
            item.setForeground(1, QColor("#16a34a" if file.valid else "#dc2626"))
            if not file.valid:
                item.setToolTip(1, "\n".join(f"line {p.line}: {p.message}" for p in file.problems[:8]))
            self.files.addTopLevelItem(item)
            if chosen is not None and file.path == chosen:
                self.files.setCurrentItem(item)
        self.files.blockSignals(False)
        first = self.files.topLevelItem(0)
        if self.files.currentItem() is None and first is not None:
            self.files.setCurrentItem(first)
        elif self.current is not None:
            self.current = next((f for f in files if f.path == self.current.path), self.current)

    def items(self) -> list[QTreeWidgetItem]:
        found = (self.files.topLevelItem(i) for i in range(self.files.topLevelItemCount()))
        return [item for item in found if item is not None]

    def item_for(self, scenario_id: str) -> QTreeWidgetItem | None:
        return next((item for item in self.items() if item.text(0) == scenario_id), None)

    def _select(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            self.current = None
            self.selectionChanged.emit(None)
            return
        path = Path(item.data(0, PATH_ROLE))
        if self.current is not None and self.current.path == path:
            return
        self.current = next((f for f in self.service.files if f.path == path), None)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            text = f"# This file cannot be read: {error}\n"
        self.editor.editor.setPlainText(text)  # a new document: undo starts here
        self.editor.recheck()
        self.selectionChanged.emit(self.current)

    def _check(self, text: str) -> list:
        if self.current is None:
            return []
        return self.service.check(text, self.current.path)[1]

    def save(self) -> None:
        if self.current is None:
            return
        problems = self.service.save(self.current.path, self.editor.editor.toPlainText())
        self.editor.editor.document().setModified(False)
        self.editor.recheck()
        said = "saved" if not problems else f"saved with {len(problems)} problem(s) to fix before it can run"
        self.progress_label.setText(f"{self.current.path.name} {said}.")

    # -- running ------------------------------------------------------------------------------------------

    def run_selected(self) -> None:
        if self.current is None:
            self.service.errorOccurred.emit("Select a scenario in the list first (or use Run All).")
            return
        if self.editor.editor.document().isModified():
            self.save()
        chosen = next((f for f in self.service.files if f.path == self.current.path), self.current)
        self.service.start([chosen], self.base_url())

    def run_all(self) -> None:
        if self.editor.editor.document().isModified():
            self.save()
        self.service.start(list(self.service.files), self.base_url())

    def _running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.run_all_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        if not running and self.progress.value() < 100:
            self.progress.setValue(100 if self.progress_label.text() else 0)

    def _run_started(self, _run_id: str, scenario_ids: list[str]) -> None:
        self.progress.setValue(0)
        self.progress_label.setText(f"Running {len(scenario_ids)} scenario(s)…")
        for item in self.items():
            item.setText(2, STATUS_MARKS["waiting"] if item.text(0) in scenario_ids else item.text(2))

    def _progress(self, progress) -> None:
        if progress.fraction is not None:
            self.progress.setValue(int(progress.fraction * 100))
        self.progress_label.setText(progress.message)

    def _record(self, record: dict) -> None:
        item = self.item_for(str(record.get("scenarioId", "")))
        if item is None:
            return
        kind = record.get("type")
        if kind == "scenario_start":
            item.setText(2, STATUS_MARKS["running"])
        elif kind == "step":
            item.setText(2, f"{STATUS_MARKS['running']} step {record.get('step')}")
        elif kind == "scenario_end":
            status = str(record.get("status"))
            item.setText(2, f"{STATUS_MARKS.get(status, status)} ({record.get('steps')} steps)")
            item.setToolTip(2, str(record.get("message", "")))
