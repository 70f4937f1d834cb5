"""The game evaluation's charts (pyqtgraph): the five metric scores and the overall as coloured bars with their
weights, each bar's justification on hover and its reasons on click; and the history of the overall and each metric
across a game's runs, each series with its own marker and a small sideways offset so equal scores stay apart.

Both are views that keep their plot items and update them in place (setOpts, setData), never rebuilding them."""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import QToolTip

from studio.models.game import METRIC_TITLES, METRIC_WEIGHTS, METRICS, OVERALL

GOOD, FAIR, POOR, NONE = QColor("#16a34a"), QColor("#ca8a04"), QColor("#dc2626"), QColor("#d1d5db")
SELECTED = QColor("#111827")
SERIES = [*METRICS, OVERALL]
SHORT = {"load": "Load", "visual": "Visual", "controls": "Controls", "playability": "Play",
         "technical": "Tech", OVERALL: "Overall"}
TOP = 114  # room above 100 for the bars' numbers (more when the chart is short: see ScoreBars.resizeEvent)
LABEL_ROOM_PX = 20
LINE_COLORS = {"load": "#2563eb", "visual": "#9333ea", "controls": "#0891b2", "playability": "#ea580c",
               "technical": "#64748b", OVERALL: "#111827"}
# Each series its own marker (and the legend's glyph for it): equal scores of two metrics stay two shapes.
SYMBOLS = {"load": "o", "visual": "s", "controls": "t1", "playability": "d", "technical": "x", OVERALL: "star"}
GLYPHS = {"o": "●", "s": "■", "t1": "▲", "d": "◆", "x": "✕", "star": "★"}
MAX_TICKS = 5  # run labels along the history's axis; more would run into each other in the side column

pg.setConfigOptions(antialias=True, background="w", foreground="#374151")


def band_color(score: int | None) -> QColor:
    """Green from 70, yellow 50–69, red under 50; grey when there is no score."""
    if score is None:
        return NONE
    return GOOD if score >= 70 else FAIR if score >= 50 else POOR


def band_word(score: int | None) -> str:
    if score is None:
        return "not scored"
    return "good" if score >= 70 else "fair" if score >= 50 else "poor"


def title_of(name: str) -> str:
    """A series' full name: the metric's title, or "Overall"."""
    return METRIC_TITLES.get(name, "Overall (weighted average)")


