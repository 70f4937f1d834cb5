"""The credit-monitoring pages a signed-in member uses: dashboard, report, disputes, alerts, offers, help, privacy."""

from __future__ import annotations

import re

from playwright.async_api import expect

FROZEN_MS = 1_741_910_400_000  # 2025-03-14 00:00:00 UTC


async def test_dashboard_widget_and_tiles(api, demo, page, sign_in):
    await api.post("/_data/clock", json={"timestamp": FROZEN_MS})
    await sign_in()
    await page.goto(demo.base_url + "/dashboard")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Dashboard")
    await expect(page.get_by_test_id("last-updated")).to_have_text("Last updated March 14, 2025")
    widget = page.get_by_test_id("credit-score-widget")
    await expect(widget.get_by_test_id("credit-score")).to_have_text("742")
    await expect(widget.get_by_test_id("credit-score-band")).to_have_text("Good")
    expected_tiles = {
        "tile-credit-report": "/credit-report", "tile-disputes": "/disputes", "tile-alerts": "/alerts",
        "tile-offers": "/offers", "tile-help": "/help", "tile-privacy": "/privacy",
    }
    for testid, href in expected_tiles.items():
        await expect(page.get_by_test_id(testid)).to_have_attribute("href", href)
    await expect(page.get_by_role("link", name="Credit Report", exact=True).and_(page.get_by_test_id("tile-credit-report"))).to_be_visible()
    button = page.get_by_role("button", name="View full credit report")
    await expect(button).to_have_text("View Report")
    await expect(button).to_have_attribute("data-testid", "view-credit-report")
    await button.click()
    await expect(page).to_have_url(demo.base_url + "/credit-report")


async def test_tiles_reach_their_pages(demo, page, sign_in):
    await sign_in()
    headings = {
        "tile-disputes": "Disputes", "tile-alerts": "Alerts", "tile-offers": "Offers",
        "tile-help": "Help Center", "tile-privacy": "Privacy Policy",
    }
    for testid, heading in headings.items():
        await page.goto(demo.base_url + "/dashboard")
        await page.get_by_test_id(testid).click()
        await expect(page.get_by_role("heading", level=1)).to_have_text(heading)


async def test_credit_report_chart_and_tables(demo, page, sign_in):
    await sign_in()
    await page.goto(demo.base_url + "/credit-report")
    chart = page.get_by_role("img", name=re.compile("Credit score over the last 12 months"))
    await expect(chart).to_have_attribute("data-testid", "credit-score-chart")
    await expect(chart.locator("circle")).to_have_count(12)
    await expect(page.get_by_role("table", name="Accounts (tradelines)").get_by_test_id("tradeline-row")).to_have_count(5)
    await expect(page.get_by_role("table", name="Hard inquiries").get_by_test_id("inquiry-row")).to_have_count(3)
    await page.get_by_role("link", name="Dispute an item").click()
    await expect(page).to_have_url(demo.base_url + "/disputes")


