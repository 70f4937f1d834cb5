"""The game evaluation's charts (pyqtgraph): the five metric scores and the overall as coloured bars with their
weights, each bar's justification on hover; and the history of the overall and each metric across a game's runs.

Both are views that keep their plot items and update them in place (setOpts, setData), never rebuilding them."""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QToolTip

from studio.models.game import METRIC_TITLES, METRIC_WEIGHTS, METRICS, OVERALL

GOOD, FAIR, POOR, NONE = QColor("#16a34a"), QColor("#ca8a04"), QColor("#dc2626"), QColor("#d1d5db")
SERIES = [*METRICS, OVERALL]
SHORT = {"load": "Load", "visual": "Visual", "controls": "Controls", "playability": "Play",
         "technical": "Tech", OVERALL: "Overall"}
TOP = 114  # room above 100 for the bars' numbers
LINE_COLORS = {"load": "#2563eb", "visual": "#9333ea", "controls": "#0891b2", "playability": "#ea580c",
               "technical": "#64748b", OVERALL: "#111827"}

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


class ScoreBars(pg.PlotWidget):
    """Six bars (five metrics and the overall); the x axis names each with its weight."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Scores")
        self.setMinimumHeight(120)
        self.setMouseEnabled(False, False)
        self.hideButtons()
        self.setMenuEnabled(False)
        self.setYRange(0, TOP, padding=0)
        self.setXRange(-0.6, len(SERIES) - 0.4, padding=0)
        self.getAxis("left").setTicks([[(0, "0"), (50, "50"), (70, "70"), (100, "100")]])
        labels = [(i, f"{SHORT[name]}\n{METRIC_WEIGHTS[name]}%" if name in METRIC_WEIGHTS else f"{SHORT[name]}\n=")
                  for i, name in enumerate(SERIES)]
        self.getAxis("bottom").setTicks([labels])
        self.getAxis("bottom").setHeight(34)
        self.scores: dict[str, int | None] = {name: None for name in SERIES}
        self.justifications: dict[str, str] = {name: "" for name in SERIES}
        self.bars = pg.BarGraphItem(x=list(range(len(SERIES))), height=[0] * len(SERIES), width=0.62,
                                    brushes=[pg.mkBrush(NONE)] * len(SERIES), pens=[pg.mkPen(None)] * len(SERIES))
        self.addItem(self.bars)
        self.values = [pg.TextItem("", color="#111827", anchor=(0.5, 0.0)) for _ in SERIES]
        for index, text in enumerate(self.values):
            text.setPos(index, 0)
            self.addItem(text)
        for line_at in (50, 70):
            self.addItem(pg.InfiniteLine(pos=line_at, angle=0, pen=pg.mkPen("#e5e7eb", style=Qt.PenStyle.DashLine)))
        self.scene().sigMouseMoved.connect(self._hover)

    def show_scores(self, scores: dict[str, tuple[int, str]]) -> None:
        """metric (and "overall") -> (score, justification); missing ones are drawn empty, grey."""
        for name in SERIES:
            score, why = scores.get(name, (None, ""))
            self.scores[name], self.justifications[name] = score, why
        heights = [self.scores[name] or 0 for name in SERIES]
        self.bars.setOpts(height=heights, brushes=[pg.mkBrush(band_color(self.scores[name])) for name in SERIES])
        for index, name in enumerate(SERIES):
            score = self.scores[name]
            self.values[index].setText("" if score is None else str(score))
            self.values[index].setPos(index, (score or 0) + 13)

    def bar_at(self, x: float, y: float) -> str | None:
        """The series whose bar (or the empty space above it) is at view point (x, y)."""
        index = round(x)
        if 0 <= index < len(SERIES) and abs(x - index) <= 0.31 and 0 <= y <= TOP:
            return SERIES[index]
        return None

    def tooltip_text(self, name: str) -> str:
        score = self.scores[name]
        title = METRIC_TITLES.get(name, "Overall (weighted average)")
        weight = f" · weight {METRIC_WEIGHTS[name]}%" if name in METRIC_WEIGHTS else ""
        heading = f"{title}: {score if score is not None else '—'} ({band_word(score)}){weight}"
        return f"{heading}\n{self.justifications[name] or 'No justification yet.'}"

    def _hover(self, position: QPointF) -> None:
        point = self.plotItem.vb.mapSceneToView(position)
        name = self.bar_at(point.x(), point.y())
        if name is None:
            QToolTip.hideText()
            return
        QToolTip.showText(self.mapToGlobal(self.mapFromScene(position).toPoint()), self.tooltip_text(name), self)


def legend_html() -> str:
    """The history's colours as a line of text (a legend drawn inside the plot would cover the lines)."""
    return " ".join(f'<span style="color:{LINE_COLORS[name]}">{"<b>" if name == OVERALL else ""}■ {SHORT[name]}'
                    f'{"</b>" if name == OVERALL else ""}</span>' for name in SERIES)


class ScoreHistory(pg.PlotWidget):
    """The overall and each metric across a game's runs (oldest left), one line each."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Score history")
        self.setMinimumHeight(120)
        self.setMouseEnabled(False, False)
        self.hideButtons()
        self.setMenuEnabled(False)
        self.setYRange(0, 100, padding=0.02)
        self.getAxis("left").setTicks([[(0, "0"), (50, "50"), (70, "70"), (100, "100")]])
        self.lines: dict[str, pg.PlotDataItem] = {}
        for name in SERIES:
            width = 3 if name == OVERALL else 1.5
            self.lines[name] = self.plot([], [], pen=pg.mkPen(LINE_COLORS[name], width=width),
                                         symbol="o", symbolSize=6 if name == OVERALL else 4,
                                         symbolBrush=LINE_COLORS[name], symbolPen=None)
        self.runs: list[str] = []

    def show_history(self, runs: Sequence[tuple[str, str, dict[str, int]]]) -> None:
        """(run id, label, metric -> score) oldest first; lines skip runs without a score for them."""
        self.runs = [run_id for run_id, _label, _scores in runs]
        for name, line in self.lines.items():
            xs = [i + 1 for i, (_id, _label, scores) in enumerate(runs) if name in scores]
            ys = [scores[name] for _id, _label, scores in runs if name in scores]
            line.setData(xs, ys)
        ticks = [(i + 1, label) for i, (_id, label, _scores) in enumerate(runs)]
        step = max(1, len(ticks) // 8)
        self.getAxis("bottom").setTicks([ticks[::step]])
        self.setXRange(0.5, max(len(runs), 1) + 0.5, padding=0)
