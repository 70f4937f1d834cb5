"""Race checks on the hazards page (tests/apps/hazards_app.py): hidden buttons, an <a> used as a button and a link
in a rotated container are reported as what they are, and acted on as Playwright would."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from studio.race.actions import ActionRunner
from studio.race.fact_lines import fact_line
from tests.apps.hazards_app import OVERLAY_GONE_AT_S, HazardsApp

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app():
    with HazardsApp() as served:
        yield served


async def ref_of_test_id(race, test_id: str) -> str:
    element, _ = await race.ref_for_selector(f'[data-testid="{test_id}"]')
    return element.ref


async def test_hidden_buttons_are_reported_as_not_visible_and_never_clicked(race, page, app):
    await page.goto(app.entry_url)
    runner = ActionRunner(race, timeout_ms=300)
    # test id: (its own display, its own visibility, the test id of what hides it)
    expected = {"hidden-self": ("none", "visible", "hidden-self"),
                "hidden-ancestor": ("inline-block", "visible", "collapsed-panel"),
                "invisible": ("inline-block", "hidden", "invisible")}
    for test_id, (display, visibility, hider) in expected.items():
        ref = await ref_of_test_id(race, test_id)
        first = await runner.run("click", ref)
        # The visibility fact alone: not "nothing in the way", and not "covered by" whatever lies under it.
        assert not first.acted and [fact.type for fact in first.observations] == ["visibility"], test_id
        (fact,) = first.observations
        assert fact.ref == ref and not fact.isVisible
        assert (fact.display, fact.visibility) == (display, visibility)
        assert fact.hiddenBy is not None and fact.hiddenBy.testId == hider
        assert fact.hiddenBy.isTarget == (hider == test_id)
        assert fact.hiddenBy.display == ("none" if hider != "invisible" else "inline-block")
        again = await runner.run("click", ref)  # acknowledged: waits for it to show, as Playwright would; it never does
        assert not again.acted and [fact.type for fact in again.observations] == ["visibility"]

    panel = await ref_of_test_id(race, "hidden-ancestor")
    (state,) = [fact for fact in await race.observe(panel) if fact.type == "visibility"]
    assert fact_line(state) == (f"visibility: hidden by ancestor div [data-testid=collapsed-panel] "
                                f"({state.hiddenBy.ref}) (display none, visibility visible); display inline-block, "
                                "visibility visible, opacity 1, box 0x0")
    saved = await ref_of_test_id(race, "normal-button")
    (shown,) = [fact for fact in await race.observe(saved) if fact.type == "visibility"]
    assert shown.isVisible and shown.hiddenBy is None and shown.size.width > 0


async def test_an_anchor_without_href_is_a_button_not_a_link(race, runner, page, app):
    await page.goto(app.entry_url)
    anchor = await ref_of_test_id(race, "anchor-button")
    assert not [fact for fact in await race.observe(anchor) if fact.type == "navigation"]
    outcome = await runner.run("click", anchor)  # nothing stands in the way: it is clicked at once
    assert outcome.acted and outcome.observations == []
    await expect(page.get_by_test_id("anchor-count")).to_have_text("Notes added: 1")


async def test_a_link_in_a_rotated_container_cut_by_the_viewport_is_hit_where_playwright_clicks(race, runner, page,
                                                                                               app):
    # 236 px high: the viewport cuts the rotated link's box, and the middle of what is left of that (upright) box is
    # a corner the link does not cover (the rotated ribbon is there). The middle of its cut quad is on the link.
    await page.set_viewport_size({"width": 1280, "height": 236})
    await page.goto(app.entry_url)
    link = await ref_of_test_id(race, "rotated-link")
    facts = await race.observe(link)
    (cover,) = [fact for fact in facts if fact.type == "coverage"]
    assert cover.isTargetOrDescendant, cover.elementAtPoint
    # A link within the document (#badge) is followed at once, and the outcome says where it led.
    first = await runner.run("click", link)
    assert first.acted
    assert [fact.type for fact in first.observations] == ["navigation"]
    assert first.observations[0].linkAncestor.href == "#badge"
    await expect(page.get_by_test_id("rotated-status")).to_have_text("Badge claimed")
    assert page.url.endswith("#badge")


async def test_a_link_wrapped_over_two_lines_is_hit_on_its_first_line(race, runner, page):
    # The middle of the two lines' bounding box is in the gap between them (the paragraph); Playwright clicks the
    # middle of the first line's box.
    await page.set_content(
        "<p style='width:220px;font:20px/40px sans-serif'>Some words first and then "
        "<a href='#read' onclick='document.title = \"read\"'>read the whole story</a></p>")
    link = (await race.ref_for_selector("a"))[0].ref
    lines, at_middle = await page.evaluate("""() => {
        const a = document.querySelector('a'), box = a.getBoundingClientRect();
        return [a.getClientRects().length,
                document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2).tagName];
    }""")
    assert (lines, at_middle) == (2, "P")  # the page is what the test is about
    (cover,) = [fact for fact in await race.observe(link) if fact.type == "coverage"]
    assert cover.isTargetOrDescendant, cover.elementAtPoint
    assert (await runner.run("click", link)).observations[0].type == "navigation"
    assert (await runner.run("click", link)).acted
    await expect(page).to_have_title("read")


async def test_the_covered_button_is_still_reported_covered_until_the_overlay_goes(race, runner, page, app):
    await page.goto(app.entry_url, wait_until="domcontentloaded")
    covered = await ref_of_test_id(race, "covered-button")
    facts = await race.observe(covered)
    if await page.evaluate("performance.now()") < OVERLAY_GONE_AT_S * 1000 - 400:
        (cover,) = [fact for fact in facts if fact.type == "coverage"]
        assert not cover.isTargetOrDescendant
        assert next(fact for fact in facts if fact.type == "visibility").isVisible  # covered, not hidden
    outcome = await runner.run("click", covered)
    if not outcome.acted:
        outcome = await runner.run("click", covered)  # acknowledged: waits for the overlay to go
    assert outcome.acted
    await expect(page.get_by_test_id("covered-count")).to_have_text("Unread: 0")
