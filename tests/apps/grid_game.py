"""A keyboard-driven 4×4 sliding-tile number puzzle ("Slide", 2048-like, written from scratch), with seeded faults.

Shape: one page (`/`) that fits a 1280×720 viewport. The board is DOM, not canvas: `.grid[aria-label="Game board"]`
holds 16 `div.grid-cell`, a cell with a number holds a `div.tile.tile-<n>` whose text is the number. A "Score" and a
"Best" box (`.score-container .value`, `.best-container .value`; best kept in localStorage). "New Game" is an `<a>`
WITHOUT href (`a.restart-button`) used as a button. Arrow keys and W/A/S/D move, from a `keydown` listener on
`document` (which calls preventDefault); after a move that changes the board a new tile (2, sometimes 4) appears.
The board is rendered in its final state at once, then the tiles are animated for ~120 ms with requestAnimationFrame
(they slide from their old cells, a merged tile pops, the new tile grows in); between moves no frame is requested:
the page is idle, as 2048's is. When no move is left, an overlay says "Game over!" with a "Try again" `<a>` (no href
either). `?seed=N` makes the new tiles deterministic (seeded PRNG); without it they are random.

The code is split as 2048's is: /game_manager.js defines `GameManager` (rules, input, rendering) and /application.js
calls `new GameManager(4)` on DOMContentLoaded. The server only serves the files the deploy holds
(static/grid/deployed.txt); anything else is Python's http.server 404 page. `hits` counts the requests per path.

Faults are served as different HTML/JavaScript (or a file left out of the deploy); the page never names them. Some are
page shapes rather than bugs of the game (`site_chrome`), for the evaluator to keep its hands off.
"""

from __future__ import annotations

import threading
from collections import Counter

from aiohttp import web

from tests.apps.base import NO_STORE, FaultyApp, error_response

FAULT_DESCRIPTIONS: dict[str, str] = {
    "score_not_updating": "Merging tiles never changes the score shown (the score box is not re-rendered).",
    "new_game_broken": "Clicking 'New Game' (or 'Try again') does nothing: the handler only accepts <button>s.",
    "keys_ignored": "Arrow keys do nothing (the key map uses legacy 'Up'/'Down' names); W/A/S/D still work.",
    "console_error_on_move": "Every move throws an uncaught TypeError after it is done (the move still happens).",
    "no_new_tile": "No new tile appears after a move.",
    "logic_missing": "The game-logic script /game_manager.js was left out of the deploy: it 404s, /application.js "
                     "throws an uncaught 'ReferenceError: GameManager is not defined', the board stays empty.",
    "controls_unbound": "No key listener is ever registered (the input is never bound): no key does anything, though "
                        "the page still says to use the arrow keys. 'New Game' still works.",
    "tall_page": "The page is much taller than the viewport (a long 'How to play' section, notes, a footer) and the "
                 "keydown handler never calls preventDefault: every arrow key also scrolls the page (ArrowDown by "
                 "40 px). With logic_missing, scrolling is all that an arrow key does.",
    "site_chrome": "The game sits in a site page: a header nav (Dashboard /dashboard, Help /help, an outbound "
                   "https://example.com/ link, 'Sign out' /signout, all served and counted in `hits`) and a "
                   "stats.js-style FPS meter fixed in the top-left corner, redrawn every animation frame (so the page "
                   "is never idle) and switching FPS/MS on click. The game itself is healthy.",
}
FAULTS: tuple[str, ...] = tuple(FAULT_DESCRIPTIONS)

CONTENT_TYPES = {"html": "text/html", "css": "text/css", "js": "application/javascript"}
SITE_PAGES = {
    "/dashboard": ("Dashboard", "<p>Welcome back, sam. You have played Slide 12 times this week.</p>"),
    "/help": ("Help", "<p>Slide: use the arrow keys to move the tiles. Questions? Write to help@example.com.</p>"),
    "/signout": ("Signed out", "<p>You have been signed out.</p><p><a href='/'>Sign in again</a></p>"),
}


class GridGame(FaultyApp):
    """`with GridGame() as game: page.goto(game.url(seed=7))`; `game.hits["/signout"]` counts visits."""

    FAULTS = FAULTS
    NAME = "grid-game"
    STATIC_DIR = "grid"

    def __init__(self, faults=()) -> None:
        super().__init__(faults)
        self._hits: Counter[str] = Counter()
        self._hits_lock = threading.Lock()

    @property
    def hits(self) -> Counter[str]:
        """Requests served so far, per path (a copy)."""
        with self._hits_lock:
            return Counter(self._hits)

    def clear_hits(self) -> None:
        with self._hits_lock:
            self._hits.clear()

    def url(self, seed: int | None = None) -> str:
        """The game's page; with `seed` the tiles that appear are the same on every load."""
        return self.base_url + "/" + (f"?seed={seed}" if seed is not None else "")

    def deployed(self) -> set[str]:
        """The file names the deploy holds now (deployed.txt rendered for the faults switched on)."""
        lines = self.template("deployed.txt").splitlines()
        return {line.strip() for line in lines if line.strip() and not line.startswith("#")}

    async def index(self, request: web.Request) -> web.Response:
        cells = "\n        ".join('<div class="grid-cell"></div>' for _ in range(16))
        return self.static_response("index.html", "text/html", cells=cells)

    async def file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = CONTENT_TYPES.get(name.rsplit(".", 1)[-1])
        if name not in self.deployed() or kind is None:
            return error_response(404)
        if name == "index.html":
            return await self.index(request)
        return self.static_response(name, kind)

    async def site_page(self, request: web.Request) -> web.Response:
        if not self.has("site_chrome"):
            return error_response(404)
        title, body = SITE_PAGES[request.path]
        return web.Response(content_type="text/html", headers=NO_STORE, text=(
            f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title} · Arcade</title>"
            f"<link rel='icon' href='data:,'></head><body><h1>{title}</h1>{body}"
            "<p><a href='/'>Back to Slide</a></p></body></html>"))

    def build(self) -> web.Application:
        @web.middleware
        async def count(request: web.Request, handler):
            with self._hits_lock:
                self._hits[request.path] += 1
            return await handler(request)

        app = web.Application(middlewares=[count])
        app.router.add_get("/", self.index)
        for path in SITE_PAGES:
            app.router.add_get(path, self.site_page)
        app.router.add_get("/{name:[A-Za-z0-9_.-]+}", self.file)

        async def not_found(request: web.Request) -> web.Response:
            return error_response(404)

        app.router.add_route("*", "/{tail:.*}", not_found)
        return app
