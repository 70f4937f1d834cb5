"""The falling-blocks fixture (tests/apps/blocks_game.py): the healthy game behaves as its docstring says, and every
seeded fault breaks the check written for it (each check passes on the healthy game, fails with its fault).

The well is only pixels, so the checks read the canvas: a cell whose centre is not the well's colour is filled (the
falling piece or the stack). Texts drawn on the canvas are recorded by wrapping fillText."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Page, expect

from tests.apps import blocks_game
from tests.apps.base import DIRECTIVE, STATIC
from tests.apps.blocks_game import CELL, COLS, FAULTS, ROWS, WELL_COLOR, WELL_X, WELL_Y, BlocksGame
from tests.apps.test_fault_switch import assert_nothing_names, seen_by_the_browser

pytestmark = pytest.mark.browser
SEED = 1  # pieces J, T, Z, O, L, I, S
LINE_SEED = 102  # pieces I, J, L first: side by side on the floor they fill the bottom row (4 + 3 + 3 cells)
# The keys that put each of LINE_SEED's first three pieces on the floor: I to columns 0-3, J to 4-6, L to 7-9.
ONE_LINE = (("ArrowLeft",) * 3, ("ArrowRight",), ("ArrowRight",) * 4)
J_SPAWNED = {(0, 3), (1, 3), (1, 4), (1, 5)}  # where a J appears, flat side down

READ_WELL = """([cols, rows, cell, x0, y0, well]) => {
  const canvas = document.getElementById('well');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const out = [];
  for (let r = 0; r < rows; r++) {
    let row = '';
    for (let c = 0; c < cols; c++) {
      const i = ((y0 + r * cell + cell / 2) * canvas.width + x0 + c * cell + cell / 2) * 4;
      const off = Math.abs(data[i] - well[0]) + Math.abs(data[i + 1] - well[1]) + Math.abs(data[i + 2] - well[2]);
      row += off > 30 ? '#' : '.';
    }
    out.push(row);
  }
  return out;
}"""

RECORD_TEXTS = """
window.drawnTexts = [];
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
  if (!window.drawnTexts.includes(String(text))) window.drawnTexts.push(String(text));
  return fillText.call(this, text, ...rest);
};
"""


@pytest.fixture(scope="module")
def served():
    with BlocksGame() as game:
        yield game


@pytest.fixture
def game(served):
    served.set_faults(())
    yield served
    served.set_faults(())


async def well(page: Page) -> list[str]:
    """The well's 20 rows, top first: '#' for a filled cell, '.' for an empty one."""
    return await page.evaluate(READ_WELL, [COLS, ROWS, CELL, WELL_X, WELL_Y, list(WELL_COLOR)])


def filled(rows: list[str]) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "#"}


