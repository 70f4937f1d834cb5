"""The run's JSONL log (seed 004): run_start, scenario_start, step, scenario_end, run_end, one JSON object a line,
with the seed's field names. Deterministic apart from timestamps (and durations): keys in a fixed order, no ids
drawn at random except the run's own.

A scenario_end's `metrics` hold the seed's `entropy`, `backtracks` and `optimality` (formulas in metrics.py and
summary.py), then `ttfa`, `hints`, `tokens` and the studio's own `pageBacktracks` and `transitionOptimality`.

Besides the seed's fields: `runNumber` (the n-th run of a scenario in this batch, on scenario_start, step and
scenario_end, so that the steps of runs going on at once are told apart), a step's `screenshot` and a
scenario_end's `screenshots`, `trace` and `domSnapshot` (paths relative to the log's folder, present only when taken),
a step's `blocked` (what stood in the way of its action: a sentence and the race preflight's facts), a scenario_end's
`browser` (where its page ran: a browser server's endpoint, a local browser's path, an MCP-Web server) and, when a
first try was lost with its browser and the run was tried once more elsewhere, a `scenario_retry` record between the
two tries (the lost try's browser, why, its steps so far) and the end's `retriedFrom` (the browser it was lost on)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from studio.scenarios.observe import Observation
    from studio.scenarios.planner import Action
    from studio.scenarios.runner import ScenarioResult


def timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class RunLog:
    """Appends records to `path` (flushed at once: a stopped run keeps what finished)."""

    def __init__(self, path: Path, run_id: str, sink: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.path, self.run_id = path, run_id
        self.sink = sink  # also given every record as written (the studio keeps them in the project file)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("a", encoding="utf-8")
        self._lock = threading.Lock()
        self.ended: list[dict[str, Any]] = []  # the scenario_end records, for the run's metrics
        self.nav_edges: set[tuple[str, str]] = set()  # the edges of every navGraph written, for the same

    def write(self, record: dict[str, Any]) -> None:
        stamped = {**record, "timestamp": timestamp()}
        line = json.dumps(stamped, ensure_ascii=False)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()
            if self.sink is not None:
                self.sink(json.loads(line))

    def close(self) -> None:
        self._file.close()

    def run_start(self, scenario_ids: list[str], nav_graph: dict[str, Any] | None = None) -> None:
        """`nav_graph` (navgraph.NavGraph.as_json()): the navigation graph the studio built before the scenarios."""
        record: dict[str, Any] = {"type": "run_start", "runId": self.run_id, "scenarios": scenario_ids}
        self._graph(record, nav_graph)
        self.write(record)

    def _graph(self, record: dict[str, Any], nav_graph: dict[str, Any] | None) -> None:
        from studio.scenarios.navgraph import edges_in

        if nav_graph is not None:
            record["navGraph"] = nav_graph
            self.nav_edges |= edges_in([record])

    def scenario_start(self, scenario_id: str, run_number: int = 1) -> None:
        self.write({"type": "scenario_start", "scenarioId": scenario_id, "runNumber": run_number})

    def step(self, number: int, action: Action, observation: Observation, reasoning: str, hints: list[str],
             scenario_id: str = "", run_number: int = 1, screenshot: str | None = None,
             blocked: dict[str, Any] | None = None) -> None:
        record: dict[str, Any] = {"type": "step", "step": number, "action": action.as_json(),
                                  "observation": {"url": observation.url, "nodeCount": len(observation.nodes)}}
        if scenario_id:
            record["scenarioId"] = scenario_id
            record["runNumber"] = run_number
        if reasoning:
            record["reasoning"] = reasoning
        if hints:
            record["hintsUsed"] = len(hints)
        if blocked is not None:
            record["blocked"] = blocked
        if screenshot is not None:
            record["screenshot"] = screenshot
        self.write(record)

    def scenario_end(self, scenario_id: str, result: ScenarioResult) -> None:
        record: dict[str, Any] = {
            "type": "scenario_end", "scenarioId": scenario_id, "status": result.status, "steps": result.steps,
            "duration": result.duration, "metrics": result.metrics(), "cost": result.cost, "tokens": result.tokens,
            "message": result.message, "clicks": result.clicks, "urlHistory": result.url_history,
            "hintsUsed": result.hints_used, "reusedSession": result.reused_session, "runNumber": result.run_number}
        if result.browser is not None:
            record["browser"] = result.browser
        if result.retried_from is not None:
            record["retriedFrom"] = result.retried_from
        if result.screenshots:
            record["screenshots"] = list(result.screenshots)
        if result.trace is not None:
            record["trace"] = result.trace
        if result.dom_snapshot is not None:
            record["domSnapshot"] = result.dom_snapshot
        self._optimalities(record)
        # What run_end's metrics are computed from: the record as the log will hold it (JSON types).
        self.ended.append(json.loads(json.dumps(record)))
        self.write(record)

    def _optimalities(self, record: dict[str, Any]) -> None:
        """The run's path optimality (the seed's) and transition optimality, as known when it ended: on the graph
        written so far and the transitions of the runs ended so far, this one included (run_end's medians are
        computed again over the whole run, so they may know shorter routes)."""
        from studio.scenarios.summary import navigation_edges, path_optimality_of, transition_optimality

        end = json.loads(json.dumps(record))
        runs = [*self.ended, end]
        edges = navigation_edges(runs, self.nav_edges)
        record["metrics"]["optimality"] = path_optimality_of(end, edges, self.ended)
        record["metrics"]["transitionOptimality"] = transition_optimality(end, edges)

    def scenario_retry(self, scenario_id: str, lost: ScenarioResult) -> None:
        """A try lost with its browser, run once more on another one (its steps are not the run's)."""
        self.write({"type": "scenario_retry", "scenarioId": scenario_id, "runNumber": lost.run_number,
                    "browser": lost.browser, "message": lost.message, "steps": lost.steps})

    def run_end(self, pass_rate: float, total_duration: float, nav_graph: dict[str, Any] | None = None) -> None:
        """`nav_graph`: the whole graph when the scenarios' end added to it (a signed-in crawl)."""
        from studio.scenarios.summary import scenario_metrics

        record: dict[str, Any] = {"type": "run_end", "runId": self.run_id, "passRate": round(pass_rate, 4),
                                  "totalDuration": round(total_duration, 2)}
        self._graph(record, nav_graph)
        record["scenarioMetrics"] = scenario_metrics(self.ended, self.nav_edges)
        self.write(record)
