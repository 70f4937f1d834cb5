"""A canvas snake game ("Serpent", written from scratch), with seeded faults.

Shape: one page (`/`). Everything happens on a `<canvas id="game">` (600×640) drawn with the 2D context from a
requestAnimationFrame loop: a HUD strip on top with "SCORE N", then a 30×30 field of 20 px cells (the snake's head
is #c8f560, its body #5fd38d, the apple red, from the sprite sheet /assets/sprites.png). Before play an overlay
drawn on the canvas says "Press Space to start / or click the board"; Space or a click starts. Arrow keys steer
(listener on `window`). An apple is 10 points; the score is drawn on the canvas AND mirrored in the DOM as
`<div id="score">Score: N</div>` (`score_in_canvas` keeps it in the canvas only). Hitting a wall or the snake ends
the game ("Game over" overlay, Space plays again). The snake starts at cell (5, 15) heading right. `?seed=N` makes
apple placement deterministic.

Faults are served as different HTML/JavaScript (tests/apps/static/canvas/); the page never names them. Some are page
shapes rather than bugs (`score_in_canvas`, `third_party`: requests to `.invalid` hosts that fail offline).
"""

from __future__ import annotations

import struct
import zlib

from aiohttp import web

from tests.apps.base import NO_STORE, FaultyApp, error_response

FAULT_DESCRIPTIONS: dict[str, str] = {
    "blank_canvas": "Nothing is drawn: frames go to an off-screen buffer that is never copied onto the canvas.",
    "crash_on_start": "Starting the game throws an uncaught TypeError (reads a level past the end of the list).",
    "controls_ignored": "Arrow keys are recorded but never applied: the snake keeps its heading.",
    "freeze_after_start": "The animation loop stops for good about one second after the game starts.",
    "asset_404": "The sprite sheet is requested from /sprites.png, which 404s; a console error is logged.",
    "score_in_canvas": "The score is only drawn inside the canvas (the HUD's 'SCORE N', the game-over 'Score: N'): "
                       "the page has no #score element and no score anywhere in its DOM text.",
    "third_party": "The page carries what ad-funded game sites do: a web font stylesheet "
                   "(https://fonts.webfont.invalid/css?family=...), an analytics script with its guarded gtag() call "
                   "(`window.dataLayer = window.dataLayer || []`), an advert script "
                   "(https://ads.adnetwork.invalid/show_ads.js, async) and a 300x250 ad iframe from "
                   "https://serve.adexchange.invalid/. None of them resolves without a network (console errors, "
                   "failed requests); the game's own files are all served and it plays, with no uncaught error.",
    "never_starts": "The start screen still asks to click or press Space, but the start handler returns early (it "
                    "expects a state the title screen no longer has): the canvas stays on the title screen forever.",
}
FAULTS: tuple[str, ...] = tuple(FAULT_DESCRIPTIONS)

CELL, HUD = 20, 40
COLORS = {"head": (0xC8, 0xF5, 0x60), "body": (0x5F, 0xD3, 0x8D), "apple": (0xFF, 0x5A, 0x5F)}


def sprite_png() -> bytes:
    """A 20×20 RGBA PNG: a red apple with a green leaf (the game's sprite sheet)."""
    size = 20
    raw = bytearray()
    for y in range(size):
        raw.append(0)  # filter: none
        for x in range(size):
            if (x - 9.5) ** 2 + (y - 10.5) ** 2 <= 64:
                pixel = (*COLORS["apple"], 255)
            elif 10 <= x <= 13 and 1 <= y <= 3:
                pixel = (0x3C, 0xB3, 0x5A, 255)
            else:
                pixel = (0, 0, 0, 0)
            raw += bytes(pixel)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b"")


class CanvasGame(FaultyApp):
    """`with CanvasGame() as game: page.goto(game.url(seed=1))`."""

    FAULTS = FAULTS
    NAME = "canvas-game"
    STATIC_DIR = "canvas"

    def url(self, seed: int | None = None) -> str:
        """The game's page; with `seed` apples appear in the same places on every load."""
        return self.base_url + "/" + (f"?seed={seed}" if seed is not None else "")

    def build(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.static_route("index.html", "text/html"))
        app.router.add_get("/serpent.js", self.static_route("serpent.js", "application/javascript"))
        app.router.add_get("/serpent.css", self.static_route("serpent.css", "text/css"))
        png = sprite_png()

        async def sprites(request: web.Request) -> web.Response:
            return web.Response(body=png, content_type="image/png", headers=NO_STORE)

        async def not_found(request: web.Request) -> web.Response:
            return error_response(404)

        app.router.add_get("/assets/sprites.png", sprites)
        app.router.add_route("*", "/{tail:.*}", not_found)
        return app