def shape(cells: set[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """The cells moved to the top-left corner: equal for the same piece in the same orientation anywhere."""
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def rows_below(cells: set[tuple[int, int]], spawned: set[tuple[int, int]]) -> int | None:
    """How many rows below `spawned` the same cells are (gravity may have moved a piece since), else None."""
    for k in range(ROWS):
        if {(r - k, c) for r, c in cells} == spawned:
            return k
    return None


async def drawn_texts(page: Page) -> list[str]:
    return await page.evaluate("window.drawnTexts")


async def load(page: Page, game: BlocksGame, seed: int = SEED) -> None:
    await page.add_init_script(RECORD_TEXTS)
    await page.goto(game.url(seed=seed))
    await page.wait_for_timeout(50)


async def clear_one_line(page: Page, game: BlocksGame) -> None:
    await load(page, game, LINE_SEED)
    for keys in ONE_LINE:
        for key in keys:
            await page.keyboard.press(key)
        await page.keyboard.press("Space")


# -- one check per fault ---------------------------------------------------------------------------------------

async def check_rotation(page: Page, game: BlocksGame) -> None:
    await load(page, game)
    before = filled(await well(page))
    await page.keyboard.press("ArrowUp")
    after = filled(await well(page))
    assert len(before) == len(after) == 4 and shape(after) != shape(before), (before, after)


async def check_line_clear_scores(page: Page, game: BlocksGame) -> None:
    await clear_one_line(page, game)
    await expect(page.locator("#lines")).to_have_text("Lines 1")
    assert (await well(page))[-1] != "#" * COLS  # the full row is gone
    assert await page.locator("#score").inner_text() == "Score 100"
    assert "100" in await drawn_texts(page)  # the canvas says so too


CHECKS: dict[str, Callable[[Page, BlocksGame], Awaitable[None]]] = {
    "rotate_ignored": check_rotation,
    "score_frozen": check_line_clear_scores,
}


def test_every_fault_has_a_check():
    assert set(CHECKS) == set(FAULTS) == set(blocks_game.FAULT_DESCRIPTIONS)


@pytest.mark.parametrize("fault", FAULTS)
async def test_check_passes_on_the_healthy_game(page, game, fault):
    await CHECKS[fault](page, game)


@pytest.mark.parametrize("fault", FAULTS)
async def test_fault_breaks_its_check(page, game, fault):
    game.set_faults({fault})
    with pytest.raises(AssertionError):
        await CHECKS[fault](page, game)


async def test_faults_fail_the_way_their_names_say(page, game):
    game.set_faults({"rotate_ignored"})
    await load(page, game)
    start = shape(filled(await well(page)))
    for _ in range(3):
        await page.keyboard.press("ArrowUp")
        assert shape(filled(await well(page))) == start  # never turns
    columns = {c for _, c in filled(await well(page))}
    await page.keyboard.press("ArrowLeft")
    assert {c for _, c in filled(await well(page))} == {c - 1 for c in columns}  # the rest still works

    game.set_faults({"score_frozen"})
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await clear_one_line(page, game)
    await expect(page.locator("#lines")).to_have_text("Lines 1")  # the line was cleared...
    await expect(page.locator("#score")).to_have_text("Score 0")  # ...and scored nothing
    texts = await drawn_texts(page)
    assert "100" not in texts and errors == []


# -- the healthy game's shape and the rest of its behaviour -----------------------------------------------------

async def test_the_page_has_the_documented_shape_and_the_piece_falls_by_itself(page, game):
    await load(page, game)
    assert await page.title() == "Blocks · a falling-blocks game"
    await expect(page.locator("canvas#well")).to_have_attribute("width", "480")
    await expect(page.locator("canvas#well")).to_have_attribute("height", "640")
    for selector, text in (("#score", "Score 0"), ("#lines", "Lines 0"), ("#level", "Level 1")):
        await expect(page.locator(selector)).to_have_text(text)
    first = rows_below(filled(await well(page)), J_SPAWNED)
    assert first is not None and first <= 1  # a J, flat side down, at the top (a step down at most by now)
    assert {"SCORE", "LINES", "LEVEL", "NEXT", "0", "1"} <= set(await drawn_texts(page))
    await page.wait_for_function(  # it falls by itself, a row every 800 ms
        f"() => {{ const rows = ({READ_WELL})({[COLS, ROWS, CELL, WELL_X, WELL_Y, list(WELL_COLOR)]});"
        f" return rows.findIndex(row => row.includes('#')) > {first}; }}", timeout=3000)
    assert rows_below(filled(await well(page)), J_SPAWNED) > first  # the same piece, lower down


async def test_the_keys_move_rotate_and_drop_the_piece(page, game):
    await load(page, game, LINE_SEED)
    assert rows_below(filled(await well(page)), {(0, 3), (0, 4), (0, 5), (0, 6)}) is not None  # the I, lying
    await page.keyboard.press("ArrowLeft")
    assert {c for _, c in filled(await well(page))} == {2, 3, 4, 5}
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    assert {c for _, c in filled(await well(page))} == {4, 5, 6, 7}
    rows = {r for r, _ in filled(await well(page))}
    await page.keyboard.press("ArrowDown")
    assert {r for r, _ in filled(await well(page))} == {r + 1 for r in rows}
    await page.keyboard.press("ArrowUp")
    assert len({c for _, c in filled(await well(page))}) == 1  # standing up
    await page.keyboard.press("ArrowUp")
    await page.keyboard.press("Space")
    rows = await well(page)
    assert rows[-1] == "....####.." and rows_below(filled(rows[:-1]), J_SPAWNED) == 0  # landed; the J is next
    assert await page.evaluate("scrollY") == 0


async def test_a_seed_makes_the_pieces_come_in_the_same_order(page, game):
    stacks = []
    for seed in (SEED, SEED, SEED + 1):
        await load(page, game, seed)
        for _ in range(3):
            await page.keyboard.press("Space")
        stacks.append((await well(page))[-6:])
    assert stacks[0] == stacks[1] and stacks[0] != stacks[2]


async def test_the_game_ends_when_the_well_fills_and_enter_plays_again(page, game):
    await load(page, game)
    for _ in range(40):
        await page.keyboard.press("Space")
        if "GAME OVER" in await drawn_texts(page):
            break
    assert {"GAME OVER", "Press Enter to play again"} <= set(await drawn_texts(page))
    ended = await well(page)
    assert "#" in ended[0] or "#" in ended[1]  # stacked to the top
    for key in ("Space", "ArrowLeft", "ArrowUp", "ArrowDown"):
        await page.keyboard.press(key)
    await page.wait_for_timeout(900)  # past a gravity step
    assert await well(page) == ended  # nothing moves any more
    await page.keyboard.press("Enter")
    fresh = filled(await well(page))
    assert len(fresh) == 4 and all(r <= 1 for r, _ in fresh)  # a new game: an empty well and a new piece on top
    await expect(page.locator("#lines")).to_have_text("Lines 0")


# -- as every fixture app: faults switched in the served files, never named -------------------------------------

def test_the_static_files_switch_exactly_the_games_faults():
    used = set()
    for path in (STATIC / BlocksGame.STATIC_DIR).iterdir():
        for line in path.read_text(encoding="utf-8").splitlines():
            match = DIRECTIVE.match(line)
            if match and match.group(2):
                used.add(match.group(2).lstrip("!"))
    assert used == set(FAULTS)
    assert blocks_game.__doc__ and len((STATIC.parent / "blocks_game.py").read_text().splitlines()) < 400


async def test_faults_are_invisible_but_served(page):
    with BlocksGame(faults=FAULTS) as app:
        faulty = await seen_by_the_browser(page, [app.base_url + "/"])
        assert_nothing_names(faulty, FAULTS)
        app.set_faults(())
        errors: list[str] = []
        healthy = await seen_by_the_browser(await page.context.new_page(), [app.base_url + "/"], errors)
    assert faulty != healthy and errors == []
