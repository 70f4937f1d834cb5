"""The elements stacked at a point, as the inspector reaches beneath an overlay: top first, through shadow roots
and same-origin frames, and an element found again by its locator after a reload (real Chromium)."""

from __future__ import annotations

from studio.models.locator import LocatorSpec, LocatorStep
from studio.race.pick_stack import elements_at, find_again

PAGE = """
<main style="display:block; height:400px">
  <section aria-label="Checkout" style="display:block; height:400px">
    <button data-testid="pay" style="position:absolute; left:40px; top:40px; width:200px; height:60px">Pay</button>
    <div id="host" style="position:absolute; left:40px; top:140px; width:200px; height:60px"></div>
    <iframe srcdoc="<button style='width:180px;height:40px'>Inside</button>"
            style="position:absolute; left:40px; top:240px; width:220px; height:80px; border:0"></iframe>
  </section>
</main>
<div data-testid="scrim" role="status" style="position:fixed; inset:0; background:rgba(0,0,0,.3)">Loading…</div>
<script>
  document.getElementById('host').attachShadow({mode: 'open'}).innerHTML =
    '<button style="width:200px;height:60px">Shadow save</button>';
</script>
"""


def _names(stack) -> list[str]:
    return [f"{item.element.role or item.element.tag}:{item.element.name or item.element.testId or ''}"
            for item in stack.elements]


async def test_the_stack_at_a_point_starts_with_the_overlay_and_reaches_the_button_it_covers(race, page):
    await page.set_content(PAGE)
    stack = await elements_at(race, 140, 70)
    assert _names(stack)[:4] == ["status:Loading…", "button:Pay", "region:Checkout", "main:"]
    assert stack.position(1) == f"2 of {len(stack.elements)} at this point"
    assert (await race.pick(140, 70))[0].ref == stack.elements[0].element.ref  # the top is what a plain pick takes
    box = stack.elements[1].box
    assert (box.x, box.y, box.width, box.height) == (40, 40, 200, 60)


async def test_the_stack_goes_through_shadow_roots_and_same_origin_frames(race, page):
    await page.set_content(PAGE)
    await page.frame_locator("iframe").get_by_role("button").wait_for()
    assert _names(await elements_at(race, 140, 170))[:3] == ["status:Loading…", "button:Shadow save",
                                                             "region:Checkout"]
    inside = await elements_at(race, 100, 260)
    assert _names(inside)[1] == "button:Inside"
    assert (inside.elements[1].box.x, inside.elements[1].box.y) == (48, 248)  # top-document coordinates (the
    # frame's body keeps its 8 px margin)


async def test_a_locator_finds_the_element_again_after_a_reload_with_a_new_ref(race, page, demo):
    await page.goto(demo.base_url + "/help")
    heading = (await race.ref_for_selector("h1"))[0]
    locator = LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="heading", name="Help Center",
                                                              exact=True)])
    await page.reload()
    found = await find_again(race, locator)
    assert found is not None and found.element.tag == "h1" and found.element.ref != heading.ref
    assert (await race.info(found.element.ref)).tag == "h1"  # the new ref works in the isolated world
    gone = LocatorSpec(strategy="test_id", steps=[LocatorStep(kind="test_id", value="no-such-thing")])
    assert await find_again(race, gone) is None
