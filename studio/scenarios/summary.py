"""The metrics of a run, per scenario, from its scenario_end records alone — so the live run (which writes them into
run_end) and `studio report RUN.jsonl` (which reads them back from the log) compute them the same way.

Both optimalities need a shortest path: it comes from the navigation graph — the edges the studio found itself (a
crawl of the app, the preflight's UI map: the log's `navGraph`, see navgraph.py) together with every page-to-page
transition any run of any scenario made (pages as nodes) — searched breadth-first from the scenario's start page to
the page where a successful run ended.

- path optimality (the seed's `optimality`, scenarioMetrics' `medianOptimality`): shortest_path_steps /
  actual_steps, counted in steps as the run's `steps` are (typing into a sign-in form is a step). The shortest
  number of steps is the fewest any successful run of the same task needed — same scenario, start page, goal page
  and session reuse — once its detours are taken off: a run's steps less the page transitions it made beyond the
  graph's shortest path. One run alone is measured against itself less its detours; more runs (--repeat) sharpen it.
- transition optimality (`transitionOptimality`, `medianTransitionOptimality`; the studio's): shortest transitions
  / the run's transitions (1.0 when both are 0) — navigation alone.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Collection, Iterable
from typing import Any

from studio.scenarios.metrics import (
    backtracks,
    click_entropy,
    median,
    page_backtracks,
    path_optimality,
    token_efficiency,
    visits,
)

Edge = tuple[str, str]


def transitions(ends: Iterable[dict[str, Any]]) -> Counter[Edge]:
    """How often each page-to-page transition was made, over every run."""
    counted: Counter[Edge] = Counter()
    for end in ends:
        pages = visits(end.get("urlHistory") or [])
        counted.update(zip(pages, pages[1:]))
    return counted


def shortest_path(edges: Iterable[Edge], start: str, goal: str) -> list[str] | None:
    """The pages of a shortest path from `start` to `goal` (breadth-first, neighbours in name order), or None."""
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    came: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        page = queue.popleft()
        if page == goal:
            path = [page]
            while (before := came[path[-1]]) is not None:
                path.append(before)
            return path[::-1]
        for nxt in sorted(graph[page] - set(came)):
            came[nxt] = page
            queue.append(nxt)
    return None


def shortest(edges: Iterable[Edge], start: str, goal: str) -> int | None:
    """Transitions on the shortest path from `start` to `goal` in the graph (None when unreachable)."""
    path = shortest_path(edges, start, goal)
    return None if path is None else len(path) - 1


def transition_optimality(end: dict[str, Any], edges: Iterable[Edge]) -> float | None:
    """The studio's transition optimality of a successful run: shortest / taken page transitions (None otherwise)."""
    pages = visits(end.get("urlHistory") or [])
    if end.get("status") != "success" or not pages:
        return None
    best = shortest(edges, pages[0], pages[-1])
    taken = len(pages) - 1
    if best == 0 and taken == 0:
        return 1.0
    return path_optimality(best, taken)


def _task(end: dict[str, Any]) -> tuple[Any, ...] | None:
    """What a successful run set out to do: its scenario, start page, goal page and whether it began signed in."""
    pages = end.get("urlHistory") or []
    if end.get("status") != "success" or not pages:
        return None
    return end.get("scenarioId"), pages[0], pages[-1], bool(end.get("reusedSession"))


def shortest_path_steps(end: dict[str, Any], edges: Iterable[Edge],
                        runs: Iterable[dict[str, Any]] = ()) -> int | None:
    """The seed's shortest_path_steps for a successful run: the fewest steps any successful run of the same task
    (`end` and those of `runs`) needed once its detours — the page transitions it made beyond the graph's shortest
    path — are taken off; None for a run that did not succeed."""
    task = _task(end)
    if task is None:
        return None
    best = shortest(edges, task[1], task[2])  # every run of the task has the same start and goal pages
    if best is None:
        return None
    needed = []
    for run in [end, *runs]:
        if _task(run) == task:
            detours = max(0, len(visits(run.get("urlHistory") or [])) - 1 - best)
            needed.append(max(0, int(run.get("steps", 0) or 0) - detours))
    return min(needed)


