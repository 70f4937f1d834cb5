"""PilotExecutor on the demo app in a real Chromium: the race preflight's facts for a blocked click, the repetition
limit, verify's "what was seen", normalization reported with the action."""

from __future__ import annotations

import pytest

from studio.pilot.actions import parse_action_file
from studio.pilot.executor import PilotExecutor

pytestmark = pytest.mark.browser


def actions(text: str):
    return parse_action_file(text).actions


async def test_a_click_under_the_loading_scrim_is_blocked_with_its_facts(page, driver, demo, tmp_path):
    demo.configure(hydration_ms=(20_000, 20_000), shuffle_products=False)
    await page.goto(demo.base_url + "/products")
    executor = PilotExecutor(driver, tmp_path, timeout_ms=1500)
    [click] = actions('{"action": "click", "selector": "[data-testid=add-to-cart]"}')
    outcome = await executor.execute(click)
    assert not outcome.ok and outcome.blocked is not None
    assert any(fact["type"] == "coverage" and fact["elementAtPoint"]["testId"] == "loading-scrim"
               for fact in outcome.blocked.facts)
    assert "covered" in outcome.blocked.reason and "did not happen" in (outcome.error or "")
    assert await page.get_by_test_id("cart-count").inner_text() == "0"  # nothing was clicked


async def test_the_third_identical_action_in_a_row_is_refused_not_run(page, driver, demo, tmp_path):
    await page.goto(demo.base_url + "/help")
    executor = PilotExecutor(driver, tmp_path)
    [scroll] = actions('{"action": "scroll", "value": 50}')
    [other] = actions('{"action": "scroll", "value": -50}')
    results = [await executor.execute(scroll), await executor.execute(scroll), await executor.execute(scroll)]
    assert [(r.ok, r.refused) for r in results] == [(True, False), (True, False), (False, True)]
    assert results[2].error and "Refused" in results[2].error and "did not run" in results[2].error
    assert await page.evaluate("window.scrollY") == 100  # the refused one did not scroll
    assert (await executor.execute(other)).ok  # something else runs again
    assert (await executor.execute(scroll)).ok


async def test_verify_says_what_it_saw_and_normalization_is_reported(page, driver, demo, tmp_path):
    await page.goto(demo.base_url + "/help")
    executor = PilotExecutor(driver, tmp_path)
    [good, bad] = actions('[{"action": "verify", "expect": [{"type": "url", "value": "/help"},'
                          ' {"type": "visible", "selector": "h1"}]},'
                          '{"action": "verify", "expect": [{"type": "title", "value": "Nowhere to be seen"}]}]')
    assert (await executor.execute(good)).ok
    failed = await executor.execute(bad)
    assert not failed.ok and failed.error and failed.error.startswith("Expected title 'Nowhere to be seen', but the "
                                                                      "title is")
    [hover] = actions('{"action": "hover", "selector": "a:contains(Products)"}')
    outcome = await executor.execute(hover)
    assert outcome.ok, outcome.error
    assert (outcome.selector, outcome.rules) == ("a:has-text('Products')", ["jquery-contains", "unquoted-has-text"])
    assert outcome.action["selector"] == "a:contains(Products)"  # as given


async def test_type_select_press_and_a_missing_element(page, driver, demo, tmp_path):
    await page.goto(demo.base_url + "/login")
    executor = PilotExecutor(driver, tmp_path, timeout_ms=800)
    for action in actions('[{"action": "type", "selector": "#email", "value": "someone@example.com"},'
                          '{"action": "press", "selector": "#email", "value": "End"},'
                          '{"action": "screenshot"}]'):
        outcome = await executor.execute(action)
        assert outcome.ok, outcome.error
    assert outcome.detail and (tmp_path / outcome.detail.split("/")[-1]).exists()
    assert await page.locator("#email").input_value() == "someone@example.com"
    [missing] = actions('{"action": "click", "selector": "#no-such-button"}')
    outcome = await executor.execute(missing)
    assert not outcome.ok and outcome.error and outcome.error.startswith("No element matches '#no-such-button'")
    [unknown] = actions('{"action": "press", "value": "NoSuchKey"}')  # on the focus: a key the keyboard lacks
    outcome = await executor.execute(unknown)
    assert not outcome.ok and outcome.error and outcome.error.startswith("Pressing 'NoSuchKey' failed")
