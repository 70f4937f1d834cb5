"""Game evaluation in the main window: the Game Evaluation and Game Scores docks (the scores as bars, the reasons
for each beside them, the game's history), the Games workspace that shows them around the live page, the Games menu,
the running evaluation in the status bar's job list, and the sentence each run ends with (its score in words and
what to do next).
"""

from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShowEvent
from PySide6.QtWidgets import QLabel, QMenu, QSplitter, QVBoxLayout, QWidget

from studio.app.game_service import GameService
from studio.models.game import METRIC_TITLES, METRICS, OVERALL, GameRun
from studio.ui.game_charts import ScoreBars, ScoreHistory, band_word, legend_html
from studio.ui.game_job import GameJobClock
from studio.ui.game_panel import GamePanel
from studio.ui.game_reasons import ReasonsView, reasons_of
from studio.ui.workspaces import RIGHT, Workspace, place_tabs
from studio.wording import plural

if TYPE_CHECKING:  # the window imports this module
    from studio.ui.main_window import StudioWindow

RUN_SHORTCUT = "Ctrl+Alt+G"
CANCEL_SHORTCUT = "Ctrl+Alt+K"
GAMES_SIDE_WIDTH = 420
SPLIT = (0.28, 0.47, 0.25)  # the Game Scores column: the bars, the reasons beside them, the history


def _games_layout(window, docks) -> None:
    # One column beside the page, the run and its scores as tabs: a bottom dock tall enough for the charts would
    # leave the page a strip on a laptop.
    place_tabs(window, docks, RIGHT, ["games", "game_scores"], GAMES_SIDE_WIDTH)


GAMES = Workspace("Games", ("games", "game_scores"), _games_layout,
                  description="Let the agent play a browser game in the live view and score it")


