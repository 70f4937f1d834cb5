"""Every interactive element on every page has an ARIA role, a non-empty accessible name and a data-testid."""

from __future__ import annotations

from playwright.async_api import expect

STATIC_PAGES = [
    "/dashboard", "/credit-report", "/offers", "/offers/aurora-cash-rewards", "/privacy", "/cart", "/profile",
    "/admin", "/no-such-page",
]


async def test_static_pages(demo, page, sign_in, accessibility_problems):
    await sign_in(role="admin")
    for path in STATIC_PAGES:
        await page.goto(demo.base_url + path)
        assert await accessibility_problems() == [], path


async def test_login_page_both_steps(demo, page, accessibility_problems):
    user = demo.create_user(requires_2fa=True)
    await page.goto(demo.base_url + "/login?expired=1")
    assert await accessibility_problems() == []
    await page.get_by_label("Email").fill(user["email"])
    await page.get_by_label("Password").fill(user["password"])
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_label("Authentication code")).to_be_visible()
    assert await accessibility_problems() == []


async def test_dynamic_pages(demo, page, sign_in, accessibility_problems):
    await sign_in()
    await page.goto(demo.base_url + "/alerts")
    await expect(page.get_by_test_id("alert-item")).to_have_count(6)
    assert await accessibility_problems() == []

    await page.goto(demo.base_url + "/help")
    await page.get_by_role("searchbox", name="Search help").fill("score")
    await expect(page.get_by_test_id("help-result").first).to_be_visible()
    await page.get_by_test_id("help-result-link").first.click()
    assert await accessibility_problems() == []

    await page.goto(demo.base_url + "/products?delay=0")
    await expect(page.get_by_test_id("loading-scrim")).to_have_count(0)
    await page.get_by_role("button", name="Add to Cart").first.click()
    await expect(page.get_by_test_id("in-cart")).to_be_visible()
    assert await accessibility_problems() == []

    await page.goto(demo.base_url + "/game?speed=16")
    assert await accessibility_problems() == []
    await page.get_by_role("button", name="Play").click()
    await expect(page.get_by_role("button", name="Play again")).to_be_visible(timeout=20_000)
    assert await accessibility_problems() == []


async def test_disputes_wizard_every_step(demo, page, sign_in, accessibility_problems):
    demo.set_flag("dispute_phone_required", True)
    await sign_in()
    await page.goto(demo.base_url + "/disputes")
    await page.get_by_role("button", name="Next").click()
    assert await accessibility_problems() == [], "step 1 with its error summary"
    await page.get_by_label("Account", exact=True).select_option("acct-1190")
    await page.get_by_role("radio", name="The account was paid off").check()
    await page.get_by_label("Phone number").fill("555 010 0199")
    await page.get_by_role("button", name="Next").click()
    assert await accessibility_problems() == [], "step 2"
    await page.get_by_label("Description").fill("This loan was paid in full in June.")
    await page.get_by_label("Disputed amount (USD)").fill("14320")
    await page.get_by_role("button", name="Next").click()
    assert await accessibility_problems() == [], "step 3"
    await page.get_by_role("button", name="Submit dispute").click()
    await expect(page.get_by_test_id("dispute-reference")).to_be_visible()
    assert await accessibility_problems() == [], "confirmation"


async def test_the_audit_catches_unlabelled_or_untagged_controls(demo, page, accessibility_problems):
    await page.goto(demo.base_url + "/privacy")
    await page.evaluate("""() => {
        const main = document.querySelector('main');
        main.insertAdjacentHTML('afterbegin', '<button type="button" data-testid="icon-only"></button>' +
            '<a href="/x">Untagged</a><div tabindex="0" data-testid="fake-button">Click me</div>');
    }""")
    problems = await accessibility_problems()
    assert any("no accessible name" in p and "icon-only" in p for p in problems)
    assert any("no data-testid" in p and "Untagged" in p for p in problems)
    assert any("no ARIA role" in p and "fake-button" in p for p in problems)
    assert len(problems) == 3, problems
