"""A keyboard-driven 4×4 sliding-tile number puzzle ("Slide", 2048-like, written from scratch), with seeded faults.

Shape: one page (`/`). The board is DOM, not canvas: `.grid[aria-label="Game board"]` holds 16 `div.grid-cell`,
a cell with a number holds a `div.tile.tile-<n>` whose text is the number. A "Score" and a "Best" box
(`.score-container .value`, `.best-container .value`; best kept in localStorage). "New Game" is an `<a>` WITHOUT
href (`a.restart-button`) used as a button. Arrow keys and W/A/S/D move, from a `keydown` listener on `document`;
after a move that changes the board a new tile (2, sometimes 4) appears. When no move is left, an overlay says
"Game over!" with a "Try again" `<a>` (no href either). `?seed=N` makes the new tiles deterministic (seeded PRNG);
without it they are random.

Faults are served as different JavaScript (tests/apps/static/grid/game.js); the page never names them.
"""

from __future__ import annotations

from aiohttp import web

from tests.apps.base import FaultyApp, error_response

FAULT_DESCRIPTIONS: dict[str, str] = {
    "score_not_updating": "Merging tiles never changes the score shown (the score box is not re-rendered).",
    "new_game_broken": "Clicking 'New Game' (or 'Try again') does nothing: the handler only accepts <button>s.",
    "keys_ignored": "Arrow keys do nothing (the key map uses legacy 'Up'/'Down' names); W/A/S/D still work.",
    "console_error_on_move": "Every move throws an uncaught TypeError after it is done (the move still happens).",
    "no_new_tile": "No new tile appears after a move.",
}
FAULTS: tuple[str, ...] = tuple(FAULT_DESCRIPTIONS)


class GridGame(FaultyApp):
    """`with GridGame() as game: page.goto(game.url(seed=7))`."""

    FAULTS = FAULTS
    NAME = "grid-game"
    STATIC_DIR = "grid"

    def url(self, seed: int | None = None) -> str:
        """The game's page; with `seed` the tiles that appear are the same on every load."""
        return self.base_url + "/" + (f"?seed={seed}" if seed is not None else "")

    async def index(self, request: web.Request) -> web.Response:
        cells = "\n        ".join('<div class="grid-cell"></div>' for _ in range(16))
        return self.static_response("index.html", "text/html", cells=cells)

    def build(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.index)
        app.router.add_get("/game.js", self.static_route("game.js", "application/javascript"))
        app.router.add_get("/game.css", self.static_route("game.css", "text/css"))

        async def not_found(request: web.Request) -> web.Response:
            return error_response(404)

        app.router.add_route("*", "/{tail:.*}", not_found)
        return app
