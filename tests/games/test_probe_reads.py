"""What the game probe reads on pages shaped like real games: a score drawn into an off-screen buffer and copied onto
the canvas, a keys table ("Up: rotate"), the probe's own listeners never taken for the game's, and an end screen told
from instructions that merely mention "play again"."""

from __future__ import annotations

import pytest

from studio.game.eyes import probe_source
from studio.preflight.app_kind import keyboard_listeners
from studio.race.driver import PageDriver

pytestmark = pytest.mark.browser

BUFFERED = """<!doctype html><title>Falling</title>
<canvas id="view" width="320" height="240"></canvas>
<table><tr><td>Left / Right</td><td>: move</td></tr></table>
<p>Up: rotate. Down - drop. Press Enter to play again.</p>
<script>
  const view = document.getElementById('view').getContext('2d');
  const buffer = document.createElement('canvas'); buffer.width = 320; buffer.height = 240;
  const g = buffer.getContext('2d');
  let score = 0;
  function frame() {
    g.fillStyle = '#000'; g.fillRect(0, 0, 320, 240);
    g.fillStyle = '#fff'; g.font = '16px sans-serif'; g.fillText('SCORE ' + score, 10, 20);
    view.drawImage(buffer, 0, 0);
    requestAnimationFrame(frame);
  }
  frame();
  setTimeout(() => { score = 30; }, 200);
</script>"""


async def test_the_probe_reads_a_buffered_canvas_score_and_a_keys_table_and_hides_its_own_listeners(page):
    await page.add_init_script(probe_source())
    await page.route("http://game.test/", lambda route: route.fulfill(body=BUFFERED, content_type="text/html"))
    await page.goto("http://game.test/")
    await page.wait_for_timeout(500)
    state = await page.evaluate("window.__studioGameProbe.state()")
    assert state["counters"].get("score") == 30 and state["canvasCounters"] == ["score"], state
    hints = await page.evaluate("window.__studioGameProbe.keyHints()")
    assert {"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"} <= set(hints), hints
    # The page itself listens to no key: the probe's own release listener is not the game's.
    assert await keyboard_listeners(PageDriver(page)) == []
