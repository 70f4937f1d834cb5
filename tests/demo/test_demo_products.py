"""The products grid of seed 001: scrim while hydrating, seeded order, fresh fading cards, add-to-cart re-renders."""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import expect

ALPHABETICAL = [
    "AirPods Pro (2nd gen)", "Apple Watch Series 9", "Bose SoundLink Flex", "Galaxy S24 Ultra", "iPad Air",
    "iPhone 15 Pro", "Kindle Paperwhite", "Logitech MX Master 3S", 'MacBook Air 13"', "Nintendo Switch OLED",
    "Pixel 8 Pro", "Sony WH-1000XM5",
]


async def card_names(page) -> list[str]:
    return await page.get_by_test_id("product-card").locator("h3").all_inner_texts()


async def wait_hydrated(page) -> None:
    await expect(page.get_by_test_id("loading-scrim")).to_have_count(0)
    await expect(page.get_by_test_id("product-grid")).to_have_attribute("data-state", "ready")


async def test_scrim_covers_placeholders_until_cards_fade_in(demo, page):
    # Hold the product list back until the placeholders have been checked, however slow the machine is.
    release = asyncio.Event()

    async def hold(route) -> None:
        await release.wait()
        await route.continue_()

    await page.route("**/api/products*", hold)
    await page.goto(demo.base_url + "/products?delay=0")
    scrim = page.get_by_test_id("loading-scrim")
    await expect(scrim).to_be_visible()
    style = await scrim.evaluate(
        "el => { const s = getComputedStyle(el); return [s.position, s.zIndex, s.opacity]; }"
    )
    assert style[0] in ("absolute", "fixed") and style[1] == "9999" and abs(float(style[2]) - 0.8) < 0.01
    cards = page.get_by_test_id("product-card")
    await expect(cards).to_have_count(12)
    assert await card_names(page) == ALPHABETICAL
    await expect(cards.get_by_role("button", name="Add to Cart")).to_have_count(12)
    placeholder = await cards.first.element_handle()
    # The scrim intercepts clicks meant for the grid underneath.
    hit = await page.evaluate("""() => { const b = document.querySelector('[data-testid=add-to-cart]').getBoundingClientRect();
        return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).closest('[data-testid]').dataset.testid; }""")
    assert hit == "loading-scrim"

    release.set()
    await wait_hydrated(page)
    assert await placeholder.evaluate("el => el.isConnected") is False
    await expect(cards).to_have_count(12)
    animations = await cards.evaluate_all(
        "els => els.map(el => el.getAnimations().map(a => [a.animationName, a.effect.getTiming().duration]))"
    )
    assert all(["fadeIn", 300] in per_card for per_card in animations), animations


async def test_order_is_seeded(api, demo, page):
    async def api_order(seed: int) -> list[str]:
        async with api.get(f"/api/products?seed={seed}&delay=0") as response:
            return [p["name"] for p in (await response.json())["products"]]

    assert await api_order(1) == await api_order(1)
    assert await api_order(1) != await api_order(2)
    assert sorted(await api_order(3), key=str.casefold) == ALPHABETICAL
    await page.goto(demo.base_url + "/products?seed=3&delay=0")
    await wait_hydrated(page)
    assert await card_names(page) == await api_order(3)
    assert await card_names(page) != ALPHABETICAL
    demo.configure(shuffle_products=False)
    assert await api_order(3) == ALPHABETICAL


async def test_hydration_delay_replays_for_a_seed(api, demo):
    demo.configure(hydration_ms=(0, 40))

    async def delays() -> list[int]:
        out = []
        for _ in range(3):
            async with api.get("/api/products") as response:
                out.append((await response.json())["delayMs"])
        return out

    first = await delays()
    assert all(0 <= d <= 40 for d in first)
    demo.reset()
    demo.configure(hydration_ms=(0, 40))
    assert await delays() == first
    async with api.get("/api/products?delay=5") as response:
        assert (await response.json())["delayMs"] == 5


async def test_add_to_cart_posts_toasts_and_rerenders_card(demo, page):
    await page.goto(demo.base_url + "/products?delay=0")
    await wait_hydrated(page)
    card = page.get_by_test_id("product-card").filter(has=page.get_by_role("heading", name="iPhone 15 Pro"))
    old_handle = await card.element_handle()
    async with page.expect_request(lambda r: r.url.endswith("/api/cart/add") and r.method == "POST") as request:
        await card.get_by_role("button", name="Add to Cart").click()
    assert (await request.value).post_data_json == {"productId": "iphone-15-pro"}
    toast = page.get_by_role("status").filter(has_text="added to cart")
    await expect(toast).to_have_text("iPhone 15 Pro added to cart")
    await expect(page.get_by_test_id("cart-count")).to_have_text("1")
    await expect(card.get_by_test_id("in-cart")).to_have_text("In cart: 1")
    assert await old_handle.evaluate("el => el.isConnected") is False

    await card.get_by_role("button", name="Add to Cart").click()
    await expect(card.get_by_test_id("in-cart")).to_have_text("In cart: 2")
    await expect(page.get_by_test_id("cart-count")).to_have_text("2")
    await expect(page.get_by_role("link", name=re.compile(r"^Cart, 2 items$"))).to_be_visible()
    await expect(toast.first).to_be_hidden(timeout=5000)

    await page.reload()
    await wait_hydrated(page)
    await expect(card.get_by_test_id("in-cart")).to_have_text("In cart: 2")
    await page.get_by_test_id("cart-link").click()
    await expect(page.get_by_role("row", name="iPhone 15 Pro 2 $1,998.00")).to_have_attribute("data-testid", "cart-row")


async def test_cart_is_per_browser(demo, page, browser):
    await page.goto(demo.base_url + "/products?delay=0")
    await wait_hydrated(page)
    await page.get_by_role("button", name="Add to Cart").first.click()
    await expect(page.get_by_test_id("cart-count")).to_have_text("1")
    other = await browser.new_context()
    try:
        other_page = await other.new_page()
        await other_page.goto(demo.base_url + "/products?delay=0")
        await expect(other_page.get_by_test_id("cart-count")).to_have_text("0")
    finally:
        await other.close()


async def test_cart_add_waits_a_seeded_latency_and_rejects_unknown_products(api, demo):
    demo.configure(cart_latency_ms=(120, 120))
    async with api.post("/api/cart/add", json={"productId": "pixel-8-pro"}) as response:
        body = await response.json()
    assert body["ok"] is True and body["cart"]["count"] == 1 and body["product"]["inCart"] == 1
    async with api.post("/api/cart/add", json={"productId": "toaster"}) as response:
        assert response.status == 404
        assert (await response.json())["error"] == "No product with id 'toaster'."
