"""Snapshots with refs, the life of a ref, and DOM exploration — in a real Chromium."""

from __future__ import annotations

import pytest

from studio.cli.race_bench import admin_page
from studio.race.errors import RaceError
from tests.race import pages
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser


async def test_snapshot_lists_roles_names_testids_and_states(race, page):
    await page.set_content(pages.STATES)
    text = (await race.snapshot()).text
    assert 'heading1 "Form"' in text
    assert '#name [value="Ada"]' in text
    assert "#pw [filled]" in text and "hunter2" not in text  # typed passwords never leave the page
    assert '"Agree"' in text and "#agree [checked]" in text
    assert 'button "Locked"' in text and '[disabled]' in ref_line(text, "Locked")
    assert "[collapsed]" in ref_line(text, "More")
    assert 'combobox "Plan"' in text and 'value="Plus"' in ref_line(text, "Plan")
    assert "[busy]" in ref_line(text, "#busy-list")
    assert 'link "Go to checkout"' in text


async def test_a_table_rows_name_is_cut_in_the_snapshot_and_its_cells_give_the_full_text(race, page):
    await page.set_content(admin_page(3))
    text = (await race.snapshot()).text
    row = ref_line(text, "#user-row")
    name = row.split('"')[1]
    # Only the row's first 60 characters (its identifying cells): a big table stays affordable for an agent.
    assert name == "User 0 Lastname user0@example.com Active Member since 2010,…" and len(name) == 60
    cells = await race.descendants(ref_of(text, "#user-row"), max_depth=1)
    assert [cell.name for cell in cells if cell.name] == [
        "User 0 Lastname", "user0@example.com", "Active", "Member since 2010, plan Free", "Edit Delete"]


def ref_line(text: str, fragment: str) -> str:
    return next(line for line in text.splitlines() if fragment in line)


async def test_snapshot_reaches_into_open_shadow_roots_and_same_origin_frames(race, page):
    await page.set_content(pages.SHADOW_AND_FRAME)
    await page.frame_locator("#frame").get_by_role("button", name="Pay").wait_for()
    text = (await race.snapshot()).text
    assert 'button "Inside shadow"' in text and "#shadow-button" in text
    assert 'iframe "Embedded form"' in text
    frame_line = ref_line(text, "iframe")
    pay_line = ref_line(text, '"Pay"')
    assert len(pay_line) - len(pay_line.lstrip()) > len(frame_line) - len(frame_line.lstrip())  # nested under it
    assert "#card" in text


async def test_refs_stay_bound_and_never_point_at_another_element(race, page):
    await page.set_content("<ul><li><button>One</button></li><li><button>Two</button></li></ul>")
    first = await race.snapshot()
    one = ref_of(first.text, '"One"')
    again = await race.snapshot()
    assert ref_of(again.text, '"One"') == one  # the same element keeps its ref
    await page.evaluate("document.querySelector('li').remove()")
    with pytest.raises(RaceError) as removed:
        await race.ancestors(one)
    assert removed.value.kind == "stale_ref" and "removed" in removed.value.message
    await page.evaluate("document.querySelector('ul').insertAdjacentHTML('afterbegin', '<li><button>One</button></li>')")
    refreshed = await race.snapshot()
    assert ref_of(refreshed.text, '"One"') != one  # a new element gets a new ref

    await page.goto("data:text/html,<button>One</button>")  # a new document
    with pytest.raises(RaceError) as stale:
        await race.info(one)
    assert stale.value.kind == "stale_ref" and "no longer shown" in stale.value.message
    new_one = ref_of((await race.snapshot()).text, '"One"')
    assert int(new_one[1:]) > int(one[1:])  # refs keep counting up across documents


async def test_unknown_and_malformed_refs(race, page):
    await page.set_content("<button>Hi</button>")
    await race.snapshot()
    with pytest.raises(RaceError) as unknown:
        await race.info("e999")
    assert unknown.value.kind == "unknown_ref" and "Take a snapshot" in unknown.value.message
    with pytest.raises(RaceError) as malformed:
        await race.info("button")
    assert malformed.value.kind == "bad_input"


async def test_ancestors_siblings_and_descendants_of_a_product_card(race, page, demo):
    demo.configure(hydration_ms=(0, 0))
    await page.goto(demo.base_url + "/products")
    await page.get_by_test_id("loading-scrim").wait_for(state="hidden")
    text = (await race.snapshot()).text
    button = ref_after(text, '"iPhone 15 Pro"', '"Add to Cart"')
    chain = await race.ancestors(button)
    card = next(item for item in chain if item.testId == "product-card")
    assert card.tag == "article" and card.name == "iPhone 15 Pro"
    assert [item.testId for item in chain].index("product-card") < [item.testId for item in chain].index("product-grid")
    siblings = await race.siblings(card.ref)
    assert len(siblings) == 11 and all(item.testId == "product-card" for item in siblings)
    inside = await race.descendants(card.ref, max_depth=4)
    assert any(item.ref == button for item in inside)
    assert any(item.role == "heading" and item.name == "iPhone 15 Pro" for item in inside)
    assert all(item.depth >= 1 for item in inside)


async def test_selector_lookup_for_the_cli(race, page):
    await page.set_content("<p>a</p><button class='x'>One</button><button class='x'>Two</button>")
    info, count = await race.ref_for_selector("button.x")
    assert info.name == "One" and count == 2
    with pytest.raises(RaceError) as none:
        await race.ref_for_selector(".missing")
    assert none.value.kind == "no_match"
    with pytest.raises(RaceError) as bad:
        await race.ref_for_selector("button[")
    assert bad.value.kind == "bad_input"
