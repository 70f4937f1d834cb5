"""The live view while the game agent looks at the game: its screencast shows the whole page as it is played, never
the agent's analysis frames.

Found by a tester: during a game evaluation the live view showed zoomed crops of the page's top left for most of the
play phase. The camera took its analysis frames with Page.captureScreenshot and a `clip` + `scale`; for such a capture
Chromium re-emulates the page's view (viewport offset and scale of the clip, the view resized to it) and the
screencast of the same page records that surface: measured, about one frame in five came out 960×720 or 320×240
crops of the 640×480 canvas instead of the 1280×720 page. The camera now pictures the viewport as it is and cuts the
play surface out itself (studio/game/crop.py).
"""

from __future__ import annotations

import asyncio
import io

import numpy as np
import pytest
from PIL import Image

from studio.browser.screencast import LiveScreencast
from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.game import GameOptions
from studio.game.crop import ViewportPlace, analysis_frame, cut, shrink
from studio.game.eyes import Camera
from studio.models.browser import LiveFrame, SessionOptions
from studio.models.game import Rect
from studio.runtime.live import LivePage
from tests.games.conftest import comet

pytestmark = pytest.mark.browser

RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)
CORNERS = (RED, GREEN, BLUE, YELLOW)  # top left, top right, bottom left, bottom right
CANVAS = Rect(x=320, y=120, width=640, height=480)

# Four fixed corners of distinct colours (a zoomed crop loses three of them) around a canvas where a square moves.
ANIMATED = """<!doctype html><style>html,body{margin:0;background:#fff}
.c{position:fixed;width:120px;height:120px}#tl{left:0;top:0;background:#f00}#tr{right:0;top:0;background:#0f0}
#bl{left:0;bottom:0;background:#00f}#br{right:0;bottom:0;background:#ff0}
canvas{position:absolute;left:320px;top:120px}</style>
<div class=c id=tl></div><div class=c id=tr></div><div class=c id=bl></div><div class=c id=br></div>
<canvas width=640 height=480></canvas><script>
const g = document.querySelector('canvas').getContext('2d'); let t = 0; window.still = false;
function draw() { t++; g.fillStyle = '#222'; g.fillRect(0, 0, 640, 480); g.fillStyle = '#0ff';
  g.fillRect((t * 4) % 600, 200, 40, 40); if (!window.still) requestAnimationFrame(draw); }
draw();
</script>"""

# A page taller and wider than the viewport, with a board of four coloured quadrants far from its top left.
QUADRANTS = """<!doctype html><style>html,body{margin:0;background:#fff;width:3000px;height:3000px}
#board{position:absolute;left:500px;top:1500px;width:400px;height:300px;display:grid;
grid-template:1fr 1fr/1fr 1fr}</style><div id=board><div style="background:#f00"></div>
<div style="background:#0f0"></div><div style="background:#00f"></div><div style="background:#ff0"></div></div>"""
BOARD = Rect(x=500, y=1500, width=400, height=300)


@pytest.fixture(scope="module")
async def session(browser_info):
    browser_session = BrowserSession(EventBus(), SessionOptions(viewport=(1280, 720)))
    await browser_session.start()
    yield browser_session
    await browser_session.close()


def pixels(frame: LiveFrame) -> Image.Image:
    return Image.open(io.BytesIO(frame.jpeg)).convert("RGB")


def whole_page(frame: LiveFrame) -> bool:
    """The frame shows the 1280×720 page, all four corners (a zoomed crop keeps one at most)."""
    image = pixels(frame)
    width, height = image.size
    if abs(width / height - 1280 / 720) > 0.02:
        return False
    seen = [image.getpixel(at) for at in ((5, 5), (width - 6, 5), (5, height - 6), (width - 6, height - 6))]
    return all(sum(abs(a - b) for a, b in zip(got, want)) < 90 for got, want in zip(seen, CORNERS))


def describe(frames: list[LiveFrame]) -> str:
    sizes: dict[tuple[int, int], int] = {}
    for frame in frames:
        size = pixels(frame).size
        sizes[size] = sizes.get(size, 0) + 1
    return ", ".join(f"{count} of {w}×{h}" for (w, h), count in sorted(sizes.items(), key=lambda item: -item[1]))


async def settle(frames: list, quiet_s: float = 1.0, limit_s: float = 8.0) -> None:
    loop = asyncio.get_running_loop()
    deadline, seen, since = loop.time() + limit_s, len(frames), loop.time()
    while loop.time() < deadline and loop.time() - since < quiet_s:
        await asyncio.sleep(0.05)
        if len(frames) != seen:
            seen, since = len(frames), loop.time()


def mean(rgb: np.ndarray) -> tuple[int, ...]:
    return tuple(round(float(v)) for v in rgb.reshape(-1, 3).mean(axis=0))


