"""Game evaluation in the main window: the Game Evaluation and Game Scores docks, the Games workspace that shows them
around the live page, the Games menu, and the sentence each run ends with (its score in words and what to do next).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMenu, QVBoxLayout, QWidget

from studio.app.game_service import GameService
from studio.models.game import METRIC_TITLES, METRICS, OVERALL, GameRun
from studio.ui.game_charts import ScoreBars, ScoreHistory, band_word, legend_html
from studio.ui.game_panel import GamePanel
from studio.ui.workspaces import RIGHT, Workspace, place_tabs

if TYPE_CHECKING:  # the window imports this module
    from studio.ui.main_window import StudioWindow

RUN_SHORTCUT = "Ctrl+Alt+G"
CANCEL_SHORTCUT = "Ctrl+Alt+K"
GAMES_SIDE_WIDTH = 390


def _games_layout(window, docks) -> None:
    # One column beside the page, the run and its scores as tabs: a bottom dock tall enough for the charts would
    # leave the page a strip on a laptop.
    place_tabs(window, docks, RIGHT, ["games", "game_scores"], GAMES_SIDE_WIDTH)


GAMES = Workspace("Games", ("games", "game_scores"), _games_layout,
                  description="Let the agent play a browser game in the live view and score it")


class ScoresPanel(QWidget):
    """The last run's scores as bars, and the history of this game's runs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("Scores appear here when an evaluation ends.", self)
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Score summary")
        self.bars = ScoreBars(self)
        self.history = ScoreHistory(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        layout.addWidget(self.summary)
        layout.addWidget(self.bars, 3)
        history = QLabel(f"This game's runs: {legend_html()}", self)
        history.setWordWrap(True)
        layout.addWidget(history)
        layout.addWidget(self.history, 2)


class GameFront(QObject):
    """Composes the game widgets on `window` (a StudioWindow) around the GameService."""

    def __init__(self, window: StudioWindow, service: GameService) -> None:
        super().__init__(window)
        self.window = window
        self.service = service
        self.panel = GamePanel(service, window.live_view, self._page_url, window)
        self.scores = ScoresPanel(window)
        docks = window.docks
        docks.add("games", "Game Evaluation", self.panel, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+8",
                  visible=False)
        docks.add("game_scores", "Game Scores", self.scores, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+9",
                  visible=False)
        window.workspaces.register(GAMES)
        self._build_menu()
        self.panel.screenshotActivated.connect(self.show_screenshot)
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
        scores = self.service.scores(run.id)
        if not scores and run.phase4 is not None:
            scores = {m.name: (m.score, m.justification) for m in run.phase4.metrics}
            if run.overall_score is not None:
                scores[OVERALL] = (run.overall_score, "The weighted average of the five metrics.")
        self.scores.bars.show_scores(scores)
        self.scores.summary.setText(score_sentence(run, scores))

    def show_history(self, url: str) -> None:
        runs = []
        for run in self.service.runs(url):
            stored = self.service.scores(run.id)
            if not stored:
                continue
            label = time.strftime("%d %b %H:%M", time.localtime(run.created_at / 1000))
            runs.append((run.id, label, {name: score for name, (score, _why) in stored.items()}))
        self.scores.history.show_history(runs)

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
