"""Goal scenarios in the main window: the Scenarios, Scenario Results and Scenario Paths docks, the Scenarios
workspace that shows them beside the live page (where the agent drives each scenario), the Scenarios menu, and the
sentence a run ends with."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QPixmap
from PySide6.QtWidgets import QFileDialog, QLabel, QMenu, QVBoxLayout, QWidget

from studio.app.scenario_service import ScenarioFile, ScenarioService
from studio.scenarios.job import ScenarioRunOutcome
from studio.scenarios.summary import navigation_edges, run_metrics, scenario_metrics, shortest_path
from studio.ui.scenario_charts import MetricTrends, PathTreeChart
from studio.ui.scenario_metric_words import (
    OPTIMALITY_TIP,
    TRANSITION_TIP,
    number,
    optimality_fraction,
    transition_fraction,
)
from studio.ui.scenario_panel import ScenarioPanel, counted, finished_text
from studio.ui.scenario_results import ResultsPanel
from studio.ui.workspaces import RIGHT, WIDE_SIDE_WIDTH, Workspace, place_tabs

if TYPE_CHECKING:  # the window imports this module
    from studio.ui.main_window import StudioWindow

BANNER = "Goal scenarios: "  # how the sentence a run ends with begins (cleared when the next run starts)
RUN_SHORTCUT = "Ctrl+Alt+U"
RUN_ALL_SHORTCUT = "Ctrl+Alt+Shift+U"
CANCEL_SHORTCUT = "Ctrl+Alt+Shift+K"


def _scenarios_layout(window, docks) -> None:
    place_tabs(window, docks, RIGHT, ["scenarios", "scenario_results", "scenario_paths"], WIDE_SIDE_WIDTH)


SCENARIOS = Workspace("Scenarios", ("scenarios", "scenario_results", "scenario_paths"), _scenarios_layout,
                      description="Goal scenarios: edit them, let the agent run them in the live view, read the "
                                  "results, steps and path trees")


ROUTE_TIP = (f"{OPTIMALITY_TIP}.\n{TRANSITION_TIP}.\nBoth measure against the shortest page route: the crawl's "
             "and every run's page transitions.")


class PathsPanel(QWidget):
    """The path tree and the metric trends of the scenario selected in the results or in the Scenarios list."""

    def __init__(self, service: ScenarioService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.scenario_id: str | None = None
        self.title = QLabel("Select a scenario (in Scenarios or Scenario Results) to see its paths across runs.",
                            self)
        self.title.setWordWrap(True)
        self.route = QLabel("", self)
        self.route.setAccessibleName("Shortest route")
        self.route.setWordWrap(True)
        self.route.setToolTip(ROUTE_TIP)
        self.tree = PathTreeChart(self)
        self.tree.setToolTip("Green: the shortest page route to the goal (dotted where no run took it), what "
                             "both optimalities measure against; red dashed: a step back (to a page as near the start, "
                             "or nearer); thicker: taken more often. Click a page for its visits.")
        self.page_label = QLabel("Click a page in the tree to see its visits.", self)
        self.page_label.setWordWrap(True)
        self.page_label.setAccessibleName("Page details")
        self.page_shot = QLabel(self)
        self.page_shot.setAccessibleName("Page screenshot")
        self.page_shot.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.page_shot.setMaximumHeight(150)
        self.page_png: bytes | None = None
        self.trends = MetricTrends(self)
        self.trends_key = QLabel(MetricTrends.key_html(), self)
        self.trends_key.setAccessibleName("Metric trends key")
        self.trends_key.setWordWrap(True)
        self.trends_key.setToolTip(MetricTrends.TIP)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.route)
        layout.addWidget(self.tree, 3)
        layout.addWidget(self.page_label)
        layout.addWidget(self.page_shot)
        layout.addWidget(self.trends_key)
        layout.addWidget(self.trends, 2)
        self.tree.pageClicked.connect(self.show_page)

    def show_page(self, page: str) -> None:
        """What is known of `page`, and the newest screenshot a run took on it."""
        self.page_label.setText(self.tree.describe(page))
        self.page_png = self.newest_shot(page) if self.scenario_id else None
        if self.page_png is None:
            self.page_shot.setPixmap(QPixmap())
            self.page_shot.setText("No screenshot of this page (the start page is shown before any step).")
            return
        pixmap = QPixmap()
        pixmap.loadFromData(self.page_png, "PNG")
        self.page_shot.setPixmap(pixmap.scaledToHeight(140, Qt.TransformationMode.SmoothTransformation))

    def newest_shot(self, page: str) -> bytes | None:
        """The screenshot taken after the newest step that reached `page` (step n's page is urlHistory[n])."""
        assert self.scenario_id is not None
        for run_id, end in reversed(self.service.ends(self.scenario_id)):
            history = end.get("urlHistory") or []
            shots = self.service.shots(run_id, self.scenario_id)
            for step in range(len(history) - 1, 0, -1):
                if history[step] == page and step in shots:
                    return self.service.shot_png(shots[step])
        return None

    def show_scenario(self, scenario_id: str) -> None:
        self.scenario_id = scenario_id
        ends = self.service.ends(scenario_id)
        # The graph the results' optimalities are measured on: the crawl and every run's transitions, of every
        # scenario (a shortcut another scenario took is a shorter route for this one too).
        edges = navigation_edges((end for _run, end in self.service.ends()), self.service.graph())
        self.tree.show_runs([end for _run, end in ends], edges)
        per_run: dict[str, list[dict]] = {}
        for run_id, end in ends:
            per_run.setdefault(run_id, []).append(end)
        trend = [scenario_metrics(group, edges).get(scenario_id, {}) for group in per_run.values()]
        self.trends.show_trend(trend)
        if not ends:
            self.title.setText(f"<b>{scenario_id}</b>: no run in this project yet — run it to see its paths.")
            self.route.setText("")
            return
        self.title.setText(f"<b>{scenario_id}</b>: {counted(len(ends), 'run')} in this project.")
        self.route.setText(self.route_text(ends, edges))

    def route_text(self, ends: list[tuple[str, dict]], edges: set[tuple[str, str]]) -> str:
        """The shortest page route the newest successful run was measured against, in words, with its seed's
        optimality (against the passing runs of the same task in its run, as Scenario Results shows it) and the
        studio's transition optimality beside it."""
        for run_id, end in reversed(ends):
            history = end.get("urlHistory") or []
            route = shortest_path(edges, history[0], history[-1]) if history else None
            if end.get("status") != "success" or route is None:
                continue
            metrics = run_metrics(end, edges, self.service.records(run_id, "scenario_end"))
            transitions = counted(len(route) - 1, "page transition")
            return (f"<span style='color:#16a34a'>Shortest route</span>: {' → '.join(route)} ({transitions}). "
                    f"The newest passing run: optimality {number(metrics['optimality'])} "
                    f"({optimality_fraction(metrics)}); transition optimality "
                    f"{number(metrics['transitionOptimality'])} ({transition_fraction(metrics)}).")
        return "No run reached the goal yet, so there is no route to measure against."


class ScenarioFront(QObject):
    """Composes the scenario widgets on `window` (a StudioWindow) around the ScenarioService."""

    def __init__(self, window: StudioWindow, service: ScenarioService) -> None:
        super().__init__(window)
        self.window = window
        self.service = service
        self.panel = ScenarioPanel(service, self.live_url, window)
        self.results = ResultsPanel(service, window)
        self.paths = PathsPanel(service, window)
        docks = window.docks
        docks.add("scenarios", "Scenarios", self.panel, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+0",
                  visible=False)
        docks.add("scenario_results", "Scenario Results", self.results, Qt.DockWidgetArea.RightDockWidgetArea,
                  visible=False)
        docks.add("scenario_paths", "Scenario Paths", self.paths, Qt.DockWidgetArea.RightDockWidgetArea,
                  visible=False)
        window.workspaces.register(SCENARIOS)
        self._build_menu()
        self.results.scenarioSelected.connect(self.paths.show_scenario)
        self.panel.selectionChanged.connect(self._file_selected)
        service.runStarted.connect(lambda _run_id, _ids: self._clear_banner())
        window.browser.urlChanged.connect(lambda _url: self.panel.show_target())
        window.browser.sessionStarted.connect(lambda _id: self.panel.show_target())
        window.url_bar.url_edit.textChanged.connect(lambda _text: self.panel.show_target())
        service.runningChanged.connect(self._running_changed)
        service.finished.connect(self._finished)
        service.errorOccurred.connect(lambda text: window.message_bar.show_message(text, "error"))
        service.notice.connect(lambda text: window.message_bar.show_message(text, "info"))
        service.ask_conflict = self._ask_conflict
        window.project.projectChanged.connect(lambda _path: self.results.show_runs())

    def _build_menu(self) -> None:
        menu = QMenu("S&cenarios", self.window)
        self.window.menuBar().insertMenu(self.window.help_menu.menuAction(), menu)
        self.open_action = QAction("&Open Scenario Folder…", self.window)
        self.open_action.setToolTip("Open a folder of scenario files (its subfolders as groups) in the Scenarios "
                                    "workspace")
        self.open_action.triggered.connect(self.choose_folder)
        self.run_action = QAction("&Run Selected Scenario", self.window)
        self.run_action.setShortcut(QKeySequence(RUN_SHORTCUT))
        self.run_action.triggered.connect(self.panel.run_selected)
        self.run_all_action = QAction("Run &All Scenarios", self.window)
        self.run_all_action.setShortcut(QKeySequence(RUN_ALL_SHORTCUT))
        self.run_all_action.triggered.connect(self.panel.run_all)
        self.cancel_action = QAction("&Stop the Run", self.window)
        self.cancel_action.setShortcut(QKeySequence(CANCEL_SHORTCUT))
        self.cancel_action.triggered.connect(self.service.cancel)
        self.cancel_action.setEnabled(False)
        self.service.runningChanged.connect(self.cancel_action.setEnabled)
        for action in (self.run_action, self.run_all_action):
            self.service.runningChanged.connect(lambda running, a=action: a.setEnabled(not running))
        menu.addAction(self.open_action)
        menu.addSeparator()
        for action in (self.run_action, self.run_all_action, self.cancel_action):
            menu.addAction(action)

    def choose_folder(self) -> None:
        start = str(self.service.folder or Path.cwd())
        folder = QFileDialog.getExistingDirectory(self.window, "Scenario folder", start)
        if folder:
            self.open_folder(Path(folder))

    def open_folder(self, folder: Path) -> None:
        """Show `folder`'s scenarios, in the Scenarios workspace: opened from another one, the docks that list them
        would otherwise stay hidden and the folder seem empty."""
        self.service.set_folder(folder)
        self.window.workspaces.switch(SCENARIOS.name)
        self.window.docks["scenarios"].raise_()

    def base_url(self) -> str:
        """The address the next run uses: the folder's base URL, else the live page's (what Run says above it)."""
        return self.panel.base_url()

    def live_url(self) -> str:
        """The live page's address, else the address typed in the URL bar."""
        session = self.window.browser.session
        if session is not None and self.window.browser.alive:
            url = session.url
            if url.startswith(("http://", "https://")):
                return url
        return self.window.url_bar.url_edit.text().strip()

    async def _ask_conflict(self, conflict):
        playground = self.window.playground
        if playground is not None:
            return await playground.ask_conflict(conflict)
        return None

    def ending_sentence(self, outcome: ScenarioRunOutcome) -> str:
        """How the run ended, where it ran, and the first reason a scenario did not pass (seen without scrolling)."""
        if outcome.status == "failed":
            return outcome.message
        said = finished_text(outcome).rstrip(".")
        run = next((r for r in self.service.runs() if r.id == outcome.run_id), None)
        said += f", against {run.base_url}" if run is not None and run.base_url else ""
        failed = next((r for r in outcome.results if r.status != "success" and r.message), None)
        return said + (f". {failed.scenario_id}: {failed.message}" if failed is not None else ".")

    def _file_selected(self, file: ScenarioFile | None) -> None:
        """A scenario chosen in the list is the one Scenario Paths shows (its runs, or that it has none yet)."""
        if file is not None and file.scenario is not None and file.scenario.id != self.paths.scenario_id:
            self.paths.show_scenario(file.scenario.id)

    def _running_changed(self, running: bool) -> None:
        if not running:
            self.panel.show_target()  # the live view is back on the tester's page

    def _clear_banner(self) -> None:
        """A new run starts: the sentence the previous one ended with (and any error before it) is stale now."""
        bar = self.window.message_bar
        if bar.label.text().startswith(BANNER) or bar.showing_problem:
            bar.dismiss()

    def _finished(self, outcome: ScenarioRunOutcome) -> None:
        bar = self.window.message_bar
        steps = [("Open Report", self.results.open_report)] if outcome.report is not None else []
        level = "info" if outcome.status == "finished" and outcome.passed == len(outcome.results) else "warning"
        bar.show_message(BANNER + self.ending_sentence(outcome), level, steps)
        self.window.docks.attention("scenario_results", "The run's results are in Scenario Results.")
