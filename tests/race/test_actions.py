"""Actions with race preflight against the demo app: report first, act when repeated, typed errors."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import expect

from studio.race.actions import ActionRunner
from studio.race.errors import RaceError
from tests.race import pages
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser


async def test_a_covered_click_reports_facts_then_acts_when_repeated(race, runner, page, demo):
    demo.configure(hydration_ms=(1500, 1500), shuffle_products=False)
    await page.goto(demo.base_url + "/products")
    button = ref_after((await race.snapshot()).text, '"AirPods Pro (2nd gen)"', '"Add to Cart"')
    first = await runner.run("click", button)
    reply = first.to_seed_json()
    assert reply["clicked"] is False
    assert any(o["type"] == "coverage" and o["elementAtPoint"]["testId"] == "loading-scrim" for o in reply["observations"])
    assert await page.get_by_test_id("cart-count").inner_text() == "0"  # nothing was clicked

    # Seen: wait for what can clear … but hydration replaces the button. The retry finds the new one by the old
    # one's locator, waits for it to clear too, and clicks it.
    outcome = await runner.run("click", button)
    reply = outcome.to_seed_json()
    assert reply == {"clicked": True, "ref": reply["ref"], "timestamp": outcome.timestamp} and reply["ref"] != button
    # The new button's ref (the card may be drawn again after the click, so a later snapshot may name it anew).
    assert outcome.reResolved is not None and (outcome.reResolved.from_ref, outcome.reResolved.to_ref) == \
        (button, reply["ref"])
    await expect(page.get_by_role("status")).to_contain_text("AirPods Pro (2nd gen) added to cart")


async def test_with_preflight_disabled_the_click_happens_at_once(race, page, demo):
    demo.configure(hydration_ms=(2000, 2000), shuffle_products=False)
    await page.goto(demo.base_url + "/products")
    race.preflight = False
    runner = ActionRunner(race)
    button = ref_after((await race.snapshot()).text, '"AirPods Pro (2nd gen)"', '"Add to Cart"')
    outcome = await runner.run("click", button)
    assert outcome.acted  # it clicked — on the scrim, which is what a naive script does
    await asyncio.sleep(0.3)
    assert await page.get_by_test_id("cart-count").inner_text() == "0"


async def test_a_link_click_reports_navigation_once_then_follows_it(race, runner, page, demo):
    await page.goto(demo.base_url + "/help")
    link = ref_of((await race.snapshot()).text, 'link "Products"')
    first = await runner.run("click", link)
    assert not first.acted and first.observations[0].type == "navigation"
    assert first.observations[0].linkAncestor.href == "/products"
    second = await runner.run("click", link)
    assert second.acted
    await page.wait_for_url("**/products")


async def test_fill_type_press_select_check_and_hover(race, runner, page, demo):
    user = demo.create_user()
    await page.goto(demo.base_url + "/login")
    text = (await race.snapshot()).text
    assert (await runner.run("fill", ref_of(text, "#email-input"), value=user["email"])).acted
    assert (await runner.run("type", ref_of(text, "#password-input"), value=user["password"])).acted
    assert (await runner.run("press", ref_of(text, "#password-input"), key="Enter")).acted
    await page.wait_for_url("**/dashboard")

    await page.goto(demo.base_url + "/disputes")
    text = (await race.snapshot()).text
    account = ref_of(text, 'combobox "Account')
    options = await page.get_by_label("Account", exact=True).evaluate("s => [...s.options].map(o => o.textContent)")
    assert (await runner.run("select", account, value=options[1].strip())).acted
    assert await page.get_by_label("Account", exact=True).evaluate("s => s.selectedIndex") == 1
    with pytest.raises(RaceError) as missing:
        await runner.run("select", account, value="No such account")
    assert missing.value.kind == "not_actionable" and "options:" in missing.value.message
    radio = ref_of(text, "radio")
    assert (await runner.run("check", radio)).acted
    assert await page.get_by_role("radio").first.is_checked()

    await page.goto(demo.base_url + "/help")
    text = (await race.snapshot()).text
    search = ref_of(text, "#help-search")
    assert (await runner.run("fill", search, value="dispute")).acted
    assert await page.get_by_test_id("help-search").input_value() == "dispute"
    assert (await runner.run("fill", search, value="")).acted
    assert await page.get_by_test_id("help-search").input_value() == ""
    assert (await runner.run("hover", ref_of(text, 'link "Products"'))).acted
    with pytest.raises(RaceError) as not_text:
        await runner.run("fill", ref_of(text, "heading1"), value="x")
    assert not_text.value.kind == "not_actionable" and "keyboard input" in not_text.value.message


async def test_typing_into_a_readonly_field_reports_it_and_types_nothing(race, runner, page):
    await page.set_content(pages.FIELDS)
    reference = ref_of((await race.snapshot()).text, "#reference")
    outcome = await runner.run("fill", reference, value="changed")
    assert outcome.to_seed_json()["filled"] is False
    (fact,) = outcome.observations
    assert (fact.type, fact.readOnly, fact.disabled, fact.value) == ("input_state", True, False, "fixed")
    assert await page.get_by_test_id("reference").input_value() == "fixed"
    assert not (await runner.run("type", reference, value="x")).acted
    # Readonly stops typing only: clicking or hovering the field is fine.
    assert (await runner.run("click", reference)).acted
    assert (await runner.run("hover", reference)).acted


async def test_fill_on_a_button_is_an_error_not_a_success(race, runner, page):
    await page.set_content(pages.FIELDS)
    save = ref_of((await race.snapshot()).text, "#save")
    for action in ("fill", "type"):
        with pytest.raises(RaceError) as raised:
            await runner.run(action, save, value="hello")
        assert raised.value.kind == "not_actionable"
        assert raised.value.message.startswith(f"{save} is a <button>, which does not take keyboard input")
    assert await page.evaluate("window.saved") is None  # no key reached the button


async def test_disabled_busy_and_covered_targets_block_typing_and_hovering(race, runner, page):
    await page.set_content(pages.FIELDS)
    text = (await race.snapshot()).text
    disabled = await runner.run("fill", ref_of(text, "#code"), value="1234")
    assert not disabled.acted and [(o.type, o.disabled) for o in disabled.observations] == [("input_state", True)]
    busy = await runner.run("fill", ref_of(text, "#amount"), value="10")
    assert not busy.acted and [(o.type, o.ariaBusy, o.setBy) for o in busy.observations] == [
        ("aria_state", True, ref_of(text, "#busy-form"))]
    assert await page.get_by_test_id("amount").input_value() == ""
    hover = await runner.run("hover", ref_of(text, "#covered"))
    assert not hover.acted and [(o.type, o.elementAtPoint.testId) for o in hover.observations] == [("coverage", "veil")]
    assert await page.evaluate("window.hovered") is None


async def test_bad_input_gives_typed_errors(race, runner, page, demo):
    await page.goto(demo.base_url + "/help")
    text = (await race.snapshot()).text
    link = ref_of(text, 'link "Products"')
    for call, kind in (
        (runner.run("click", "e99999"), "unknown_ref"),
        (runner.run("click", "#help-search"), "bad_input"),
        (runner.run("fill", link), "bad_input"),
        (runner.run("press", link), "bad_input"),
    ):
        with pytest.raises(RaceError) as raised:
            await call
        assert raised.value.kind == kind and raised.value.message.endswith((".", ")"))
    await page.goto(demo.base_url + "/privacy")
    with pytest.raises(RaceError) as stale:
        await runner.run("click", link)
    assert stale.value.kind == "stale_ref"
    await page.close()
    with pytest.raises(RaceError) as closed:
        await race.snapshot()
    assert closed.value.kind == "context_closed"


async def test_a_navigation_between_the_check_and_the_click_is_navigated_and_clicks_nothing(race, runner, page, demo):
    await page.goto(demo.base_url + "/help")
    search = ref_of((await race.snapshot()).text, "#help-search")

    async def leave() -> None:  # the page moves on after the check passed, right before the click
        await page.goto(demo.base_url + "/privacy")
        await page.evaluate("window.clicks = 0; addEventListener('click', () => window.clicks++, true)")

    with pytest.raises(RaceError) as raised:
        await runner.run("click", search, before_act=leave)
    assert raised.value.kind == "navigated"
    assert raised.value.message == (f"The page navigated away during the click on {search}, before it was done. "
                                    "Take a new snapshot and try again.")
    assert await page.evaluate("window.clicks") == 0  # the old page's click point was not clicked on the new one
    with pytest.raises(RaceError) as later:  # afterwards the ref is simply stale
        await runner.run("click", search)
    assert later.value.kind == "stale_ref"


async def test_a_page_stuck_in_a_busy_loop_gives_a_timeout_not_a_hang(race, runner, page):
    await page.set_content(pages.BUSY)
    text = (await race.snapshot()).text
    assert (await runner.run("click", ref_of(text, '"Freeze"'))).acted  # the loop starts 50 ms later
    await asyncio.sleep(0.2)
    race.world.timeout_s = 1  # instead of 10 s, in a test
    for call in (race.snapshot(), runner.run("click", ref_of(text, '"Other"'))):
        with pytest.raises(RaceError) as raised:
            await call
        assert raised.value.kind == "timeout"
        assert raised.value.message.startswith("The page did not answer within 1 s while ")
        assert raised.value.message.endswith("Reload the page or open another one, then try again.")
