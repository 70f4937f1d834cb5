"""Issue 22, the Scenarios workspace on a tester's second day, at 1366×768: a run says before it starts which base URL
it goes to (the live page's origin, or the one set for the folder and remembered for it); a scenario that failed says
why on the line under its name, with the table fitting its dock; the progress line ends with the run's counts; the
previous run's banner goes when the next run starts; choosing a scenario in the list shows its paths; a folder
opened from another workspace is shown, its subfolders as groups. And the Scenario Paths charts: rates and steps on
axes of their own, the shorter route the optimalities are measured against drawn where it can be seen, no stray "A"
button; seed 004's optimality (shortest_path_steps / actual_steps) under its name in the results, the route text and
the chart alike, the studio's transition optimality beside it under its own.
Real window, real Chromium and the embedded demo (plus a second site, the "other" one in the live view)."""

from __future__ import annotations

import asyncio
import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from studio.store.scenario_runs import ScenarioRunStore
from studio.ui import scenario_front
from studio.ui.scenario_front import BANNER
from studio.ui.scenario_metric_words import TRANSITION_TIP
from studio.ui.scenario_results import ID_ROLE, OPTIMALITY, WHY_PREFIX
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui]

SHIPPED = Path(__file__).resolve().parents[2] / "projects" / "demo-fintech" / "scenarios"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *_args) -> None:
        pass


