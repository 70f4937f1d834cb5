"""Game Scores as a tester reads it after a run: hover a bar for its justification, click it to read why beside the
chart (the justification and the evidence it rests on, screenshots as thumbnails that open large), fall back to what
the run kept of the metric's phase when the scorer named no evidence, keep the technical details behind a disclosure,
and read the game's history with equal scores of different metrics still apart. On a real project file holding
finished runs, opened in the window as `studio gui` builds it; screenshots go to $STUDIO_GUI_SHOTS at 1366×768."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QBuffer, QEvent, QIODevice, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QTextDocumentFragment
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolTip

from studio.models.game import (
    PHASE_TITLES,
    PHASES,
    DecisionEntry,
    EvidenceRef,
    GameRun,
    MetricScore,
    Phase4Result,
    PhaseOutcome,
    TechnicalDetail,
)
from studio.store.game import GameStore
from studio.store.project import ProjectFile
from studio.ui.dialogs import ScreenshotViewer
from studio.ui.game_charts import SERIES, SYMBOLS, series_offset
from studio.ui.game_front import GAMES_SIDE_WIDTH
from tests.gui.support import close_studio, open_studio, shoot, until

pytestmark = pytest.mark.gui

URL = "http://127.0.0.1:9/arcade/comet?seed=1"
JUSTIFICATIONS = {
    "load": "The page answered 200 in 0.4 s and the canvas painted within a second. Nothing blocked the first frame.",
    "visual": "Every screenshot shows a detailed, non-blank play surface. Sprites and the score are readable.",
    "controls": "Only ArrowLeft moved the ship; ArrowUp, Space and a click on the canvas changed nothing. "
                "The one response came after 180 ms.",
    "playability": "The game started and the score changed twice in 8 s of play. No game over was reached, so the "
                   "loop was only partly seen.",
    "technical": "No console errors and no failed requests. The frame rate held at 58 fps.",
}


def png(width: int, height: int, colour: str, caption: str) -> bytes:
    """A frame of a comet game: the night sky, a few comets, the ship and the score, placed by `caption`."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    seed = sum(map(ord, caption))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#f97316"))
    for n in range(4):
        painter.drawEllipse(QPointF((seed * (n + 3) * 37) % width, 60 + (seed * (n + 5) * 23) % (height - 90)),
                            14, 14)
    painter.setBrush(QColor("#38bdf8"))
    x = 80 + seed * 7 % (width - 160)
    painter.drawPolygon([QPointF(x, height - 70), QPointF(x - 14, height - 40), QPointF(x + 14, height - 40)])
    painter.setPen(QColor("white"))
    painter.setFont(QFont("DejaVu Sans", 18, QFont.Weight.Bold))
    painter.drawText(16, 34, f"SCORE {seed % 5 * 10}")
    painter.end()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data())