async def test_disputes_wizard_validates_each_step_and_submits(api, demo, page, sign_in):
    await api.post("/_data/clock", json={"timestamp": FROZEN_MS})
    user = await sign_in()
    await page.goto(demo.base_url + "/disputes")
    progress = page.get_by_test_id("wizard-progress")
    summary = page.get_by_test_id("error-summary")
    await expect(progress).to_have_text("Step 1 of 3")
    await expect(page.get_by_role("button", name="Back")).to_be_hidden()

    await page.get_by_role("button", name="Next").click()
    account = page.get_by_label("Account", exact=True)
    await expect(summary).to_contain_text("There are 2 problems")
    await expect(summary).to_have_attribute("role", "alert")
    await expect(account).to_have_attribute("aria-invalid", "true")
    await expect(account).to_have_attribute("aria-describedby", "account-error")
    await expect(page.locator("#account-error")).to_have_text("Choose the account you want to dispute.")
    await expect(page.get_by_test_id("reason-not-mine")).to_have_attribute("aria-invalid", "true")
    await expect(progress).to_have_text("Step 1 of 3")

    await account.select_option(label="Aurora Bank Visa ••4821")
    await page.get_by_role("radio", name="The balance is incorrect").check()
    await page.get_by_role("button", name="Next").click()
    await expect(progress).to_have_text("Step 2 of 3")
    await expect(summary).to_be_hidden()

    await page.get_by_label("Description").fill("Too short")
    await page.get_by_label("Disputed amount (USD)").fill("0")
    await page.get_by_role("button", name="Next").click()
    await expect(page.get_by_label("Description")).to_have_attribute("aria-invalid", "true")
    await expect(page.get_by_label("Description")).to_have_attribute("aria-describedby", "description-hint description-error")
    await expect(page.locator("#amount-error")).to_have_text("Enter a disputed amount greater than 0.")
    await expect(progress).to_have_text("Step 2 of 3")

    await page.get_by_label("Description").fill("The reported balance includes a refunded purchase.")
    await page.get_by_label("Disputed amount (USD)").fill("129.99")
    await page.get_by_role("button", name="Next").click()
    await expect(progress).to_have_text("Step 3 of 3")
    review = page.get_by_test_id("dispute-review")
    await expect(review).to_contain_text("Aurora Bank Visa ••4821")
    await expect(review).to_contain_text("The balance is incorrect")
    await expect(review).to_contain_text("$129.99")
    await page.get_by_role("button", name="Back").click()
    await expect(page.get_by_label("Disputed amount (USD)")).to_have_value("129.99")
    await page.get_by_role("button", name="Next").click()

    async with page.expect_response(lambda r: r.url.endswith("/api/disputes") and r.request.method == "POST") as info:
        await page.get_by_role("button", name="Submit dispute").click()
    assert (await info.value).status == 201
    await expect(page.get_by_role("heading", name="Dispute submitted", level=2)).to_be_visible()
    await expect(page.get_by_test_id("dispute-reference")).to_have_text("DSP-20250314-0001")
    async with api.get("/api/disputes", headers={"Authorization": f"Bearer {user['token']}"}) as response:
        [dispute] = (await response.json())["disputes"]
    assert (dispute["accountId"], dispute["reason"], dispute["amount"]) == ("acct-4821", "incorrect-balance", 129.99)
    await page.goto(demo.base_url + "/disputes")
    await expect(page.get_by_test_id("disputes-table")).to_contain_text("DSP-20250314-0001")


async def test_disputes_api_validates_fields(api, demo, sign_in):
    user = await sign_in()
    headers = {"Authorization": f"Bearer {user['token']}"}
    async with api.post("/api/disputes", json={"accountId": "x", "amount": -1}, headers=headers) as response:
        assert response.status == 400
        body = await response.json()
    assert body["error"] == "Please fix the highlighted fields."
    assert set(body["fields"]) == {"accountId", "reason", "description", "amount"}


async def test_alerts_filters_and_actions(demo, page, sign_in):
    await sign_in()
    await page.goto(demo.base_url + "/alerts")
    items = page.get_by_test_id("alert-item")
    await expect(items).to_have_count(6)
    await expect(page.get_by_test_id("unread-summary")).to_have_text("You have 4 unread of 6.")

    for name, count in (("Unread", 4), ("Security", 3), ("Credit", 3), ("All", 6)):
        button = page.get_by_role("button", name=name, exact=True)
        await button.click()
        await expect(button).to_have_attribute("aria-pressed", "true")
        await expect(page.locator("[data-filter][aria-pressed=true]")).to_have_count(1)
        await expect(items).to_have_count(count)

    first = items.filter(has_text="New sign-in from Chrome on Linux")
    async with page.expect_response(re.compile(r"/api/alerts/alrt_1/read$")):
        await first.get_by_role("button", name="Mark as read").click()
    await expect(page.get_by_test_id("unread-summary")).to_have_text("You have 3 unread of 6.")
    await expect(first.get_by_role("button", name="Mark as read")).to_have_count(0)

    await items.filter(has_text="Password changed").get_by_role("button", name="Dismiss").click()
    await expect(items).to_have_count(5)

    await page.get_by_role("button", name="Mark all as read").click()
    await expect(page.get_by_test_id("unread-summary")).to_have_text("You're all caught up — 5 total.")
    await page.get_by_test_id("filter-unread").click()
    await expect(items).to_have_count(0)
    await expect(page.get_by_test_id("alerts-empty")).to_have_text("No alerts match this filter.")
    await page.reload()
    await expect(items).to_have_count(5)


