"""The run's per-scenario metrics from the log alone: the navigation graph (the runs' transitions and the graph the
studio built, the log's navGraph), its shortest paths, the seed's path optimality (shortest_path_steps /
actual_steps) and the studio's transition optimality (shortest / taken transitions) — values worked out by hand."""

from __future__ import annotations

import json

from studio.scenarios.navgraph import edges_in, merge, project_ui_map, ui_map_graph
from studio.scenarios.report import recomputed
from studio.scenarios.summary import (
    navigation_edges,
    path_optimality_of,
    scenario_metrics,
    shortest,
    shortest_path_steps,
    transition_optimality,
    transitions,
)


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
    # the studio's transition optimality: 1 transition needed, 3 taken
    assert transition_optimality(RUNS[0], edges) == round(1 / 3, 6) and transition_optimality(RUNS[1], edges) == 1.0
    # the seed's, in steps: run 0 took 3 steps with 2 transitions too many (1 step needed); run 1 needed its 1 step
    assert shortest_path_steps(RUNS[0], edges, RUNS) == 1 and shortest_path_steps(RUNS[1], edges, RUNS) == 1
    assert path_optimality_of(RUNS[0], edges, RUNS) == round(1 / 3, 6)
    assert path_optimality_of(RUNS[1], edges, RUNS) == 1.0
    metrics = scenario_metrics(RUNS)
    report = metrics["report"]
    assert report["runs"] == 2 and report["passRate"] == 1.0 and report["medianSteps"] == 2.0
    # clicks report×2, offers, home: shares 1/2, 1/4, 1/4 -> 1.5 bits
    assert report["clickEntropy"] == 1.5 and report["medianBacktracks"] == 0.5
    assert report["medianOptimality"] == round((1 / 3 + 1) / 2, 4)
    assert report["medianTransitionOptimality"] == round((1 / 3 + 1) / 2, 4)
    # the offer run stayed on /offers for a step: the seed's backtracks count it, page backtracks do not
    offer = metrics["offer"]
    assert offer["medianOptimality"] == 1.0 and offer["medianTransitionOptimality"] == 1.0
    assert offer["medianBacktracks"] == 1.0 and offer["medianPageBacktracks"] == 0.0


def test_the_seeds_optimality_counts_steps_where_the_transitions_count_pages():
    # A sign-in then the report: 6 steps, 2 transitions, and the graph knows no shorter route. 4 of the steps stay
    # on /login (typing, sending the form): they are needed steps, not detours.
    signed_in = end("report", ["/login"] * 5 + ["/dashboard", "/credit-report"], ["go", "verify", "report"], steps=6)
    edges = navigation_edges([signed_in])
    assert transition_optimality(signed_in, edges) == 1.0 and path_optimality_of(signed_in, edges) == 1.0
    # The same run where the crawl knows /login -> /credit-report: one transition was a detour, 5 of its 6 steps
    # were needed (the seed's 0.83), where the transitions score 1 of 2.
    shortcut = edges | {("/login", "/credit-report")}
    assert shortest_path_steps(signed_in, shortcut) == 5
    assert path_optimality_of(signed_in, shortcut) == round(5 / 6, 6) and transition_optimality(signed_in, shortcut) == 0.5
    # A second run of the task that needed fewer steps (no detour, 4 steps) sets the shortest for both runs.
    quicker = end("report", ["/login"] * 3 + ["/dashboard", "/credit-report"], ["go", "report"], steps=4)
    assert shortest_path_steps(signed_in, edges, [quicker]) == 4
    assert path_optimality_of(signed_in, edges, [quicker]) == round(4 / 6, 6)
    # ...but not a run of another task: another start page, a signed-in start, or another scenario
    for other in ({**quicker, "urlHistory": ["/help", "/credit-report"]}, {**quicker, "reusedSession": True},
                  {**quicker, "scenarioId": "offer"}, {**quicker, "status": "failure"}):
        assert shortest_path_steps(signed_in, edges, [other]) == 6
    # a run that failed has no optimality; one that started at its goal and took no step is optimal
    assert path_optimality_of({**signed_in, "status": "failure"}, edges) is None
    assert path_optimality_of(end("report", ["/credit-report"], [], steps=0), edges) == 1.0


