"""What an agent reads of a game page: a score named by its label wherever the page puts it (a sibling, the parent, an
aria-label, CSS generated content) and a board of same-size cells as one line of rows × columns with the cells' texts,
on the original 2048's layout, the grid game fixture, the corpus's 2048 web component and small pages, in a real
Chromium. Data tables stay tables, and names count what ::before and ::after draw, as the browser's names do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.race.snapshot_lines import SnapshotLine, parse_snapshot
from tests.apps.grid_game import GridGame
from tests.corpus.catalog.widgets import GAME, GAME_2048
from tests.corpus.npm_apps import cache_dir, integrity_of
from tests.corpus.sites import CorpusSites

pytestmark = pytest.mark.browser

CLASSIC_2048 = Path(__file__).parent / "pages" / "classic_2048.html"
SETTLED = "() => document.getAnimations().every(a => a.playState !== 'running')"


def boards(text: str) -> list[SnapshotLine]:
    return [line for line in parse_snapshot(text) if line.board is not None]


def the_board(text: str) -> SnapshotLine:
    found = boards(text)
    assert len(found) == 1, text
    return found[0]


def in_rows(cells: list[str], columns: int) -> list[list[str]]:
    return [cells[i:i + columns] for i in range(0, len(cells), columns)]


async def test_the_classic_2048_layout_reads_its_score_best_and_board(race, page):
    await page.set_content(CLASSIC_2048.read_text())
    text = (await race.snapshot()).text
    # The labels are CSS generated content (`.score-container::after { content: "Score" }`).
    assert re.search(r'^text "Score: 0" e\d+$', text, re.MULTILINE), text
    assert re.search(r'^text "Best: 128" e\d+$', text, re.MULTILINE), text
    assert '"0 128"' not in text  # not one unlabelled text of both numbers
    # The tiles are a layer of their own, positioned over the empty cells of the grid below it.
    board = the_board(text)
    assert (board.role, board.name) == ("div", "Board")
    assert board.states == "4×4: 2 · · · / · · 4 · / · · · · / · · · 2"
    assert board.board == [["2", "", "", ""], ["", "", "4", ""], ["", "", "", ""], ["", "", "", "2"]]
    assert not [line for line in parse_snapshot(text) if line.role == "text" and line.name in ("2", "4")]
    assert (await race.info(board.ref)).classes == ["game-container"]  # tools act on the board by its ref

    # A move: the tile at the top left slides right, the score grows by 4 and a "+4" floats off it.
    await page.evaluate("""() => {
      const tile = document.querySelector('.tile-position-1-1');
      tile.classList.replace('tile-position-1-1', 'tile-position-2-1');
      const score = document.querySelector('.score-container');
      score.textContent = '4';
      const addition = document.createElement('div');
      addition.className = 'score-addition';
      addition.textContent = '+4';
      score.appendChild(addition);
    }""")
    await page.wait_for_function(SETTLED)
    after = (await race.snapshot()).text
    assert re.search(r'^text "Score: 4" e\d+$', after, re.MULTILINE), after
    moved = the_board(after)
    assert moved.states == "4×4: · 2 · · / · · 4 · / · · · · / · · · 2" and moved.ref == board.ref


ROWS_OF_FIELDS = """
<style>
  .box { display: inline-flex; flex-direction: column; gap: 8px; padding: 8px; background: #bbada0; }
  .row { display: inline-flex; gap: 8px; }
  .field { display: inline-flex; width: 48px; height: 48px; align-items: center; justify-content: center; }
  .field-empty { background: #cdc1b5; } .field-2 { background: #eee4da; } .field-8 { background: #f2b179; }
</style>
<div class="box">
  <div class="row"><div class="field field-empty"></div><div class="field field-2">2</div><div class="field field-empty"></div><div class="field field-empty"></div></div>
  <div class="row"><div class="field field-empty"></div><div class="field field-empty"></div><div class="field field-empty"></div><div class="field field-8">8</div></div>
  <div class="row"><div class="field field-empty"></div><div class="field field-empty"></div><div class="field field-empty"></div><div class="field field-empty"></div></div>
  <div class="row"><div class="field field-2">2</div><div class="field field-empty"></div><div class="field field-empty"></div><div class="field field-empty"></div></div>
</div>
"""


async def test_boards_of_rows_of_cells_and_of_cells_with_tiles_inside_read_as_rows_and_columns(race, page):
    # Rows of cells whose classes say what they hold (the 2048 web component's shape): one line, not a text per tile.
    await page.set_content(ROWS_OF_FIELDS)
    text = (await race.snapshot()).text
    board = the_board(text)
    assert board.name == "Board" and board.states == "4×4: · 2 · · / · · · 8 / · · · · / 2 · · ·"
    assert len(parse_snapshot(text)) == 1

    # The grid game fixture: a CSS grid of cells named "Game board", a tile inside a cell holding its number.
    with GridGame() as game:
        await page.goto(game.url(seed=7))
        for key in ("ArrowLeft", "ArrowUp", "ArrowRight"):
            await page.keyboard.press(key)
        await page.wait_for_function(SETTLED)
        text = (await race.snapshot()).text
        cells = await page.locator(".grid-cell").evaluate_all("cells => cells.map(c => c.textContent.trim())")
        board = the_board(text)
        assert board.name == "Game board" and board.board == in_rows(cells, 4)
        assert board.states.startswith("4×4: ") and sum(1 for cell in cells if cell) >= 2


READOUTS = """
<style>.level::before { content: "Level"; display: block; font-size: 12px; }</style>
<p>Score: <output>0</output></p>
<div><span>Moves</span> <span data-testid="moves">12</span> <button>Undo</button></div>
<div><span>Lives</span> <span>3</span> <button>Pause</button></div>
<div aria-label="Time">42</div>
<output aria-label="Coins">7</output>
<div class="level">5</div>
<div class="stat"><span>Best</span> <span>10</span></div>
"""


async def test_a_number_is_named_by_its_label_wherever_the_page_puts_it(race, page):
    await page.set_content(READOUTS)
    text = (await race.snapshot()).text
    for line in ('status "Score: 0"',  # the label in its parent, before it
                 'span "Moves: 12"',  # a sibling's, the number with a line of its own (a test id)
                 'text "Lives: 3"',  # a sibling's, both plain text beside a control
                 'text "Time: 42"',  # its aria-label
                 'status "Coins: 7"',
                 'text "Level: 5"',  # CSS generated content
                 'text "Best 10"'):  # label and number in one short text already
        assert line in text, (line, text)
    assert 'text "Moves"' not in text and 'text "Lives"' not in text  # each label is read once, with its number
    score = next(line for line in parse_snapshot(text) if line.role == "status" and line.name.startswith("Score"))
    assert (await race.info(score.ref)).tag == "output"  # the line's ref is the number's: its text is "0"


DRAWN = """
<style>
  .close::before { content: "×"; }
  .more::after { content: " →"; }
  .step::before { content: "Step 2: "; }
  .icon::before { content: "\\f00d"; font-family: icons; }
  .starred::before { content: "★" / "Starred"; display: block; }
</style>
<button class="close"></button>
<a href="#next" class="more">Read more</a>
<h2 class="step">Shipping</h2>
<button class="icon">Close</button>
<button class="starred">item</button>
"""


async def test_names_count_what_css_draws_before_and_after_as_the_browser_does(race, page):
    await page.set_content(DRAWN)
    text = (await race.snapshot()).text
    for role, name, line in (("button", "×", 'button "×"'), ("link", "Read more →", 'link "Read more →"'),
                             ("heading", "Step 2: Shipping", 'heading2 "Step 2: Shipping"'),
                             ("button", "Starred item", 'button "Starred item"')):
        assert line in text, (line, text)
        assert await page.get_by_role(role, name=name, exact=True).count() == 1, name  # the browser's name
    assert 'button "Close"' in text  # an icon font's glyph is no word anyone reads


TABLES = """
<style>
  .tiles { display: grid; grid-template-columns: repeat(3, 40px); grid-auto-rows: 40px; gap: 4px; }
  .tiles div { background: #eee; }
</style>
<table>
  <caption>Scores</caption>
  <thead><tr><th>Player</th><th>Round 1</th><th>Round 2</th><th>Total</th></tr></thead>
  <tbody>
    <tr><td>Ada</td><td>2</td><td>4</td><td>6</td></tr>
    <tr><td>Bo</td><td>8</td><td>2</td><td>10</td></tr>
    <tr><td>Cy</td><td>4</td><td>4</td><td>8</td></tr>
    <tr><td>Di</td><td>0</td><td>2</td><td>2</td></tr>
  </tbody>
</table>
<div role="grid" aria-label="Results">
  <div role="row"><span role="columnheader">Game</span> <span role="columnheader">Won</span> <span role="columnheader">Lost</span></div>
  <div role="row"><span role="gridcell">Chess</span> <span role="gridcell">3</span> <span role="gridcell">1</span></div>
  <div role="row"><span role="gridcell">Go</span> <span role="gridcell">2</span> <span role="gridcell">2</span></div>
</div>
<div class="tiles"><div>X</div><div>O</div><div></div><div></div><div>X</div><div></div><div>O</div><div></div><div>X</div></div>
"""


async def test_data_tables_stay_tables_and_only_an_unlabelled_grid_of_cells_is_a_board(race, page):
    await page.set_content(TABLES)
    text = (await race.snapshot()).text
    lines = parse_snapshot(text)
    assert [line.name for line in lines if line.role == "table"] == ["Scores"]
    assert len([line for line in lines if line.role == "row"]) == 8  # 5 rows of the table, 3 of the data grid
    assert 'row "Ada 2 4 6"' in text
    board = the_board(text)
    assert board.name == "Board" and board.states == "3×3: X O · / · X · / O · X"


def corpus_tarball() -> Path | None:
    tarball = cache_dir() / GAME_2048.tarball_name
    return tarball if tarball.exists() and integrity_of(tarball) == GAME_2048.integrity else None


@pytest.fixture(scope="module")
def corpus_2048():
    """The corpus's 2048 site, served while this module runs; skipped when its package is not in the cache."""
    if corpus_tarball() is None:
        pytest.skip(f"{GAME_2048.tarball_name} is not in {cache_dir()} (the corpus tests fetch it)")
    with CorpusSites() as sites:
        yield sites.serve(GAME)


async def test_the_corpus_2048_web_component_reads_its_score_and_board(race, page, corpus_2048):
    await page.goto(corpus_2048.url(GAME.entry))
    await page.wait_for_selector(GAME.ready)
    fields = page.locator("game-2048 .field")  # inside the component's shadow root
    text = (await race.snapshot()).text
    assert re.search(r'status "Score: 0" e\d+', text), text  # `<p>Score: <output id="score">0</output></p>`
    board = the_board(text)
    assert board.name == "Board"
    assert board.board == in_rows(await fields.evaluate_all("cells => cells.map(c => c.textContent.trim())"), 4)

    score = "0"
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown") * 10:
        await page.keyboard.press(key)
        text = (await race.snapshot()).text  # at once, as an agent reads it after a move
        moved = the_board(text)
        assert moved.ref == board.ref
        assert moved.board == in_rows(await fields.evaluate_all("cells => cells.map(c => c.textContent.trim())"), 4)
        score = (await page.locator("#score").text_content() or "").strip()
        if score != "0":
            break
    assert score != "0", "no two tiles merged in 40 moves"
    assert f'status "Score: {score}"' in text, text
