"""The Games workspace as a tester uses it: open a game in the live view, press Run, watch the four phases, the
controls, the decisions and the evidence fill in while the agent plays in the live view (the status bar saying the
phase and its time left), then read the scores as coloured bars (a bar's justification on hover, its reasons and
evidence beside the chart) and the game's history across runs — the chart items updated in place, never rebuilt.
Against a real Chromium, the demo's arcade and a real project file; screenshots go to $STUDIO_GUI_SHOTS at a
1366×768 window."""

from __future__ import annotations

import re

import pytest

from studio.game import GameOptions
from studio.models.game import METRICS, OVERALL
from studio.ui.game_charts import FAIR, GOOD, POOR, SERIES, series_offset
from studio.ui.game_panel import CONTROL_ROLE
from studio.ui.workspaces import live_page_share
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]

QUICK = GameOptions(seed=1, min_explore_s=3, max_explore_s=8, no_progress_s=4, probe_window_s=0.2, max_probes=8)


def colour(name: str) -> str:
    return {GOOD.name(): "green", FAIR.name(): "yellow", POOR.name(): "red"}.get(name, "grey")


@pytest.mark.timeout(300)
@pytest.mark.slow
def test_a_game_evaluation_runs_in_the_live_view_and_its_charts_follow_it(qloop, demo, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path, "games.studio")
        window.resize(1366, 768)
        service, front = services.games, window.games
        service.options = QUICK
        try:
            window.workspaces.switch("Games")
            games, scores_dock = window.docks["games"], window.docks["game_scores"]
            assert games.isVisible() and not games.visibleRegion().isEmpty()  # in front
            assert scores_dock.toggleViewAction().isChecked() and scores_dock.visibleRegion().isEmpty()  # behind
            assert not window.docks["cases"].isVisible()
            window.open_url(demo.base_url + "/arcade/comet?seed=1")
            await until(lambda: window.live_view.frames_painted > 0, timeout=30, what="the game in the live view")
            await until(lambda: "/arcade/comet" in front._page_url(), what="the live page's URL")
            assert live_page_share(window, window.live_view) >= 0.42

            panel, bars, history = front.panel, front.scores.bars, front.scores.history
            bar_item, line_items = bars.bars, dict(history.lines)
            ending = NextSignal(service.finished)
            panel.run_button.click()  # empty URL field: the live page is the game
            await until(lambda: service.running, what="the evaluation to start")
            assert panel.cancel_button.isEnabled() and not panel.run_button.isEnabled()
            await until(lambda: panel.phases.status_of("phase2") in ("running", "passed"), timeout=60,
                        what="control discovery")
            shoot(window, "games_running")
            # the status bar says the running evaluation, its phase and the time that phase has left
            jobs = window.playground.jobs_button
            playing = re.compile(r"^Game evaluation: 3 Play · (\d+):(\d\d) left$")
            found = await until(lambda: playing.search(jobs.text()), timeout=60, what="phase 3 in the status bar")
            assert int(found[1]) * 60 + int(found[2]) <= QUICK.max_explore_s + 60, jobs.text()
            assert "left" in panel.phases.boxes["phase3"].text()
            assert jobs.width() >= jobs.sizeHint().width()  # beside the session's long line, still said in full
            shoot(window, "games_playing")
            run = await ending.wait(240, what="the evaluation to end")
            assert run.status == "completed", run.message
            await until(lambda: jobs.text() == "Jobs: none", what="the status bar to drop the evaluation")
            await until(lambda: panel.evidence.count() >= 5, what="the evidence strip")

            # the phases, the controls, the decisions and the evidence as the panel shows them
            assert [panel.phases.status_of(key) for key in ("phase1", "phase2", "phase3", "phase4")] == \
                ["passed"] * 4
            assert panel.control_list.topLevelItemCount() >= 3
            keys = [panel.control_list.topLevelItem(i).text(0) for i in range(panel.control_list.topLevelItemCount())]
            assert any("Arrow" in text for text in keys), keys
            assert panel.decisions.topLevelItemCount() >= 1
            assert panel.decisions.topLevelItem(0).text(2) == "explorer"  # no model configured
            assert panel.evidence.count() == len(services.games.store().screenshots(run.id))

            # the bars: one per metric and the overall, coloured by band, the justification on hover
            stored = service.scores(run.id)
            assert set(stored) == {*METRICS, OVERALL}
            assert bars.scores == {name: stored[name][0] for name in SERIES}
            heights = list(bars.bars.opts["height"])
            assert heights == [stored[name][0] for name in SERIES]
            expected = ["green" if s >= 70 else "yellow" if s >= 50 else "red" for s in heights]
            assert [colour(brush.color().name()) for brush in bars.bars.opts["brushes"]] == expected
            assert bars.bar_at(4.1, 20) == "technical" and bars.bar_at(4.5, 20) is None
            assert stored["controls"][1] in bars.tooltip_text("controls")
            assert "weight 20%" in bars.tooltip_text("controls")
            assert bars.values[SERIES.index(OVERALL)].toPlainText() == str(stored[OVERALL][0])
            assert "Game evaluation finished: Overall" in window.message_bar.label.text()
            assert [b.text() for b in window.message_bar.action_buttons] == ["Run Again"]
            # the scores dock is badged, never brought forward by the app
            assert scores_dock.windowTitle().endswith("\u25cf") and scores_dock.visibleRegion().isEmpty()
            assert "Game Scores" in window.statusBar().currentMessage()

            # the reasons beside the bars: every metric's card, the weakest selected, each with something to check
            reasons = front.scores.reasons
            assert list(reasons.cards) == SERIES
            weakest = min(METRICS, key=lambda name: stored[name][0])
            assert reasons.selected == weakest and bars.selected == weakest
            for name in METRICS:
                card = reasons.cards[name]
                assert card.justification.text() == stored[name][1]
                assert card.thumbs or card.lines, name

            # a control picked in the list is outlined on the live view; a key has no box
            boxed = None
            for index in range(panel.control_list.topLevelItemCount()):
                item = panel.control_list.topLevelItem(index)
                panel.control_list.setCurrentItem(item)
                control = item.data(0, CONTROL_ROLE)
                if control.box is not None:
                    boxed = index
                    assert len(window.live_view.highlights) == 1
                    break
                assert window.live_view.highlights == []
            assert boxed is not None, "no control with a box (the canvas) was listed"
            shoot(window, "games_done")

            # a second run: the same chart items, updated in place; the history has both runs
            assert history.lines["overall"].getData()[0].tolist() == [1 + series_offset(OVERALL, 1)]
            assert history.values[OVERALL].toPlainText() == str(run.overall_score)  # one run: its values shown
            ending = NextSignal(service.finished)
            window.message_bar.button("Run Again").click()
            second = await ending.wait(240, what="the second evaluation")
            assert bars.bars is bar_item and history.lines == line_items
            assert history.runs == [run.id, second.id]
            xs, ys = history.lines["overall"].getData()
            assert xs.tolist() == [x + series_offset(OVERALL, 2) for x in (1, 2)]
            assert ys.tolist() == [run.overall_score, second.overall_score]
            scores_dock.raise_()
            await until(lambda: not scores_dock.visibleRegion().isEmpty(), what="the scores tab")
            assert not scores_dock.windowTitle().endswith("\u25cf")  # seen: the badge goes
            reasons, scroll = front.scores.reasons, front.scores.reasons.verticalScrollBar()
            await until(lambda: scroll.value() == min(reasons.cards[reasons.selected].y() - 2, scroll.maximum()),
                        what="the selected metric's reasons at the top of their view")
            shoot(window, "games_scores")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(120)
def test_bad_input_is_said_in_the_panel_and_nothing_runs(qloop, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path, "games-bad.studio")
        panel = window.games.panel
        try:
            window.workspaces.switch("Games")
            panel.url.setText("file:///etc/passwd")
            panel.run_button.click()
            assert "is not a web address" in panel.errors.text() and panel.errors.isVisible()
            panel.url.setText("http://127.0.0.1:9/game")
            panel.schema_toggle.setChecked(True)
            panel.schema.setPlainText('{"controls": {"movement": ["Warp"]}}')
            assert "not a key name" in panel.schema_problem.text() and panel.schema_problem.isVisible()
            panel.run_button.click()
            assert "not a key name" in panel.errors.text()
            assert not services.games.running and services.games.runs() == []
            panel.schema.setPlainText("")
            assert not panel.schema_problem.isVisible()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
