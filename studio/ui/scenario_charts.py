"""The goal scenarios' charts (pyqtgraph): the path tree of a scenario across its runs — pages as nodes by distance
from the start, transitions as edges as thick as they are frequent, the shortest path to the goal green, steps back
red and dashed; click a page to see its visits and the runs that passed it — and the metric trends across runs
(pass rate, seed 004's optimality and, dashed beside it, the studio's transition optimality on a 0–1 axis, median
steps on an axis of its own, so that no series lies flat on another's scale).

A shorter route no run took (the page route both optimalities are measured against) is drawn dotted and curved
above the columns it skips: drawn straight it would lie on the taken edges of the same row and be invisible. Both
charts keep their plot items and update them in place (setData), never rebuilding the widgets; pyqtgraph's
auto-range "A" button is hidden (the charts set their own ranges)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPen

from studio.scenarios.paths import PathTree, path_tree
from studio.ui.scenario_metric_words import OPTIMALITY_TIP, TRANSITION_TIP

BEST, BACK, PLAIN = "#16a34a", "#dc2626", "#94a3b8"
NODE, GOAL = "#e2e8f0", "#bbf7d0"
COLUMN_GAP, ROW_GAP = 3.0, 1.4


class PathTreeChart(pg.PlotWidget):
    """The path tree of one scenario's runs."""

    pageClicked = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Path tree")
        self.setMinimumHeight(160)
        self.hideAxis("left")
        self.hideAxis("bottom")
        self.setMenuEnabled(False)
        self.getPlotItem().hideButtons()
        self.getViewBox().invertY(True)
        self.tree: PathTree | None = None
        self.positions: dict[str, tuple[float, float]] = {}
        self.edge_items: list[tuple[tuple[str, str], pg.PlotDataItem]] = []
        self.labels: dict[str, pg.TextItem] = {}
        self.nodes = pg.ScatterPlotItem(size=18, pxMode=True, hoverable=True)
        self.nodes.sigClicked.connect(self._clicked)
        self.addItem(self.nodes)
        self.selected: str | None = None

    def show_runs(self, ends: Sequence[dict[str, Any]], graph: Iterable[tuple[str, str]] = ()) -> PathTree:
        """Draw the runs' scenario_end records (their urlHistory and status); the shortest path is searched in
        `graph` (the crawled navigation graph) too, its edges no run took drawn dotted."""
        tree = self.tree = path_tree(ends, graph)
        self.positions = {page: (COLUMN_GAP * tree.depth[page], ROW_GAP * tree.row(page)) for page in tree.depth}
        for _edge, item in self.edge_items:
            self.removeItem(item)
        self.edge_items = []
        top = max(tree.edges.values(), default=1)
        for edge, count in sorted(tree.edges.items()):
            (x1, y1), (x2, y2) = self.positions[edge[0]], self.positions[edge[1]]
            best, back = edge in tree.best, tree.is_backtrack(edge)
            pen = QPen(QColor(BEST if best else BACK if back else PLAIN))
            pen.setWidthF(2.5 if count == 0 else 1.0 + 5.0 * count / top)
            pen.setCosmetic(True)
            if count == 0:
                pen.setStyle(Qt.PenStyle.DotLine)  # on the shortest path, taken by no run
            elif back and not best:
                pen.setStyle(Qt.PenStyle.DashLine)
            xs, ys = edge_curve((x1, y1), (x2, y2), back)
            item = pg.PlotDataItem(xs, ys, pen=pen)
            times = "taken once" if count == 1 else f"taken {count} times"
            item.setToolTip(f"{edge[0]} → {edge[1]}: {times}" + (" (found by the crawl or another scenario's runs)"
                                                                  if not count else "")
                            + (" — on the shortest route" if best else " — a step back" if back else ""))
            item.setZValue(-1)
            self.addItem(item)
            self.edge_items.append((edge, item))
        pages = list(self.positions)
        self.nodes.setData(
            x=[self.positions[p][0] for p in pages], y=[self.positions[p][1] for p in pages], data=pages,
            brush=[pg.mkBrush(GOAL if p in tree.goals else NODE) for p in pages],
            pen=[pg.mkPen("#16a34a" if p in tree.starts else "#64748b", width=2) for p in pages])
        for page in list(self.labels):
            if page not in self.positions:
                self.removeItem(self.labels.pop(page))
        for page, (x, y) in self.positions.items():
            label = self.labels.get(page)
            if label is None:
                label = self.labels[page] = pg.TextItem(anchor=(0.5, -0.35), color="#1f2937")
                self.addItem(label)
            label.setText(_short(page))
            label.setPos(x, y)
        if self.positions:
            xs = [x for x, _y in self.positions.values()]
            ys = [y for _x, y in self.positions.values()]
            lifted = [min(curve_ys) for _edge, item in self.edge_items if len(curve_ys := item.yData)]
            self.setXRange(min(xs) - 1.2, max(xs) + 1.8, padding=0)
            self.setYRange(min([*ys, *lifted]) - 0.8, max(ys) + 1.2, padding=0)
        return tree

    def describe(self, page: str) -> str:
        tree = self.tree
        if tree is None or page not in tree.depth:
            return ""
        into = sum(n for (a, b), n in tree.edges.items() if b == page)
        out = sum(n for (a, b), n in tree.edges.items() if a == page)
        kind = "the start page" if page in tree.starts else "a goal page" if page in tree.goals else "a page"
        return (f"{page}: {kind}, {_n(tree.seen[page], 'visit')}, {_n(tree.depth[page], 'step')} from the start; "
                f"reached {_times(into)}, left {_times(out)}.")

    def _clicked(self, _item, points, *_args) -> None:
        if len(points):
            self.selected = str(points[0].data())
            self.pageClicked.emit(self.selected)


