"""The run's per-scenario metrics from the log alone: the navigation graph (the runs' transitions and the graph the
studio built, the log's navGraph), its shortest paths, and path optimality as shortest / taken transitions — values
worked out by hand."""

from __future__ import annotations

import json

from studio.scenarios.navgraph import edges_in, merge, project_ui_map, ui_map_graph
from studio.scenarios.report import recomputed
from studio.scenarios.summary import navigation_edges, run_optimality, scenario_metrics, shortest, transitions


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
    assert run_optimality(RUNS[2], joined) == 0.5


def test_one_run_has_an_optimality_below_one_when_the_crawl_knows_a_shorter_route():
    alone = [RUNS[2]]
    assert scenario_metrics(alone)["offer"]["medianOptimality"] == 1.0  # its own path is all it knows
    assert scenario_metrics(alone, edges_in([CRAWLED]))["offer"]["medianOptimality"] == 0.5


def test_the_report_recomputes_with_the_logged_graph():
    records = [{"type": "run_start", **CRAWLED}, *(json.loads(json.dumps(r)) for r in RUNS),
               {"type": "run_end", "scenarioMetrics": scenario_metrics(RUNS, edges_in([CRAWLED]))}]
    metrics, differences = recomputed(records)
    assert differences == [] and metrics["offer"]["medianOptimality"] == 0.5
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
