"""The corpus's canvas games from npm load on our host pages and answer the keyboard in a real Chromium: the canvas
changes after a key press (not a full evaluation: that is `python -m tests.corpus.game_scores`). Their planted faults
are what they say: a game whose script is taken out is a 404 and a canvas that nothing draws on."""

from __future__ import annotations

import pytest

from tests.corpus.apps import MissingFiles, remove_files
from tests.corpus.catalog import APPS
from tests.corpus.catalog.games import BREAKOUT_JS, TETRIS_JS
from tests.corpus.faults import AnchorError
from tests.corpus.game_scores import game_app, row

pytestmark = pytest.mark.corpus

# Per game: the keys that change the picture at once (Tetris: its piece also falls by itself; Breakout: Space
# launches the ball, which then moves on every frame), and the script the logic_missing copy does not serve.
GAMES = {"tetris": (("ArrowLeft", "ArrowUp", "ArrowDown"), TETRIS_JS),
         "breakout": (("Space", "ArrowRight"), BREAKOUT_JS)}


async def _open(page, site, app) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(site.url(app.entry))
    await page.locator(app.ready).wait_for(state="visible", timeout=10_000)
    return errors


@pytest.mark.parametrize("name", list(GAMES))
async def test_the_game_loads_and_its_canvas_changes_after_a_key_press(corpus_site, page, name):
    app = APPS[name]
    keys, _ = GAMES[name]
    errors = await _open(page, corpus_site(app), app)
    canvas = page.locator(app.ready)
    await page.wait_for_timeout(300)  # the first frame
    before = await canvas.screenshot()
    for key in keys:
        await page.keyboard.press(key)
    await page.wait_for_timeout(300)
    assert await canvas.screenshot() != before
    assert errors == []


@pytest.mark.parametrize("name", list(GAMES))
async def test_the_logic_missing_copy_serves_no_script_and_draws_nothing(corpus_sites, corpus_site, page, name):
    app = APPS[name]
    keys, script = GAMES[name]
    assert (corpus_sites.build(app) / script).is_file()
    assert not (corpus_sites.build(app, "logic_missing") / script).exists()
    missing: list[str] = []
    page.on("response", lambda response: response.status == 404 and missing.append(response.url))
    errors = await _open(page, corpus_site(app, "logic_missing"), app)
    canvas = page.locator(app.ready)
    before = await canvas.screenshot()
    for key in keys:
        await page.keyboard.press(key)
    await page.wait_for_timeout(300)
    assert await canvas.screenshot() == before
    assert [url for url in missing if url.endswith(script)] and errors == []


def test_a_file_to_take_out_that_is_not_there_is_a_sentence(tmp_path):
    (tmp_path / "index.html").write_text('<script src="game.js"></script>')
    with pytest.raises(AnchorError, match=r"Fault 'logic_missing': game\.js is not in the app"):
        remove_files(tmp_path, MissingFiles("logic_missing", "no script", files=("game.js",)))


def test_the_score_table_reads_what_studio_game_prints():
    assert "logic_missing" in [fault.name for fault in game_app("2048").faults]
    assert "logic_missing" not in [fault.name for fault in APPS["2048"].faults]  # the catalog's 2048 is unchanged
    printed = {"status": "completed", "message": "", "verdict": "",
               "phase2": {"success": True, "controls": {"key:ArrowUp": {"type": "keyboard", "description": "rotates"}}},
               "phase4": {"success": True, "overallScore": 71,
                          "metrics": [{"name": "load", "score": 100, "justification": "loaded"}]},
               "phaseDurations": {"phase1": {"status": "passed"}, "phase4": {"status": "passed"}}}
    made = row("tetris", None, 0, printed, "", 12.5)
    assert made["fault"] == "healthy" and made["overall"] == 71 and made["exit"] == 0
    assert made["metrics"] == {"load": 100, "visual": None, "controls": None, "playability": None, "technical": None}
    assert made["phases"] == {"phase1": "passed", "phase4": "passed"}
    assert made["controls"] == ["key:ArrowUp (keyboard: rotates)"]
    assert row("tetris", "logic_missing", 1, {}, "error: it failed\n", 3.0)["stderr_tail"] == "error: it failed"