@pytest.fixture
def other_site(tmp_path):
    """Another web site on a loopback port: a page, and no data server (what a run must not silently go to)."""
    root = tmp_path / "other-site"
    root.mkdir()
    (root / "index.html").write_text("<h1>Another site</h1><p>Not the app under test.</p>", encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def item_named(panel, scenario_id: str):
    return next(item for item in panel.items() if item.text(0) == scenario_id)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_run_says_its_base_url_and_a_failure_says_why_first(qloop, demo, other_site, tmp_path, monkeypatch):
    folder = tmp_path / "scenarios"
    shutil.copytree(SHIPPED, folder)
    monkeypatch.setattr(scenario_front.QFileDialog, "getExistingDirectory", lambda *_args: str(folder))

    async def scenario():
        services, window = open_studio(tmp_path, "day-two.studio")
        window.resize(1366, 768)
        service, front = services.scenarios, window.scenarios
        panel, results, paths = front.panel, front.results, front.paths
        try:
            # opened from the Explore workspace: the Scenarios workspace comes up with the folder as a tree
            window.workspaces.switch("Explore")
            front.open_action.trigger()
            assert window.workspaces.current == "Scenarios"
            assert window.docks["scenarios"].isVisible()
            groups = {panel.files.topLevelItem(i).text(0): panel.files.topLevelItem(i).childCount()
                      for i in range(panel.files.topLevelItemCount())}
            assert groups == {"exploration/": 2, "regression/": 1, "smoke/": 2}, groups
            assert len(panel.items()) == 5
            assert panel.folder_label.text().startswith("5 scenario files in")

            # the live view shows another site: the run's target is said before anything runs
            window.open_url(other_site + "/")
            await until(lambda: window.live_view.frames_painted > 0, timeout=30, what="the other site")
            await until(lambda: other_site in panel.target_label.text(), what="the run's target")
            assert "live page" in panel.target_label.text()
            assert front.base_url().startswith(other_site)
            shoot(window, "day2_target_from_live_page")

            # choosing a scenario in the list shows its paths
            panel.files.setCurrentItem(item_named(panel, "search-help-centre"))
            assert paths.scenario_id == "search-help-centre"
            panel.files.setCurrentItem(item_named(panel, "open-an-offer"))
            assert paths.scenario_id == "open-an-offer"

            # run it there: it fails at once, and why is on the line under its name, within the dock's width
            ending = NextSignal(service.finished)
            panel.run_button.click()
            outcome = await ending.wait(90, what="the run on the other site")
            assert outcome.passed == 0
            why = outcome.results[0].message
            assert why, outcome.results
            table = results.table
            first = table.item(0, 0)
            assert first.data(ID_ROLE) == "open-an-offer"
            assert first.text() == f"open-an-offer\n{WHY_PREFIX}{why}"
            assert why in first.toolTip()
            window.docks["scenario_results"].raise_()
            await until(lambda: results.isVisible(), what="the results dock")
            assert table.horizontalHeader().length() <= table.viewport().width() + 1  # no column off to the right
            assert table.columnWidth(0) >= table.viewport().width() // 2  # the name and the reason get the room
            assert why in item_named(panel, "open-an-offer").toolTip(0)
            ended = "1 failed" if outcome.results[0].status == "failure" else "1 error"
            assert panel.progress_label.text().startswith(f"Run finished: 0 of 1 scenario passed, {ended} ("), \
                panel.progress_label.text()
            banner = window.message_bar.label.text()
            assert window.message_bar.isVisible() and banner.startswith(BANNER), banner
            assert f"against {other_site}" in banner and why in banner and "(s)" not in banner, banner
            shoot(window, "day2_failed_on_other_site")

            # the folder's own base URL: said, remembered, and used
            panel.base_url_edit.setText(demo.base_url + "/login")
            panel.base_url_edit.editingFinished.emit()
            origin = demo.base_url.rstrip("/")
            assert front.base_url() == origin and panel.base_url_edit.text() == origin
            assert origin in panel.target_label.text() and "this folder" in panel.target_label.text()
            window.docks["scenarios"].raise_()
            shoot(window, "day2_base_url_set")
            panel.files.setCurrentItem(item_named(panel, "search-help-centre"))
            ending = NextSignal(service.finished)
            panel.run_button.click()
            await until(lambda: service.running, what="the second run to start")
            assert not window.message_bar.isVisible()  # the previous run's banner went with the new run
            await until(lambda: "step" in panel.progress_label.text(), timeout=60, what="the second run's steps")
            assert origin in panel.target_label.text()
            outcome = await ending.wait(150, what="the second run")
            assert outcome.passed == 1, [(r.scenario_id, r.status, r.message) for r in outcome.results]
            assert panel.progress_label.text().startswith("Run finished: 1 of 1 scenario passed ("), \
                panel.progress_label.text()
            assert "step" not in panel.progress_label.text()
            runs = ScenarioRunStore(services.project.project.db).runs()
            assert [urlsplit_origin(r.base_url) for r in runs] == [other_site, origin]
            assert table.item(0, 0).text() == "search-help-centre"  # a pass has no reason line

            # remembered per folder: another folder follows the live page, this one keeps its base URL
            elsewhere = tmp_path / "elsewhere"
            elsewhere.mkdir()
            shutil.copy(SHIPPED / "smoke" / "search-help-centre.yaml", elsewhere / "one.yaml")
            service.set_folder(elsewhere)
            assert panel.base_url_edit.text() == "" and "live page" in panel.target_label.text()
            assert panel.folder_label.text().startswith("1 scenario file in")
            service.set_folder(folder)
            assert panel.base_url_edit.text() == origin
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def urlsplit_origin(url: str) -> str:
    from studio.app.scenario_service import origin_of

    return origin_of(url) or url


def add_run(store: ScenarioRunStore, run_id: str, ends: list[dict], graph: list[list[str]]) -> None:
    store.start_run(run_id, "http://127.0.0.1:9", "", sorted({e["scenarioId"] for e in ends}))
    store.add_record(run_id, {"type": "run_start", "runId": run_id, "navGraph": {"edges": graph}})
    for end in ends:
        store.add_record(run_id, {"type": "scenario_end", **end})
    store.add_record(run_id, {"type": "run_end", "runId": run_id})
    passed = sum(e["status"] == "success" for e in ends)
    store.end_run(run_id, "finished", passed / len(ends), 1.0, "")


@pytest.mark.timeout(120)
def test_the_paths_charts_show_the_shorter_route_and_keep_rates_and_steps_apart(qloop, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path, "charts.studio")
        window.resize(1366, 768)
        front = window.scenarios
        results, paths = front.results, front.paths
        try:
            window.workspaces.switch("Scenarios")
            store = ScenarioRunStore(services.project.project.db)
            taken = ["/login", "/dashboard", "/offers", "/offers/1"]
            for n in (1, 2):
                history = [taken[0]] * 6 + taken[1:2] * 4 + taken[2:3] * 3 + taken[3:]  # 14 steps, 3 transitions
                add_run(store, f"run-{n}", [{"scenarioId": "open-an-offer", "status": "success", "steps": 14,
                                              "duration": 9.0, "message": "goal reached", "urlHistory": history}],
                        # the crawl found that the dashboard links to the offer itself
                        [["/login", "/dashboard"], ["/dashboard", "/offers/1"]])
            results.show_runs()
            paths.show_scenario("open-an-offer")
            window.docks["scenario_paths"].raise_()
            await until(lambda: paths.isVisible(), what="the paths dock")

            # the seed's optimality in the seed's column: 13 of the 14 steps were needed (one page transition
            # beyond the shortest route is one step too many) — not the 2 of 3 page transitions (0.67)
            assert results.table.horizontalHeaderItem(OPTIMALITY).text() == "Optimality"
            assert "shortest_path_steps / actual_steps" in results.table.horizontalHeaderItem(OPTIMALITY).toolTip()
            optimality = results.table.item(0, OPTIMALITY).text()
            assert optimality == "0.93"
            assert "13 of its 14 steps needed" in results.table.item(0, OPTIMALITY).toolTip()
            assert f"{TRANSITION_TIP}: 0.67" in results.table.item(0, OPTIMALITY).toolTip()
            # the run's metrics under the table: the seed's under its names, the studio's beside them under theirs
            # (8 steps on one page are 7 backtracks to the seed; here 5 + 3 + 2 of them, and no page left and
            # returned to)
            assert results.metrics.text() == ("Entropy 0.00 · Backtracks 10 · Optimality 0.93\n"
                                              "The studio's: Page backtracks 0 · Transition optimality 0.67")
            assert f"{TRANSITION_TIP}: 2 of its 3 page transitions needed." in results.metrics.toolTip()
            window.docks["scenario_results"].raise_()
            await until(lambda: results.isVisible(), what="the results dock")
            await asyncio.sleep(0.3)  # the dock's layout settles before the picture
            assert results.table.horizontalHeader().length() <= results.table.viewport().width() + 1  # it fits
            shoot(results, "scenario_results_panel")
            window.docks["scenario_paths"].raise_()
            await until(lambda: paths.isVisible(), what="the paths dock")

            # the shorter route is drawn, arched above the edges it skips, and named in words
            drawn = dict(paths.tree.edge_items)
            shortcut = drawn[("/dashboard", "/offers/1")]
            assert paths.tree.tree.edges[("/dashboard", "/offers/1")] == 0
            assert ("/dashboard", "/offers/1") in paths.tree.tree.best
            row_y = paths.tree.positions["/dashboard"][1]
            assert max(abs(y - row_y) for y in shortcut.yData) >= 0.4  # not on the row's taken edges
            assert "Shortest route</span>: /login → /dashboard → /offers/1 (2 page transitions)" in paths.route.text()
            assert (f"The newest passing run: optimality {optimality} (13 of its 14 steps needed); transition "
                    "optimality 0.67 (2 of its 3 page transitions needed).") in paths.route.text()
            assert TRANSITION_TIP in paths.route.toolTip()
            assert "2 runs in this project" in paths.title.text()

            # rates on the 0–1 axis, median steps on its own; no auto-range "A" button
            trends = paths.trends
            assert trends.values["medianSteps"] == [14.0, 14.0]
            # the chart's optimality is the table's (the seed's); the studio's is a series of its own, dashed
            assert trends.values["medianOptimality"] == [0.9286, 0.9286]
            assert f"{trends.values['medianOptimality'][-1]:.2f}" == optimality
            assert trends.values["medianTransitionOptimality"] == [0.6667, 0.6667]
            assert trends.lines["medianTransitionOptimality"].opts["pen"].style() == Qt.PenStyle.DashLine
            key = paths.trends_key.text()
            assert "</span> Optimality (left, 0–1)" in key and "</span> Transition optimality (left, dashed)" in key
            assert TRANSITION_TIP in paths.trends_key.toolTip() and TRANSITION_TIP in trends.toolTip()
            assert trends.lines["medianSteps"].getViewBox() is trends.steps_box
            assert trends.lines["passRate"].getViewBox() is trends.getViewBox()
            assert trends.getViewBox().viewRange()[1][1] <= 1.35
            assert trends.steps_box.viewRange()[1][1] >= 14
            assert trends.getPlotItem().getAxis("right").isVisible()
            assert trends.getPlotItem().buttonsHidden and paths.tree.getPlotItem().buttonsHidden
            await asyncio.sleep(0.3)  # the dock's layout settles before the picture
            shoot(window, "day2_paths")
            shoot(paths, "scenario_paths_panel")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
