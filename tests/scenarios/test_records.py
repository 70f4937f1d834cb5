"""The scenario_end record carries the run's own path optimality (seed 004's `metrics.optimality`) beside the seed's
entropy and backtracks and the studio's page backtracks and transition optimality, as known when the run ended;
run_end's medians are computed again over the whole run."""

from __future__ import annotations

import json

import pytest

from studio.scenarios.records import RunLog
from studio.scenarios.runner import ScenarioResult

SIGN_IN = ["/login"] * 5 + ["/dashboard", "/credit-report"]  # four steps on /login, then two pages
CRAWLED = {"sources": ["crawl"], "pages": ["/login", "/credit-report"], "edges": [["/login", "/credit-report"]]}


def result(steps: int, history: list[str], clicks: list[str], number: int) -> ScenarioResult:
    return ScenarioResult("login-and-open-credit-report", status="success", steps=steps, duration=4.5,
                          url_history=history, clicks=clicks, ttfa=1.2, run_number=number)


def test_each_scenario_end_has_its_optimality_and_run_end_recomputes_the_medians(tmp_path):
    path = tmp_path / "results.jsonl"
    log = RunLog(path, "run_test")
    log.run_start(["login-and-open-credit-report"], CRAWLED)
    log.scenario_start("login-and-open-credit-report", 1)
    log.scenario_end("login-and-open-credit-report",
                     result(6, SIGN_IN, ["login-button", "verify-button", "nav-credit-report"], 1))
    log.scenario_start("login-and-open-credit-report", 2)
    log.scenario_end("login-and-open-credit-report", result(4, ["/login"] * 4 + ["/credit-report"],
                                                            ["login-button", "report-link"], 2))
    log.run_end(1.0, 10.0)
    log.close()
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    first, second = [r for r in records if r["type"] == "scenario_end"]

    metrics = first["metrics"]
    assert list(metrics)[:3] == ["entropy", "backtracks", "optimality"]  # the seed's, first
    # 6 steps, one transition a detour (the crawl knows /login -> /credit-report): 5 steps needed, the seed's 0.83
    assert metrics["optimality"] == pytest.approx(5 / 6, abs=1e-6)
    assert metrics["transitionOptimality"] == 0.5  # 1 transition needed of the 2 taken
    assert metrics["backtracks"] == 4 and metrics["pageBacktracks"] == 0  # four more steps on /login
    assert metrics["entropy"] == pytest.approx(1.584963)  # three clicks on three elements: log2 3
    assert isinstance(metrics["optimality"], float)

    # the second run needed 4 steps, no detour: optimal; the first keeps what was known when it ended
    assert second["metrics"]["optimality"] == 1.0 and second["metrics"]["transitionOptimality"] == 1.0
    # run_end knows both runs: the first needed at most 4 of its 6 steps
    scenario = records[-1]["scenarioMetrics"]["login-and-open-credit-report"]
    assert scenario["medianOptimality"] == round((4 / 6 + 1) / 2, 4)
    assert scenario["medianTransitionOptimality"] == 0.75
    assert scenario["medianBacktracks"] == 3.5 and scenario["medianPageBacktracks"] == 0.0


def test_a_run_that_failed_has_no_optimality(tmp_path):
    path = tmp_path / "results.jsonl"
    log = RunLog(path, "run_test")
    failed = result(3, ["/login"] * 4, ["login-button"], 1)
    failed.status = "failure"
    log.scenario_end("login-and-open-credit-report", failed)
    log.close()
    [record] = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert record["metrics"]["optimality"] is None and record["metrics"]["transitionOptimality"] is None
    assert record["metrics"]["backtracks"] == 3
