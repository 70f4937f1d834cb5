"""The goal scenarios' charts (pyqtgraph): the path tree of a scenario across its runs — pages as nodes by distance
from the start, transitions as edges as thick as they are frequent, the shortest path to the goal green, steps back
red and dashed; click a page to see its visits and the runs that passed it — and the metric trends across runs
(pass rate, median steps, path optimality).

Both keep their plot items and update them in place (setData), never rebuilding the widgets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPen

from studio.scenarios.paths import PathTree, path_tree

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
            pen.setWidthF(1.0 + 5.0 * count / top)
            pen.setCosmetic(True)
            if count == 0:
                pen.setStyle(Qt.PenStyle.DotLine)  # on the shortest path, taken by no run
            elif back and not best:
                pen.setStyle(Qt.PenStyle.DashLine)
            bend = 0.35 if back else 0.0  # a step back curves below the forward edges it would hide
            xs = [x1, (x1 + x2) / 2, x2]
            ys = [y1, (y1 + y2) / 2 + bend, y2]
            item = pg.PlotDataItem(xs, ys, pen=pen)
            item.setToolTip(f"{edge[0]} → {edge[1]}: taken {count} time(s)" + (" (found by the crawl)" if not count
                                                                                   else "")
                            + (" — on the shortest path" if best else " — a step back" if back else ""))
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
            self.setXRange(min(xs) - 1.2, max(xs) + 1.8, padding=0)
            self.setYRange(min(ys) - 0.8, max(ys) + 1.2, padding=0)
        return tree

    def describe(self, page: str) -> str:
        tree = self.tree
        if tree is None or page not in tree.depth:
            return ""
        into = sum(n for (a, b), n in tree.edges.items() if b == page)
        out = sum(n for (a, b), n in tree.edges.items() if a == page)
        kind = "the start page" if page in tree.starts else "a goal page" if page in tree.goals else "a page"
        return (f"{page}: {kind}, {tree.seen[page]} visit(s), {tree.depth[page]} step(s) from the start; "
                f"reached {into} time(s), left {out} time(s).")

    def _clicked(self, _item, points, *_args) -> None:
        if len(points):
            self.selected = str(points[0].data())
            self.pageClicked.emit(self.selected)


class MetricTrends(pg.PlotWidget):
    """Pass rate, median steps and median path optimality of a scenario across the project's runs."""

    SERIES = (("passRate", "Pass rate", "#16a34a"), ("medianSteps", "Median steps", "#2563eb"),
              ("medianOptimality", "Path optimality", "#ea580c"))

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Metric trends")
        self.setMinimumHeight(120)
        self.setMenuEnabled(False)
        self.addLegend(offset=(6, 4))
        self.getAxis("bottom").setLabel("run")
        self.lines: dict[str, pg.PlotDataItem] = {}
        for key, title, colour in self.SERIES:
            self.lines[key] = self.plot([], [], pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6,
                                        symbolBrush=colour, name=title)
        self.values: dict[str, list[float | None]] = {key: [] for key, _t, _c in self.SERIES}

    def show_trend(self, per_run: Sequence[dict[str, Any]]) -> None:
        """`per_run`: one metrics dict (summary.scenario_metrics' shape) per run, oldest first."""
        for key, _title, _colour in self.SERIES:
            values = [m.get(key) for m in per_run]
            self.values[key] = values
            points = [(i + 1, float(v)) for i, v in enumerate(values) if v is not None]
            self.lines[key].setData([p[0] for p in points], [p[1] for p in points])
        self.getAxis("bottom").setTicks([[(i + 1, str(i + 1)) for i in range(len(per_run))]])
        if per_run:
            self.setXRange(0.5, len(per_run) + 0.5, padding=0)


def _short(page: str) -> str:
    return page if len(page) <= 22 else page[:20] + "…"
