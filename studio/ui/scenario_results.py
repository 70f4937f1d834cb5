"""The Scenario Results dock: a run of the project (the running one fills in live), its results table — a row per
scenario with status, steps, duration and seed 004's optimality (shortest_path_steps / actual_steps), the reason a
scenario failed on a line under its name (where it is read first, never in a column scrolled off to the right; the
whole table fits the dock's width) — the selected run's metrics on a line under the table (the seed's entropy,
backtracks and optimality, the studio's page backtracks and transition optimality beside them, each explained in its
tooltip) and its steps, whose screenshots replay beside them (double-click: full size). Open Report opens the run's
HTML report.

The studio's measures are on the line, not in columns: at 1366×768 the dock is 420 px wide, and a column more would
leave the scenario's name and its reason a quarter of the table."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.app.scenario_service import ScenarioService
from studio.scenarios.summary import navigation_edges, run_metrics
from studio.ui.scenario_metric_words import (
    OPTIMALITY_TIP,
    TRANSITION_TIP,
    number,
    optimality_fraction,
    run_metrics_text,
    run_metrics_tip,
    transition_fraction,
)
from studio.ui.scenario_panel import counted

COLUMNS = ("Scenario", "Status", "Steps", "Time", "Optimality")
OPTIMALITY = COLUMNS.index("Optimality")  # the seed's, under the seed's name
COLUMN_TIPS = (
    "The scenario, and why it did not pass on the line under it",
    "The run's status (seed 004's scenario_end.status)",
    "Steps the agent took (scenario_end.steps)",
    "How long the run took (scenario_end.duration)",
    f"{OPTIMALITY_TIP}. The studio's transition optimality is on the line under the table",
)
NO_RUN_METRICS = "Select a scenario to see its run's metrics."
STATUS_COLOURS = {"success": "#16a34a", "failure": "#dc2626", "error": "#b45309"}
SHOT_ROLE = Qt.ItemDataRole.UserRole + 2
ID_ROLE = Qt.ItemDataRole.UserRole + 3  # the scenario id of a results row (its first cell also holds the reason)
WHY_PREFIX = "↳ "  # the line under a failed scenario's name


def scenario_cell(scenario_id: str, status: str, why: str) -> QTableWidgetItem:
    """The first cell of a row: the scenario's name and, when it did not pass, why on the line under it."""
    failed = status != "success" and why
    item = QTableWidgetItem(f"{scenario_id}\n{WHY_PREFIX}{why}" if failed else scenario_id)
    item.setData(ID_ROLE, scenario_id)
    item.setToolTip(f"{scenario_id}: {why}" if why else scenario_id)
    if failed:
        item.setForeground(QColor(STATUS_COLOURS.get(status, "#374151")))
    return item


def action_words(action: dict[str, Any]) -> tuple[str, str]:
    """("click", "the target") of a step record's action."""
    kind = str(action.get("type", "")).removeprefix("ui.act.").removeprefix("ui.")
    params = action.get("params") or {}
    target = params.get("nodeId") or params.get("url") or ""
    if "text" in params:
        target = f"{target} ← {params['text']!r}"
    return kind, str(target)


