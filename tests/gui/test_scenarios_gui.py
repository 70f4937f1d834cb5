"""The Scenarios workspace as a tester uses it: open a folder of goal scenarios, see which files are valid, fix a
broken one in the YAML editor (its problem marked at its line, gone after the fix, Ctrl+S saves, undo brings the
edit back), Run All while the agent drives each scenario's fresh page in the live view, read the results table, the
steps with their screenshots, the path tree and the metric trends; run again (the trends grow a point) and cancel a
run (what finished is kept, the run says it was stopped). Real Chromium, the embedded demo, a real project file;
screenshots go to $STUDIO_GUI_SHOTS at a 1366×768 window."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from studio.store.scenario_runs import ScenarioRunStore
from studio.ui.scenario_results import OPTIMALITY, SHOT_ROLE
from studio.ui.workspaces import live_page_share
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]

SHIPPED = Path(__file__).resolve().parents[2] / "projects" / "demo-fintech" / "scenarios"
BROKEN_KEY = "constriants"


def scenario_folder(tmp_path: Path) -> Path:
    """Two shipped scenarios and a third made from one of them with a misspelt key and its own id."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(SHIPPED / "smoke" / "search-help-centre.yaml", folder / "a-search.yaml")
    shutil.copy(SHIPPED / "exploration" / "open-an-offer.yaml", folder / "b-offer.yaml")
    text = (SHIPPED / "smoke" / "search-help-centre.yaml").read_text(encoding="utf-8")
    text = text.replace("id: search-help-centre", "id: search-help-again").replace("constraints:", f"{BROKEN_KEY}:")
    (folder / "c-broken.yaml").write_text(text, encoding="utf-8")
    return folder


def press_save(widget) -> None:
    for kind in (QKeyEvent.Type.ShortcutOverride, QKeyEvent.Type.KeyPress):
        QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier, "s"))