def finished_run(store: GameStore, scores: dict[str, int], started: float, evidence: bool = True) -> GameRun:
    """A completed run as the engine leaves it: four timed phases, screenshots of each, decisions during play,
    scores (with EvidenceRef rows for load, visual and controls when `evidence`), two technical notes."""
    run_id = f"run{int(started) % 100000:05d}"
    phases, at = [], started
    for key, seconds in zip(PHASES, (2.6, 1.8, 8.4, 0.2)):
        phases.append(PhaseOutcome(phase=key, title=PHASE_TITLES[key], status="passed", started_at=at,
                                   seconds=seconds))
        at += seconds * 1000
    names = {"phase1": ["initial-load"], "phase2": ["controls"],
             "phase3": [f"play-{n}" for n in range(1, 9)]}
    shots = {}
    for outcome in phases[:3]:
        for index, action in enumerate(names[outcome.phase]):
            when = outcome.started_at + 200 * (index + 1)
            name = f"{int(when)}-{outcome.phase}-{action}.png"
            shots[action] = store.add_screenshot(run_id, outcome.phase, name,
                                                 png(640, 360, "#0b1020", action), 640, 360, at=when)
    play = phases[2].started_at
    for offset, text in enumerate(["Press ArrowLeft: the ship may move", "Press Space: nothing seen yet",
                                   "Click the canvas centre", "Wait 2 s for the comets", "Restart after game over"]):
        store.add_decision(run_id, DecisionEntry(timestamp=play + 1000 * (offset + 1), decision=text,
                                                 context="explorer"))
    refs = {
        "load": [EvidenceRef(kind="screenshot", ref=shots["initial-load"].name, text="the first painted frame"),
                 EvidenceRef(kind="log", ref="network.log", text="GET /arcade/comet 200 in 412 ms")],
        "visual": [EvidenceRef(kind="screenshot", ref=shots["play-2"].name, text="comets and the ship"),
                   EvidenceRef(kind="screenshot", ref=shots["play-6"].name, text="score 20")],
        "controls": [EvidenceRef(kind="action", ref="agent_actions", text="ArrowLeft: the ship moved 14 px"),
                     EvidenceRef(kind="decision", ref="agent-decisions.log", text="Space did nothing in 3 tries"),
                     EvidenceRef(kind="screenshot", ref=shots["controls"].name, text="the ship after ArrowLeft")],
    } if evidence else {}
    metrics = [MetricScore(name=name, score=scores[name], justification=JUSTIFICATIONS[name],
                           evidence=refs.get(name, [])) for name in JUSTIFICATIONS]
    run = GameRun(id=run_id, url=URL, status="completed", created_at=started, updated_at=at, phases=phases,
                  overall_score=scores["overall"], end_reason="completed",
                  findings="ArrowLeft moved the picture; Restart reset it",
                  phase4=Phase4Result(success=True, overallScore=scores["overall"], metrics=metrics),
                  details=[TechnicalDetail(phase="phase2", kind="keyboard_probe", detail="Space: 0 changed blocks",
                                           at=play),
                           TechnicalDetail(phase="phase3", kind="frame_rate", detail="58 fps median", at=play)])
    store.save_run(run)
    store.save_scores(run_id, metrics, scores["overall"], "The weighted average of the five metrics.")
    return run


LATEST = {"load": 100, "visual": 80, "controls": 35, "playability": 58, "technical": 100, "overall": 72}
EARLIER = {"load": 100, "visual": 80, "controls": 100, "playability": 58, "technical": 100, "overall": 83}


def game_project(folder, runs: int = 1) -> GameRun:
    """A project file holding `runs` finished runs of one game, a minute apart; the last one."""
    path = folder / "games.studio"
    project = ProjectFile.create(path)
    store = GameStore(project.db)
    now = time.time() * 1000
    run = None
    for index in range(runs):
        last = index == runs - 1
        run = finished_run(store, LATEST if last else EARLIER, now - (runs - index) * 60_000, evidence=last)
    project.close()
    assert run is not None
    return run


async def open_games(folder):
    """The window on the project, in the Games workspace with Game Scores in front, its layout settled (the saved
    layout is restored after the window shows: until then the column is briefly narrower and scrolls)."""
    services, window = open_studio(folder, "games.studio", reopen=True)
    window.resize(1366, 768)
    window.workspaces.switch("Games")
    dock = window.docks["game_scores"]
    dock.raise_()
    area = dock.widget()
    await until(lambda: not dock.visibleRegion().isEmpty() and dock.width() >= GAMES_SIDE_WIDTH - 20
                and not area.verticalScrollBar().isVisible() and not area.horizontalScrollBar().isVisible(),
                what="the Games layout")
    return services, window


def plain(label) -> str:
    """What a rich-text label reads as."""
    return " ".join(QTextDocumentFragment.fromHtml(label.text()).toPlainText().split())


class TooltipsShown(QObject):
    """The text of every tooltip Qt shows while installed on the application."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Show and watched.metaObject().className() == "QTipLabel":
            self.texts.append(watched.text())
        return False


_nudges = iter(range(1 << 30))


def hover(widget, point: QPoint) -> None:
    """Move the mouse to `point`, a pixel to one side every other time: Qt drops a move to where the mouse already
    is, so a hover repeated while the window settles would otherwise be a single move."""
    QTest.mouseMove(widget.viewport(), point + QPoint(next(_nudges) % 2, 0))
    QApplication.processEvents()


def bar_point(bars, index: int, score: int) -> QPoint:
    """Where the middle of bar `index` is on the chart's viewport."""
    return bars.mapFromScene(bars.plotItem.vb.mapViewToScene(QPointF(index, score / 2)))


