"""Our retry policy against real HTTP failures: 429 with Retry-After, 5xx, timeouts and refused keys."""

from __future__ import annotations

import time

import pytest
from pydantic import BaseModel

from studio.llm import Budget, BudgetExhausted, LanguageModel, ModelUnavailable
from studio.models.llm import JobBudget
from tests.llm.scripted_server import error_reply, json_reply, rate_limited, slow


class Answer(BaseModel):
    """A one-field answer."""

    value: int


async def test_a_429_waits_for_retry_after_then_succeeds(scripted_llm, model, project):
    scripted_llm.queue(rate_limited(retry_after=1), json_reply({"value": 1}))

    started = time.monotonic()
    answer = await model.structured("count", "Count.", ["x"], Answer, Budget(JobBudget()))

    assert answer.value == 1
    assert time.monotonic() - started >= 1.0
    calls = project.llm_calls.list()
    assert [c.outcome for c in calls] == ["rate_limited", "ok"]
    assert calls[0].error == "rate limited (HTTP 429), Retry-After 1 s"
    assert calls[0].prompt_tokens == 0 and calls[0].cost_usd == 0


async def test_four_server_errors_make_the_model_unavailable_with_a_sentence(scripted_llm, model, project):
    scripted_llm.queue(*[error_reply(500)] * 4)

    with pytest.raises(ModelUnavailable) as raised:
        await model.structured("count", "Count.", ["x"], Answer, Budget(JobBudget()))

    assert raised.value.sentence == (f"The model at {model.base_url} did not answer (HTTP 500) after 4 tries. "
                                     "The job goes on without it (offline heuristics).")
    assert len(scripted_llm.requests) == 4  # 1 try + settings.max_retries (3)
    assert [c.outcome for c in project.llm_calls.list()] == ["server_error"] * 4


async def test_a_slow_answer_times_out_and_the_retry_succeeds(scripted_llm, model, project):
    scripted_llm.queue(slow(json_reply({"value": 1}), seconds=2), json_reply({"value": 2}))

    answer = await model.structured("count", "Count.", ["x"], Answer, Budget(JobBudget()))

    assert answer.value == 2
    calls = project.llm_calls.list()
    assert [c.outcome for c in calls] == ["timeout", "ok"]
    assert calls[0].latency_ms >= 1000  # settings.timeout_s = 1


async def test_a_refused_key_is_not_retried(scripted_llm, model, project):
    scripted_llm.queue(error_reply(401, "Incorrect API key provided."))

    with pytest.raises(ModelUnavailable) as raised:
        await model.structured("count", "Count.", ["x"], Answer, Budget(JobBudget()))

    assert len(scripted_llm.requests) == 1
    assert "refused the API key (HTTP 401). Set OPENAI_API_KEY or store a key in Settings." in raised.value.sentence
    assert [c.outcome for c in project.llm_calls.list()] == ["error"]


async def test_a_server_that_is_not_there_is_unavailable_after_the_retries(llm_settings, project):
    # Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    settings = llm_settings.model_copy(update={"base_url": "http://127.0.0.1:9/v1", "max_retries": 1})
    async with LanguageModel(settings, sink=project.llm_calls.add, backoff_base_s=0.01) as model:
        with pytest.raises(ModelUnavailable) as raised:
            await model.structured("count", "Count.", ["x"], Answer, Budget(JobBudget()))

    assert raised.value.sentence.startswith("The model at http://127.0.0.1:9/v1 could not be reached after 2 tries")
    assert [c.outcome for c in project.llm_calls.list()] == ["error", "error"]


async def test_a_retry_after_longer_than_the_time_left_is_not_waited_for(scripted_llm, model, project):
    scripted_llm.queue(rate_limited(retry_after=30))
    budget = Budget(JobBudget(max_seconds=5))

    started = time.monotonic()
    with pytest.raises(ModelUnavailable) as raised:
        await model.structured("count", "Count.", ["x"], Answer, budget)

    assert time.monotonic() - started < 2
    assert "needs a wait of 30.0 s before trying again" in raised.value.sentence
    assert "left in this job's time budget" in raised.value.sentence


async def test_an_attempt_never_outlives_the_jobs_time_budget(scripted_llm, model, project):
    scripted_llm.queue(slow(json_reply({"value": 1}), seconds=2), json_reply({"value": 2}))
    budget = Budget(JobBudget(max_seconds=0.5))  # settings.timeout_s is 1 s

    started = time.monotonic()
    with pytest.raises(BudgetExhausted) as raised:
        await model.structured("count", "Count.", ["x"], Answer, budget)

    assert time.monotonic() - started < 0.9
    assert raised.value.kind == "seconds"
    assert [c.outcome for c in project.llm_calls.list()] == ["timeout", "budget_exhausted"]
    assert scripted_llm.pending == 1


async def test_an_address_that_is_not_http_is_explained_without_trying(llm_settings, project):
    settings = llm_settings.model_copy(update={"base_url": "localhost:11434/v1"})
    async with LanguageModel(settings, sink=project.llm_calls.add) as model:
        with pytest.raises(ModelUnavailable) as raised:
            await model.structured("count", "Count.", ["x"], Answer, Budget(JobBudget()))

    assert raised.value.sentence.startswith("The model address 'localhost:11434/v1' in Settings is not an http(s)")
    assert [c.outcome for c in project.llm_calls.list()] == ["error"]
