"""Feature flags change what a member sees, globally or per user, so change detection has real UI changes to find."""

from __future__ import annotations

import aiohttp
from playwright.async_api import expect


async def test_new_cta_labels_renames_buttons_and_links(demo, page, sign_in):
    demo.set_flag("new_cta_labels", True)
    await sign_in()
    await page.goto(demo.base_url + "/dashboard")
    button = page.get_by_test_id("view-credit-report")
    await expect(button).to_have_text("See full report")
    await expect(page.get_by_role("button", name="View full credit report")).to_have_count(0)
    await page.goto(demo.base_url + "/offers")
    await expect(page.get_by_role("link", name="See details")).to_have_count(6)
    await expect(page.get_by_role("link", name="Learn More")).to_have_count(0)


async def test_flags_can_target_one_user(demo, page, sign_in, browser):
    flagged = demo.create_user()
    demo.set_flag("new_cta_labels", True, user_id=flagged["userId"])
    await sign_in()
    await page.goto(demo.base_url + "/dashboard")
    await expect(page.get_by_test_id("view-credit-report")).to_have_text("View Report")
    async with aiohttp.ClientSession() as http:
        async with http.post(demo.base_url + "/_data/login", json={"email": flagged["email"], "password": flagged["password"]}) as r:
            token = (await r.json())["token"]
    other = await browser.new_context()
    try:
        await other.add_cookies([{"name": "demo_session", "value": token, "url": demo.base_url}])
        other_page = await other.new_page()
        await other_page.goto(demo.base_url + "/dashboard")
        await expect(other_page.get_by_test_id("view-credit-report")).to_have_text("See full report")
    finally:
        await other.close()


async def test_alerts_route_redirect(api, demo, page, sign_in):
    demo.set_flag("alerts_route", "redirect")
    await sign_in()
    async with api.get("/alerts?filter=unread", allow_redirects=False) as response:
        assert response.status == 301
        assert response.headers["Location"] == "/notifications?filter=unread"
    await page.goto(demo.base_url + "/alerts")
    await expect(page).to_have_url(demo.base_url + "/notifications")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Notifications")
    await expect(page.get_by_test_id("alert-item")).to_have_count(6)
    nav_link = page.get_by_role("navigation", name="Main").get_by_test_id("nav-alerts")
    await expect(nav_link).to_have_attribute("href", "/notifications")
    await expect(nav_link).to_have_text("Notifications")
    await page.goto(demo.base_url + "/dashboard")
    await expect(page.get_by_test_id("tile-alerts")).to_have_attribute("href", "/notifications")


async def test_alerts_route_gone_and_default(demo, page, sign_in):
    await sign_in()
    response = await page.goto(demo.base_url + "/notifications")
    assert response.status == 404, "the new route does not exist until the flag moves it"
    demo.set_flag("alerts_route", "gone")
    response = await page.goto(demo.base_url + "/alerts")
    assert response.status == 404
    await expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    response = await page.goto(demo.base_url + "/notifications")
    assert response.status == 200
    await expect(page.get_by_role("heading", level=1)).to_have_text("Notifications")


async def test_dispute_phone_required_adds_a_required_field(api, demo, page, sign_in):
    await sign_in()
    await page.goto(demo.base_url + "/disputes")
    await expect(page.get_by_test_id("phone-input")).to_have_count(0)
    demo.set_flag("dispute_phone_required", True)
    user = await sign_in()
    await page.goto(demo.base_url + "/disputes")
    phone = page.get_by_label("Phone number")
    await expect(phone).to_have_attribute("type", "tel")
    await expect(phone).to_have_attribute("data-testid", "phone-input")
    await page.get_by_label("Account", exact=True).select_option("acct-3307")
    await page.get_by_role("radio", name="This account is not mine").check()
    await page.get_by_role("button", name="Next").click()
    await expect(phone).to_have_attribute("aria-invalid", "true")
    await expect(page.locator("#phone-error")).to_have_text("Enter a phone number with at least 10 digits.")
    await expect(page.get_by_test_id("wizard-progress")).to_have_text("Step 1 of 3")
    await phone.fill("(555) 123-4567")
    await page.get_by_role("button", name="Next").click()
    await expect(page.get_by_test_id("wizard-progress")).to_have_text("Step 2 of 3")

    body = {"accountId": "acct-3307", "reason": "not-mine", "description": "I never opened this store card.", "amount": 50}
    async with api.post("/api/disputes", json=body, headers={"Authorization": f"Bearer {user['token']}"}) as response:
        assert response.status == 400
        assert set((await response.json())["fields"]) == {"phone"}


async def test_active_flags_are_bootstrapped_into_the_page(demo, page):
    await page.goto(demo.base_url + "/privacy")
    assert await page.evaluate("document.body.dataset.featureFlags") == ""
    demo.set_flag("new_cta_labels", True)
    demo.set_flag("alerts_route", "gone")
    await page.reload()
    assert await page.evaluate("document.body.dataset.featureFlags") == "new_cta_labels,alerts_route=gone"
