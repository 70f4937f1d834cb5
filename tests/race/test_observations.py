"""The preflight checks: each fact, hit-testing through shadow roots and frames, isolation, zero mutation."""

from __future__ import annotations

import pytest

from tests.race import pages
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser


def by_type(observations):
    return {item.type: item for item in observations}


async def test_the_loading_scrim_is_reported_as_coverage(race, page, demo):
    demo.configure(hydration_ms=(3000, 3000))
    await page.goto(demo.base_url + "/products")
    text = (await race.snapshot()).text
    # Placeholder cards are alphabetical until hydration: the first one is in view (observe never scrolls).
    button = ref_after(text, '"AirPods Pro (2nd gen)"', '"Add to Cart"')
    facts = by_type(await race.observe(button))
    coverage = facts["coverage"]
    assert coverage.isTargetOrDescendant is False
    assert coverage.elementAtPoint.testId == "loading-scrim" and coverage.elementAtPoint.zIndex == "9999"
    assert coverage.targetElement.ref == button and coverage.targetElement.tag == "button"
    assert facts["attachment"].isConnected is True
    assert facts["aria_state"].ariaBusy and facts["aria_state"].setBy != button


async def test_an_uncovered_element_reports_itself_at_its_point(race, page):
    await page.set_content("<button style='margin:40px'>Free</button>")
    button = ref_of((await race.snapshot()).text, '"Free"')
    facts = by_type(await race.observe(button))
    assert facts["coverage"].isTargetOrDescendant is True
    assert facts["viewport"].inViewport and facts["viewport"].intersectionRatio == 1
    blocking, point = await race.observe_for_action(button)
    assert blocking == [] and point is not None  # nothing stands in the way of a click


async def test_a_partly_off_screen_element_reports_the_point_it_was_hit_tested_at(race, page):
    # Half the button is left of the viewport: the click point is the centre of the visible half, and a strip
    # over that point (not over the whole box's centre, at x=0) is what receives the click.
    await page.set_content(
        "<button style='position:absolute;left:-60px;top:100px;width:120px;height:40px'>Half</button>"
        "<div data-testid='strip' style='position:absolute;left:20px;top:90px;width:20px;height:60px'></div>")
    cover = by_type(await race.observe(ref_of((await race.snapshot()).text, '"Half"')))["coverage"]
    assert (cover.elementCenter.x, cover.elementCenter.y) == (30, 120)
    assert not cover.isTargetOrDescendant and cover.elementAtPoint.testId == "strip"


async def test_hit_testing_follows_shadow_roots_and_frames(race, page):
    await page.set_content(pages.SHADOW_AND_FRAME)
    await page.frame_locator("#frame").get_by_role("button", name="Pay").wait_for()
    text = (await race.snapshot()).text
    # The fixed banner inside the shadow root covers the heading at the top of the page.
    heading = ref_of(text, 'heading1 "Widgets"')
    cover = by_type(await race.observe(heading))["coverage"]
    assert not cover.isTargetOrDescendant and cover.elementAtPoint.testId == "shadow-banner"
    # Inside the same-origin frame, a veil covers the Pay button: found by hit-testing into the frame.
    pay = ref_of(text, '"Pay"')
    inside = by_type(await race.observe(pay))["coverage"]
    assert not inside.isTargetOrDescendant and inside.elementAtPoint.id == "veil"
    frame_box = await page.locator("#frame").bounding_box()
    assert inside.elementCenter.x > frame_box["x"]  # top-document coordinates, frame offset included


async def test_running_animations_on_the_element_and_its_ancestors(race, page):
    await page.set_content(pages.ANIMATED)
    text = (await race.snapshot()).text
    moving, still = ref_of(text, '"Moving"'), ref_of(text, '"Still"')
    animations = [item for item in await race.observe(moving) if item.type == "animation"]
    assert len(animations) == 1
    card = animations[0]
    # The seed's ref is the element acted on; the ancestor that runs the animation is named beside it.
    assert card.ref == moving and card.moved_by_ancestor()
    assert card.animatedElement.model_dump() == {"ref": ref_of(text, "#card"), "tag": "div", "testId": "card"}
    assert card.animations[0].animationName == "spin"
    assert card.animations[0].playState == "running" and card.computedStyle.animationDuration == "2s"
    assert not [item for item in await race.observe(still) if item.type == "animation"]

    spinning = ref_of(text, '"Spinning itself"')
    (own,) = [item for item in await race.observe(spinning) if item.type == "animation"]
    assert own.ref == spinning and own.animatedElement.ref == spinning and not own.moved_by_ancestor()