class ResultsPanel(QWidget):
    """Results of one run of the project; `show_run(run_id)` picks it, the running one follows its records."""

    scenarioSelected = Signal(str)  # a scenario id whose path tree and trends to show

    def __init__(self, service: ScenarioService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.run_id: str | None = None
        self.runs = QComboBox(self)
        self.runs.setAccessibleName("Scenario run")
        self.runs.activated.connect(lambda index: self.show_run(self.runs.itemData(index)))
        self.report_button = QPushButton("Open Report", self)
        self.report_button.setToolTip("Open the run's HTML report in your browser")
        self.report_button.clicked.connect(self.open_report)
        self.summary = QLabel("No run yet: press Run or Run All in the Scenarios dock.", self)
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setAccessibleName("Scenario results")
        for column, (title, tip) in enumerate(zip(COLUMNS, COLUMN_TIPS, strict=True)):
            header_item = QTableWidgetItem(title)
            header_item.setToolTip(tip)
            self.table.setHorizontalHeaderItem(column, header_item)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setWordWrap(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # the name and the reason take the room
        header.setStretchLastSection(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._row_selected)
        self.row_metrics: list[dict[str, Any]] = []  # summary.run_metrics of each row's run
        self.metrics = QLabel(NO_RUN_METRICS, self)
        self.metrics.setAccessibleName("Run metrics")
        self.metrics.setWordWrap(True)
        self.steps = QTreeWidget(self)
        self.steps.setAccessibleName("Scenario steps")
        self.steps.setHeaderLabels(["#", "Action", "Target", "Page"])
        self.steps.setRootIsDecorated(False)
        self.steps.setColumnWidth(0, 34)
        self.steps.setColumnWidth(1, 60)
        self.steps.currentItemChanged.connect(lambda item, _old: self._show_shot(item))
        self.steps.itemDoubleClicked.connect(lambda item, _col: self.open_shot(item))
        self.shot = QLabel("Select a step to see its screenshot.", self)
        self.shot.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.shot.setMinimumHeight(110)
        self.shot.setWordWrap(True)
        self.shot_png: bytes | None = None

        top = QHBoxLayout()
        top.addWidget(self.runs, 1)
        top.addWidget(self.report_button)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        below = QWidget(self)  # the run's metrics stay above its steps, never dragged out of sight
        run_box = QVBoxLayout(below)
        run_box.setContentsMargins(0, 0, 0, 0)
        run_box.addWidget(self.metrics)
        run_box.addWidget(self.steps, 1)
        split.addWidget(below)
        split.addWidget(self.shot)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        service.recordWritten.connect(self._record)
        service.runStarted.connect(lambda run_id, _ids: self.show_runs(run_id))
        service.finished.connect(lambda outcome: self.show_runs(outcome.run_id))

    # -- runs -------------------------------------------------------------------------------------------

    def show_runs(self, select: str | None = None) -> None:
        runs = list(reversed(self.service.runs()))  # newest first
        self.runs.clear()
        for run in runs:
            when = time.strftime("%d %b %H:%M:%S", time.localtime(run.created_at))
            rate = f"{run.pass_rate:.0%} passed" if run.pass_rate is not None else run.status
            self.runs.addItem(f"{when} — {counted(len(run.scenarios), 'scenario')}, {rate}", run.id)
        chosen = select or (runs[0].id if runs else None)
        if chosen is not None:
            index = self.runs.findData(chosen)
            self.runs.setCurrentIndex(max(0, index))
            self.show_run(chosen)

    def show_run(self, run_id: str | None) -> None:
        self.run_id = run_id
        run = next((r for r in self.service.runs() if r.id == run_id), None)
        ends = self.service.records(run_id, "scenario_end") if run_id else []
        edges = navigation_edges((end for _run, end in self.service.ends()), self.service.graph())
        chosen = self.selected_scenario()
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        # The seed's optimality of each run against the passing runs of the same task in this run, as run_end's
        # medianOptimality and the trend chart count it; shortest routes on the whole project's graph.
        self.row_metrics = [run_metrics(end, edges, ends) for end in ends]
        for end, metrics in zip(ends, self.row_metrics, strict=True):
            row = self.table.rowCount()
            self.table.insertRow(row)
            status, why = str(end.get("status")), str(end.get("message") or "")
            self.table.setItem(row, 0, scenario_cell(str(end.get("scenarioId")), status, why))
            values = [status, end.get("steps"), f"{float(end.get('duration') or 0):.1f} s",
                      number(metrics["optimality"])]
            for column, value in enumerate(values, start=1):
                item = QTableWidgetItem(str(value))
                if column == 1:
                    item.setForeground(QColor(STATUS_COLOURS.get(str(value), "#374151")))
                tip = why
                if column == OPTIMALITY:
                    tip = (f"{OPTIMALITY_TIP}: {optimality_fraction(metrics)}.\n{TRANSITION_TIP}: "
                           f"{number(metrics['transitionOptimality'])}, {transition_fraction(metrics)}."
                           + (f"\n{why}" if why else ""))
                item.setToolTip(tip)
                self.table.setItem(row, column, item)
            if end.get("scenarioId") == chosen:
                self.table.selectRow(row)
        self.table.blockSignals(False)
        self.table.resizeRowsToContents()
        if run is not None:
            passed = sum(e.get("status") == "success" for e in ends)
            self.summary.setText(f"{passed} of {counted(len(ends), 'scenario')} reached their goal"
                                 + (f" ({run.status})" if run.status != "finished" else "")
                                 + (f" — {run.message}" if run.message and run.status != "finished" else "") + ".")
        if self.table.rowCount() and not self.table.selectedItems():
            self.table.selectRow(0)
        self._row_selected()

    def selected_scenario(self) -> str | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        return str(item.data(ID_ROLE)) if item is not None else None

    def open_report(self) -> None:
        run = next((r for r in self.service.runs() if r.id == self.run_id), None)
        report = Path(run.folder) / "index.html" if run is not None and run.folder else None
        if report is None or not report.is_file():
            self.service.errorOccurred.emit("This run has no report yet (a run writes one when it ends). Run the "
                                            "scenarios again, or make one with `studio report RUN.jsonl`.")
            return
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(report)))

    # -- steps ------------------------------------------------------------------------------------------

    def selected_metrics(self) -> dict[str, Any] | None:
        """summary.run_metrics of the selected row's run."""
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        row = rows[0].row() if rows else -1
        return self.row_metrics[row] if 0 <= row < len(self.row_metrics) else None

    def _show_metrics(self) -> None:
        metrics = self.selected_metrics()
        self.metrics.setText(NO_RUN_METRICS if metrics is None else run_metrics_text(metrics))
        self.metrics.setToolTip("" if metrics is None else run_metrics_tip(metrics))

    def _row_selected(self) -> None:
        self._show_metrics()
        scenario = self.selected_scenario()
        self.steps.clear()
        if scenario is None or self.run_id is None:
            return
        shots = self.service.shots(self.run_id, scenario)
        for record in self.service.records(self.run_id, "step"):
            if record.get("scenarioId") != scenario:
                continue
            kind, target = action_words(record.get("action") or {})
            page = str((record.get("observation") or {}).get("url", ""))
            item = QTreeWidgetItem([str(record.get("step")), kind, target, page])
            item.setToolTip(2, str(record.get("reasoning", "")))
            if record.get("blocked"):
                item.setForeground(1, QColor("#b45309"))
                item.setToolTip(1, f"blocked: {record['blocked']}")
            item.setData(0, SHOT_ROLE, shots.get(int(record.get("step") or 0)))
            self.steps.addTopLevelItem(item)
        if 0 in shots:
            end = QTreeWidgetItem(["end", "screenshot", "", ""])
            end.setData(0, SHOT_ROLE, shots[0])
            self.steps.addTopLevelItem(end)
        self.scenarioSelected.emit(scenario)

    def _show_shot(self, item: QTreeWidgetItem | None) -> None:
        shot_id = item.data(0, SHOT_ROLE) if item is not None else None
        png = self.service.shot_png(int(shot_id)) if shot_id else None
        self.shot_png = png
        if png is None:
            self.shot.setPixmap(QPixmap())
            self.shot.setText("No screenshot for this step (the scenario's observability.capture lists which "
                              "screenshots a run takes).")
            return
        pixmap = QPixmap()
        pixmap.loadFromData(png, "PNG")
        self.shot.setPixmap(pixmap.scaled(self.shot.width(), max(110, self.shot.height()),
                                          Qt.AspectRatioMode.KeepAspectRatio,
                                          Qt.TransformationMode.SmoothTransformation))

    def open_shot(self, item: QTreeWidgetItem | None) -> None:
        from studio.ui.dialogs import ScreenshotViewer

        self._show_shot(item)
        if self.shot_png is None or item is None:
            return
        viewer = ScreenshotViewer(self.shot_png, f"Step {item.text(0)}: {item.text(1)} {item.text(2)}", self)
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.show()

    def _record(self, record: dict) -> None:
        if record.get("type") == "run_start":
            self.show_runs(str(record.get("runId")))
        elif record.get("type") in ("scenario_end", "run_end") and self.service.run_id == self.run_id:
            self.show_run(self.run_id)
        elif record.get("type") == "step" and record.get("scenarioId") == self.selected_scenario():
            self._row_selected()
