"""Game evaluation with a model (the real openai client on the scripted OpenAI-compatible server): a vision model
picks moves from the screenshot and the action list (closed tool set, decisions logged with the model's name) and
scores from the screenshots plus the evidence; garbage or an unreachable model falls back to the rubric, said in the
seed's words (2.5-AC-2/5/10, 2.6-AC-2/4, 2.7-AC-2)."""

from __future__ import annotations

import json

import pytest

from studio.game import errors
from studio.llm import LanguageModel
from studio.models.game import METRIC_WEIGHTS, METRICS, OVERALL
from studio.models.llm import LLMSettings
from tests.games.conftest import SHORT, comet
from tests.llm.scripted_server import RecordedRequest, Reply, ScriptedLLM, json_reply, text_reply, tool_call_reply

MODEL_SCORES = {"load": 92, "visual": 74, "controls": 81, "playability": 66, "technical": 88}
QUICK = SHORT.model_copy(update={"min_explore_s": 2, "max_explore_s": 5, "max_probes": 4})


@pytest.fixture(scope="module")
def llm_server():
    with ScriptedLLM() as server:
        yield server


async def vision_model(server: ScriptedLLM) -> LanguageModel:
    settings = LLMSettings(base_url=server.base_url, model="scripted-vision", timeout_s=5.0)
    model = LanguageModel.from_settings(settings, key="sk-test-game", backoff_base_s=0.01)
    assert model is not None
    return model


def has_image(request: RecordedRequest) -> bool:
    return any(isinstance(m.get("content"), list) and any(part.get("type") == "image_url" for part in m["content"])
               for m in request.messages)


def scores_reply(judged: bool = True) -> Reply:
    return json_reply({"screenshots_judged": judged, "metrics": [
        {"name": name, "score": score,
         "justification": f"The screenshots show the {name} clearly. The measured evidence agrees with it."}
        for name, score in MODEL_SCORES.items()]})


def playing_responder(request: RecordedRequest) -> Reply:
    if "press_key" in request.tool_names:
        return tool_call_reply("press_key", {"key": "ArrowRight", "presses": 2})
    if request.tool_names:
        return tool_call_reply("wait", {})
    return scores_reply()


@pytest.mark.slow
async def test_a_vision_model_plays_and_scores_from_screenshots(games, demo_server, llm_server):
    llm_server.reset()
    llm_server.responder = playing_responder
    model = await vision_model(llm_server)
    try:
        played = await games.evaluate(comet(demo_server), options=QUICK, model=model)
    finally:
        await model.aclose()
    run, store = played.run, played.store
    assert run.status == "completed" and run.scoring == "model" and run.ai_model == "scripted-vision"
    moves = [r for r in llm_server.requests if "press_key" in r.tool_names]
    assert moves and all(has_image(r) for r in moves)  # the model sees the game
    assert "ArrowLeft" in json.dumps(moves[0].body["tools"])  # the action list is the discovered keys
    scoring = [r for r in llm_server.requests if not r.tool_names]
    assert scoring and has_image(scoring[-1]) and "Evidence measured by the test" in scoring[-1].user_text
    chosen = [d for d in store.decisions(run.id) if d.ai_model == "scripted-vision"]
    assert any("ArrowRight" in d.decision for d in chosen)
    assert any(a.target.startswith("press ArrowRight") and a.phase == "phase3" for a in store.actions(run.id))
    scores = store.scores(run.id)
    assert {name: scores[name][0] for name in METRICS} == MODEL_SCORES
    assert scores[OVERALL][0] == round(sum(METRIC_WEIGHTS[n] * s for n, s in MODEL_SCORES.items()) / 100)
    assert "scripted-vision" in scores[OVERALL][1]


async def test_garbage_from_the_model_falls_back_to_the_rubric_and_says_so(games, demo_server, llm_server):
    llm_server.reset()
    llm_server.responder = lambda request: (text_reply("I like this game a lot!") if not request.tool_names
                                            else text_reply("left, probably"))
    model = await vision_model(llm_server)
    try:
        played = await games.evaluate(comet(demo_server), options=QUICK, model=model)
    finally:
        await model.aclose()
    run = played.run
    assert run.status == "completed" and run.scoring == "technical_only"
    assert errors.MODEL_UNUSABLE in run.errors
    assert len(played.store.scores(run.id)) == 6
    assert any(d.decision.startswith("score with the built-in rubric") for d in played.store.decisions(run.id))
    # the explorer took over the moves when the model's answers could not be used
    assert run.phase3.actionsTaken >= 3


async def test_an_unreachable_model_is_the_seeds_sentence_and_the_rubric_scores(games, demo_server):
    settings = LLMSettings(base_url="http://127.0.0.1:9/v1", model="gone", timeout_s=1.0, max_retries=0)
    model = LanguageModel.from_settings(settings, key="sk-test-game", backoff_base_s=0.01)
    assert model is not None
    try:
        played = await games.evaluate(comet(demo_server), options=QUICK, model=model)
    finally:
        await model.aclose()
    run = played.run
    assert run.status == "completed" and run.scoring == "technical_only"
    assert errors.MODEL_UNAVAILABLE in run.errors
    assert "Traceback" not in " ".join(run.errors)
