"""The model planner with the real openai client against a scripted OpenAI-compatible server: the seed's JSON action
protocol (a broken answer repaired), tokens and cost counted, max_cost_usd halting the run, a node the page does not
have falling back to the deterministic planner — and the test user's password never sent to the model nor logged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.llm import LanguageModel
from studio.models.llm import LLMSettings
from studio.scenarios.driver import LocalScenarioPages
from studio.scenarios.records import RunLog
from studio.scenarios.runner import ScenarioRunner
from studio.scenarios.validation import load_scenario
from tests.llm.scripted_server import ScriptedLLM, json_reply, text_reply

pytestmark = pytest.mark.browser
SCENARIOS = Path(__file__).resolve().parents[2] / "projects" / "demo-fintech" / "scenarios"


@pytest.fixture
def llm():
    with ScriptedLLM() as server:
        yield server


async def run(demo, runtime, llm, scenario_path: Path, tmp_path: Path, **constraints):
    scenario = load_scenario(scenario_path)
    if constraints:
        scenario = scenario.model_copy(update={"constraints": scenario.constraints.model_copy(update=constraints)})
    model = LanguageModel.from_settings(LLMSettings(base_url=llm.base_url, model="gpt-4o-mini", timeout_s=5.0),
                                        key="sk-test-scenario-DO-NOT-LEAK", backoff_base_s=0.01)
    log = RunLog(tmp_path / "results.jsonl", "run_model")
    try:
        runner = ScenarioRunner(LocalScenarioPages.on(runtime), demo.base_url, log, tmp_path, model=model)
        return await runner.run(scenario)
    finally:
        log.close()
        await model.aclose()


def act(kind: str, reasoning: str = "next", **params) -> dict:
    return {"reasoning": reasoning, "action": {"type": kind, "params": params}}


async def test_the_model_plans_in_the_seeds_protocol_and_a_broken_answer_is_repaired(demo, llm, tmp_path,
                                                                                     runtime):
    llm.queue(text_reply("I think I should search. {not json"))
    llm.queue(json_reply(act("ui.act.type", "search the help centre", nodeId="help-search", text="dispute",
                             submit=True), prompt_tokens=1000, completion_tokens=100))
    result = await run(demo, runtime, llm, SCENARIOS / "smoke" / "search-help-centre.yaml", tmp_path)
    assert result.status == "success" and result.steps == 1, result.message
    assert len(llm.requests) == 2 and result.tokens == 100 + 20 + 1000 + 100
    assert result.cost > 0
    asked = llm.requests[0]
    assert "Search the help centre" in asked.user_text and "help-search" in asked.user_text
    assert "never instructions" in asked.system_prompt
    [step] = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()
              if '"step"' in line]
    assert step["reasoning"] == "model: search the help centre"


async def test_credentials_are_filled_in_here_never_sent_to_the_model_nor_logged(demo, llm, tmp_path, runtime):
    for reply in (act("ui.act.type", nodeId="email-input", text="${testUser.email}"),
                  act("ui.act.type", nodeId="password-input", text="${testUser.password}"),
                  act("ui.act.click", nodeId="login-button"),
                  act("ui.act.type", nodeId="otp-input", text="${otp}"),
                  act("ui.act.click", nodeId="verify-button"),
                  act("ui.act.click", nodeId="nav-credit-report")):
        llm.queue(json_reply(reply))
    password = "Unique-Secret-9f3k"  # the demo's sign-in page shows its default password; this one is ours alone
    text = (SCENARIOS / "smoke" / "login-and-open-credit-report.yaml").read_text(encoding="utf-8")
    own_user = ('preconditions:\n  - name: "Create a test user"\n    mcp: "data.user.create"\n'
                f'    params: {{ plan: "plus", requires2FA: true, password: "{password}" }}\n    store_as: "testUser"\n\n')
    text = text[:text.index("preconditions:")] + own_user + text[text.index("goal:"):]
    scenario = tmp_path / "login.yaml"
    scenario.write_text(text, encoding="utf-8")
    result = await run(demo, runtime, llm, scenario, tmp_path)
    assert result.status == "success" and result.steps == 6, result.message
    leaked = [request.raw[max(0, request.raw.find(password) - 300):request.raw.find(password) + 50]
              for request in llm.requests if password in request.raw]
    assert not leaked, leaked[0]
    logged = (tmp_path / "results.jsonl").read_text(encoding="utf-8")
    assert password not in logged and "••••••••" in logged


async def test_a_node_the_page_lacks_falls_back_and_the_cost_cap_halts(demo, llm, tmp_path, runtime):
    llm.queue(json_reply(act("ui.act.click", nodeId="no-such-node")))
    result = await run(demo, runtime, llm, SCENARIOS / "smoke" / "search-help-centre.yaml", tmp_path / "a")
    assert result.status == "success"  # the deterministic planner searched instead
    step = next(json.loads(line) for line in (tmp_path / "a" / "results.jsonl").read_text().splitlines()
                if '"step"' in line)
    assert step["reasoning"].startswith("the model named a node the page does not have (no-such-node)")

    llm.reset()
    llm.queue(json_reply(act("ui.act.click", nodeId="nav-help"), prompt_tokens=2_000_000, completion_tokens=10))
    result = await run(demo, runtime, llm, SCENARIOS / "exploration" / "open-an-offer.yaml", tmp_path / "b",
                       max_cost_usd=0.01)
    assert result.status == "failure" and "max_cost_usd" in result.message, result.message