async def test_offers_learn_more_and_detail(demo, page, sign_in):
    await sign_in()
    await page.goto(demo.base_url + "/offers")
    cards = page.get_by_test_id("offer-card")
    await expect(cards).to_have_count(6)
    await expect(page.get_by_role("link", name="Learn More", exact=True)).to_have_count(6)
    card = cards.filter(has=page.get_by_role("heading", name="Harbor Balance Transfer Card"))
    await card.get_by_role("link", name="Learn More").click()
    await expect(page).to_have_url(demo.base_url + "/offers/harbor-balance-transfer")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Harbor Balance Transfer Card")
    await page.get_by_role("button", name="Apply now").click()
    await expect(page.get_by_role("status").filter(has_text="application")).to_contain_text(
        "Your application for Harbor Balance Transfer Card was received."
    )
    response = await page.goto(demo.base_url + "/offers/nope")
    assert response.status == 404


async def test_help_search_and_accordion(demo, page):
    await page.goto(demo.base_url + "/login")
    await page.get_by_role("link", name="Trouble signing in?").click()
    await expect(page).to_have_url(demo.base_url + "/help")
    search = page.get_by_role("searchbox", name="Search help")
    await expect(search).to_have_attribute("data-testid", "help-search")
    await search.fill("dispute")
    results = page.get_by_test_id("help-result")
    await expect(results).to_have_count(2)
    await expect(page.get_by_test_id("help-result-count")).to_have_text("2 results for “dispute”")
    await search.fill("zebra crossing")
    await expect(results).to_have_count(0)
    await expect(page.get_by_test_id("help-no-results")).to_contain_text("No results for “zebra crossing”")
    await search.fill("freeze")
    await page.get_by_test_id("help-result-link").first.click()
    await expect(page.get_by_role("button", name="How do I freeze my credit?")).to_have_attribute("aria-expanded", "true")

    toggles = page.locator(".accordion button[aria-expanded]")
    assert await toggles.count() >= 6
    question = page.get_by_role("button", name="How long does a dispute take?")
    panel = page.locator("#" + await question.get_attribute("aria-controls"))
    await expect(question).to_have_attribute("aria-expanded", "false")
    await expect(panel).to_be_hidden()
    await question.click()
    await expect(question).to_have_attribute("aria-expanded", "true")
    await expect(panel).to_be_visible()
    await expect(page.get_by_role("region", name="How long does a dispute take?")).to_contain_text("within 30 days")
    await question.click()
    await expect(panel).to_be_hidden()


async def test_privacy_is_public_long_and_navigable(demo, page):
    await page.goto(demo.base_url + "/privacy")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Privacy Policy")
    toc = page.get_by_role("navigation", name="Table of contents")
    links = toc.get_by_role("link")
    sections = page.get_by_test_id("policy-section")
    count = await sections.count()
    assert count >= 8
    await expect(links).to_have_count(count)
    for i in range(count):
        target = (await links.nth(i).get_attribute("href")).lstrip("#")
        await expect(page.locator(f"section#{target}")).to_have_count(1)
    assert await page.evaluate("document.documentElement.scrollHeight") > 3 * 720
    await links.nth(count - 1).click()
    await expect(page).to_have_url(re.compile(r"#contact$"))
    await expect(page.locator("#contact h2")).to_be_in_viewport()
    await expect(page.get_by_role("link", name="Back to top")).to_have_count(count)
    await page.get_by_role("link", name="Back to top").last.click()
    await expect(page.get_by_role("heading", level=1)).to_be_in_viewport()


async def test_unknown_page_is_friendly_404(demo, page):
    response = await page.goto(demo.base_url + "/no/such/page")
    assert response.status == 404
    await expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    await expect(page.get_by_role("link", name="Go to dashboard")).to_be_visible()


async def test_protected_pages_redirect_to_login(demo, page):
    for path in ("/dashboard", "/credit-report", "/disputes", "/alerts", "/offers", "/offers/aurora-cash-rewards", "/admin"):
        await page.goto(demo.base_url + path)
        await expect(page).to_have_url(f"{demo.base_url}/login?next={path}")
