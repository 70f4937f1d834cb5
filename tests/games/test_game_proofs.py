"""Proof that the scores mean something: between the healthy Comet Dash and each of its faults, the metric the fault
breaks moves the right way by a clear margin, and the others do not collapse with it."""

from __future__ import annotations

import pytest

from studio.game import errors
from tests.games.conftest import comet


async def test_dead_controls_sink_controls_while_load_stays_high(games, demo_server, healthy):
    dead = await games.once("comet-dead", comet(demo_server, "dead_controls"))
    ok, broken = healthy.scores(), dead.scores()
    assert broken["controls"] <= 40, dead.store.scores(dead.run.id)["controls"]
    assert broken["load"] >= 70
    assert ok["controls"] - broken["controls"] >= 40, (ok, broken)
    assert dead.run.phase3 is not None and not dead.run.phase3.success
    assert errors.NO_PROGRESS in dead.run.phase3.errors  # the seed's sentence, not a code
    assert dead.run.status == "completed"  # a failed Phase 3 does not stop the run: it is scored


@pytest.mark.slow
async def test_thrown_errors_lower_technical_stability(games, demo_server, healthy):
    faulty = await games.once("comet-errors", comet(demo_server, "throw_errors"))
    ok, broken = healthy.scores(), faulty.scores()
    assert ok["technical"] - broken["technical"] >= 20, (ok, broken)
    assert faulty.run.evidence.page_errors >= 2  # one every 3 seconds of play
    technical = faulty.store.scores(faulty.run.id)["technical"][1]
    assert "uncaught error" in technical and "velocity" in technical  # the justification cites the evidence


async def test_blank_canvas_sinks_visual_quality(games, demo_server, healthy):
    blank = await games.once("comet-blank", comet(demo_server, "blank_canvas"))
    ok, broken = healthy.scores(), blank.scores()
    assert broken["visual"] <= 30, blank.store.scores(blank.run.id)["visual"]
    assert ok["visual"] >= 60
    assert broken["load"] >= 70  # the page loads; only its play surface stays empty


async def test_missing_page_fails_with_the_sentence_and_still_stores_scores(games, demo_server):
    missing = await games.once("missing", demo_server.base_url + "/arcade/no-such-game")
    run = missing.run
    assert run.status == "failed"
    assert run.message == "The game URL could not be accessed. Please check the URL is correct."
    assert [p.status for p in run.phases] == ["failed", "skipped", "skipped", "passed"]
    scores = missing.store.scores(run.id)
    assert len(scores) == 6 and scores["load"][0] <= 10 and scores["overall"][0] <= 30
    assert run.phase4 is not None and run.phase4.success
    shots = missing.store.screenshots(run.id)
    assert [s.phase for s in shots] == ["phase1"]  # the partial evidence: what the URL answered
    assert run.evidence.http_status == 404


async def test_frozen_loop_and_missing_sprite_sheet_are_seen(games, demo_server, healthy):
    faulty = await games.once("comet-frozen-404", comet(demo_server, "frozen_loop,asset_404"))
    ok, broken = healthy.scores(), faulty.scores()
    assert faulty.run.evidence.frozen_seconds > 0
    assert any("sprites-v2.svg" in item and "404" in item for item in faulty.run.evidence.failed_requests)
    assert broken["technical"] <= ok["technical"] - 25
    assert broken["load"] < ok["load"] and broken["load"] >= 70
    assert broken["overall"] < ok["overall"]


@pytest.mark.slow
async def test_the_same_seed_plays_the_game_in_stepped_time_and_scores_it_alike(games, demo_server, healthy):
    """The game is stepped frame by frame while it is played, so how busy the machine is changes little of what the
    moves meet: the same seed gives scores within a few points (on a quiet machine, the same scores)."""
    again = await games.evaluate(comet(demo_server))
    times = [[d.detail for d in run.details if d.kind == "game_time"] for run in (healthy.run, again.run)]
    assert times == [["stepped frame by frame"]] * 2
    first, second = healthy.scores(), again.scores()
    assert all(abs(first[name] - second[name]) <= 25 for name in first), (first, second)
    assert abs(first["overall"] - second["overall"]) <= 10, (first, second)
