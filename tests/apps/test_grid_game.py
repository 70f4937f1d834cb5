"""The sliding-tile game fixture (tests/apps/grid_game.py): the healthy game behaves as its docstring says, and
every seeded fault breaks the check written for it (each check passes on the healthy game, fails with its fault)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

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


CHECKS: dict[str, Callable[[Page, GridGame], Awaitable[None]]] = {
    "score_not_updating": check_score,
    "new_game_broken": check_new_game,
    "keys_ignored": check_arrow_keys,
    "console_error_on_move": check_no_page_errors,
    "no_new_tile": check_new_tile,
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
