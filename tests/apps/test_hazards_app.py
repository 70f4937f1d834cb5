"""The race-check hazards page (tests/apps/hazards_app.py): each edge case is really there and behaves as said."""

from __future__ import annotations

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import expect

from tests.apps.hazards_app import FAULTS, OVERLAY_GONE_AT_S, HazardsApp

pytestmark = pytest.mark.browser

# "At once" means without waiting for the page to change (the overlay case waits 1 s): a few seconds covers a
# loaded CI machine's slow click round-trip (500 ms was seen to run out there), far below the 30 s default.
AT_ONCE_MS = 5_000


@pytest.fixture(scope="module")
def app():
    with HazardsApp() as served:
        yield served


def test_the_page_has_no_faults():
    assert FAULTS == ()
    with pytest.raises(ValueError):
        HazardsApp(faults={"anything"})


async def test_every_element_has_a_test_id(page, app):
    await page.goto(app.entry_url)
    assert await page.title() == "Workspace · Lumen Boards"
    missing = await page.evaluate("""() => [...document.body.querySelectorAll('*')]
        .filter(e => e.tagName !== 'SCRIPT' && !e.dataset.testid).map(e => e.outerHTML.slice(0, 80))""")
    assert missing == []


async def test_hidden_buttons_cannot_be_clicked(page, app):
    await page.goto(app.entry_url)
    # (display, visibility, the parent's display) of each
    expected = {"hidden-self": ["none", "visible", "block"], "hidden-ancestor": ["inline-block", "visible", "none"],
                "invisible": ["inline-block", "hidden", "block"]}
    for test_id, style in expected.items():
        button = page.get_by_test_id(test_id)
        assert await button.count() == 1
        await expect(button).to_be_hidden()
        with pytest.raises(PlaywrightError, match="Timeout"):
            await button.click(timeout=200)
        assert await button.evaluate("e => [getComputedStyle(e).display, getComputedStyle(e).visibility,"
                                     " getComputedStyle(e.parentElement).display]") == style, test_id


async def test_the_clickable_elements_are_clickable_at_once(page, app):
    await page.goto(app.entry_url)
    # an <a> without href, used as a button
    anchor = page.get_by_test_id("anchor-button")
    assert await anchor.evaluate("a => a.tagName") == "A" and await anchor.get_attribute("href") is None
    await anchor.click(timeout=AT_ONCE_MS)
    await anchor.click(timeout=AT_ONCE_MS)
    await expect(page.get_by_test_id("anchor-count")).to_have_text("Notes added: 2")
    # a link in a rotated container
    transform = await page.get_by_test_id("rotated-container").evaluate("e => getComputedStyle(e).transform")
    assert transform.startswith("matrix(") and transform != "matrix(1, 0, 0, 1, 0, 0)"
    await page.get_by_test_id("rotated-link").click(timeout=AT_ONCE_MS)
    await expect(page.get_by_test_id("rotated-status")).to_have_text("Badge claimed")
    assert page.url.endswith("#badge")
    # a plain button
    await page.get_by_test_id("normal-button").click(timeout=AT_ONCE_MS)
    await expect(page.get_by_test_id("normal-count")).to_have_text("Saved 1 time")


async def test_the_overlay_covers_a_button_until_it_fades(page, app):
    await page.goto(app.entry_url, wait_until="domcontentloaded")
    covered = page.get_by_test_id("covered-button")
    hit_test = """b => { const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return [performance.now(), hit.closest('[data-testid]').dataset.testid]; }"""
    now_ms, hit = await covered.evaluate(hit_test)
    assert now_ms > 900 or hit in ("overlay", "overlay-text", "overlay-spinner"), (now_ms, hit)
    assert await page.get_by_test_id("overlay").evaluate("e => getComputedStyle(e).position") == "fixed"
    if now_ms < 500:  # (a loaded machine may have used up the second already)
        with pytest.raises(PlaywrightError, match="Timeout"):
            await covered.click(timeout=300, trial=True)  # intercepted by the overlay
    await covered.click()  # Playwright waits until nothing covers it
    assert await page.evaluate("performance.now()") >= 1000
    await expect(page.get_by_test_id("covered-count")).to_have_text("Unread: 0")
    await expect(page.get_by_test_id("overlay")).to_have_count(0, timeout=1000)
    assert (await covered.evaluate(hit_test))[1] == "covered-button"


async def test_a_button_is_re_rendered_when_the_overlay_clears(page, app):
    slow = 4  # the overlay clears after 5 s, so the first click surely meets the first button
    await page.goto(app.entry_url + f"?slow={slow}", wait_until="domcontentloaded")
    locator = page.get_by_test_id("rerendered-button")
    old = await locator.element_handle()
    await old.click()  # usable before the re-render
    await expect(page.get_by_test_id("rerendered-count")).to_have_text("Synced 1 time")
    await expect(page.get_by_test_id("overlay")).to_have_count(0, timeout=int(OVERLAY_GONE_AT_S * slow * 1000) + 3000)
    assert await old.evaluate("n => n.isConnected") is False  # the handle went stale
    await expect(locator).to_have_count(1)
    await expect(locator).to_have_text("Sync now")
    assert await locator.evaluate("(n, old) => n !== old", old)
    await locator.click()
    await expect(page.get_by_test_id("rerendered-count")).to_have_text("Synced 2 times")