async def test_the_live_view_shows_the_whole_game_while_the_agent_takes_frames(session):
    await session.page.set_content(ANIMATED)
    frames: list[LiveFrame] = []
    # As the window's live view runs it (studio/app/browser_service.py).
    cast = LiveScreencast(session, frames.append, max_size=session.options.viewport,
                          max_fps=session.options.live_view_fps)
    await cast.start()
    camera = Camera(LivePage(session))
    try:
        loop = asyncio.get_running_loop()
        first = loop.time() + 10.0
        while not frames and loop.time() < first:
            await asyncio.sleep(0.02)
        frames.clear()
        looks = []
        ends = loop.time() + 3.0
        while loop.time() < ends:  # the agent's pace: a frame every 50–250 ms
            looks.append(await camera.frame(CANVAS))
            await asyncio.sleep(0.05)
        played = list(frames)
        # The game ends (a still page, as after a run), the agent takes its last looks: the view must end whole.
        await session.page.evaluate("window.still = true")
        for _ in range(5):
            looks.append(await camera.frame(CANVAS))
        await settle(frames)
    finally:
        await cast.stop()

    assert len(played) >= 10, f"the live view got {len(played)} frames in 3 s of play"
    zoomed = [frame for frame in played if not whole_page(frame)]
    assert not zoomed, (f"{len(zoomed)} of {len(played)} live-view frames were not the whole page while the agent "
                        f"looked ({describe(played)})")
    assert whole_page(frames[-1]), f"the live view ended on a crop ({describe(frames[-1:])})"
    # The agent's own frames: the canvas at half size, its dark board and the moving square in them.
    assert {look.rgb.shape for look in looks} == {(240, 320, 3)}
    for look in looks:
        assert max(mean(look.rgb)) < 80 and (look.rgb[:, :, 2] > 200).any()


async def test_an_analysis_frame_is_the_box_of_the_page_where_the_page_is_scrolled(session):
    await session.page.set_content(QUADRANTS)
    camera = Camera(LivePage(session))
    frames = []
    for left, top in ((0, 1400), (300, 1250), (450, 1480)):
        await session.page.evaluate(f"window.scrollTo({left}, {top})")
        frames.append((left, top, (await camera.frame(BOARD)).rgb))
    for left, top, rgb in frames:
        assert rgb.shape == (240, 320, 3), (left, top)
        quadrants = [rgb[10:110, 10:150], rgb[10:110, 170:310], rgb[130:230, 10:150], rgb[130:230, 170:310]]
        assert [mean(part) for part in quadrants] == list(CORNERS), f"scrolled to {left},{top}"
    # The same pixels as a screenshot of the viewport cut at the box and halved (a 640×480 box around the board).
    await session.page.evaluate("window.scrollTo(300, 1250)")
    truth = Image.open(io.BytesIO(await session.page.screenshot())).convert("RGB")
    expected = np.asarray(truth.crop((150, 200, 790, 680)).reduce(2))
    got = (await camera.frame(Rect(x=450, y=1450, width=640, height=480))).rgb
    assert np.abs(got.astype(int) - expected.astype(int)).mean() < 2


async def test_a_box_partly_out_of_view_keeps_its_size_and_is_black_where_unseen(session):
    await session.page.set_content(QUADRANTS)
    camera = Camera(LivePage(session))
    await session.page.evaluate("window.scrollTo(0, 1650)")  # the board's top half is above the viewport
    rgb = (await camera.frame(BOARD)).rgb
    assert rgb.shape == (240, 320, 3)
    assert mean(rgb[:110]) == (0, 0, 0)
    assert mean(rgb[130:230, 10:150]) == BLUE and mean(rgb[130:230, 170:310]) == YELLOW


@pytest.mark.slow
async def test_the_live_view_stays_whole_through_a_game_evaluation(games, demo_server):
    """The tester's case: the evaluator plays Comet Dash on the live page while the window's screencast shows it."""
    frames: list[LiveFrame] = []
    cast = LiveScreencast(games.session, frames.append, max_size=games.session.options.viewport,
                          max_fps=games.session.options.live_view_fps)
    await cast.start()
    try:
        options = GameOptions(seed=1, min_explore_s=2, max_explore_s=4, no_progress_s=3, probe_window_s=0.2,
                              max_probes=4)
        run = await games.evaluate(comet(demo_server), options=options)
        await settle(frames)
    finally:
        await cast.stop()
    assert run.run.status == "completed"
    sizes = {pixels(frame).size for frame in frames}
    assert sizes == {(1280, 720)}, f"live-view frames during the run: {describe(frames)}"


# -- the cut, without a browser ------------------------------------------------------------------------------------


def test_shrink_averages_whole_blocks_and_never_enlarges():
    rgb = np.zeros((4, 6, 3), dtype=np.uint8)
    rgb[0, 0] = rgb[1, 1] = 200  # one 2×2 block half lit
    small = shrink(rgb, 3, 2)
    assert small.shape == (2, 3, 3) and small[0, 0, 0] == 100 and small[1:, :].max() == 0
    assert shrink(rgb, 12, 8).shape == (4, 6, 3)
    assert shrink(np.zeros((600, 800, 3), dtype=np.uint8), 320, 240).shape == (240, 320, 3)  # 2.5×: 2×2 and a pick


def test_the_place_of_the_viewport_counts_scroll_device_pixels_and_pinch_zoom():
    metrics = {"cssVisualViewport": {"pageX": 30, "pageY": 700, "scale": 1.5},
               "cssLayoutViewport": {"clientWidth": 1280}, "layoutViewport": {"clientWidth": 2560}}
    place = ViewportPlace.of(metrics)
    assert (place.left, place.top, place.pixels_per_px) == (30.0, 700.0, 3.0)
    assert ViewportPlace.of({}) == ViewportPlace()
    rgb = np.arange(20 * 20 * 3, dtype=np.uint8).reshape(20, 20, 3)
    region = cut(rgb, Rect(x=12, y=705, width=4, height=3), ViewportPlace(10, 700, 2.0))
    assert region.shape == (6, 8, 3) and (region == rgb[10:16, 4:12]).all()
    assert analysis_frame(rgb, Rect(x=0, y=0, width=20, height=20), ViewportPlace(), 10).shape == (10, 10, 3)
