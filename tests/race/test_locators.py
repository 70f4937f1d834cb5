"""Locator synthesis, checked with Playwright's own engine."""

from __future__ import annotations

import pytest

from studio.race.locators import resolve, synthesize
from tests.race import pages
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser


async def _resolves_to_one(page, spec):
    return await resolve(page, spec.steps).count() == 1


async def test_identical_buttons_are_scoped_by_their_card(race, page, demo):
    demo.configure(hydration_ms=(0, 0))
    await page.goto(demo.base_url + "/products")
    await page.get_by_test_id("loading-scrim").wait_for(state="hidden")
    button = ref_after((await race.snapshot()).text, '"iPhone 15 Pro"', '"Add to Cart"')
    spec = await synthesize(race, button)
    assert spec.strategy == "scoped" and spec.unique
    assert spec.python() == ('page.get_by_test_id("product-card").filter(has_text="iPhone 15 Pro")'
                             '.get_by_role("button", name="Add to Cart", exact=True)')
    assert spec.typescript() == ('page.getByTestId("product-card").filter({ hasText: "iPhone 15 Pro" })'
                                 '.getByRole("button", { name: "Add to Cart", exact: true })')
    assert "nth" not in spec.python()
    assert await _resolves_to_one(page, spec)


async def test_preference_order_role_label_placeholder_text_test_id(race, page):
    await page.set_content("""
        <button>Save</button>
        <label for=q>Query</label><input id=q>
        <input placeholder="Search orders">
        <span data-testid="badge">New</span>
        <div data-testid="count">42</div>""")
    text = (await race.snapshot()).text
    assert (await synthesize(race, ref_of(text, '"Save"'))).python() == 'page.get_by_role("button", name="Save", exact=True)'
    assert (await synthesize(race, ref_of(text, '"Query"'))).strategy in ("role", "label")
    placeholder = await synthesize(race, ref_of(text, '"Search orders"'))
    assert placeholder.strategy in ("role", "placeholder") and await _resolves_to_one(page, placeholder)
    assert (await synthesize(race, ref_of(text, "#badge"))).python() == 'page.get_by_text("New", exact=True)'
    # A number is data that changes; the test id names it better.
    assert (await synthesize(race, ref_of(text, "#count"))).python() == 'page.get_by_test_id("count")'


async def test_landmarks_without_names_use_their_role(race, page, demo):
    await page.goto(demo.base_url + "/help")
    spec = await synthesize(race, ref_of((await race.snapshot()).text, "banner"))
    assert spec.python() == 'page.get_by_role("banner")'


async def test_nth_only_when_no_unique_scope_exists(race, page):
    await page.set_content(pages.TWINS_WITHOUT_SCOPE)
    text = (await race.snapshot()).text
    third = [line.split()[-1] for line in text.splitlines() if '"Delete"' in line][2]
    spec = await synthesize(race, third)
    assert spec.strategy == "nth" and not spec.unique and spec.matches == 3
    assert spec.python() == 'page.get_by_role("button", name="Delete", exact=True).nth(2)'