class ScoresPanel(QWidget):
    """The last run's scores as bars, the reasons for each right under them (a bar's click selects its reasons),
    and the history of this game's runs; the three share the column through a splitter."""

    def __init__(self, png, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Scores appear here when an evaluation ends.", self)
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Score summary")
        self.bars = ScoreBars(self)
        self.reasons = ReasonsView(png, self)
        self.history = ScoreHistory(self)
        self.history_caption = QLabel("", self)
        self.history_caption.setWordWrap(True)
        self.show_run_count(0)
        history_box = QWidget(self)
        history_layout = QVBoxLayout(history_box)
        history_layout.setContentsMargins(0, 2, 0, 0)
        history_layout.setSpacing(2)
        history_layout.addWidget(self.history_caption)
        history_layout.addWidget(self.history, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        parts: list[tuple[QWidget, int]] = [(self.bars, 3), (self.reasons, 5), (history_box, 3)]
        for index, (part, stretch) in enumerate(parts):
            self.splitter.addWidget(part)
            self.splitter.setStretchFactor(index, stretch)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        layout.addWidget(self.summary)
        layout.addWidget(self.splitter, 1)
        self.bars.barClicked.connect(self.reasons.select)
        self.reasons.metricSelected.connect(self.bars.select)
        self._sized = False

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:  # a plot's size hint is large: without this the history takes the column
            self._sized = True
            total = sum(self.splitter.sizes()) or self.splitter.height()
            self.splitter.setSizes([round(total * share) for share in SPLIT])

    def show_run_count(self, count: int) -> None:
        runs = f"This game's {plural(count, 'run')}" if count else "This game's runs"
        self.history_caption.setText(f"{runs}: {legend_html()}")


class GameFront(QObject):
    """Composes the game widgets on `window` (a StudioWindow) around the GameService."""

    def __init__(self, window: StudioWindow, service: GameService) -> None:
        super().__init__(window)
        self.window = window
        self.service = service
        self.panel = GamePanel(service, window.live_view, self._page_url, window)
        self.scores = ScoresPanel(service.screenshot_png, window)
        docks = window.docks
        docks.add("games", "Game Evaluation", self.panel, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+8",
                  visible=False)
        docks.add("game_scores", "Game Scores", self.scores, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+9",
                  visible=False)
        window.workspaces.register(GAMES)
        self._build_menu()
        self.panel.screenshotActivated.connect(self.show_screenshot)
        self.scores.reasons.screenshotActivated.connect(self.show_screenshot)
        self._reasons_shown: tuple | None = None
        self.job_clock = GameJobClock(service, self)
        self.panel.phases.time_left = self.job_clock.phase_left
        self.job_clock.changed.connect(self._tick)
        self._watch_jobs()
        service.finished.connect(self._finished)
        service.runChanged.connect(self._run_changed)
        service.historyChanged.connect(self.show_history)
        service.errorOccurred.connect(lambda text: window.message_bar.show_message(text, "error"))
        service.notice.connect(lambda text: window.message_bar.show_message(text, "info"))
        service.ask_conflict = self._ask_conflict
        window.project.projectChanged.connect(lambda _path: self._project_opened())

    def _build_menu(self) -> None:
        menu = QMenu("&Games", self.window)
        self.window.menuBar().insertMenu(self.window.help_menu.menuAction(), menu)
        self.run_action = QAction("&Evaluate This Game", self.window)
        self.run_action.setShortcut(QKeySequence(RUN_SHORTCUT))
        self.run_action.triggered.connect(self.panel.run)
        self.cancel_action = QAction("&Stop the Evaluation", self.window)
        self.cancel_action.setShortcut(QKeySequence(CANCEL_SHORTCUT))
        self.cancel_action.triggered.connect(self.service.cancel)
        self.cancel_action.setEnabled(False)
        self.service.runningChanged.connect(self.cancel_action.setEnabled)
        self.service.runningChanged.connect(lambda running: self.run_action.setEnabled(not running))
        menu.addAction(self.run_action)
        menu.addAction(self.cancel_action)

    def _watch_jobs(self) -> None:
        """The running evaluation in the status bar: in the job list's button when the window has one, else in a
        label of its own."""
        playground = getattr(self.window, "playground", None)
        button = getattr(playground, "jobs_button", None)
        if button is not None:
            button.watch(self.job_clock)
            return
        label = QLabel("", self.window)
        label.setAccessibleName("Running game evaluation")
        self.window.statusBar().addPermanentWidget(label)
        self.job_clock.changed.connect(lambda: label.setText(self.job_clock.text()))

    def _tick(self) -> None:
        run = self.service.run
        if run is not None and self.service.running:
            self.panel.phases.show_phases(run.phases)  # the running phase's time left, once a second

    def _page_url(self) -> str:
        session = self.window.browser.session
        if session is not None and self.window.browser.alive:
            url = session.url
            if url.startswith(("http://", "https://")):
                return url
        typed = self.window.url_bar.url_edit.text().strip()
        return typed if typed.startswith(("http://", "https://")) else ""

    async def _ask_conflict(self, conflict):
        playground = self.window.playground
        if playground is not None:
            return await playground.ask_conflict(conflict)
        return None

    # -- results ---------------------------------------------------------------------------------------

    def _run_changed(self, run: GameRun) -> None:
        if run.phase4 is not None and run.phase4.metrics:
            self.show_scores(run)

    def show_scores(self, run: GameRun) -> None:
        """The run's bars, and the reasons beside them with its weakest metric selected (the one to read first)."""
        scores = self.service.scores(run.id)
        if not scores and run.phase4 is not None:
            scores = {m.name: (m.score, m.justification) for m in run.phase4.metrics}
            if run.overall_score is not None:
                scores[OVERALL] = (run.overall_score, "The weighted average of the five metrics.")
        self.scores.bars.show_scores(scores)
        self.scores.summary.setText(score_sentence(run, scores))
        store = self.service.store()
        try:
            shots = store.screenshots(run.id) if store is not None else []
            decisions = store.decisions(run.id) if store is not None else []
        except sqlite3.Error:  # a closed or replaced project: the scores without their evidence
            shots, decisions = [], []
        shown = (run.id, run.updated_at, tuple(sorted(scores.items())), len(shots), len(decisions))
        if shown == self._reasons_shown:
            return  # the same run told twice (opened, then shown): its cards stay as they are
        self._reasons_shown = shown
        reasons = reasons_of(run, scores, shots, decisions)
        measured = [reason for reason in reasons if reason.name in METRICS and reason.score is not None]
        weakest = min(measured, key=lambda reason: reason.score or 0).name if measured else OVERALL
        selected = self.scores.reasons.selected if self.scores.reasons.run_id == run.id else weakest
        self.scores.reasons.show_reasons(run.id, reasons, selected)
        self.scores.bars.select(self.scores.reasons.selected)

    def show_history(self, url: str) -> None:
        runs = []
        for run in self.service.runs(url):
            stored = self.service.scores(run.id)
            if not stored:
                continue
            label = time.strftime("%d %b\n%H:%M", time.localtime(run.created_at / 1000))
            runs.append((run.id, label, {name: score for name, (score, _why) in stored.items()}))
        self.scores.history.show_history(runs)
        self.scores.show_run_count(len(runs))

    def _finished(self, run: GameRun) -> None:
        self.show_scores(run)
        self.show_history(run.url)
        bar = self.window.message_bar
        steps = [("Run Again", lambda: self.service.start(run.url, self.panel.schema.toPlainText()))]
        if run.status == "completed":
            bar.show_message(f"Game evaluation finished: {score_sentence(run, self.service.scores(run.id))}",
                             "info", steps)
        else:
            kept = (f" Partial overall score: {run.overall_score}." if run.overall_score is not None else "")
            bar.show_message(f"{run.message or 'The game evaluation did not finish.'}{kept}", "warning", steps)
        self.window.docks.attention("game_scores", "The game's scores are in Game Scores.")

    def _project_opened(self) -> None:
        runs = self.service.runs()
        if runs:
            last = runs[-1]
            self.service.show_run(last.id)
            self.show_scores(last)
            self.show_history(last.url)

    def show_screenshot(self, shot_id: int) -> None:
        from studio.ui.dialogs import ScreenshotViewer

        png = self.service.screenshot_png(shot_id)
        if png is None:
            return
        viewer = ScreenshotViewer(png, f"Game screenshot {shot_id}", self.window)
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.show()


def score_sentence(run: GameRun, scores: dict[str, tuple[int, str]]) -> str:
    """"Overall 74 (good). Weakest: Controls & Responsiveness 35 (poor)." in words a tester reads."""
    overall = scores.get(OVERALL, (run.overall_score, ""))[0] if scores or run.overall_score is not None else None
    if overall is None:
        return "No scores were stored for this run."
    measured = [(name, scores[name][0]) for name in METRICS if name in scores]
    text = f"overall {overall} ({band_word(overall)}) for {run.url}."
    if measured:
        name, score = min(measured, key=lambda item: item[1])
        text += f" Weakest: {METRIC_TITLES[name]} {score} ({band_word(score)})."
        poor = [METRIC_TITLES[n] for n, s in measured if s < 50 and n != name]
        if poor:
            text += f" Also under 50: {', '.join(poor)}."
    return text[0].upper() + text[1:]
