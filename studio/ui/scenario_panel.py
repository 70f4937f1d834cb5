"""The Scenarios dock: the folder's scenario files with their validation marks (its subfolders — smoke, regression,
exploration — as groups), the YAML editor of the one selected (problems at their line, completions from the schema,
Ctrl+S saves), the base URL a run will use (said before it starts, and settable per folder: a run must never go
silently to whatever site the live view shows), Run / Run All / Cancel, and the run's live progress — a line per
scenario that fills in while the agent drives the live view, and the run's counts once it ends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.app.scenario_service import ScenarioFile, ScenarioService, origin_of
from studio.scenarios.job import ScenarioRunOutcome
from studio.ui.scenario_editor import CheckedEditor

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
VALID, INVALID = "✓", "✗"
STATUS_MARKS = {"running": "▶", "success": "✓ passed", "failure": "✗ failed", "error": "⚠ error", "waiting": "…"}


def counted(n: int, one: str, many: str | None = None) -> str:
    """"1 scenario", "2 scenarios"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def finished_text(outcome: ScenarioRunOutcome) -> str:
    """The progress line once a run ended: how it ended and its counts (never the last step's line)."""
    results = outcome.results
    failed = sum(r.status == "failure" for r in results)
    errors = sum(r.status == "error" for r in results)
    seconds = sum(r.duration for r in results)
    counts = f"{outcome.passed} of {counted(len(results), 'scenario')} passed"
    counts += f", {failed} failed" if failed else ""
    counts += f", {counted(errors, 'error')}" if errors else ""
    if outcome.status == "cancelled":
        return f"Run stopped by the tester: {counts} before it stopped."
    if outcome.status != "finished":
        return f"Run failed: {outcome.message}"
    return f"Run finished: {counts} ({seconds:.1f} s)."


