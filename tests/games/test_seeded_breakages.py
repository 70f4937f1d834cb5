"""Our own fixture games with the breakages testers met on real games (tests/apps: Slide, a DOM sliding-tile puzzle;
a canvas snake; Blocks, a falling-blocks canvas game), each scored as a tester would judge it: healthy games at 70
or more, games nobody can play at 35 or less with the reason in one sentence, and what is not the game's (the page
scrolling, the site around it, adverts and fonts that cannot load) never counted for or against it.

No engine code knows these games; every run is the real evaluator on the shared Chromium (tests/games/conftest.py).
"""

from __future__ import annotations

import pytest

from studio.models.game import InputSchema
from tests.apps.blocks_game import BlocksGame
from tests.apps.canvas_game import CanvasGame
from tests.apps.grid_game import GridGame
from tests.games.conftest import PLAYED, SHORT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def slide():
    with GridGame() as app:
        yield app


@pytest.fixture(scope="module")
def serpent():
    with CanvasGame() as app:
        yield app


@pytest.fixture(scope="module")
def blocks():
    with BlocksGame() as app:
        yield app


async def broken(games, app, faults: set[str], url: str, options=SHORT, schema: InputSchema | None = None):
    app.set_faults(faults)
    try:
        return await games.evaluate(url, options=options, schema=schema)
    finally:
        app.set_faults(())


def one_sentence(text: str) -> bool:
    return bool(text) and text.endswith(".") and text.rstrip(".").count(". ") == 0


async def test_a_puzzle_whose_logic_script_is_missing_scores_low_and_says_why(games, slide):
    """The tester's report: only the page scrolled on ArrowDown; the game said "ArrowDown changed the game"."""
    down_first = InputSchema.model_validate({"controls": {"movement": ["ArrowDown"]}})  # the key that scrolls
    run = (evaluated := await broken(games, slide, {"logic_missing", "tall_page"}, slide.url(seed=7),
                                     schema=down_first)).run
    evidence = run.evidence
    assert run.overall_score is not None and run.overall_score <= 35, (run.overall_score, evaluated.scores())
    assert one_sentence(evidence.verdict) and "game_manager.js" in evidence.verdict and "404" in evidence.verdict
    assert run.message == evidence.verdict
    assert not any(r.responded for r in evidence.responses), evidence.responses  # scrolling is not the game
    assert evidence.scrolls_undone >= 1  # ArrowDown did scroll the page: it was put back, not counted
    scores = evaluated.scores()
    assert scores["controls"] <= 20 and scores["playability"] <= 10, scores
    phase1 = next(p for p in run.phases if p.phase == "phase1")
    assert run.phase1 is not None and not run.phase1.success and phase1.status == "failed"  # Phase 1's finding
    assert any("GameManager is not defined" in item for item in evidence.distinct_errors)
    assert any(d.kind == "user_agent" and d.detail.endswith(" GameEval TestAgent/1.0") for d in run.details)


async def test_a_puzzle_with_no_key_bound_is_unplayable(games, slide):
    # the longer play window: on a busy machine the short one can end before the first probe
    run = (evaluated := await broken(games, slide, {"controls_unbound"}, slide.url(seed=7), PLAYED)).run
    assert run.overall_score is not None and run.overall_score <= 35, evaluated.scores()
    assert one_sentence(run.evidence.verdict) and run.evidence.verdict.startswith("None of the game's")


async def test_a_turn_based_puzzle_idle_between_moves_is_neither_slow_nor_frozen(games, slide):
    healthy = await games.once("slide", slide.url(seed=7), options=PLAYED)
    evidence = healthy.run.evidence
    assert not evidence.idle_animation and evidence.frozen_seconds == 0
    assert not [fps for fps in evidence.fps_samples if fps > 0], evidence.fps_samples  # no frame rate to judge
    scores = healthy.scores()
    assert scores["technical"] >= 90 and healthy.run.overall_score >= 70, scores


