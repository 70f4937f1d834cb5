"""`${name.field}` and `${env.NAME}` in a scenario's start URL and its goal's conditions are the stored values when
the run starts (studio validate accepted them before, and the run compared the page with the literal `${…}`, so such
a goal could never be met). The goal's description and the hints keep the references: they go to the model."""

from __future__ import annotations

import pytest
import yaml

from studio.scenarios.runner import MissingValue, with_values
from studio.scenarios.spec import Scenario
from tests.scenarios.test_run import studio

SCENARIO = """version: "0.1"
id: order-page
name: Open the order the data call made
context: { start_url: "/orders/${order.id}?tenant=${env.QA_TENANT}" }
goal:
  description: "Open order ${order.id} for ${testUser.email}"
  success:
    conditions:
      - { heading_text: "Order ${order.id}" }
      - { element_visible: { text: "${testUser.email}" } }
  failure: { conditions: [ { url_contains: "/orders/${order.id}/cancelled" } ] }
hints: { triggers: [ { when: "steps >= 2", text: "Type ${testUser.email} into Email" } ] }
"""


def test_the_start_url_and_the_goals_conditions_get_the_stored_values(monkeypatch):
    monkeypatch.setenv("QA_TENANT", "qa-7")
    scenario = Scenario.model_validate(yaml.safe_load(SCENARIO))
    variables = {"order": {"id": 42}, "testUser": {"email": "tess@example.com", "password": "secret"}}
    resolved = with_values(scenario, variables)
    assert resolved.context.start_url == "/orders/42?tenant=qa-7"
    success = resolved.goal.success.conditions
    assert success[0].heading_text == "Order 42" and success[1].element_visible.text == "tess@example.com"
    assert resolved.goal.failure.conditions[0].url_contains == "/orders/42/cancelled"
    # What goes to the model keeps its references, and the scenario as written is unchanged.
    assert resolved.goal.description == "Open order ${order.id} for ${testUser.email}"
    assert resolved.hints.triggers[0].text == "Type ${testUser.email} into Email"
    assert scenario.goal.success.conditions[0].heading_text == "Order ${order.id}"
    with pytest.raises(MissingValue, match=r"\$\{order.id\} has no value"):
        with_values(scenario, {"order": {}, "testUser": variables["testUser"]})


@pytest.mark.browser
def test_a_goal_named_through_the_environment_is_reached_on_the_demo(browser_info, tmp_path, monkeypatch):
    path = tmp_path / "help.yaml"
    path.write_text("""version: "0.1"
id: open-help
name: Open the help page the environment names
context: { start_url: "/${env.QA_HELP_PAGE}" }
goal:
  description: "Open the help center"
  success: { conditions: [ { heading_text: "${env.QA_HELP_HEADING}" } ] }
constraints: { max_steps: 3 }
""", encoding="utf-8")
    monkeypatch.setenv("QA_HELP_PAGE", "help")
    monkeypatch.setenv("QA_HELP_HEADING", "Help Center")
    done = studio("run", str(path), "--demo", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Pass Rate: 100% (1/1)" in done.stdout
