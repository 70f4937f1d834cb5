"""Games the evaluator was not written against: the fixture apps of tests/apps (a canvas snake game that waits for
Space or a click, and a turn-based DOM sliding-tile puzzle with no animation at all), healthy and with a seeded
fault each. No engine code knows their names, paths or texts; the scores must still move the right way."""

from __future__ import annotations

import pytest

from tests.apps.canvas_game import CanvasGame
from tests.apps.grid_game import GridGame
from tests.games.conftest import PLAYED


@pytest.fixture(scope="module")
def serpent():
    with CanvasGame() as app:
        yield app


@pytest.fixture(scope="module")
def slide():
    with GridGame() as app:
        yield app


@pytest.mark.slow
async def test_a_canvas_game_that_waits_for_space_is_started_played_and_scored(games, serpent):
    healthy = await games.once("serpent", serpent.url(seed=1), options=PLAYED)
    run = healthy.run
    assert run.status == "completed" and run.phase3.success, run.errors
    assert run.evidence.surface_kind == "canvas" and run.evidence.started
    keys = {r.label.split(" ×")[0] for r in run.evidence.responses if r.responded}
    assert {"press ArrowUp", "press ArrowDown"} & keys, run.evidence.responses
    scores = healthy.scores()
    assert scores["controls"] >= 60 and scores["load"] >= 90 and scores["technical"] >= 80, scores


@pytest.mark.xfail(strict=False, reason="known weak: under full-suite load a key pressed as the snake hits a wall or "
                                        "as the game restarts can pass for a response, so ignored keys may look alive")
@pytest.mark.slow
async def test_a_canvas_game_whose_keys_are_ignored_loses_its_controls_score(games, serpent):
    healthy = await games.once("serpent", serpent.url(seed=1), options=PLAYED)
    serpent.set_faults({"controls_ignored"})
    try:
        broken = await games.evaluate(serpent.url(seed=1), options=PLAYED)
    finally:
        serpent.set_faults(())
    ok, bad = healthy.scores(), broken.scores()

    def arrows(evaluated) -> set[str]:
        return {r.label.split(" ×")[0] for r in evaluated.run.evidence.responses
                if r.responded and r.label.startswith("press Arrow")}

    # A snake that hits a wall while a key is pressed can pass for one answer; ignored keys never give several.
    assert len(arrows(healthy)) >= 2 and len(arrows(broken)) < len(arrows(healthy)), (arrows(healthy), arrows(broken))
    assert ok["controls"] >= bad["controls"], (ok, bad)
    assert bad["load"] >= 90  # the page itself is fine


async def test_a_turn_based_dom_puzzle_is_played_through_its_keys_and_score(games, slide):
    healthy = await games.once("slide", slide.url(seed=7), options=PLAYED)
    run = healthy.run
    assert run.status == "completed" and run.phase3.success, run.errors
    assert run.evidence.surface_kind == "board"
    assert run.evidence.score_seen and run.evidence.score_changes >= 1  # merges scored
    assert run.evidence.frozen_seconds == 0  # a game that only moves on a key press is not frozen
    scores = healthy.scores()
    assert scores["controls"] >= 60 and scores["technical"] >= 80, scores


async def test_a_puzzle_whose_arrow_keys_are_dead_scores_lower_on_controls(games, slide):
    healthy = await games.once("slide", slide.url(seed=7), options=PLAYED)
    slide.set_faults({"keys_ignored"})
    try:
        broken = await games.evaluate(slide.url(seed=7), options=PLAYED)
    finally:
        slide.set_faults(())
    ok, bad = healthy.scores(), broken.scores()
    dead = {r.label.split(" ×")[0] for r in broken.run.evidence.responses if not r.responded}
    assert {"press ArrowLeft", "press ArrowRight"} <= dead, broken.run.evidence.responses
    assert ok["controls"] - bad["controls"] >= 15, (ok, bad)