class ScoreBars(pg.PlotWidget):
    """Six bars (five metrics and the overall); the x axis names each with its weight. Clicking a bar (or Left and
    Right on the focused chart) selects it, outlined, and says so with `barClicked`, so the reasons beside the chart
    can follow."""

    barClicked = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Scores")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumHeight(120)
        self.setMouseEnabled(False, False)
        self.hideButtons()
        self.setMenuEnabled(False)
        self.setYRange(0, TOP, padding=0)
        self.setXRange(-0.6, len(SERIES) - 0.4, padding=0)
        self.getAxis("left").setTicks([[(0, "0"), (50, "50"), (70, "70"), (100, "100")]])
        self.labels = [f"{SHORT[name]}\n{METRIC_WEIGHTS[name]}%" if name in METRIC_WEIGHTS
                       else f"{SHORT[name]}\nweighted" for name in SERIES]
        self.getAxis("bottom").setTicks([list(enumerate(self.labels))])
        self.getAxis("bottom").setHeight(34)
        self.scores: dict[str, int | None] = {name: None for name in SERIES}
        self.justifications: dict[str, str] = {name: "" for name in SERIES}
        self.selected: str | None = None
        self.bars = pg.BarGraphItem(x=list(range(len(SERIES))), height=[0] * len(SERIES), width=0.62,
                                    brushes=[pg.mkBrush(NONE)] * len(SERIES), pens=[pg.mkPen(None)] * len(SERIES))
        self.addItem(self.bars)
        self.values = [pg.TextItem("", color="#111827", anchor=(0.5, 1.0)) for _ in SERIES]
        for index, text in enumerate(self.values):
            text.setPos(index, 0)
            self.addItem(text)
        for line_at in (50, 70):
            self.addItem(pg.InfiniteLine(pos=line_at, angle=0, pen=pg.mkPen("#e5e7eb", style=Qt.PenStyle.DashLine)))
        self.scene().sigMouseMoved.connect(self._hover)
        self.scene().sigMouseClicked.connect(self._clicked)
        keep_label_room(self)

    def show_scores(self, scores: dict[str, tuple[int, str]]) -> None:
        """metric (and "overall") -> (score, justification); missing ones are drawn empty, grey."""
        for name in SERIES:
            score, why = scores.get(name, (None, ""))
            self.scores[name], self.justifications[name] = score, why
        heights = [self.scores[name] or 0 for name in SERIES]
        self.bars.setOpts(height=heights, brushes=[pg.mkBrush(band_color(self.scores[name])) for name in SERIES],
                          pens=self._pens())
        for index, name in enumerate(SERIES):
            score = self.scores[name]
            self.values[index].setText("" if score is None else str(score))
            self.values[index].setPos(index, score or 0)

    def select(self, name: str | None) -> None:
        """Outline the bar of `name` (None: no bar)."""
        self.selected = name if name in SERIES else None
        self.bars.setOpts(pens=self._pens())

    def bar_at(self, x: float, y: float) -> str | None:
        """The series whose bar (or the empty space above it) is at view point (x, y)."""
        index = round(x)
        if 0 <= index < len(SERIES) and abs(x - index) <= 0.31 and 0 <= y <= TOP:
            return SERIES[index]
        return None

    def tooltip_text(self, name: str) -> str:
        score = self.scores[name]
        weight = f" · weight {METRIC_WEIGHTS[name]}%" if name in METRIC_WEIGHTS else ""
        heading = f"{title_of(name)}: {score if score is not None else '—'} ({band_word(score)}){weight}"
        return f"{heading}\n{self.justifications[name] or 'No justification yet.'}\nClick the bar for its evidence."

    def keyPressEvent(self, event: QKeyEvent) -> None:
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        index = SERIES.index(self.selected) + step if self.selected in SERIES else 0
        name = SERIES[max(0, min(len(SERIES) - 1, index))]
        self.select(name)
        self.barClicked.emit(name)

    def _pens(self) -> list:
        return [pg.mkPen(SELECTED, width=2.5) if name == self.selected else pg.mkPen(None) for name in SERIES]

    def _bar_under(self, scene_position: QPointF) -> str | None:
        point = self.plotItem.vb.mapSceneToView(scene_position)
        return self.bar_at(point.x(), point.y())

    def _hover(self, position: QPointF) -> None:
        name = self._bar_under(position)
        if name is None:
            QToolTip.hideText()
            self.unsetCursor()
            return
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        # QGraphicsView.mapFromScene(QPointF) gives a QPoint already (the old `.toPoint()` raised on every hover).
        QToolTip.showText(self.mapToGlobal(self.mapFromScene(position)), self.tooltip_text(name), self)

    def _clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        name = self._bar_under(event.scenePos())
        if name is not None:
            self.select(name)
            self.barClicked.emit(name)


def keep_label_room(plot: pg.PlotWidget) -> None:
    """Keep LABEL_ROOM_PX above 100 whatever the chart's height, so a value of 100 keeps its number in view: the
    top of the range grows as the chart shrinks."""
    view = plot.plotItem.vb

    def fit() -> None:
        height = view.height()
        top = 100 / (1 - LABEL_ROOM_PX / height) if height > 3 * LABEL_ROOM_PX else TOP
        plot.setYRange(0, max(TOP, top), padding=0)

    view.sigResized.connect(fit)


def legend_html() -> str:
    """The history's series as a line of text, each with its marker's glyph and colour (a legend drawn inside the
    plot would cover the points)."""
    return " ".join(f'<span style="color:{LINE_COLORS[name]}; white-space:nowrap">'
                    f'{"<b>" if name == OVERALL else ""}{GLYPHS[SYMBOLS[name]]}&nbsp;{SHORT[name]}'
                    f'{"</b>" if name == OVERALL else ""}</span>' for name in SERIES)


