"""The deterministic planner on observations written by hand: it signs in with the stored user, types the TOTP code,
searches for the goal's quoted phrase, fills a wizard step, and clicks what matches the goal — never a way out."""

from __future__ import annotations

import pyotp

from studio.scenarios.observe import Observation, UINode
from studio.scenarios.planner import DeterministicPlanner
from studio.scenarios.spec import Scenario

USER = {"email": "a@b.example", "password": "Secret-1", "otpSecret": pyotp.random_base32()}


def scenario(description: str, **success) -> Scenario:
    return Scenario.model_validate({"id": "s", "name": "S", "context": {"start_url": "/"}, "goal": {
        "description": description, "success": {"conditions": [success or {"url_contains": "/x"}]}}})


def page(url: str, *nodes: dict) -> Observation:
    return Observation(url=url, nodes=[UINode.model_validate(n) for n in nodes])


def test_it_signs_in_with_the_stored_user_then_types_the_code():
    planner = DeterministicPlanner(scenario("View the credit report", url_contains="/credit-report"),
                                   {"testUser": USER})
    login = [{"id": "email", "role": "textbox", "name": "Email", "inputType": "email", "value": "", "form": "f"},
             {"id": "pw", "role": "textbox", "name": "Password", "inputType": "password", "value": "", "form": "f"},
             {"id": "go", "role": "button", "name": "Sign in", "form": "f"},
             {"id": "nav-report", "role": "link", "name": "Credit Report", "href": "/credit-report", "landmark": "nav"}]
    first = planner.next_action(page("http://h/login", *login), [])
    assert first.as_json() == {"type": "ui.act.type", "params": {"nodeId": "email", "text": USER["email"],
                                                                 "clear": True}}
    login[0]["value"] = USER["email"]
    assert planner.next_action(page("http://h/login", *login), []).params["nodeId"] == "pw"
    login[1]["value"] = "••••"
    assert planner.next_action(page("http://h/login", *login), []).as_json() == {
        "type": "ui.act.click", "params": {"nodeId": "go"}}
    code = [{"id": "otp", "role": "textbox", "name": "One-time code", "value": "", "form": "f2"},
            {"id": "verify", "role": "button", "name": "Verify", "form": "f2"}]
    typed = planner.next_action(page("http://h/login", *code), [])
    assert typed.params["nodeId"] == "otp" and pyotp.TOTP(USER["otpSecret"]).verify(typed.params["text"])


def test_it_searches_for_the_quoted_phrase():
    planner = DeterministicPlanner(scenario('Search the help centre for "dispute"'), {})
    action = planner.next_action(page("http://h/help", {"id": "q", "role": "searchbox", "name": "Search",
                                                         "value": ""}), [])
    assert action.as_json() == {"type": "ui.act.type", "params": {"nodeId": "q", "text": "dispute", "clear": True,
                                                                  "submit": True}}


def test_it_clicks_what_matches_the_goal_and_never_a_way_out():
    planner = DeterministicPlanner(scenario("Open the details of a credit offer", url_contains="/offers/"), {})
    nodes = [{"id": "out", "role": "button", "name": "Sign out offers details"},
             {"id": "home", "role": "link", "name": "Dashboard", "href": "/dashboard", "landmark": "nav"},
             {"id": "offers", "role": "link", "name": "Offers", "href": "/offers", "landmark": "nav"},
             {"id": "card", "role": "link", "name": "Learn More", "href": "/offers/aurora"}]
    assert planner.next_action(page("http://h/dashboard", *nodes), []).params["nodeId"] == "card"  # /offers/ target
    here = page("http://h/offers", *nodes[:3])
    # nothing matches: it explores the navigation, but never a link to this page nor a way out
    assert planner.next_action(here, []).params["nodeId"] == "home"
    assert planner.next_action(page("http://h/offers", *nodes[:1]), []) is None


def test_a_wizard_step_is_filled_then_sent():
    planner = DeterministicPlanner(scenario("File a dispute"), {})
    step = [{"id": "acct", "role": "combobox", "name": "Account", "options": ["Choose…", "Visa 1234"], "value": "Choose…",
             "form": "wizard"},
            {"id": "r1", "role": "radio", "name": "Not mine", "checked": False, "form": "wizard"},
            {"id": "next", "role": "button", "name": "Next", "form": "wizard"}]
    assert planner.next_action(page("http://h/disputes", *step), []).as_json() == {
        "type": "ui.act.select", "params": {"nodeId": "acct", "option": "Visa 1234"}}
    step[0]["value"] = "Visa 1234"
    assert planner.next_action(page("http://h/disputes", *step), []).params == {"nodeId": "r1", "checked": True}
    step[1]["checked"] = True
    assert planner.next_action(page("http://h/disputes", *step), []).params == {"nodeId": "next"}
