"""The rubric and the verdict on evidence shapes seen in real runs: a game that could not be played is capped and
says why in one sentence; a failed play phase cannot rate playability high; third-party failures are reported apart
and never counted; controls the page names that were never tried are not confirmed; every justification is 2–3
sentences (seed 002)."""

from __future__ import annotations

import re

import pytest

from studio.game.parties import party
from studio.game.rubric import overall, score_all
from studio.game.verdict import UNPLAYABLE_CAP, capped, verdict
from studio.models.game import ControlResponse, GameEvidence

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"(])")


def key(name: str, responded: bool, *, expected: bool = True, tried: bool = True) -> ControlResponse:
    return ControlResponse(control=f"key:{name}", label=f"press {name} ×4", purpose="play", expected=expected,
                           responded=responded, tried=tried, latency_ms=40.0 if responded else None)


HEALTHY = GameEvidence(http_status=200, load_ms=300, surface="the page", screenshots=7, detail_level=0.08,
                       distinct_frames=5, controls_found=4, started=True, state_changes=6, score_seen=True,
                       score_changes=5, play_seconds=60, actions=40,
                       responses=[key(k, True) for k in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown")])
LOGIC_MISSING = HEALTHY.model_copy(update={
    "distinct_frames": 0, "started": False, "state_changes": 0, "score_changes": 0, "console_errors": 1,
    "failed_requests": ["phase1 404 GET http://127.0.0.1:1/js/game_manager.js"],
    "load_failures": ["its script /js/game_manager.js failed to load (HTTP 404)"],
    "distinct_errors": ["phase1 uncaught: GameManager is not defined"], "page_errors": 1,
    "responses": [key(k, False) for k in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown")]})
UNBOUND = HEALTHY.model_copy(update={"distinct_frames": 0, "started": False, "state_changes": 0, "score_changes": 0,
                                     "responses": [key(k, False) for k in ("ArrowLeft", "ArrowRight")]})
NEVER_STARTS = UNBOUND.model_copy(update={"requires_interaction": True, "interaction_hint": "Play",
                                          "surface_kind": "canvas", "surface": "a 640×400 canvas (2d)"})
THIRD_PARTY = HEALTHY.model_copy(update={"third_party_failures": [
    "phase1 net::ERR_NAME_NOT_RESOLVED GET https://ads.adnet.invalid/show_ads.js",
    "phase1 net::ERR_NAME_NOT_RESOLVED GET https://fonts.webfont.invalid/css?family=X",
    "phase3 net::ERR_NAME_NOT_RESOLVED GET https://stats.tracker.invalid/collect"]})


def scored(evidence: GameEvidence) -> tuple[dict[str, int], int, str]:
    e = evidence.model_copy(deep=True)
    e.verdict = verdict(e)
    metrics = score_all(e)
    return {m.name: m.score for m in metrics}, capped(overall(metrics), e.verdict), e.verdict


def test_a_game_whose_logic_failed_to_load_scores_low_and_says_why_in_one_sentence():
    scores, total, said = scored(LOGIC_MISSING)
    assert total <= UNPLAYABLE_CAP and scores["controls"] <= 20 and scores["playability"] <= 10, scores
    assert scores["load"] <= 30, scores
    assert said.count(". ") == 0 and said.endswith(".") and "/js/game_manager.js" in said and "404" in said


def test_when_play_never_ran_a_game_whose_code_failed_to_load_still_names_that_first():
    """On a busy machine the play phase can run out before its first move: the broken script is still the reason."""
    _, total, said = scored(LOGIC_MISSING.model_copy(update={"actions": 0, "phases_failed": ["phase3"]}))
    assert total <= UNPLAYABLE_CAP and said.startswith("The game's own code failed while loading"), said
    assert "/js/game_manager.js" in said and "never ran" in said and said.count(". ") == 0


@pytest.mark.parametrize("evidence", [UNBOUND, NEVER_STARTS], ids=["controls-unbound", "never-starts"])
def test_a_game_nothing_could_play_is_capped_whatever_its_page_does_well(evidence):
    scores, total, said = scored(evidence)
    assert said and total <= UNPLAYABLE_CAP, (scores, total)
    assert overall(score_all(evidence.model_copy(update={"verdict": said}))) > total or total <= UNPLAYABLE_CAP


def test_the_game_that_never_started_is_named_as_such():
    _, _, said = scored(NEVER_STARTS)
    assert said.startswith("The game never started") and '"Play"' in said


def test_a_healthy_game_is_not_capped_and_scores_well():
    scores, total, said = scored(HEALTHY)
    assert said == "" and total >= 80, (scores, total)


def test_a_failed_play_phase_cannot_rate_playability_high():
    failed = HEALTHY.model_copy(update={"play_failure": "The AI agent couldn't make progress playing the game.",
                                        "phases_failed": ["phase3"], "play_seconds": 0})
    scores, _, _ = scored(failed)
    assert scores["playability"] <= 35 < scored(HEALTHY)[0]["playability"], scores
    justification = next(m.justification for m in score_all(failed) if m.name == "playability")
    assert justification.startswith("Gameplay exploration failed")


def test_third_party_failures_are_reported_apart_and_cost_nothing():
    plain, with_ads = scored(HEALTHY)[0], scored(THIRD_PARTY)[0]
    assert plain == with_ads
    technical = next(m for m in score_all(THIRD_PARTY) if m.name == "technical")
    assert "3 third-party requests failed" in technical.justification


def test_controls_the_page_names_but_nobody_tried_are_not_confirmed():
    rotate = HEALTHY.model_copy(update={"responses": [key("ArrowLeft", True), key("ArrowRight", True),
                                                      key("KeyQ", False, tried=False),
                                                      key("KeyE", False, tried=False)]})
    scores, _, _ = scored(rotate)
    assert scores["controls"] < scored(HEALTHY)[0]["controls"], scores
    controls = next(m for m in score_all(rotate) if m.name == "controls")
    assert "2 of 4" in controls.justification and "never tried" in controls.justification


def test_unexpected_common_keys_that_do_nothing_do_not_count_against_the_game():
    extra = HEALTHY.model_copy(update={"responses": HEALTHY.responses + [key("Space", False, expected=False)]})
    assert scored(extra)[0]["controls"] == scored(HEALTHY)[0]["controls"]


@pytest.mark.parametrize("evidence", [HEALTHY, LOGIC_MISSING, UNBOUND, NEVER_STARTS, THIRD_PARTY,
                                      GameEvidence(reachable=False, http_status=404),
                                      GameEvidence(blank_page=True, http_status=200),
                                      GameEvidence(http_status=200, screenshots=0),
                                      GameEvidence(http_status=200, screenshots=3, blank_shots=3),
                                      GameEvidence(http_status=200, screenshots=4, controls_found=3,
                                                   surface_kind="canvas", blank_surface_shots=3)],
                         ids=["healthy", "logic-missing", "unbound", "never-starts", "third-party", "unreachable",
                              "blank", "no-screenshot", "all-blank", "untried-blank-canvas"])
def test_every_justification_is_two_or_three_sentences(evidence):
    e = evidence.model_copy(deep=True)
    e.verdict = verdict(e)
    for metric in score_all(e):
        sentences = [s for s in SENTENCE_END.split(metric.justification.strip()) if s]
        assert 2 <= len(sentences) <= 3, (metric.name, sentences)


@pytest.mark.parametrize(("url", "whose"), [
    ("http://127.0.0.1:8000/js/game.js", "game"), ("http://localhost:8000/a.png", "game"),
    ("https://cdn.mygame.example/sprites.png", "game"), ("https://ads.adnet.invalid/show_ads.js", "third_party"),
    ("https://fonts.webfont.invalid/css?family=X", "third_party"), ("http://127.0.0.1:8000/favicon.ico", "browser"),
    ("data:image/png;base64,AAAA", "game")])
def test_whose_request_it_is(url, whose):
    home = "https://play.mygame.example/" if "mygame" in url else "http://127.0.0.1:8000/"
    assert party(url, home) == whose


def test_one_dead_key_of_four_costs_the_controls_score():
    left_dead = HEALTHY.model_copy(update={"responses": [key("ArrowLeft", False)] + HEALTHY.responses[1:]})
    assert scored(left_dead)[0]["controls"] <= scored(HEALTHY)[0]["controls"] - 15
