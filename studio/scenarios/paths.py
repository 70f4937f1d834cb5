"""The navigation path tree of a scenario's runs (seed 004): pages as nodes laid out by distance from the start
pages, transitions as edges weighted by how often the runs made them, steps back marked, and the shortest path to
the goal. The HTML report draws it as SVG and the studio with pyqtgraph, from this one layout."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from studio.scenarios.metrics import visits
from studio.scenarios.summary import Edge, navigation_edges, shortest_path, transitions


@dataclass
class PathTree:
    edges: Counter[Edge]  # (from page, to page) -> times taken
    depth: dict[str, int]  # page -> distance from the nearest start page
    columns: dict[int, list[str]]  # depth -> pages at it, in name order
    starts: list[str]
    goals: list[str]  # where successful runs ended
    best: set[Edge] = field(default_factory=set)  # the edges of the shortest paths from a start to a goal (in the
    # navigation graph: a crawled edge no run took is in `edges` with a count of 0)
    seen: Counter[str] = field(default_factory=Counter)  # page -> visits over all runs

    def is_backtrack(self, edge: Edge) -> bool:
        """A step to a page as near the start as the one left, or nearer."""
        return self.depth[edge[1]] <= self.depth[edge[0]]

    def row(self, page: str) -> int:
        return self.columns[self.depth[page]].index(page)


def path_tree(ends: Iterable[dict[str, Any]], graph: Iterable[Edge] = ()) -> PathTree:
    """The layout of the runs' scenario_end records (their urlHistory and status); shortest paths are searched in
    `graph` (the crawled navigation graph) with the runs' own transitions."""
    ends = list(ends)
    counted = transitions(ends)
    starts = sorted({(e.get("urlHistory") or ["/"])[0] for e in ends})
    goals = sorted({(e.get("urlHistory") or ["/"])[-1] for e in ends if e.get("status") == "success"})
    searched = navigation_edges(ends, graph)
    best: set[Edge] = set()
    for start in starts:
        for goal in goals:
            path = shortest_path(searched, start, goal)
            if path is not None:
                best |= set(zip(path, path[1:]))
    for edge in best - set(counted):
        counted[edge] = 0  # on a shortest path, taken by no run
    # Laid out by the runs' own transitions (a crawled shortcut no run took must not make a forward step look like
    # a step back), then the pages only the navigation graph reaches.
    depth: dict[str, int] = {s: 0 for s in starts}
    frontier = list(starts)
    taken = sorted(edge for edge, n in counted.items() if n > 0)
    while frontier:
        following = []
        for page in frontier:
            for a, b in taken:
                if a == page and b not in depth:
                    depth[b] = depth[page] + 1
                    following.append(b)
        frontier = following
    for a, b in [*taken, *sorted(counted)]:
        depth.setdefault(a, 0)
        depth.setdefault(b, depth[a] + 1)
    columns: dict[int, list[str]] = defaultdict(list)
    for page in sorted(depth, key=lambda p: (depth[p], p)):
        columns[depth[page]].append(page)
    seen: Counter[str] = Counter(p for e in ends for p in visits(e.get("urlHistory") or []))
    return PathTree(counted, depth, dict(columns), starts, goals, best, seen)
