"""A falling-blocks canvas game ("Blocks", Tetris-like, written from scratch), with seeded faults.

Shape: one page (`/`). The game is drawn with the 2D context on a `<canvas id="well">` (480×640) from a
requestAnimationFrame loop that never stops: the well, 10 columns × 20 rows of 30 px cells, sits at (20, 20); to its
right the canvas shows SCORE, LINES, LEVEL and the NEXT piece. The game starts as soon as the page loads; pieces come
in shuffled bags of the seven (I, O, T, S, Z, J, L; `?seed=N` makes the order deterministic) and fall one row every
800 ms at level 1. Keys (a `keydown` listener on `window`, which calls preventDefault): ArrowLeft/ArrowRight move,
ArrowUp rotates clockwise (with small wall kicks), ArrowDown soft-drops one row, Space hard-drops. A full row is
cleared: 100/300/500/800 points × level for 1/2/3/4 rows at once; the level is 1 + lines // 10. The score and lines
are drawn on the canvas AND shown in a DOM side panel (`#score` "Score N", `#lines` "Lines N", `#level` "Level N").
When a new piece has no room the game is over: the well is dimmed with "GAME OVER / Press Enter to play again"
drawn on it; only Enter does anything then (a new game).

Pieces spawn in the top rows: the I across columns 3–6 (row 0), the O in columns 4–5, the others in columns 3–5
in rows 0–1 (J, L and T lie flat side down: 3 cells of row 1).

Faults are served as different JavaScript (tests/apps/static/blocks/blocks.js); the page never names them.
"""

from __future__ import annotations

from aiohttp import web

from tests.apps.base import FaultyApp, error_response

FAULT_DESCRIPTIONS: dict[str, str] = {
    "rotate_ignored": "ArrowUp does nothing: the turn is counted but the piece's shape is never replaced.",
    "score_frozen": "Clearing lines never changes the score (canvas or side panel): the points are added to a local "
                    "`var score` that shadows the game's. Lines and level still count.",
}
FAULTS: tuple[str, ...] = tuple(FAULT_DESCRIPTIONS)

COLS, ROWS, CELL, WELL_X, WELL_Y = 10, 20, 30, 20, 20
WELL_COLOR = (0x05, 0x06, 0x0D)


class BlocksGame(FaultyApp):
    """`with BlocksGame() as game: page.goto(game.url(seed=4))`."""

    FAULTS = FAULTS
    NAME = "blocks-game"
    STATIC_DIR = "blocks"

    def url(self, seed: int | None = None) -> str:
        """The game's page; with `seed` the pieces come in the same order on every load."""
        return self.base_url + "/" + (f"?seed={seed}" if seed is not None else "")

    def build(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.static_route("index.html", "text/html"))
        app.router.add_get("/blocks.js", self.static_route("blocks.js", "application/javascript"))
        app.router.add_get("/blocks.css", self.static_route("blocks.css", "text/css"))

        async def not_found(request: web.Request) -> web.Response:
            return error_response(404)

        app.router.add_route("*", "/{tail:.*}", not_found)
        return app