def path_optimality_of(end: dict[str, Any], edges: Iterable[Edge],
                       runs: Iterable[dict[str, Any]] = ()) -> float | None:
    """The seed's path optimality of a run: shortest_path_steps / actual_steps (a success with no step: 1.0;
    None for a run that did not succeed)."""
    best = shortest_path_steps(end, edges, runs)
    steps = int(end.get("steps", 0) or 0)
    if best is not None and steps == 0:
        return 1.0
    return path_optimality(best, steps)


def run_metrics(end: dict[str, Any], edges: Collection[Edge], runs: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    """One run's metrics from its scenario_end record, as the Scenarios workspace shows them: the seed's `entropy`,
    `backtracks` and `optimality` with the `shortestPathSteps` it divides, then the studio's `pageBacktracks` and
    `transitionOptimality` with the `shortestTransitions` and `transitions` it divides (None where unknown)."""
    history = end.get("urlHistory") or []
    pages = visits(history)
    passed = end.get("status") == "success" and bool(pages)
    runs = list(runs)
    return {"entropy": click_entropy(end.get("clicks") or []), "backtracks": backtracks(history),
            "optimality": path_optimality_of(end, edges, runs),
            "shortestPathSteps": shortest_path_steps(end, edges, runs), "steps": int(end.get("steps", 0) or 0),
            "pageBacktracks": page_backtracks(history),
            "transitionOptimality": transition_optimality(end, edges),
            "shortestTransitions": shortest(edges, pages[0], pages[-1]) if passed else None,
            "transitions": max(0, len(pages) - 1)}


def navigation_edges(ends: Iterable[dict[str, Any]], graph: Iterable[Edge] = ()) -> set[Edge]:
    """The graph shortest paths are searched in: the given (crawled) edges and the runs' own transitions."""
    return {(a, b) for a, b in [*graph, *transitions(ends)] if a != b}


def scenario_metrics(ends: list[dict[str, Any]], graph: Iterable[Edge] = ()) -> dict[str, dict[str, Any]]:
    """Per scenario id: runs, pass rate, median steps and duration, click entropy over all its runs, median
    backtracks and median path optimality (the seed's), median time to first action, hints used, tokens per success;
    and the studio's median page backtracks and median transition optimality."""
    edges = navigation_edges(ends, graph)
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for end in ends:
        grouped[str(end.get("scenarioId"))].append(end)
    found: dict[str, dict[str, Any]] = {}
    for scenario_id, runs in sorted(grouped.items()):
        successes = sum(1 for r in runs if r.get("status") == "success")
        optimalities = [o for r in runs if (o := path_optimality_of(r, edges, runs)) is not None]
        by_transitions = [o for r in runs if (o := transition_optimality(r, edges)) is not None]
        ttfas = [r["metrics"]["ttfa"] for r in runs if (r.get("metrics") or {}).get("ttfa") is not None]
        found[scenario_id] = {
            "runs": len(runs),
            "passRate": round(successes / len(runs), 4),
            "medianSteps": median([float(r.get("steps", 0)) for r in runs]),
            "medianDuration": median([float(r.get("duration", 0)) for r in runs]),
            "clickEntropy": click_entropy(c for r in runs for c in r.get("clicks") or []),
            "medianBacktracks": median([float(backtracks(r.get("urlHistory") or [])) for r in runs]),
            "medianOptimality": _rounded(median(optimalities)),
            "medianTtfa": median(ttfas),
            "hintsUsed": sum(len(r.get("hintsUsed") or []) for r in runs),
            "tokenEfficiency": token_efficiency(sum(int(r.get("tokens", 0) or 0) for r in runs), successes,
                                                len(runs)),
            "medianPageBacktracks": median([float(page_backtracks(r.get("urlHistory") or [])) for r in runs]),
            "medianTransitionOptimality": _rounded(median(by_transitions)),
        }
    return found


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