@pytest.mark.timeout(420)
@pytest.mark.slow
def test_scenarios_are_edited_run_in_the_live_view_and_their_results_charted(qloop, demo, tmp_path):
    folder = scenario_folder(tmp_path)

    async def scenario():
        services, window = open_studio(tmp_path, "scenarios.studio")
        window.resize(1366, 768)
        service, front = services.scenarios, window.scenarios
        panel, results, paths = front.panel, front.results, front.paths
        try:
            window.workspaces.switch("Scenarios")
            assert window.docks["scenarios"].isVisible() and not window.docks["cases"].isVisible()
            service.set_folder(folder)
            files = panel.files
            assert files.topLevelItemCount() == 3
            marks = {files.topLevelItem(i).text(0): files.topLevelItem(i).text(1) for i in range(3)}
            assert marks == {"search-help-centre": "✓", "open-an-offer": "✓", "c-broken": "✗"}, marks
            broken = next(files.topLevelItem(i) for i in range(3) if files.topLevelItem(i).text(0) == "c-broken")
            assert BROKEN_KEY in broken.toolTip(1) or "constraints" in broken.toolTip(1)

            # the broken file in the editor: its problem at its line, fixed, saved with Ctrl+S, undo still works
            files.setCurrentItem(broken)
            editor = panel.editor.editor
            text = editor.toPlainText()
            bad_line = text.splitlines().index(f"{BROKEN_KEY}:") + 1
            assert bad_line in editor.problem_lines()
            assert panel.editor.problem_list.count() >= 1
            assert "constraints" in panel.editor.problem_list.item(0).text()  # the nearest valid key
            shoot(window, "scenarios_broken")
            editor.setPlainText(text.replace(f"{BROKEN_KEY}:", "constraints:"))
            assert panel.editor.recheck() == []
            assert editor.problem_lines() == []
            editor.setFocus()
            press_save(editor)
            assert "constraints:" in (folder / "c-broken.yaml").read_text(encoding="utf-8")
            assert BROKEN_KEY not in (folder / "c-broken.yaml").read_text(encoding="utf-8")
            fixed = next(files.topLevelItem(i) for i in range(3)
                         if files.topLevelItem(i).text(0) == "search-help-again")
            assert fixed.text(1) == "✓"
            editor.insertPlainText("# a note\n")
            editor.undo()
            assert "# a note" not in editor.toPlainText()

            # Run All against the app in the live view; each scenario's page is shown there while it runs
            window.open_url(demo.base_url + "/")
            await until(lambda: window.live_view.frames_painted > 0, timeout=30, what="the demo in the live view")
            await until(lambda: front.base_url().startswith(demo.base_url), what="the live page's address")
            session = services.browser.session
            own_page = session.page
            shown = []
            session.on_active_page(lambda page: shown.append(page))
            ending = NextSignal(service.finished)
            panel.run_all_button.click()
            await until(lambda: service.running, what="the run to start")
            assert panel.cancel_button.isEnabled() and not panel.run_all_button.isEnabled()
            await until(lambda: any(p is not own_page for p in shown), timeout=60,
                        what="a scenario's page in the live view")
            await until(lambda: "step" in panel.progress_label.text(), timeout=60, what="live progress")
            shoot(window, "scenarios_running")
            outcome = await ending.wait(300, what="the run to end")
            assert outcome.status == "finished", outcome.message
            assert outcome.passed == 3, [(r.scenario_id, r.status, r.message) for r in outcome.results]
            assert session.page is own_page  # the live view is back on the tester's page
            assert live_page_share(window, window.live_view) >= 0.42
            assert panel.progress.value() == 100

            # the results, kept in the project file, and the steps of the selected scenario
            assert results.table.rowCount() == 3
            assert {results.table.item(r, 1).text() for r in range(3)} == {"success"}
            store = ScenarioRunStore(services.project.project.db)
            [run] = store.runs()
            assert run.status == "finished" and run.pass_rate == 1.0
            kinds = [r["type"] for r in store.records(run.id)]
            assert kinds[0] == "run_start" and kinds[-1] == "run_end" and kinds.count("scenario_end") == 3
            assert (Path(run.folder) / "results.jsonl").is_file() and (Path(run.folder) / "index.html").is_file()
            results.table.selectRow(next(r for r in range(3) if results.table.item(r, 0).text() == "open-an-offer"))
            await until(lambda: results.steps.topLevelItemCount() >= 1, what="the steps of the selected scenario")
            # seed 004's optimality in the Optimality column, as the run's run_end has it (one run per scenario:
            # the median is the run's); the studio's transition optimality beside it, under its own name
            [done] = store.records(run.id, "run_end")
            per_scenario = done["scenarioMetrics"]
            for row in range(3):
                seeds = per_scenario[results.table.item(row, 0).text()]["medianOptimality"]
                assert results.table.item(row, OPTIMALITY).text() == f"{seeds:.2f}", (row, seeds)
            offer = per_scenario["open-an-offer"]
            assert f"Optimality {offer['medianOptimality']:.2f}\n" in results.metrics.text(), results.metrics.text()
            assert f"Transition optimality {offer['medianTransitionOptimality']:.2f}" in results.metrics.text()
            steps = store.records(run.id, "step")
            assert results.steps.topLevelItemCount() >= len([s for s in steps if s["scenarioId"] == "open-an-offer"])
            first = results.steps.topLevelItem(0)
            assert first.data(0, SHOT_ROLE)  # every step's screenshot is in the project file
            results.steps.setCurrentItem(first)
            assert results.shot_png is not None and results.shot_png.startswith(b"\x89PNG")
            assert not results.shot.pixmap().isNull()

            # the path tree and the trends of the selected scenario
            assert paths.scenario_id == "open-an-offer"
            tree = paths.tree.tree
            assert tree is not None and len(tree.depth) >= 2 and tree.best
            assert len(paths.tree.nodes.data) == len(tree.depth)
            page = tree.goals[0]
            paths.tree.pageClicked.emit(page)
            assert page in paths.page_label.text() and "goal page" in paths.page_label.text()
            assert paths.page_png is not None and paths.page_png.startswith(b"\x89PNG")  # the page itself
            assert not paths.page_shot.pixmap().isNull()
            assert len([v for v in paths.trends.values["passRate"] if v is not None]) == 1
            assert paths.trends.values["medianOptimality"] == [offer["medianOptimality"]]  # the seed's, as the table
            assert paths.trends.values["medianTransitionOptimality"] == [offer["medianTransitionOptimality"]]
            assert f"optimality {offer['medianOptimality']:.2f} (" in paths.route.text()
            window.docks["scenario_results"].raise_()
            results.steps.setCurrentItem(results.steps.topLevelItem(0))
            shoot(window, "scenarios_results")
            window.docks["scenario_paths"].raise_()
            shoot(window, "scenarios_paths")

            # run the selected scenario again: the trends grow a point
            files.setCurrentItem(next(files.topLevelItem(i) for i in range(3)
                                      if files.topLevelItem(i).text(0) == "open-an-offer"))
            ending = NextSignal(service.finished)
            panel.run_button.click()
            outcome = await ending.wait(120, what="the second run")
            assert outcome.passed == 1
            assert len(store.runs()) == 2
            assert results.runs.count() == 2
            await until(lambda: paths.scenario_id == "open-an-offer", what="the paths of the run scenario")
            paths.show_scenario("open-an-offer")
            assert len([v for v in paths.trends.values["passRate"] if v is not None]) == 2

            # cancel a run: the scenario that runs stops before its next step, the run says so
            ending = NextSignal(service.finished)
            panel.run_all_button.click()
            await until(lambda: service.running, what="the third run to start")
            await until(lambda: "step" in panel.progress_label.text(), timeout=60, what="the third run's steps")
            panel.cancel_button.click()
            outcome = await ending.wait(60, what="the cancelled run")
            assert outcome.status == "cancelled"
            assert "stopped by the tester" in outcome.message
            assert store.runs()[-1].status == "cancelled"
            await until(lambda: not service.running and panel.run_all_button.isEnabled(), what="the buttons back")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