def test_recomputing_from_a_log_finds_a_run_that_wrote_other_numbers():
    records = [*(json.loads(json.dumps(r)) for r in RUNS),
               {"type": "run_end", "scenarioMetrics": scenario_metrics(RUNS)}]
    assert recomputed(records)[1] == []
    records[-1]["scenarioMetrics"]["offer"]["clickEntropy"] = 0.5
    [difference] = recomputed(records)[1]
    assert difference.startswith("offer: recomputed {") and "'clickEntropy': 1.0" in difference


# -- the navigation graph the studio builds (navgraph.py) joined with the runs' transitions ----------------------

CRAWLED = {"navGraph": {"sources": ["crawl"], "pages": ["/dashboard", "/offers", "/offers/1", "/login"],
                        "edges": [["/dashboard", "/offers/1"], ["/login", "/login"], ["/offers/1", "/dashboard"]]}}


def test_the_crawled_graph_joins_the_runs_transitions():
    crawled = edges_in([CRAWLED, {"type": "run_end"}])
    assert crawled == {("/dashboard", "/offers/1"), ("/offers/1", "/dashboard")}  # no self-loop
    assert merge(crawled, {("/a", "/b"), ("/b", "/b")}) == crawled | {("/a", "/b")}
    joined = navigation_edges(RUNS, crawled)
    assert joined == set(transitions(RUNS)) | crawled
    # the offer run took /dashboard -> /offers -> /offers/1 (2 transitions); the crawl knows a 1-transition route
    assert shortest(joined, "/dashboard", "/offers/1") == 1
    assert transition_optimality(RUNS[2], joined) == 0.5


def test_one_run_has_an_optimality_below_one_when_the_crawl_knows_a_shorter_route():
    alone = [RUNS[2]]
    assert scenario_metrics(alone)["offer"]["medianOptimality"] == 1.0  # its own path is all it knows
    crawled = scenario_metrics(alone, edges_in([CRAWLED]))["offer"]
    # 3 steps, one transition a detour: 2 of 3 steps needed; 1 of its 2 transitions
    assert crawled["medianOptimality"] == 0.6667 and crawled["medianTransitionOptimality"] == 0.5


def test_the_report_recomputes_with_the_logged_graph():
    records = [{"type": "run_start", **CRAWLED}, *(json.loads(json.dumps(r)) for r in RUNS),
               {"type": "run_end", "scenarioMetrics": scenario_metrics(RUNS, edges_in([CRAWLED]))}]
    metrics, differences = recomputed(records)
    assert differences == [] and metrics["offer"]["medianOptimality"] == 0.6667
    # a log whose run_end was computed without the graph differs from the recomputation with it
    records[-1]["scenarioMetrics"] = scenario_metrics(RUNS)
    [difference] = recomputed(records)[1]
    assert difference.startswith("offer:")


def test_the_ui_map_of_a_preflight_gives_its_pages_links():
    cached = {"ui_map": {"top_nav": ["Offers"], "key_pages": [{"name": "Offers", "url": "/offers",
                                                                 "how_to_reach": "Top nav › Offers"}]},
              "catalogs": [{"path": "/", "nav": [{"href": "/offers"}, {"href": "https://elsewhere.example/x"},
                                                 {"href": "/logout"}, {"href": "/"}]},
                           {"path": "/offers", "nav": [{"href": "/offers/1?from=nav"}, {"href": "/"}]}]}
    graph = ui_map_graph(cached)
    assert graph.edges == {("/", "/offers"), ("/offers", "/offers/1"), ("/offers", "/")}
    assert graph.pages == {"/", "/offers", "/offers/1"} and graph.sources == ["preflight UI map"]


def test_a_project_file_gives_the_ui_map_cached_for_the_apps_origin(tmp_path):
    from studio.store.project import ProjectFile

    path = tmp_path / "app.studio"
    with ProjectFile.create(path) as project:
        project.jobs.cache_site("http://127.0.0.1:8123", "http://127.0.0.1:8123/", {
            "ui_map": {"top_nav": ["Help"], "key_pages": []},
            "catalogs": [{"path": "/", "nav": [{"href": "/help"}]}, {"path": "/help", "nav": [{"href": "/"}]}]})
    graph = project_ui_map(str(path), "http://127.0.0.1:8123/app")
    assert graph is not None and graph.edges == {("/", "/help"), ("/help", "/")}
    assert project_ui_map(str(path), "http://127.0.0.1:9999/") is None  # another origin: no map
