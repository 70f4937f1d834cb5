"""The run's per-scenario metrics from scenario_end records alone: the navigation graph, its shortest paths, and
path optimality as shortest / taken transitions — values worked out by hand."""

from __future__ import annotations

import json

from studio.scenarios.report import recomputed
from studio.scenarios.summary import run_optimality, scenario_metrics, shortest, transitions


def end(scenario_id: str, pages: list[str], clicks: list[str], status: str = "success", steps: int = 3) -> dict:
    return {"type": "scenario_end", "scenarioId": scenario_id, "status": status, "steps": steps, "duration": 2.0,
            "clicks": clicks, "urlHistory": pages, "hintsUsed": [], "tokens": 0, "metrics": {"ttfa": 1.0}}


RUNS = [end("report", ["/dashboard", "/offers", "/dashboard", "/credit-report"], ["offers", "home", "report"]),
        end("report", ["/dashboard", "/credit-report"], ["report"], steps=1),
        end("offer", ["/dashboard", "/offers", "/offers", "/offers/1"], ["offers", "learn"])]


def test_the_graph_and_its_shortest_paths():
    edges = transitions(RUNS)
    assert edges == {("/dashboard", "/offers"): 2, ("/offers", "/dashboard"): 1,
                     ("/dashboard", "/credit-report"): 2, ("/offers", "/offers/1"): 1}
    assert shortest(edges, "/dashboard", "/credit-report") == 1
    assert shortest(edges, "/dashboard", "/offers/1") == 2 and shortest(edges, "/offers/1", "/dashboard") is None


def test_optimality_and_the_per_scenario_metrics():
    edges = list(transitions(RUNS))
    assert run_optimality(RUNS[0], edges) == round(1 / 3, 6)  # 1 transition needed, 3 taken
    assert run_optimality(RUNS[1], edges) == 1.0
    metrics = scenario_metrics(RUNS)
    report = metrics["report"]
    assert report["runs"] == 2 and report["passRate"] == 1.0 and report["medianSteps"] == 2.0
    # clicks report×2, offers, home: shares 1/2, 1/4, 1/4 -> 1.5 bits
    assert report["clickEntropy"] == 1.5 and report["medianBacktracks"] == 0.5
    assert report["medianOptimality"] == round((1 / 3 + 1) / 2, 4)
    assert metrics["offer"]["medianOptimality"] == 1.0 and metrics["offer"]["medianBacktracks"] == 0.0


def test_recomputing_from_a_log_finds_a_run_that_wrote_other_numbers():
    records = [*(json.loads(json.dumps(r)) for r in RUNS),
               {"type": "run_end", "scenarioMetrics": scenario_metrics(RUNS)}]
    assert recomputed(records)[1] == []
    records[-1]["scenarioMetrics"]["offer"]["clickEntropy"] = 0.5
    [difference] = recomputed(records)[1]
    assert difference.startswith("offer: recomputed {") and "'clickEntropy': 1.0" in difference
