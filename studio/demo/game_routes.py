"""Star Catcher, the demo's canvas game: its page, seeded config, sprite sheet and score board, with fault knobs."""

from __future__ import annotations

from aiohttp import web

from studio.demo.http_support import ApiError, read_json, state_of
from studio.demo.shop_routes import query_int
from studio.demo.templating import render

routes = web.RouteTableDef()

GAME_NAME = "Star Catcher"
SPRITES = {
    "player": {"shape": "ship", "fill": "#38bdf8", "accent": "#e0f2fe", "width": 44, "height": 28},
    "star": {"shape": "star", "fill": "#facc15", "glow": "rgba(250, 204, 21, 0.45)", "radius": 11},
    "meteor": {"shape": "rock", "fill": "#a16207", "crater": "#713f12", "radius": 15},
    "laser": {"shape": "beam", "fill": "#f472b6", "width": 4, "height": 14},
}


def _speed(request: web.Request) -> float:
    try:
        speed = float(request.query.get("speed", "1"))
    except ValueError:
        return 1.0
    return min(max(speed, 0.25), 20.0)


@routes.get("/game")
async def game_page(request: web.Request) -> web.Response:
    return render(request, "game.html", title=GAME_NAME, game_name=GAME_NAME)


@routes.get("/api/game/config")
async def game_config(request: web.Request) -> web.Response:
    """Everything the game needs to replay a run: the seed, pace and the injected fault for this session."""
    state = state_of(request)
    seed = query_int(request, "seed", 0, 2**31 - 1)
    return web.json_response({
        "name": GAME_NAME,
        "seed": state.config.seed if seed is None else seed,
        "speed": _speed(request),
        "lives": 3,
        "width": 480,
        "height": 360,
        "spawnEveryMs": 650,
        "aimedEvery": 3,
        "fault": state.config.game_fault,
        "spritesUrl": "/api/game/assets/sprites.json",
    })


@routes.get("/api/game/assets/sprites.json")
async def game_sprites(request: web.Request) -> web.Response:
    if state_of(request).config.game_fault == "failed_request":
        raise ApiError(500, "The sprite sheet could not be loaded from storage.")
    return web.json_response(SPRITES)


@routes.post("/api/game/score")
async def game_score(request: web.Request) -> web.Response:
    state = state_of(request)
    body = await read_json(request, allow_empty=False)
    score = body.get("score")
    if isinstance(score, bool) or not isinstance(score, int) or score < 0:
        raise ApiError(400, "'score' must be a whole number of points, 0 or more.")
    entry = {"score": score, "seed": body.get("seed"), "durationMs": body.get("durationMs"), "at": state.clock.now_ms()}
    state.game_scores.append(entry)
    best = max(s["score"] for s in state.game_scores)
    rank = 1 + sum(1 for s in state.game_scores if s["score"] > score)
    return web.json_response({"ok": True, "best": best, "rank": rank, "plays": len(state.game_scores)})


@routes.get("/api/game/scores")
async def game_scores(request: web.Request) -> web.Response:
    scores = sorted(state_of(request).game_scores, key=lambda s: -s["score"])[:10]
    return web.json_response({"scores": scores})
