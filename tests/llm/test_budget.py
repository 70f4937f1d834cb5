"""Job budgets: every limit ends the job with a sentence, and no model call is sent once a limit is reached."""

from __future__ import annotations

import asyncio
import logging

import pytest
from pydantic import BaseModel

from studio.llm import Budget, BudgetExhausted, PriceTable
from studio.models.llm import DEFAULT_PRICES, JobBudget, ModelPrice
from tests.llm.scripted_server import json_reply, text_reply

KEPT = ("everything done so far is kept. To go further, raise the job budget in Settings › Model, or pass "
        "--max-steps, --max-seconds, --max-tokens or --max-cost to studio preflight / studio playground.")


class Answer(BaseModel):
    """A one-field answer."""

    value: int


async def ask(model, budget):
    return await model.structured("count", "Count.", ["x"], Answer, budget, job_id="job-b")


async def test_the_token_budget_stops_the_next_call_before_it_is_sent(scripted_llm, model, project):
    scripted_llm.queue(json_reply({"value": 1}, prompt_tokens=90, completion_tokens=30), json_reply({"value": 2}))
    budget = Budget(JobBudget(max_tokens=100))

    assert (await ask(model, budget)).value == 1  # a call already under way is paid and used
    with pytest.raises(BudgetExhausted) as raised:
        await ask(model, budget)

    assert raised.value.kind == "tokens"
    assert raised.value.sentence == f"The job stopped at its budget of 100 model tokens (120 used); {KEPT}"
    assert len(scripted_llm.requests) == 1 and scripted_llm.pending == 1
    calls = project.llm_calls.list("job-b")
    assert [c.outcome for c in calls] == ["ok", "budget_exhausted"]
    assert calls[1].error == raised.value.sentence and calls[1].prompt_tokens == 0


async def test_the_cost_budget_stops_repairs_too(scripted_llm, model, project):
    # 10,000 prompt tokens of gpt-4o-mini cost $0.0015, over a $0.001 budget: the invalid answer is not repaired.
    scripted_llm.queue(text_reply("not json", prompt_tokens=10_000, completion_tokens=0), json_reply({"value": 2}))
    budget = Budget(JobBudget(max_cost_usd=0.001))

    with pytest.raises(BudgetExhausted) as raised:
        await ask(model, budget)

    assert raised.value.kind == "cost"
    assert raised.value.sentence == f"The job stopped at its cost budget of $0.001 ($0.0015 spent); {KEPT}"
    assert len(scripted_llm.requests) == 1
    assert [c.outcome for c in project.llm_calls.list()] == ["invalid", "budget_exhausted"]


async def test_the_step_budget_ends_the_job_and_refuses_model_calls(scripted_llm, model):
    budget = Budget(JobBudget(max_steps=3))
    for _ in range(3):
        budget.check()
        budget.charge_step()

    with pytest.raises(BudgetExhausted) as raised:
        budget.check()
    assert raised.value.kind == "steps"
    assert raised.value.sentence == f"The job stopped at its budget of 3 browser steps; {KEPT}"
    with pytest.raises(BudgetExhausted):
        await ask(model, budget)
    assert scripted_llm.requests == []


async def test_the_time_budget_runs_from_creation(scripted_llm, model):
    budget = Budget(JobBudget(max_seconds=0.2))
    budget.check()
    await asyncio.sleep(0.25)

    with pytest.raises(BudgetExhausted) as raised:
        await ask(model, budget)
    assert raised.value.kind == "seconds"
    assert raised.value.sentence == f"The job stopped at its time budget of 0.2 seconds; {KEPT}"
    assert scripted_llm.requests == []


def test_remaining_and_snapshot_report_what_is_left():
    budget = Budget(JobBudget(max_steps=10, max_tokens=1000, max_seconds=60, max_cost_usd=0.5))
    budget.charge_step(4)
    budget.charge_tokens(300, 100, 0.125)

    remaining = budget.remaining()
    assert {k: remaining[k] for k in ("steps", "tokens", "cost_usd")} == {"steps": 6, "tokens": 600, "cost_usd": 0.375}
    assert 59 < remaining["seconds"] <= 60
    snapshot = budget.snapshot()
    assert snapshot["used"]["tokens"] == 400 and snapshot["limits"]["max_steps"] == 10
    assert snapshot["exhausted"] is None


def test_prices_cover_dated_snapshots_and_unknown_models_cost_nothing_with_one_warning(caplog):
    table = PriceTable({**DEFAULT_PRICES, "local": ModelPrice(input_per_million=0, output_per_million=0)})
    assert table.cost("gpt-4o-mini-2024-07-18", 1_000_000, 0) == pytest.approx(0.15)
    assert table.cost("gpt-4o-2024-08-06", 0, 1_000_000) == pytest.approx(10.0)

    with caplog.at_level(logging.WARNING, logger="studio.llm.budget"):
        assert table.cost("llama3.1:8b", 5000, 500) == 0
        assert table.cost("llama3.1:8b", 5000, 500) == 0
    warnings = [r for r in caplog.records if "llama3.1:8b" in r.getMessage()]
    assert len(warnings) == 1
