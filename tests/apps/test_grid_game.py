"""The sliding-tile game fixture (tests/apps/grid_game.py): the healthy game behaves as its docstring says, and
every seeded fault breaks the check written for it (each check passes on the healthy game, fails with its fault)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Page, expect

from tests.apps.grid_game import FAULTS, GridGame

pytestmark = pytest.mark.browser
ARROWS = ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown")
SEED = 3


@pytest.fixture(scope="module")
def served():
    with GridGame() as game:
        yield game


@pytest.fixture
def game(served):
    served.set_faults(())
    yield served
    served.set_faults(())


async def board(page: Page) -> list[int]:
    """The 16 cells, row by row; 0 for an empty cell."""
    return await page.locator(".grid-cell").evaluate_all(
        "cells => cells.map(c => Number(c.textContent.trim()) || 0)")


async def score(page: Page) -> int:
    return int(await page.locator(".score-container .value").inner_text())


COUNT_FRAMES = """
window.framesRequested = 0;
const requestFrame = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = callback => { window.framesRequested++; return requestFrame(callback); };
"""


async def frames(page: Page) -> int:
    """Animation frames the page has requested so far (COUNT_FRAMES must be an init script of the page)."""
    return await page.evaluate("window.framesRequested")


async def key_listeners(page: Page) -> set[str]:
    """The types of keyboard listeners on window, document and every element, as DevTools lists them."""
    cdp = await page.context.new_cdp_session(page)
    types: set[str] = set()
    try:
        for expression in ("window", "document"):
            target = await cdp.send("Runtime.evaluate", {"expression": expression})
            found = await cdp.send("DOMDebugger.getEventListeners",
                                   {"objectId": target["result"]["objectId"], "depth": -1, "pierce": True})
            types |= {listener["type"] for listener in found["listeners"] if listener["type"].startswith("key")}
    finally:
        await cdp.detach()
    return types


async def board_changing_move(page: Page) -> tuple[list[int], list[int]]:
    """Press arrows until one changes the board; (before, after)."""
    for key in ARROWS:
        before = await board(page)
        await page.keyboard.press(key)
        after = await board(page)
        if after != before:
            return before, after
    raise AssertionError("no arrow key changed the board")


# -- one check per fault ---------------------------------------------------------------------------------------

async def check_score(page: Page, game: GridGame) -> None:
    await page.goto(game.url(seed=SEED))
    assert await score(page) == 0
    for _ in range(30):
        for key in ARROWS:
            await page.keyboard.press(key)
        if await score(page) > 0:
            break
    value = await score(page)
    assert value > 0 and value % 4 == 0, value  # merges of 2+2 or 4+4 at least
    assert int(await page.locator(".best-container .value").inner_text()) >= value


async def check_new_game(page: Page, game: GridGame) -> None:
    await page.goto(game.url(seed=SEED))
    for _ in range(10):
        for key in ARROWS:
            await page.keyboard.press(key)
    assert sum(1 for v in await board(page) if v) > 2
    await page.locator("a.restart-button").click()
    assert sum(1 for v in await board(page) if v) == 2
    assert await score(page) == 0


async def check_arrow_keys(page: Page, game: GridGame) -> None:
    await page.goto(game.url(seed=SEED))
    await board_changing_move(page)


async def check_no_page_errors(page: Page, game: GridGame) -> None:
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await page.goto(game.url(seed=SEED))
    await board_changing_move(page)
    await page.wait_for_timeout(100)
    assert errors == []


async def check_new_tile(page: Page, game: GridGame) -> None:
    await page.goto(game.url(seed=SEED))
    for _ in range(3):
        before, after = await board_changing_move(page)
        assert sum(after) - sum(before) in (2, 4), (before, after)  # merges keep the sum; the new tile adds to it


async def check_loads_cleanly(page: Page, game: GridGame) -> None:
    errors: list[str] = []
    failed: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda response: response.status >= 400 and failed.append(response.url))
    await page.goto(game.url(seed=SEED))
    await page.wait_for_timeout(100)
    assert errors == [] and failed == [], (errors, failed)
    assert sum(1 for v in await board(page) if v) == 2


async def check_keys_are_bound(page: Page, game: GridGame) -> None:
    await page.goto(game.url(seed=SEED))
    assert "keydown" in await key_listeners(page)
    await board_changing_move(page)


async def check_page_stays_put(page: Page, game: GridGame) -> None:
    await page.goto(game.url(seed=SEED))
    assert await page.evaluate("document.documentElement.scrollHeight <= innerHeight")  # it fits the viewport
    await page.evaluate("addEventListener('keydown', e => { window.prevented = e.defaultPrevented; })")
    await page.keyboard.press("ArrowDown")
    await page.wait_for_timeout(300)  # a keyboard scroll is smooth: it would be under way by now
    assert await page.evaluate("window.prevented") is True  # the game took the key for itself
    assert await page.evaluate("scrollY") == 0


async def check_a_game_page_alone(page: Page, game: GridGame) -> None:
    await page.add_init_script(COUNT_FRAMES)
    await page.goto(game.url(seed=SEED))
    assert await page.locator("a[href]").count() == 0  # nothing to navigate to
    await page.wait_for_timeout(200)
    rest = await frames(page)
    await page.wait_for_timeout(400)
    assert await frames(page) == rest  # idle: no animation frame is requested while nobody plays
    await board_changing_move(page)
    await page.wait_for_timeout(300)
    moved = await frames(page)
    assert moved - rest >= 3  # the tiles were animated...
    await page.wait_for_timeout(400)
    assert await frames(page) == moved  # ...and then the page went idle again


CHECKS: dict[str, Callable[[Page, GridGame], Awaitable[None]]] = {
    "score_not_updating": check_score,
    "new_game_broken": check_new_game,
    "keys_ignored": check_arrow_keys,
    "console_error_on_move": check_no_page_errors,
    "no_new_tile": check_new_tile,
    "logic_missing": check_loads_cleanly,
    "controls_unbound": check_keys_are_bound,
    "tall_page": check_page_stays_put,
    "site_chrome": check_a_game_page_alone,
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


async def test_a_fault_leaves_the_rest_of_the_game_working(page, game):
    game.set_faults({"console_error_on_move"})
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await page.goto(game.url(seed=SEED))
    before, after = await board_changing_move(page)
    assert sum(after) - sum(before) in (2, 4)  # the move (and its new tile) still happened
    assert len(errors) == 1 and "Cannot read properties of undefined" in str(errors[0]), errors
    game.set_faults({"keys_ignored"})
    await page.goto(game.url(seed=SEED))
    start = await board(page)
    for key in ("a", "w", "d", "s"):  # W/A/S/D still move
        await page.keyboard.press(key)
    assert await board(page) != start


# -- the healthy game's shape and the rest of its behaviour -----------------------------------------------------

async def test_the_page_has_the_documented_shape(page, game):
    await page.goto(game.url())
    assert await page.title() == "Slide · a 4×4 number puzzle"
    assert await page.locator("canvas").count() == 0
    assert await page.locator(".grid[aria-label='Game board'] > .grid-cell").count() == 16
    assert sum(1 for v in await board(page) if v) == 2 and set(await board(page)) <= {0, 2, 4}
    await expect(page.locator(".score-container")).to_contain_text("Score")
    await expect(page.locator(".best-container")).to_contain_text("Best")
    restart = page.locator("a.restart-button")
    await expect(restart).to_have_text("New Game")
    assert await restart.get_attribute("href") is None
    await expect(page.locator(".game-message")).to_be_hidden()


async def test_a_seed_makes_the_game_deterministic(page, game):
    runs = []
    for _ in range(2):
        await page.goto(game.url(seed=11))
        for key in ARROWS * 3:
            await page.keyboard.press(key)
        runs.append((await board(page), await score(page)))
    assert runs[0] == runs[1]
    await page.goto(game.url(seed=12))
    assert await board(page) != runs[0][0]


async def test_the_game_ends_and_can_be_tried_again(page, game):
    await page.goto(game.url(seed=SEED))
    message = page.locator(".game-message")
    for _ in range(1000):
        for key in ARROWS:
            await page.keyboard.press(key)
        if await message.is_visible():
            break
    await expect(message).to_contain_text("Game over!")
    full = await board(page)
    assert 0 not in full
    await page.keyboard.press("ArrowLeft")
    assert await board(page) == full  # no move after the end
    retry = message.locator("a.retry-button")
    await expect(retry).to_have_text("Try again")
    assert await retry.get_attribute("href") is None
    await retry.click()
    await expect(message).to_be_hidden()
    assert sum(1 for v in await board(page) if v) == 2 and await score(page) == 0
    assert int(await page.locator(".best-container .value").inner_text()) > 0


# -- the faults that are page shapes, each as the report would describe it -------------------------------------

def statuses_of(page: Page) -> dict[str, int]:
    """path -> status of every response the page gets from now on."""
    seen: dict[str, int] = {}
    page.on("response", lambda response: seen.__setitem__(urlsplit(response.url).path, response.status))
    return seen


async def test_the_game_runs_from_a_logic_script_and_a_bootstrap_script(page, game):
    statuses = statuses_of(page)
    await page.goto(game.url(seed=SEED))
    assert statuses["/game_manager.js"] == 200 and statuses["/application.js"] == 200
    assert await page.evaluate("typeof GameManager") == "function"
    bootstrap = await (await page.request.get(game.base_url + "/application.js")).text()
    assert "new GameManager(4)" in bootstrap and "function GameManager" not in bootstrap
    assert (await page.request.get(game.base_url + "/game.js")).status == 404  # no one-file build left behind


async def test_without_its_logic_script_the_board_stays_empty_and_a_reference_error_is_thrown(page, game):
    game.set_faults({"logic_missing"})
    errors: list = []
    page.on("pageerror", lambda error: errors.append(error))
    statuses = statuses_of(page)
    await page.goto(game.url(seed=SEED))
    assert statuses["/game_manager.js"] == 404 and statuses["/application.js"] == 200
    assert [(e.name, e.message) for e in errors] == [("ReferenceError", "GameManager is not defined")]
    assert await page.evaluate("typeof GameManager") == "undefined"
    for key in (*ARROWS, "w", "a", "s", "d"):
        await page.keyboard.press(key)
    await page.locator("a.restart-button").click()
    assert await board(page) == [0] * 16 and await score(page) == 0  # not a tile, ever
    assert len(errors) == 1
    await expect(page.locator(".game-explanation")).to_contain_text("Use your arrow keys")


async def test_with_the_input_never_bound_no_key_listener_exists_and_no_key_does_anything(page, game):
    game.set_faults({"controls_unbound"})
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await page.goto(game.url(seed=SEED))
    assert await key_listeners(page) == set()
    start = await board(page)
    for key in (*ARROWS, "w", "a", "s", "d"):
        await page.keyboard.press(key)
    assert await board(page) == start and await score(page) == 0 and errors == []
    explanation = await page.locator(".game-explanation").inner_text()
    assert "Use your arrow keys" in explanation and "move the tiles" in explanation
    game.set_faults(())
    await page.goto(game.url(seed=SEED))
    assert await key_listeners(page) == {"keydown"}


async def test_on_a_tall_page_an_arrow_key_moves_the_tiles_and_scrolls_the_page(page, game):
    game.set_faults({"tall_page"})
    await page.goto(game.url(seed=SEED))
    assert await page.evaluate("document.documentElement.scrollHeight") > 2 * 720
    board_bottom = (await page.locator(".game-container").bounding_box())["y"] + 400
    assert (await page.get_by_role("heading", name="How to play").bounding_box())["y"] > board_bottom
    assert (await page.locator("footer").bounding_box())["y"] > 2 * 720  # far below the fold
    await page.evaluate("addEventListener('keydown', e => { window.prevented = e.defaultPrevented; })")
    before = await board(page)
    await page.keyboard.press("ArrowDown")
    await page.wait_for_function("scrollY === 40", timeout=3000)
    assert await board(page) != before  # the move happened too
    assert await page.evaluate("window.prevented") is False


async def test_on_a_tall_page_without_its_logic_an_arrow_key_only_scrolls_40_px(page, game):
    game.set_faults({"tall_page", "logic_missing"})
    errors: list = []
    page.on("pageerror", lambda error: errors.append(error))
    await page.goto(game.url(seed=SEED))
    assert [e.name for e in errors] == ["ReferenceError"]
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    await page.keyboard.press("ArrowDown")
    await page.wait_for_function("scrollY === 40", timeout=3000)
    await page.wait_for_timeout(300)
    assert await page.evaluate("scrollY") == 40  # one keyboard scroll step, and it stays there
    assert await board(page) == [0] * 16 and await score(page) == 0
    assert len(errors) == 1 and requests == []  # nothing else happened


OBSERVE_TILE_STYLES = """() => {
  window.tileStyles = [];
  new MutationObserver(changes => changes.forEach(change => window.tileStyles.push(change.target.style.transform)))
    .observe(document.querySelector('.grid'), {attributes: true, attributeFilter: ['style'], subtree: true});
}"""


async def test_tiles_slide_and_a_merged_tile_pops_for_about_120_ms_then_the_page_is_idle(page, game):
    await page.add_init_script(COUNT_FRAMES)
    await page.goto(game.url(seed=SEED))
    await page.evaluate(OBSERVE_TILE_STYLES)
    while await score(page) == 0:  # play until a merge
        before = await frames(page)
        await board_changing_move(page)
        await page.wait_for_timeout(250)
        assert 3 <= await frames(page) - before <= 20  # ~120 ms of frames per move at 60 Hz
    styles = await page.evaluate("window.tileStyles")
    assert any(re.search(r"translate\((-?[1-9][\d.]*)px, |translate\(0px, (-?[1-9][\d.]*)px", s) for s in styles)
    assert any(float(m) > 1.05 for s in styles for m in re.findall(r"scale\(([\d.]+)\)", s))  # the merged tile
    assert "scale(0)" in styles  # the new tile grows in from nothing
    await page.wait_for_timeout(100)
    assert await page.locator(".tile").evaluate_all("tiles => tiles.map(t => t.style.transform)") == [""] * len(
        [v for v in await board(page) if v])
    idle = await frames(page)
    await page.wait_for_timeout(500)
    assert await frames(page) == idle


async def test_in_a_site_page_the_nav_and_fps_meter_are_there_and_never_needed(page, game):
    game.set_faults({"site_chrome"})
    game.clear_hits()
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await page.goto(game.url(seed=SEED))
    links = {"Dashboard": "/dashboard", "Help": "/help", "Community": "https://example.com/", "Sign out": "/signout"}
    for name, href in links.items():
        await expect(page.get_by_role("link", name=name, exact=True)).to_have_attribute("href", href)
    meter = page.locator(".stats")
    await expect(meter).to_have_text(re.compile(r"^\d+ FPS$"))
    box = await meter.bounding_box()
    assert box["x"] == 0 and box["y"] == 0 and box["width"] <= 100 and box["height"] <= 30
    assert await meter.evaluate("m => getComputedStyle(m).position") == "fixed"
    rewrites = await meter.evaluate("""m => new Promise(done => {
      let n = 0; new MutationObserver(() => n++).observe(m, {childList: true, characterData: true, subtree: true});
      setTimeout(() => done(n), 500); })""")
    assert rewrites >= 10  # its text is set on every animation frame (~30 in 0.5 s at 60 Hz)
    await meter.click()
    await expect(meter).to_have_text(re.compile(r"^\d+ MS$"))
    await meter.click()
    await expect(meter).to_have_text(re.compile(r"^\d+ FPS$"))
    before, after = await board_changing_move(page)  # the game itself is healthy
    assert sum(after) - sum(before) in (2, 4) and errors == []
    hits = game.hits
    assert hits["/"] == 1 and not any(hits[path] for path in ("/dashboard", "/help", "/signout"))
    await page.get_by_role("link", name="Sign out").click()
    await expect(page.get_by_role("heading", name="Signed out")).to_be_visible()
    assert game.hits["/signout"] == 1
    await page.goto(game.base_url + "/dashboard")
    await expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()
    game.set_faults(())  # a game without the site around it has no such pages
    assert (await page.request.get(game.base_url + "/dashboard")).status == 404
