"""Phase 1, Load & Validation (seed 002, 30 s): open the game, wait for DOMContentLoaded and the first painted frame,
take the first screenshot, and check what a tester checks first — did the page answer (no 404 or 5xx), is it blank,
did it log errors or fail requests, and does the game wait for the player (a Play button, "click to start", an
audio-unlock overlay) before it runs."""

from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import urlsplit

from studio.game.errors import GamePhaseError
from studio.game.identity import identify
from studio.game.run_context import RunContext
from studio.models.game import SURFACE_KINDS, AgentAction, Phase1Result, Rect
from studio.toolbelt.replies import ToolError
from studio.wording import plural

SOFT_404 = ("page not found", "404 not found", "not found", "error 404")
FIRST_LOOK_S = 0.6  # how long the page is watched for animation before anyone touches it

log = logging.getLogger(__name__)


async def run_phase1(ctx: RunContext) -> Phase1Result:
    evidence = ctx.run.evidence
    evidence.url = ctx.run.url
    ctx.status("Opening the game")
    await ctx.probe.install()  # before the navigation: it counts the frames the game draws from the start
    await ctx.live.driver.bring_to_front()  # the game's tab is the active one: it gets the keys and the frames
    identity = await identify(ctx.live)  # seed 002: the browser says it is 'GameEval TestAgent/1.0'
    ctx.note("user_agent", identity.user_agent)
    if identity.note():
        ctx.note("viewport", identity.note() or "")
    started = time.monotonic()
    reply = await ctx.hands.navigate(ctx.run.url)
    seconds = time.monotonic() - started
    if isinstance(reply, ToolError):
        ctx.act(AgentAction(timestamp=time.time() * 1000, action="navigate", phase="phase1", target=ctx.run.url,
                            reasoning="Phase 1: open the game", outcome=f"failed: {reply.error.message}"))
        evidence.reachable = False
        await ctx.screenshot("initial-load")
        raise GamePhaseError("not_accessible", reply.error.message)
    evidence.http_status = reply.status
    ctx.act(AgentAction(timestamp=time.time() * 1000, action="navigate", phase="phase1", target=reply.url,
                        reasoning="Phase 1: open the game",
                        outcome=f"HTTP {reply.status} in {seconds * 1000:.0f} ms" if reply.status else "opened"))
    await ctx.probe.call("painted")  # two animation frames: the first frame is on screen
    timing = await ctx.probe.call("timing") or {}
    evidence.dom_content_loaded_ms = _ms(timing.get("domContentLoaded"))
    evidence.first_paint_ms = _ms(timing.get("firstPaint") or timing.get("firstContentfulPaint"))
    evidence.load_ms = _ms(timing.get("load")) or round(seconds * 1000, 1)

    surface = await ctx.probe.call("surface") or {}
    _take_surface(ctx, surface)
    shot = await ctx.screenshot("initial-load")
    state = await ctx.probe.call("state") or {}
    status = reply.status or 200
    if status >= 400 or _soft_404(state):
        evidence.reachable = False
        raise GamePhaseError("not_accessible", f"HTTP {status} at {reply.url}" if status >= 400
                             else f"the page at {reply.url} says it was not found ({state.get('title', '')!r})")
    if shot is not None and shot.blank and int(state.get("textLength") or 0) == 0:
        evidence.blank_page = True
        raise GamePhaseError("blank_page", f"a uniform screenshot and no text at {reply.url}")

    frames = await sample_fps(ctx, FIRST_LOOK_S, state)
    asks = await ctx.probe.call("interaction") or {}
    animating = frames > 0
    ctx.animated = animating
    reasons = list(asks.get("reasons") or [])
    evidence.requires_interaction = bool(reasons)
    said = next((reason.split('"')[1] for reason in reasons if reason.count('"') >= 2), "")
    evidence.interaction_hint = asks.get("start") or said  # its Play button, else what its page says to do
    if reasons:
        ctx.note("requires_interaction", "; ".join(reasons) + ("; the page animates meanwhile" if animating else ""))
    evidence.load_failures = load_failures(ctx)
    errors = [f"The game's own code failed while loading: {item}" for item in evidence.load_failures]
    errors += [f"Console error: {item.text}" for item in ctx.problems("console", "phase1") if item.level == "error"
               and not item.text.startswith("Failed to load resource")]
    errors += [f"Uncaught error: {item.text}" for item in ctx.problems("page_error", "phase1")]
    errors += [f"Failed request: {item.text}" for item in ctx.problems("network", "phase1") if not item.script]
    others = ctx.problems("network", "phase1", "third_party")
    if others:
        errors.append(f"{plural(len(others), 'third-party request')} failed (adverts, analytics, fonts: not the "
                      f"game's own, not counted against it), e.g. {others[0].url[:80]}")
    if evidence.load_failures:
        ctx.status(f"Phase 1 complete - the page loaded, but {evidence.load_failures[0]}")
    else:
        ctx.status("Phase 1 complete - Game loaded successfully")
    return Phase1Result(success=True, requiresInteraction=bool(reasons), errors=errors[:10])


def load_failures(ctx: RunContext) -> list[str]:
    """The game's own code failing while it loaded: a script of its own site that did not arrive, an uncaught
    error. Each may have stopped the game before it began (later phases tell whether it did)."""
    found = []
    for item in ctx.problems("network", "phase1"):
        if item.script:
            path = urlsplit(item.url).path or item.url
            status = item.text.split(" ", 1)[0]
            found.append(f"its script {path} failed to load ({'HTTP ' + status if status.isdigit() else status})")
    for item in ctx.problems("page_error", "phase1"):
        found.append(f"it threw \"{item.text.splitlines()[0][:120]}\"")
    return list(dict.fromkeys(found))[:5]


def _take_surface(ctx: RunContext, surface: dict) -> None:
    box = surface.get("box")
    evidence = ctx.run.evidence
    kind = surface.get("kind") or "page"
    if box and box.get("width", 0) >= 20 and box.get("height", 0) >= 20:
        ctx.surface = Rect(x=box["x"], y=box["y"], width=box["width"], height=box["height"])
    evidence.surface_kind = SURFACE_KINDS.get(kind, "page")
    if kind in ("canvas", "webgl"):
        context = surface.get("context") or "unknown"
        evidence.surface = f"a {surface.get('width')}×{surface.get('height')} canvas ({context})"
    elif kind == "board":
        evidence.surface = f"a board of {surface.get('cells')} cells"
    else:
        evidence.surface = "the page"


def _soft_404(state: dict) -> bool:
    title = str(state.get("title") or "").lower()
    return int(state.get("textLength") or 0) < 400 and any(marker in title for marker in SOFT_404)


def _ms(value: float | None) -> float | None:
    return round(float(value), 1) if value else None


async def sample_fps(ctx: RunContext, seconds: float, state: dict | None = None) -> int:
    """Watch the page's animation frames for `seconds` of real time; keep the rate as an fps sample and return how
    many frames it drew."""
    state = state if state is not None else (await ctx.probe.call("state") or {})
    frames_before, watched_from = int(state.get("frames") or 0), time.monotonic()
    await asyncio.sleep(seconds)
    after = await ctx.probe.call("state") or {}
    frames = int(after.get("frames") or 0) - frames_before
    ctx.run.evidence.fps_samples.append(round(frames / max(time.monotonic() - watched_from, 1e-3), 1))
    return frames
