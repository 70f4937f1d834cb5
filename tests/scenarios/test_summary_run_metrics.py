"""One run's metrics as the Scenarios workspace shows them (summary.run_metrics): seed 004's entropy, backtracks and
optimality under the seed's names, the studio's page backtracks and transition optimality beside them, with what each
optimality divides; and no name left that reads the studio's measure as "optimality" — values worked out by hand."""

from __future__ import annotations

from studio.scenarios import summary
from studio.scenarios.metrics import click_entropy
from studio.scenarios.summary import navigation_edges, run_metrics


def end(pages: list[str], steps: int, status: str = "success", clicks: tuple[str, ...] = ("go", "report")) -> dict:
    return {"type": "scenario_end", "scenarioId": "report", "status": status, "steps": steps, "duration": 2.0,
            "clicks": list(clicks), "urlHistory": pages, "hintsUsed": [], "tokens": 0}


def test_a_runs_metrics_are_the_seeds_with_the_studios_beside_them():
    # 8 steps on /login (typing, sending the form), then the dashboard and a detour through /offers to the report;
    # the crawl knows /dashboard -> /credit-report
    history = ["/login"] * 8 + ["/dashboard", "/offers", "/credit-report"]
    run = end(history, steps=10)
    edges = navigation_edges([run], [("/dashboard", "/credit-report")])
    metrics = run_metrics(run, edges)
    # the seed's: 7 backtracks on /login; 3 transitions where 2 do, so 9 of the 10 steps were needed
    assert metrics["backtracks"] == 7 and metrics["shortestPathSteps"] == 9 and metrics["steps"] == 10
    assert metrics["optimality"] == 0.9
    assert metrics["entropy"] == click_entropy(["go", "report"]) == 1.0
    # the studio's: no page left and returned to; 2 of the 3 page transitions
    assert metrics["pageBacktracks"] == 0
    assert (metrics["shortestTransitions"], metrics["transitions"]) == (2, 3)
    assert metrics["transitionOptimality"] == round(2 / 3, 6)
    # another passing run of the same task in the batch that needed 8 steps sets the seed's shortest
    quicker = end(["/login"] * 6 + ["/dashboard", "/credit-report"], steps=8)
    assert run_metrics(run, edges, [run, quicker])["optimality"] == 0.8


def test_a_run_that_did_not_pass_has_no_optimality():
    failed = run_metrics(end(["/login", "/login", "/dashboard"], steps=2, status="failure"), set())
    assert failed["optimality"] is None and failed["shortestPathSteps"] is None
    assert failed["transitionOptimality"] is None and failed["shortestTransitions"] is None
    assert failed["backtracks"] == 1 and failed["pageBacktracks"] == 0


def test_optimality_names_only_the_seeds_measure():
    # the alias that made the Scenarios workspace show transition optimality as "optimality" is gone
    assert not hasattr(summary, "run_optimality")