class ScenarioPanel(QWidget):
    """Files, editor and run controls; `live_url()` is the live page's address, which a run goes to unless the
    folder has a base URL of its own (`base_url()` is the one a run will use)."""

    selectionChanged = Signal(object)  # the selected ScenarioFile (or None)

    def __init__(self, service: ScenarioService, live_url: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.live_url = live_url
        self.current: ScenarioFile | None = None
        self.folder_label = QLabel("No scenario folder: Scenarios › Open Scenario Folder…", self)
        self.folder_label.setWordWrap(True)
        self.base_url_edit = QLineEdit(self)
        self.base_url_edit.setAccessibleName("Base URL")
        self.base_url_edit.setClearButtonEnabled(True)
        self.base_url_edit.setToolTip("The app this folder's scenarios run against (their start paths are opened on "
                                      "it); remembered for the folder. Empty: the live page's origin.")
        self.base_url_edit.editingFinished.connect(self._base_url_edited)
        self.base_url_edit.textChanged.connect(lambda _text: self.show_target())
        self.target_label = QLabel("", self)
        self.target_label.setAccessibleName("Run target")
        self.target_label.setWordWrap(True)
        self.files = QTreeWidget(self)
        self.files.setAccessibleName("Scenario files")
        self.files.setHeaderLabels(["Scenario", "Valid", "Last run"])
        self.files.setRootIsDecorated(False)
        self.files.setColumnWidth(0, 210)
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

        target = QHBoxLayout()
        target.addWidget(QLabel("Base URL:", self))
        target.addWidget(self.base_url_edit, 1)
        buttons = QHBoxLayout()
        for button in (self.run_button, self.run_all_button, self.cancel_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.files)
        split.addWidget(self.editor)
        split.setStretchFactor(0, 2)  # the folder's tree keeps room for its groups
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.folder_label)
        layout.addLayout(target)
        layout.addWidget(self.target_label)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.progress_label)
        layout.addWidget(split, 1)

        service.filesChanged.connect(self.show_files)
        service.runningChanged.connect(self._running)
        service.progressChanged.connect(self._progress)
        service.runStarted.connect(self._run_started)
        service.recordWritten.connect(self._record)
        service.finished.connect(self._finished)
        self.show_target()

    # -- where a run goes ---------------------------------------------------------------------------------

    def base_url(self) -> str:
        """The address a run will use: the folder's base URL when the tester set one, else the live page's."""
        return self.base_url_edit.text().strip() or self.live_url()

    def show_target(self) -> None:
        """Say, before any run, the origin the next run goes to and where that comes from."""
        if self.service.running:
            return  # the live view shows the scenarios' own pages now; the run's target does not change
        typed = self.base_url_edit.text().strip()
        origin = origin_of(self.base_url())
        if origin is None:
            self.target_label.setText("Runs go nowhere yet: type the app's base URL above, or open the app in the "
                                      "live view.")
            self.target_label.setStyleSheet("color:#b45309;")
            return
        whence = "this folder's base URL" if typed else "the live page's origin — type a base URL to fix it"
        self.target_label.setText(f"Runs go to <b>{origin}</b> ({whence}).")
        self.target_label.setStyleSheet("")

    def _base_url_edited(self) -> None:
        typed = self.base_url_edit.text().strip()
        if typed and origin_of(typed) is None:
            self.target_label.setText(f"“{typed}” is not an http(s) address: type one like http://127.0.0.1:8000.")
            self.target_label.setStyleSheet("color:#b45309;")
            return
        origin = origin_of(typed) or ""
        if origin != self.service.folder_base_url():
            self.service.set_folder_base_url(origin)
        if typed != origin:
            self.base_url_edit.setText(origin)  # a run goes to the origin: the field says so
        self.show_target()

    # -- files ------------------------------------------------------------------------------------------

    def show_files(self, files: list[ScenarioFile]) -> None:
        folder = self.service.folder
        self.folder_label.setText(f"{counted(len(files), 'scenario file')} in {folder}" if folder is not None
                                  else "No scenario folder: Scenarios › Open Scenario Folder…")
        if self.base_url_edit.text().strip() != self.service.folder_base_url():
            self.base_url_edit.setText(self.service.folder_base_url())
        self.show_target()
        chosen = self.current.path if self.current is not None else None
        self.files.blockSignals(True)
        self.files.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        for file in files:
            item = QTreeWidgetItem([file.title, VALID if file.valid else INVALID, ""])
            item.setData(0, PATH_ROLE, str(file.path))
            item.setToolTip(0, str(file.path))
            item.setForeground(1, QColor("#16a34a" if file.valid else "#dc2626"))
            if not file.valid:
                item.setToolTip(1, "\n".join(f"line {p.line}: {p.message}" for p in file.problems[:8]))
            group = self._group_name(file.path)
            if group:
                if group not in groups:
                    groups[group] = self._group_item(group)
                groups[group].addChild(item)
            else:
                self.files.addTopLevelItem(item)
            if chosen is not None and file.path == chosen:
                self.files.setCurrentItem(item)
        self.files.setRootIsDecorated(bool(groups))
        for group_item in groups.values():
            group_item.setText(1, f"{group_item.childCount()}")
            group_item.setExpanded(True)
        self.files.blockSignals(False)
        first = next(iter(self.items()), None)
        if self.files.currentItem() is None and first is not None:
            self.files.setCurrentItem(first)
        elif self.current is not None:
            self.current = next((f for f in files if f.path == self.current.path), self.current)

    def _group_name(self, path: Path) -> str:
        """The subfolder (relative to the open folder) a file is in, "" for the folder itself."""
        folder = self.service.folder
        try:
            relative = path.parent.relative_to(folder) if folder is not None else Path()
        except ValueError:
            return str(path.parent)
        return "" if str(relative) == "." else relative.as_posix()

    def _group_item(self, name: str) -> QTreeWidgetItem:
        group = QTreeWidgetItem([f"{name}/", "", ""])
        font = QFont(group.font(0))
        font.setBold(True)
        group.setFont(0, font)
        group.setToolTip(0, f"The scenarios in the {name} subfolder")
        group.setFlags(group.flags() & ~Qt.ItemFlag.ItemIsSelectable)
        self.files.addTopLevelItem(group)
        return group

    def items(self) -> list[QTreeWidgetItem]:
        """The files' items (not the subfolders' group items), in the list's order."""
        found: list[QTreeWidgetItem] = []
        for i in range(self.files.topLevelItemCount()):
            top = self.files.topLevelItem(i)
            if top is None:
                continue
            if top.data(0, PATH_ROLE):
                found.append(top)
            found.extend(child for j in range(top.childCount()) if (child := top.child(j)) is not None)
        return found

    def item_for(self, scenario_id: str) -> QTreeWidgetItem | None:
        return next((item for item in self.items() if item.text(0) == scenario_id), None)

    def _select(self, item: QTreeWidgetItem | None) -> None:
        if item is not None and not item.data(0, PATH_ROLE):
            return  # a subfolder's group
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
        said = "saved" if not problems else f"saved with {counted(len(problems), 'problem')} to fix before it can run"
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
        self.progress_label.setText(f"Running {counted(len(scenario_ids), 'scenario')} against "
                                    f"{origin_of(self.base_url()) or self.base_url()}…")
        for item in self.items():
            item.setText(2, STATUS_MARKS["waiting"] if item.text(0) in scenario_ids else item.text(2))

    def _finished(self, outcome: ScenarioRunOutcome) -> None:
        self.progress.setValue(100)
        self.progress_label.setText(finished_text(outcome))

    def _progress(self, progress) -> None:
        if not self.service.running:
            return  # a late line of a run that ended must not replace its counts
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
            steps = int(record.get("steps") or 0)
            item.setText(2, f"{STATUS_MARKS.get(status, status)} ({counted(steps, 'step')})")
            why = str(record.get("message", ""))
            for column in range(3):
                item.setToolTip(column, why if status != "success" else str(item.data(0, PATH_ROLE)))
            item.setForeground(2, QColor("#16a34a" if status == "success" else "#dc2626"))
