"""The recorder: a step keeps its locator, the facts seen before it, the requests it caused and what changed."""

from __future__ import annotations

import pytest

from studio.race.actions import ActionRunner
from studio.race.recorder import StepRecorder
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser


async def add_to_cart_like_an_agent(recorder, race, product: str, attempts: int = 8):
    for _ in range(attempts):
        ref = ref_after((await race.snapshot()).text, f'"{product}"', '"Add to Cart"')
        outcome = await recorder.act("click", ref)
        if outcome.acted:
            return outcome
    raise AssertionError("the click never happened")


async def test_recording_add_to_cart_keeps_the_facts_that_shaped_it(race, page, demo):
    # Long enough that the first click meets the scrim on a loaded machine (the recorder's navigate alone waits for
    # the page to go quiet).
    demo.configure(hydration_ms=(3000, 3000), seed=4)
    steps = []
    recorder = StepRecorder(race, ActionRunner(race), "s1", steps.append)
    await recorder.navigate(demo.base_url + "/products")
    await add_to_cart_like_an_agent(recorder, race, "iPhone 15 Pro")

    navigate, click = steps
    assert navigate.action == "navigate" and navigate.url.endswith("/products") and navigate.index == 0
    assert click.index == 1 and click.action == "click" and click.origin == "agent"
    assert click.locator.python() == ('page.get_by_test_id("product-card").filter(has_text="iPhone 15 Pro")'
                                      '.get_by_role("button", name="Add to Cart", exact=True)')
    kinds = {o.type for o in click.observations}
    assert "coverage" in kinds  # the scrim, seen on the button before hydration replaced it
    scrim = next(o for o in click.observations if o.type == "coverage").elementAtPoint.ref
    assert click.related_locators[scrim].python() == 'page.get_by_test_id("loading-scrim")'
    assert [(r.method, r.url.split("/", 3)[-1], r.status) for r in click.requests] == [("POST", "api/cart/add", 200)]
    assert click.outcome.status_texts == ["iPhone 15 Pro added to cart"]
    assert click.outcome.url_before == click.outcome.url_after


async def test_secrets_are_recorded_as_environment_variables_only(race, page, demo):
    user = demo.create_user()
    steps = []
    recorder = StepRecorder(race, ActionRunner(race), "s1", steps.append)
    await recorder.navigate(demo.base_url + "/login")
    text = (await race.snapshot()).text
    await recorder.act("fill", ref_of(text, "#email-input"), value=user["email"])
    await recorder.act("fill", ref_of(text, "#password-input"), value=user["password"])
    await recorder.act("click", ref_of(text, "#login-button"))
    email, password, submit = steps[1:]
    assert email.value == user["email"] and email.secret_env is None
    assert password.value is None and password.secret_env == "STUDIO_PASSWORD"
    assert user["password"] not in "".join(step.model_dump_json() for step in steps)
    assert submit.outcome.url_after.endswith("/dashboard")
    assert any(r.method == "POST" and r.url.endswith("/api/login") for r in submit.requests)


async def test_error_messages_are_kept_as_alerts(race, page, demo):
    user = demo.create_user()
    steps = []
    recorder = StepRecorder(race, ActionRunner(race), "s1", steps.append)
    await recorder.navigate(demo.base_url + "/login")
    text = (await race.snapshot()).text
    await recorder.act("fill", ref_of(text, "#email-input"), value=user["email"])
    await recorder.act("fill", ref_of(text, "#password-input"), value="wrong password")
    await recorder.act("click", ref_of(text, "#login-button"))
    outcome = steps[-1].outcome
    assert outcome.alert_texts == ["Invalid email or password."] and outcome.status_texts == []


def test_a_covering_element_gone_before_its_locator_was_made_keeps_its_test_id():
    """Facts name the scrim by ref and test id; when it has cleared before a locator could be synthesized from the
    live page (a loaded machine), the test id the fact carries gives the locator."""
    from studio.models.race import Observation
    from studio.race.recorder import test_id_locators
    from pydantic import TypeAdapter

    fact = {"type": "coverage", "ref": "e5", "observedAt": 1.0, "elementCenter": {"x": 1, "y": 1},
            "elementAtPoint": {"ref": "e70", "tag": "div", "testId": "loading-scrim", "zIndex": "10", "opacity": "1",
                               "display": "block"},
            "targetElement": {"ref": "e5", "tag": "button"}, "isTargetOrDescendant": False}
    observation = TypeAdapter(Observation).validate_python(fact)
    assert test_id_locators([observation])["e70"].python() == 'page.get_by_test_id("loading-scrim")'
