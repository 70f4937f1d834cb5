"""The demo's arcade: two small canvas games a game evaluator must handle, with fault knobs.

Comet Dash (`/arcade/comet`) starts at once and is driven by the keyboard: fly a ship with the arrow keys or W A S D,
catch crystals (score), dodge homing comets (lives), game over, R or the Restart button plays again. Lantern Drift
(`/arcade/lantern`) needs a Play click first, then Space, the up arrow or a click on the board lifts the lantern
through the gaps of scrolling pillars.

Faults are switched per page load by query (`?fault=dead_controls,throw_errors`) or for every load by the data
endpoint (`POST /_data/arcade {"faults": [...]}`, `GET /_data/arcade`); `?seed=N` replays the same game.
"""

from __future__ import annotations

from aiohttp import web

from studio.demo.http_support import ApiError, read_json, state_of
from studio.demo.shop_routes import query_int
from studio.demo.templating import render

routes = web.RouteTableDef()

ARCADE_FAULTS: dict[str, str] = {
    "dead_controls": "Keyboard input is read but never applied (the Restart button still works).",
    "throw_errors": "An uncaught TypeError is thrown every 3 seconds while a game runs.",
    "blank_canvas": "Frames are drawn off screen and never copied onto the canvas: the board stays empty.",
    "asset_404": "The sprite sheet is requested from a path that does not exist (404); fallback shapes are drawn.",
    "frozen_loop": "The frame loop stops for good about 1.5 seconds after a game starts.",
}
GAMES = {
    "comet": {"title": "Comet Dash", "template": "arcade_comet.html",
              "blurb": "Fly with the arrow keys, catch crystals, dodge comets."},
    "lantern": {"title": "Lantern Drift", "template": "arcade_lantern.html",
                "blurb": "Press Play, then Space to lift the lantern through the gaps."},
}
SPRITES = "/static/arcade/sprites.svg"
MISSING_SPRITES = "/static/arcade/sprites-v2.svg"


def faults_of(request: web.Request) -> list[str]:
    """The faults for this page load: the data endpoint's, plus those named in `?fault=` (unknown names ignored)."""
    named = {part.strip() for part in request.query.get("fault", "").split(",") if part.strip()}
    wanted = set(state_of(request).arcade_faults) | (named & ARCADE_FAULTS.keys())
    return sorted(wanted)


@routes.get("/arcade")
async def arcade_index(request: web.Request) -> web.Response:
    return render(request, "arcade_index.html", title="Arcade", games=GAMES)


@routes.get("/arcade/{game}")
async def arcade_game(request: web.Request) -> web.Response:
    game = GAMES.get(request.match_info["game"])
    if game is None:
        raise web.HTTPNotFound()
    seed = query_int(request, "seed", 0, 2**31 - 1)
    faults = faults_of(request)
    config = {"seed": state_of(request).config.seed if seed is None else seed, "faults": faults,
              "sprites": MISSING_SPRITES if "asset_404" in faults else SPRITES}
    return render(request, game["template"], title=game["title"], config=config)


@routes.get("/_data/arcade")
async def get_arcade(request: web.Request) -> web.Response:
    return web.json_response({"faults": sorted(state_of(request).arcade_faults), "known": ARCADE_FAULTS})


@routes.post("/_data/arcade")
async def set_arcade(request: web.Request) -> web.Response:
    body = await read_json(request, allow_empty=False)
    faults = body.get("faults")
    if not isinstance(faults, list) or not all(isinstance(name, str) for name in faults):
        raise ApiError(400, "Send 'faults' as a list of fault names, e.g. {\"faults\": [\"dead_controls\"]}.")
    unknown = sorted(set(faults) - ARCADE_FAULTS.keys())
    if unknown:
        raise ApiError(400, f"Unknown arcade faults: {', '.join(unknown)}. Known: {', '.join(ARCADE_FAULTS)}.")
    state_of(request).arcade_faults = frozenset(faults)
    return web.json_response({"ok": True, "faults": sorted(faults)})