def series_offset(name: str, runs: int) -> float:
    """How far right of its run a series' point sits: the six series side by side, wider apart when one run is all
    there is (the chart is then one group of points with their values)."""
    step = 0.13 if runs <= 1 else 0.07
    return (SERIES.index(name) - (len(SERIES) - 1) / 2) * step


class ScoreHistory(pg.PlotWidget):
    """The overall and each metric across a game's runs (oldest left), one line each; with a single run, its
    points with their values. Hovering a run lists its scores."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Score history")
        self.setMinimumHeight(110)
        self.setMouseEnabled(False, False)
        self.hideButtons()
        self.setMenuEnabled(False)
        self.setYRange(0, TOP, padding=0)
        self.getAxis("left").setTicks([[(0, "0"), (50, "50"), (70, "70"), (100, "100")]])
        self.getAxis("bottom").setHeight(34)
        keep_label_room(self)
        for line_at in (50, 70):
            self.addItem(pg.InfiniteLine(pos=line_at, angle=0, pen=pg.mkPen("#e5e7eb", style=Qt.PenStyle.DashLine)))
        self.lines: dict[str, pg.PlotDataItem] = {}
        self.values: dict[str, pg.TextItem] = {}
        for name in SERIES:
            width = 3 if name == OVERALL else 1.5
            self.lines[name] = self.plot([], [], pen=pg.mkPen(LINE_COLORS[name], width=width),
                                         symbol=SYMBOLS[name], symbolSize=11 if name == OVERALL else 8,
                                         symbolBrush=LINE_COLORS[name], symbolPen=pg.mkPen(LINE_COLORS[name]))
            self.values[name] = pg.TextItem("", color=LINE_COLORS[name], anchor=(0.5, 1.0))
            self.addItem(self.values[name])
        self.runs: list[str] = []
        self.labels: list[str] = []
        self.scores: list[dict[str, int]] = []
        self.scene().sigMouseMoved.connect(self._hover)

    def show_history(self, runs: Sequence[tuple[str, str, dict[str, int]]]) -> None:
        """(run id, label, metric -> score) oldest first; lines skip runs without a score for them."""
        self.runs = [run_id for run_id, _label, _scores in runs]
        self.labels = [label for _id, label, _scores in runs]
        self.scores = [dict(scores) for _id, _label, scores in runs]
        count = len(runs)
        for name, line in self.lines.items():
            xs = [i + 1 + series_offset(name, count) for i, scores in enumerate(self.scores) if name in scores]
            ys = [scores[name] for scores in self.scores if name in scores]
            line.setData(xs, ys)
            alone = count == 1 and bool(ys)
            self.values[name].setText(str(ys[0]) if alone else "")
            if alone:
                self.values[name].setPos(xs[0], ys[0] + 3)
        ticks = [(i + 1, label) for i, label in enumerate(self.labels)]
        step = max(1, -(-len(ticks) // MAX_TICKS))
        self.getAxis("bottom").setTicks([ticks[::step]])
        self.setXRange(0.5, max(count, 1) + 0.5, padding=0)

    def run_at(self, x: float) -> int | None:
        """The index of the run drawn around view x, if any."""
        index = round(x) - 1
        return index if 0 <= index < len(self.runs) and abs(x - (index + 1)) <= 0.45 else None

    def tooltip_text(self, index: int) -> str:
        scores = self.scores[index]
        parts = [f"{SHORT[name]} {scores[name]}" for name in SERIES if name in scores]
        return f"Run of {self.labels[index].replace(chr(10), ' ')}\n" + ", ".join(parts)

    def _hover(self, position: QPointF) -> None:
        point = self.plotItem.vb.mapSceneToView(position)
        index = self.run_at(point.x()) if self.plotItem.vb.sceneBoundingRect().contains(position) else None
        if index is None:
            QToolTip.hideText()
            return
        QToolTip.showText(self.mapToGlobal(self.mapFromScene(position)), self.tooltip_text(index), self)
