"""Star Catcher, the canvas game of seed 002: play, keyboard control, game over, determinism and fault knobs."""

from __future__ import annotations

import re

from playwright.async_api import expect


async def game_state(page) -> dict:
    return await page.evaluate("() => ({ ...window.__game })")


async def wait_state(page, predicate: str, timeout: float = 15_000) -> dict:
    await page.wait_for_function(f"() => {{ const g = window.__game; return {predicate}; }}", timeout=timeout)
    return await game_state(page)


class Problems:
    """Console errors, uncaught exceptions and failed requests the page produced."""

    def __init__(self, page) -> None:
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.failed: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        page.on("requestfailed", lambda r: self.failed.append(r.url))
        page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.status} {r.url}"))


async def test_game_page_elements(demo, page):
    await page.goto(demo.base_url + "/game")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Star Catcher")
    canvas = page.get_by_role("img", name="Game board")
    await expect(canvas).to_have_attribute("data-testid", "game-canvas")
    assert await canvas.evaluate("c => [c.width, c.height]") == [480, 360]
    await expect(page.get_by_test_id("score")).to_have_attribute("aria-live", "polite")
    await expect(page.get_by_test_id("lives")).to_contain_text("3 lives")
    instructions = page.get_by_test_id("game-instructions")
    await expect(instructions).to_contain_text("Arrow keys")
    await expect(instructions).to_contain_text("W A S D")
    await expect(instructions).to_contain_text("Space")


async def test_play_animates_and_keyboard_moves_the_ship(demo, page):
    async with page.expect_response("**/api/game/config") as config:
        await page.goto(demo.base_url + "/game")
    assert (await (await config.value).json())["seed"] == 1
    await page.get_by_role("button", name="Play").click()
    start = await wait_state(page, "g.status === 'playing' && g.tick > 5")
    frame_a = await page.get_by_test_id("game-canvas").evaluate("c => c.toDataURL()")
    await wait_state(page, f"g.tick > {start['tick'] + 20}")
    frame_b = await page.get_by_test_id("game-canvas").evaluate("c => c.toDataURL()")
    assert frame_a != frame_b, "the board animates while playing"

    x0 = (await game_state(page))["x"]
    await page.keyboard.down("ArrowLeft")
    await wait_state(page, f"g.x < {x0 - 30}")
    await page.keyboard.up("ArrowLeft")
    x1 = (await game_state(page))["x"]
    await page.keyboard.down("d")
    await wait_state(page, f"g.x > {x1 + 30}")
    await page.keyboard.up("d")
    y0 = (await game_state(page))["y"]
    await page.keyboard.down("w")
    await wait_state(page, f"g.y < {y0 - 20}")
    await page.keyboard.up("w")
    await page.keyboard.press("Space")
    await wait_state(page, "g.fired >= 1")
    state = await wait_state(page, "g.score >= 2")
    await expect(page.get_by_test_id("score")).not_to_have_text("0")
    assert state["status"] == "playing"


async def test_game_over_posts_the_score_and_can_replay(demo, page):
    await page.goto(demo.base_url + "/game?speed=16&seed=7")
    async with page.expect_response(lambda r: r.url.endswith("/api/game/score") and r.request.method == "POST") as info:
        await page.get_by_role("button", name="Play").click()
        await expect(page.get_by_role("heading", name="Game Over", level=2)).to_be_visible(timeout=20_000)
    response = await info.value
    first = await game_state(page)
    assert first["status"] == "over" and first["lives"] == 0
    assert response.request.post_data_json["score"] == first["score"] == int(await page.get_by_test_id("final-score").inner_text())
    await expect(page.get_by_test_id("lives")).to_contain_text("0 lives")
    await expect(page.get_by_test_id("best-score")).to_have_text(str(first["score"]))

    # Without input a run depends only on the seed, so replaying it ends the same way.
    await page.get_by_role("button", name="Play again").click()
    await wait_state(page, "g.status === 'playing'")
    second = await wait_state(page, "g.status === 'over'", timeout=20_000)
    assert (second["score"], second["tick"], second["caught"]) == (first["score"], first["tick"], first["caught"])
    await expect(page.get_by_test_id("score-rank")).to_have_text(re.compile(r"Rank #\d+ of 2 plays"))


async def test_no_fault_means_no_console_errors_or_failed_requests(demo, page):
    problems = Problems(page)
    await page.goto(demo.base_url + "/game?speed=16")
    await page.get_by_role("button", name="Play").click()
    await expect(page.get_by_role("heading", name="Game Over")).to_be_visible(timeout=20_000)
    await wait_state(page, "g.submitted === true")
    assert (problems.console_errors, problems.page_errors, problems.failed) == ([], [], [])


async def test_console_errors_fault(demo, page):
    demo.configure(game_fault="console_errors")
    problems = Problems(page)
    await page.goto(demo.base_url + "/game?speed=4")
    async with page.expect_event("pageerror") as uncaught:
        await page.get_by_role("button", name="Play").click()
    assert "reading 'velocity'" in str(await uncaught.value)
    await wait_state(page, "g.tick > 200 || g.status === 'over'")
    assert len(problems.page_errors) == 1, "exactly one uncaught error per run"
    assert any("Texture atlas is missing frame" in text for text in problems.console_errors)
    assert (await game_state(page))["status"] in ("playing", "over"), "the game keeps running"


async def test_failed_request_fault_falls_back_to_shapes(demo, page):
    demo.configure(game_fault="failed_request")
    problems = Problems(page)
    async with page.expect_response("**/api/game/assets/sprites.json") as sprites:
        await page.goto(demo.base_url + "/game")
    assert (await sprites.value).status == 500
    await page.get_by_role("button", name="Play").click()
    await wait_state(page, "g.status === 'playing' && g.tick > 30")
    assert any("sprites.json" in failure and failure.startswith("500") for failure in problems.failed)
    assert any("drawing fallback shapes" in text for text in problems.console_errors)
    assert problems.page_errors == []