async def test_a_transition_has_no_animation_name_and_its_style_says_what_moves(race, page):
    await page.set_content(pages.ANIMATED)
    fading = ref_of((await race.snapshot()).text, '"Fading"')
    await page.get_by_role("button", name="Fading").click()
    (fact,) = [item for item in await race.observe(fading) if item.type == "animation"]
    assert [(a.animationName, a.playState) for a in fact.animations] == [(None, "running")]
    assert fact.computedStyle.transitionProperty == "opacity, color"
    assert fact.model_dump(mode="json")["animations"][0]["animationName"] is None  # kept as null in the JSON
    assert fact.label(fact.animations[0]) == "a transition of opacity, color"


async def test_links_form_states_aria_and_pointer_events(race, page):
    await page.set_content(pages.STATES)
    text = (await race.snapshot()).text
    link = by_type(await race.observe(ref_of(text, "Go to checkout")))["navigation"]
    assert link.linkAncestor.href == "/checkout" and link.linkAncestor.isTarget and link.element.tag == "a"

    locked = by_type(await race.observe(ref_of(text, '"Locked"')))["input_state"]
    assert locked.disabled and locked.tag == "button"
    reference = by_type(await race.observe(ref_of(text, '"Reference"')))["input_state"]
    assert reference.readOnly and reference.value == "fixed"
    secret = by_type(await race.observe(ref_of(text, "#pw")))["input_state"]
    assert secret.inputType == "password" and secret.value is None  # never the typed password
    agree = by_type(await race.observe(ref_of(text, "#agree")))["input_state"]
    assert agree.checked is True

    busy_child = by_type(await race.observe(ref_of(text, '"Busy child"')))["aria_state"]
    assert busy_child.ariaBusy and busy_child.setBy == ref_of(text, "#busy-list")
    assert by_type(await race.observe(ref_of(text, '"Inert child"')))["aria_state"].inert
    assert by_type(await race.observe(ref_of(text, '"Ghost"')))["pointer_events"].pointerEvents == "none"

    far = by_type(await race.observe(ref_of(text, "#far")))["viewport"]
    assert not far.inViewport and far.boundingBox.y > far.viewport.height and far.scroll.y == 0
    assert "coverage" not in by_type(await race.observe(ref_of(text, "#far")))


async def test_checks_are_isolated_from_page_scripts_and_change_nothing(race, page):
    await page.set_content(pages.STATES)
    # A page script that sabotages hit-testing and watches every DOM change.
    await page.evaluate("""() => {
        Document.prototype.elementFromPoint = () => null;
        window.__mutations = 0;
        new MutationObserver(list => { window.__mutations += list.length; })
            .observe(document, {subtree: true, attributes: true, childList: true, characterData: true});
    }""")
    text = (await race.snapshot()).text
    for fragment in ('"Locked"', '"Busy child"', "Go to checkout", "#name", "#far"):
        await race.observe(ref_of(text, fragment))
    cover = by_type(await race.observe(ref_of(text, '"More"')))["coverage"]
    assert cover.isTargetOrDescendant  # our world's elementFromPoint is the browser's own
    assert await page.evaluate("window.__mutations") == 0
    assert await page.evaluate("typeof window.__pfs") == "undefined"  # the page cannot see the library
    assert await page.evaluate("scrollY") == 0


async def test_paint_only_transitions_are_facts_but_do_not_block_a_click(race, page):
    await page.set_content("<style>button { transition: background-color 3s }</style><button>Tint</button>")
    ref = ref_of((await race.snapshot()).text, '"Tint"')
    await page.evaluate("document.querySelector('button').style.backgroundColor = 'red'")
    assert [o for o in await race.observe(ref) if o.type == "animation"]  # state mode: every fact
    blocking, _ = await race.observe_for_action(ref)
    assert not [o for o in blocking if o.type == "animation"]  # a colour change does not move the button