class MetricTrends(pg.PlotWidget):
    """Pass rate, median optimality (the seed's) and median transition optimality (the studio's, dashed) on the
    left axis, 0–1, and median steps (right axis, its own scale) of a scenario across the project's runs."""

    SERIES = (("passRate", "Pass rate", "#16a34a"), ("medianOptimality", "Optimality (left, 0–1)", "#ea580c"),
              ("medianTransitionOptimality", "Transition optimality (left, dashed)", "#9333ea"),
              ("medianSteps", "Median steps (right axis)", "#2563eb"))
    RIGHT = "medianSteps"  # the one series counted in steps, not a share
    DASHED = "medianTransitionOptimality"  # the studio's measure, drawn apart from the seed's
    TIP = ("Per run of the project, oldest first: the share of its runs that passed; the median of the seed's "
           f"optimality — {OPTIMALITY_TIP}; the median of the studio's transition optimality (dashed) — "
           f"{TRANSITION_TIP}; and the median steps, read on the right axis.")
    TOP = 1.08  # the rates' axis top: a little over 1, so that a line at 1 is not on the frame

    @classmethod
    def key_html(cls) -> str:
        """The chart's key: each series in its colour, and which axis it is read on."""
        return " ".join(f"<span style='color:{colour}'>●</span> {title}" for _key, title, colour in cls.SERIES)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Metric trends")
        self.setMinimumHeight(120)
        self.setMenuEnabled(False)
        plot = self.getPlotItem()
        plot.hideButtons()
        # The key is a line of text above the chart (key_html): a legend inside it would cover the lines near 1.
        self.getAxis("bottom").setLabel("run")
        self.getAxis("left").setLabel("rate")
        self.getAxis("left").setTicks([[(v, f"{v:g}") for v in (0, 0.25, 0.5, 0.75, 1)]])
        self.setYRange(0, self.TOP, padding=0)
        self.getViewBox().setMouseEnabled(x=False, y=False)
        # Median steps on a view box of its own, drawn over the main one and sharing its x axis.
        self.steps_box = pg.ViewBox(enableMouse=False)
        plot.showAxis("right")
        plot.scene().addItem(self.steps_box)
        plot.getAxis("right").linkToView(self.steps_box)
        plot.getAxis("right").setLabel("steps", color="#2563eb")
        self.steps_box.setXLink(plot)
        plot.vb.sigResized.connect(self._fit_steps_box)
        self.lines: dict[str, pg.PlotDataItem] = {}
        self.setToolTip(self.TIP)
        for key, title, colour in self.SERIES:
            style = Qt.PenStyle.DashLine if key == self.DASHED else Qt.PenStyle.SolidLine
            line = pg.PlotDataItem([], [], pen=pg.mkPen(colour, width=2, style=style), symbol="o", symbolSize=6,
                                   symbolBrush=colour, name=title)
            if key == self.RIGHT:
                self.steps_box.addItem(line)
            else:
                plot.addItem(line)
            self.lines[key] = line
        self.values: dict[str, list[float | None]] = {key: [] for key, _t, _c in self.SERIES}

    def _fit_steps_box(self) -> None:
        self.steps_box.setGeometry(self.getPlotItem().vb.sceneBoundingRect())
        self.steps_box.linkedViewChanged(self.getPlotItem().vb, self.steps_box.XAxis)

    def show_trend(self, per_run: Sequence[dict[str, Any]]) -> None:
        """`per_run`: one metrics dict (summary.scenario_metrics' shape) per run, oldest first."""
        for key, _title, _colour in self.SERIES:
            values = [m.get(key) for m in per_run]
            self.values[key] = values
            points = [(i + 1, float(v)) for i, v in enumerate(values) if v is not None]
            self.lines[key].setData([p[0] for p in points], [p[1] for p in points])
        self.getAxis("bottom").setTicks([[(i + 1, str(i + 1)) for i in range(len(per_run))]])
        self.setYRange(0, self.TOP, padding=0)
        steps = [v for v in self.values[self.RIGHT] if v is not None]
        self.steps_box.setYRange(0, max([*steps, 1.0]) * 1.15, padding=0)
        if per_run:
            self.setXRange(0.5, len(per_run) + 0.5, padding=0)
        self._fit_steps_box()


def edge_curve(start: tuple[float, float], end: tuple[float, float], back: bool,
               points: int = 13) -> tuple[list[float], list[float]]:
    """The points of an edge: straight between neighbouring columns; a step back bows below; an edge that skips
    columns (a shortcut) arches above the row, higher the more it skips, so it never lies on the edges it skips."""
    (x1, y1), (x2, y2) = start, end
    span = abs(x2 - x1) / COLUMN_GAP
    if back:
        lift = 0.35 + 0.15 * max(0.0, span - 1)
    elif span > 1.01:
        lift = -(0.45 + 0.25 * (span - 1))  # the y axis points down: negative is up
    else:
        lift = 0.0
    xs, ys = [], []
    for i in range(points):
        t = i / (points - 1)
        xs.append(x1 + (x2 - x1) * t)
        ys.append(y1 + (y2 - y1) * t + lift * 4 * t * (1 - t))
    return xs, ys


def _n(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _short(page: str) -> str:
    return page if len(page) <= 22 else page[:20] + "…"
