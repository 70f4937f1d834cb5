"""The canvas snake fixture (tests/apps/canvas_game.py): the healthy game behaves as its docstring says, and every
seeded fault breaks the check written for it (each check passes on the healthy game, fails with its fault).

The game is only pixels, so the checks read the canvas: the colour at each cell's centre tells the head and the
apple apart (see COLORS in canvas_game.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Page, expect

from tests.apps.canvas_game import CELL, COLORS, FAULTS, HUD, CanvasGame

pytestmark = pytest.mark.browser
SEED = 1
START = (5, 15)  # the head's cell when a game starts, heading right
NEAR_APPLE_SEED = 380  # its first apple is at (9, 15), four cells ahead of the start

READ_FIELD = """([cell, hud, head, apple]) => {
  const canvas = document.getElementById('game');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const near = (i, rgb) => Math.abs(data[i] - rgb[0]) < 6 && Math.abs(data[i + 1] - rgb[1]) < 6
    && Math.abs(data[i + 2] - rgb[2]) < 6 && data[i + 3] === 255;
  const found = {head: null, apple: null, painted: 0};
  for (let i = 3; i < data.length; i += 4) if (data[i]) found.painted++;
  for (let y = 0; y < (canvas.height - hud) / cell; y++) {
    for (let x = 0; x < canvas.width / cell; x++) {
      const i = ((hud + y * cell + cell / 2) * canvas.width + x * cell + cell / 2) * 4;
      if (near(i, head)) found.head = [x, y];
      if (near(i, apple)) found.apple = [x, y];
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def served():
    with CanvasGame() as game:
        yield game


@pytest.fixture
def game(served):
    served.set_faults(())
    yield served
    served.set_faults(())


async def field(page: Page) -> dict:
    """{"head": [x, y] | None, "apple": [x, y] | None, "painted": pixels drawn} read from the canvas."""
    return await page.evaluate(READ_FIELD, [CELL, HUD, COLORS["head"], COLORS["apple"]])


async def start(page: Page, game: CanvasGame) -> None:
    await page.goto(game.url(seed=SEED))
    await page.wait_for_timeout(100)
    await page.keyboard.press("Space")


# -- one check per fault ---------------------------------------------------------------------------------------

async def check_drawn(page: Page, game: CanvasGame) -> None:
    await page.goto(game.url(seed=SEED))
    painted = 0
    for _ in range(6):  # the first frames, well within 0.6 s
        painted = (await field(page))["painted"]
        if painted > 100_000:  # the whole 600×640 board, HUD and overlay
            break
        await page.wait_for_timeout(100)
    assert painted > 100_000, painted


async def check_starts_cleanly(page: Page, game: CanvasGame) -> None:
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await start(page, game)
    await page.wait_for_timeout(300)
    assert errors == []
    seen = await field(page)
    assert seen["head"] is not None and seen["head"][1] == START[1] and seen["head"][0] > START[0]
    assert seen["apple"] is not None


async def check_steering(page: Page, game: CanvasGame) -> None:
    await start(page, game)
    await page.wait_for_timeout(150)
    await page.keyboard.press("ArrowUp")
    await page.wait_for_timeout(500)
    head = (await field(page))["head"]
    assert head is not None and head[1] < START[1] - 2, head


async def check_keeps_running(page: Page, game: CanvasGame) -> None:
    await start(page, game)
    await page.wait_for_timeout(1100)  # past the first second; the snake is still 16 cells from the wall
    first = (await field(page))["head"]
    await page.wait_for_timeout(300)  # over two steps
    second = (await field(page))["head"]
    assert first is not None and second is not None and second[0] > first[0], (first, second)


async def check_assets_load(page: Page, game: CanvasGame) -> None:
    errors: list[str] = []
    failed: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))
    await page.goto(game.url(seed=SEED))
    await page.wait_for_load_state("load")
    await page.wait_for_timeout(200)
    assert failed == [] and errors == []


async def check_score_in_the_page(page: Page, game: CanvasGame) -> None:
    await page.goto(game.url(seed=SEED))
    assert await page.locator("#score").count() == 1
    assert await page.locator("#score").inner_text() == "Score: 0"


async def check_first_party_only(page: Page, game: CanvasGame) -> None:
    requested: list[str] = []
    failed: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("requestfailed", lambda request: failed.append(request.url))
    await page.goto(game.url(seed=SEED))
    await page.wait_for_timeout(200)
    assert failed == [] and all(url.startswith(game.base_url + "/") for url in requested), (failed, requested)


async def check_click_starts(page: Page, game: CanvasGame) -> None:
    await page.goto(game.url(seed=SEED))
    await page.wait_for_timeout(100)
    await page.locator("canvas#game").click()
    await page.wait_for_timeout(300)
    assert (await field(page))["head"] is not None


CHECKS: dict[str, Callable[[Page, CanvasGame], Awaitable[None]]] = {
    "blank_canvas": check_drawn,
    "crash_on_start": check_starts_cleanly,
    "controls_ignored": check_steering,
    "freeze_after_start": check_keeps_running,
    "asset_404": check_assets_load,
    "score_in_canvas": check_score_in_the_page,
    "third_party": check_first_party_only,
    "never_starts": check_click_starts,
}


def test_every_fault_has_a_check():
    assert set(CHECKS) == set(FAULTS)


@pytest.mark.parametrize("fault", FAULTS)
async def test_check_passes_on_the_healthy_game(page, game, fault):
    await CHECKS[fault](page, game)


@pytest.mark.parametrize("fault", FAULTS)
async def test_fault_breaks_its_check(page, game, fault):
    game.set_faults({fault})
    with pytest.raises(AssertionError):
        await CHECKS[fault](page, game)


async def test_faults_fail_the_way_their_names_say(page, game):
    game.set_faults({"crash_on_start", "asset_404"})
    errors: list[str] = []
    console: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    await start(page, game)
    await page.wait_for_timeout(200)
    assert len(errors) == 1 and "Cannot read properties of undefined" in errors[0]
    assert any("sprites.png" in text for text in console)
    assert (await field(page))["head"] is None  # still on the start overlay


# -- the healthy game's shape and the rest of its behaviour -----------------------------------------------------

async def dom_scored(page: Page) -> bool:
    return await page.locator("#score").inner_text() != "Score: 0"


async def steer_to_apple(page: Page, timeout_ms: int = 6000,
                         scored: Callable[[Page], Awaitable[bool]] = dom_scored) -> None:
    """Greedy steering towards the apple until `scored` (by default: the DOM score changed); never reverses, so never
    bites itself."""
    opposite = {"ArrowUp": "ArrowDown", "ArrowDown": "ArrowUp", "ArrowLeft": "ArrowRight", "ArrowRight": "ArrowLeft"}
    heading, last = "ArrowRight", None
    for _ in range(timeout_ms // 40):
        if await scored(page):
            return
        seen = await field(page)
        head, apple = seen["head"], seen["apple"]
        if head and last and head != last:
            dx, dy = head[0] - last[0], head[1] - last[1]
            heading = {(1, 0): "ArrowRight", (-1, 0): "ArrowLeft", (0, 1): "ArrowDown", (0, -1): "ArrowUp"}.get(
                (dx, dy), heading)
        last = head or last
        if head and apple:
            wanted = []
            if apple[0] != head[0]:
                wanted.append("ArrowRight" if apple[0] > head[0] else "ArrowLeft")
            if apple[1] != head[1]:
                wanted.append("ArrowDown" if apple[1] > head[1] else "ArrowUp")
            wanted = [key for key in wanted if key != opposite[heading]] or [
                "ArrowUp" if head[1] > 15 else "ArrowDown"]
            if heading not in wanted:
                await page.keyboard.press(wanted[0])
        await page.wait_for_timeout(40)


async def test_the_page_has_the_documented_shape(page, game):
    await page.goto(game.url())
    assert await page.title() == "Serpent · an arcade snake game"
    await expect(page.locator("canvas#game")).to_have_attribute("width", "600")
    await expect(page.locator("#score")).to_have_text("Score: 0")
    await check_drawn(page, game)
    await page.wait_for_timeout(300)
    assert (await field(page))["head"] is None  # the start overlay: nothing starts by itself


async def test_a_click_starts_eating_scores_and_a_wall_ends_the_game(page, game):
    await page.goto(game.url(seed=NEAR_APPLE_SEED))
    await page.locator("canvas#game").click()
    await page.wait_for_timeout(150)
    assert (await field(page))["head"] is not None
    await steer_to_apple(page)
    await expect(page.locator("#score")).to_have_text("Score: 10")
    # the canvas HUD says the same: its text is drawn, so compare the HUD strip with a fresh game's
    hud = "() => Array.from(document.getElementById('game').getContext('2d').getImageData(0, 0, 200, 40).data).join()"
    scored = await page.evaluate(hud)
    await page.keyboard.press("ArrowDown")  # head for the bottom wall, 14 cells away
    await expect(page.locator("#score")).to_have_text("Score: 10")
    for _ in range(100):
        if (await field(page))["head"] is None:  # the game-over overlay dims the field
            break
        await page.wait_for_timeout(50)
    assert (await field(page))["head"] is None
    await page.keyboard.press("Space")  # play again
    await page.wait_for_timeout(150)
    await expect(page.locator("#score")).to_have_text("Score: 0")
    assert (await field(page))["head"] is not None
    assert await page.evaluate(hud) != scored


async def test_a_seed_places_the_apples_the_same_way(page, game):
    apples = []
    for seed in (SEED, SEED, SEED + 1):
        await page.goto(game.url(seed=seed))
        await page.keyboard.press("Space")
        await page.wait_for_timeout(150)
        apples.append((await field(page))["apple"])
    assert apples[0] == apples[1] and apples[0] != apples[2]


# -- the page shapes and the game that never starts ------------------------------------------------------------

RECORD_TEXTS = """
window.drawnTexts = [];
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
  if (!window.drawnTexts.includes(String(text))) window.drawnTexts.push(String(text));
  return fillText.call(this, text, ...rest);
};
"""


async def drawn_texts(page: Page) -> list[str]:
    """Every text drawn with fillText so far (RECORD_TEXTS must be an init script of the page)."""
    return await page.evaluate("window.drawnTexts")


async def test_with_the_score_only_in_the_canvas_the_hud_counts_and_the_dom_never_says(page, game):
    game.set_faults({"score_in_canvas"})
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await page.add_init_script(RECORD_TEXTS)
    await page.goto(game.url(seed=NEAR_APPLE_SEED))
    assert await page.locator("#score").count() == 0
    text_before = await page.evaluate("document.body.innerText")
    assert "score" not in text_before.lower()
    await page.locator("canvas#game").click()
    await page.wait_for_timeout(150)

    async def hud_says_10(page: Page) -> bool:
        return "SCORE 10" in await drawn_texts(page)

    await steer_to_apple(page, scored=hud_says_10)
    assert await hud_says_10(page) and "SCORE 0" in await drawn_texts(page)
    assert await page.evaluate("document.body.innerText") == text_before  # the page's text never moved
    assert errors == []


async def test_third_party_resources_fail_offline_while_the_game_itself_is_healthy(page, game):
    game.set_faults({"third_party"})
    failed: dict[str, str] = {}
    console: list[str] = []
    own: list[int] = []
    page.on("requestfailed", lambda request: failed.__setitem__(request.url, request.failure))
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.on("response", lambda response: response.url.startswith(game.base_url) and own.append(response.status))
    await page.goto(game.url(seed=SEED))
    await page.wait_for_timeout(300)
    assert {url.split("/")[2] for url in failed} == {
        "fonts.webfont.invalid", "www.analytics.invalid", "ads.adnetwork.invalid", "serve.adexchange.invalid"}, failed
    assert "https://ads.adnetwork.invalid/show_ads.js" in failed
    assert "https://fonts.webfont.invalid/css?family=Press+Start+2P" in failed
    assert set(failed.values()) == {"net::ERR_NAME_NOT_RESOLVED"}
    assert any("ERR_NAME_NOT_RESOLVED" in text for text in console)
    assert await page.locator("script[src='https://ads.adnetwork.invalid/show_ads.js'][async]").count() == 1
    assert await page.locator("iframe[title='Advertisement']").count() == 1
    assert ["config", "G-7Q2XK4PL9M"] in await page.evaluate("dataLayer.map(args => Array.from(args))")
    assert own and all(status == 200 for status in own)  # the page, its css, its script, its sprites
    await check_starts_cleanly(page, game)  # and the game plays, throwing nothing


async def test_a_game_that_never_starts_stays_on_its_title_screen(page, game):
    game.set_faults({"never_starts"})
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await page.add_init_script(RECORD_TEXTS)
    await page.goto(game.url(seed=SEED))
    await expect(page.locator(".side")).to_contain_text("Click the board or press Space to start.")
    await page.wait_for_timeout(100)
    await page.keyboard.press("Space")
    await page.locator("canvas#game").click()
    await page.keyboard.press("Space")
    snapshot = "() => document.getElementById('game').toDataURL()"
    first = await page.evaluate(snapshot)
    await page.wait_for_timeout(1000)
    assert (await field(page))["head"] is None  # still the title overlay, no snake
    assert await page.evaluate(snapshot) != first  # still drawn every frame (the prompt pulses)
    texts = await drawn_texts(page)
    assert "Press Space to start" in texts and "SCORE 0" in texts and "Game over" not in texts
    assert errors == []