@pytest.mark.timeout(60)
def test_hovering_a_bar_shows_its_justification(qloop, tmp_path):
    game_project(tmp_path)

    async def scenario():
        services, window = await open_games(tmp_path)
        bars = window.games.scores.bars
        try:
            await until(lambda: not bars.viewport().visibleRegion().isEmpty() and bars.scores["controls"] == 35,
                        what="the run's bars")
            # hovered again on each look, at where the bar is then: the column settles its sizes once it is shown
            # Qt hides a tooltip at any focus or activation change in the application, which other windows of a
            # long test session can cause at any moment: every tooltip Qt shows is noted as it is shown.
            shown = TooltipsShown()
            QApplication.instance().installEventFilter(shown)
            try:
                await until(lambda: hover(bars, bar_point(bars, SERIES.index("controls"), 35))
                            or (QToolTip.isVisible() and QToolTip.text().startswith("Controls") and
                                shown.texts.append(QToolTip.text()) is None)
                            or any(t.startswith("Controls") for t in shown.texts), what="the bar's tooltip")
            finally:
                QApplication.instance().removeEventFilter(shown)
            text = next(t for t in shown.texts if t.startswith("Controls"))
            assert text.startswith("Controls & Responsiveness: 35 (poor) · weight 20%"), text
            assert JUSTIFICATIONS["controls"] in text
            await until(lambda: hover(bars, QPoint(2, 2)) or not QToolTip.isVisible(),  # off the bars: it goes
                        what="the tooltip to go")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(60)
def test_clicking_a_bar_selects_its_reasons_and_a_thumbnail_opens_large(qloop, tmp_path):
    run = game_project(tmp_path, runs=2)

    async def scenario():
        services, window = await open_games(tmp_path)
        scores = window.games.scores
        bars, reasons = scores.bars, scores.reasons
        try:
            await until(lambda: reasons.run_id == run.id and reasons.isVisible(), what="the reasons of the run")
            # the weakest metric is selected first, its card in view beside the chart
            assert reasons.selected == "controls" and bars.selected == "controls"
            card = reasons.cards["controls"]
            assert card.justification.text() == JUSTIFICATIONS["controls"]
            assert plain(card.heading) == "Controls & Responsiveness 35 · poor · weight 20%"
            lines = [plain(label) for label in card.lines]
            assert any("ArrowLeft: the ship moved 14 px" in text for text in lines), lines
            assert any("Space did nothing in 3 tries" in text for text in lines), lines
            await until(lambda: abs(card.y() - reasons.verticalScrollBar().value()) <= 4,
                        what="the Controls card at the top of the reasons")

            # a click on the Visual bar selects Visual's reasons, scrolled into view
            QTest.mouseClick(bars.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                             bar_point(bars, SERIES.index("visual"), 80))
            await until(lambda: reasons.selected == "visual", what="Visual's reasons")
            visual = reasons.cards["visual"]
            await until(lambda: abs(visual.y() - reasons.verticalScrollBar().value()) <= 4, what="Visual's card on top")
            assert bars.selected == "visual" and visual.selected and not card.selected
            assert sorted(visual.thumbs) == sorted(shot.id for shot in services.games.store().screenshots(run.id)
                                                   if shot.name.endswith(("play-2.png", "play-6.png")))
            thumb = next(iter(visual.thumbs.values()))
            assert thumb.text() == "play-2" and "comets and the ship" in thumb.toolTip()  # what it shows, on hover
            await until(lambda: not thumb.icon().isNull(), what="the thumbnail")
            shoot(window, "games-reasons")

            # the thumbnail opens the screenshot large
            thumb.click()
            viewer = await until(lambda: next((w for w in QApplication.topLevelWidgets()
                                               if isinstance(w, ScreenshotViewer) and w.isVisible()), None),
                                 what="the screenshot viewer")
            assert viewer.width() > 600
            viewer.close()

            # clicking a card selects its bar; Right on the chart the next bar and its reasons
            QTest.mouseClick(reasons.cards["load"], Qt.MouseButton.LeftButton)
            assert reasons.selected == "load" and bars.selected == "load"
            assert [pen.widthF() > 0 for pen in bars.bars.opts["pens"]][SERIES.index("load")]
            QTest.mouseClick(reasons.cards["technical"].justification, Qt.MouseButton.LeftButton)  # on its text
            assert reasons.selected == "technical" and bars.selected == "technical"
            QTest.mouseClick(reasons.cards["load"], Qt.MouseButton.LeftButton)
            bars.setFocus()
            QTest.keyClick(bars, Qt.Key.Key_Right)
            assert bars.selected == "visual" and reasons.selected == "visual"
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(60)
def test_a_score_without_named_evidence_shows_what_its_phase_kept(qloop, tmp_path):
    run = game_project(tmp_path)

    async def scenario():
        services, window = await open_games(tmp_path)
        reasons = window.games.scores.reasons
        try:
            await until(lambda: reasons.run_id == run.id, what="the reasons of the run")
            play = reasons.cards["playability"]
            assert "The scorer named no evidence for this score" in play.note.text()
            assert "6 of its 8 screenshots" in play.note.text() and "5 decisions" in play.note.text()
            assert len(play.thumbs) == 6
            assert sum("Decision" in label.text() for label in play.lines) == 4
            window.games.scores.bars.select("playability")
            reasons.select("playability")
            await until(lambda: abs(play.y() - reasons.verticalScrollBar().value()) <= 4, what="Playability on top")
            shoot(window, "games-reasons-fallback")
            controls = reasons.cards["controls"]
            assert "named no evidence" not in controls.note.text()
            overall = reasons.cards["overall"]
            assert any("weighted average" in label.text() for label in overall.lines)
            # the technical notes sit behind their disclosure in Game Evaluation, closed
            details = window.games.panel.details
            assert details.toggle.text() == "Technical details (2 notes)" and not details.text.isVisible()
            window.docks["games"].raise_()
            await until(lambda: details.toggle.isVisible(), what="the disclosure")
            details.toggle.click()
            assert details.text.isVisible() and "keyboard_probe" in details.text.toPlainText()
            await until(lambda: not details.text.verticalScrollBar().isVisible(), what="both notes in view at once")
            shoot(window, "games-details")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(60)