async def test_the_site_around_a_game_is_never_a_control_and_never_clicked(games, slide):
    slide.clear_hits()
    evaluated = await broken(games, slide, {"site_chrome"}, slide.url(seed=7), PLAYED)
    run = evaluated.run
    names = " ".join(c.description for c in evaluated.store.controls(run.id))
    for site in ("Dashboard", "Help", "Sign out", "FPS"):
        assert site not in names, names
    assert any("Sign out" in item for item in run.evidence.site_controls), run.evidence.site_controls
    hits = slide.hits
    assert hits["/signout"] == 0 and hits["/dashboard"] == 0 and hits["/help"] == 0, hits
    assert run.overall_score is not None and run.overall_score >= 70, evaluated.scores()


async def test_a_canvas_game_that_never_starts_is_unplayable(games, serpent):
    run = (evaluated := await broken(games, serpent, {"never_starts"}, serpent.url(seed=1), PLAYED)).run
    assert run.overall_score is not None and run.overall_score <= 35, evaluated.scores()
    assert one_sentence(run.evidence.verdict) and "never started" in run.evidence.verdict, run.evidence.verdict


async def test_failing_adverts_fonts_and_analytics_are_the_pages_environment_not_the_game(games, serpent):
    healthy = await games.once("serpent", serpent.url(seed=1), options=PLAYED)
    cluttered = await broken(games, serpent, {"third_party"}, serpent.url(seed=1), PLAYED)
    evidence = cluttered.run.evidence
    assert len(evidence.third_party_failures) >= 3 and not evidence.failed_requests, evidence.third_party_failures
    ok, noisy = healthy.scores(), cluttered.scores()
    assert noisy["load"] >= ok["load"] - 5 and noisy["technical"] >= ok["technical"] - 5, (ok, noisy)
    technical = dict(cluttered.store.scores(cluttered.run.id))["technical"][1]
    assert "third-party" in technical


async def test_a_score_drawn_on_the_canvas_is_read(games, serpent):
    run = (await broken(games, serpent, {"score_in_canvas"}, serpent.url(seed=1), PLAYED)).run
    assert run.evidence.score_seen and run.evidence.score_source == "text drawn on the canvas", run.evidence


async def test_a_healthy_falling_blocks_game_scores_well_and_its_dead_rotate_key_is_never_confirmed(games, blocks):
    healthy = await games.once("blocks", blocks.url(seed=3), options=PLAYED)
    assert healthy.run.overall_score is not None and healthy.run.overall_score >= 70, healthy.scores()
    dead = await broken(games, blocks, {"rotate_ignored"}, blocks.url(seed=3), PLAYED)

    def rotate(evaluated) -> bool:
        return any(r.responded for r in evaluated.run.evidence.responses if r.label.startswith("press ArrowUp"))

    # Its pieces move down a row now and then on their own, which can look like an answer to any key: a key counts
    # only when two tries showed it, so the dead rotate key is never confirmed.
    assert not rotate(dead), dead.run.evidence.responses
    assert dead.scores()["controls"] <= healthy.scores()["controls"], (healthy.scores(), dead.scores())


async def test_a_puzzle_whose_score_never_changes_loses_playability_and_says_so(games, slide):
    """Tiles merge but the score box stays at 0: the game plays, so it is not unplayable, but a tester marks its
    playability down and the justification says the score never changed."""
    healthy = await games.once("slide", slide.url(seed=7), options=PLAYED)
    stuck = await broken(games, slide, {"score_not_updating"}, slide.url(seed=7), PLAYED)
    assert not stuck.run.evidence.verdict and stuck.run.evidence.score_changes == 0
    assert healthy.run.evidence.score_changes >= 1
    # Without a score change the rubric's playability cannot pass 65 when no game over came (80 when one came and a
    # restart worked); the healthy run earns the 15 points a changing score gives.
    bad = stuck.scores()
    limit = 80 if stuck.run.evidence.game_over_seen else 65
    assert bad["playability"] <= limit, bad
    playability = dict(stuck.store.scores(stuck.run.id))["playability"][1]
    assert "was shown but never changed" in playability