def test_the_history_keeps_equal_scores_apart_and_shows_a_single_run(qloop, tmp_path):
    game_project(tmp_path, runs=3)

    async def scenario():
        services, window = await open_games(tmp_path)
        scores = window.games.scores
        history = scores.history
        try:
            await until(lambda: len(history.runs) == 3, what="three runs in the history")
            # load, visual and technical all scored 100 in the first run: three points, three places, three shapes
            points = {name: (history.lines[name].getData()[0][0], history.lines[name].getData()[1][0])
                      for name in ("load", "technical")}
            assert points["load"][1] == points["technical"][1] == 100 and points["load"][0] != points["technical"][0]
            assert len({SYMBOLS[name] for name in SERIES}) == len(SERIES)
            assert "Overall" in scores.history_caption.text()
            bar_labels = scores.bars.labels
            assert bar_labels[-1] == "Overall\nweighted" and not any("=" in label for label in bar_labels)
            assert "This game's 3 runs" in scores.history_caption.text()
            assert "\n" in history.labels[0]  # the day over the time: two short lines
            assert "Load 100, Visual 80, Controls 100" in history.tooltip_text(0)  # hovering a run lists its scores
            assert all(label == "" for label in (text.toPlainText() for text in history.values.values()))
            shoot(window, "games-history")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(60)
def test_a_single_run_reads_as_points_with_their_values(qloop, tmp_path):
    run = game_project(tmp_path, runs=1)

    async def scenario():
        services, window = await open_games(tmp_path)
        scores = window.games.scores
        history = scores.history
        try:
            await until(lambda: history.runs == [run.id], what="the run in the history")
            xs = [history.lines[name].getData()[0][0] for name in SERIES]
            assert xs == sorted(xs) and len(set(xs)) == len(SERIES)  # side by side, never on top of each other
            assert xs[0] == pytest.approx(1 + series_offset(SERIES[0], 1))
            assert {name: history.values[name].toPlainText() for name in SERIES} == \
                {name: str(score) for name, score in LATEST.items()}
            assert "This game's 1 run:" in scores.history_caption.text()
            shoot(window, "games-history-one-run")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
