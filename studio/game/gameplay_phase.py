"""Phase 3, Gameplay Exploration (seed 002, adaptive 1–5 min, stops after 30 s without progress).

Start the game (the Play button Phase 1 saw, or what the page says to press), measure what the game does on its own,
probe every discovered control and the common game keys (pixels of the play surface, the page's score, level, lives
and game words), then play: the explorer (or a model) picks moves, each one measured the same way. Screenshots every
10 s and on every visible state change (at least 5), each written to the project at once; every action and decision
is a row; progress is reported at most every 5 s.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field

from studio.game.errors import NO_PROGRESS
from studio.game.explorer import Explorer, ModelPilot, Move, move_label
from studio.game.eyes import EyesError
from studio.game.frames import changed_share
from studio.game.gameplay_moves import perform, restart_game, start_game
from studio.game.load_phase import sample_fps
from studio.game.looking import OVER_WORDS, SCORE_COUNTERS, look, page_change
from studio.game.probing import TRANSITION_SHARE, Calm, Measured, calibrate, hurt, judge, measure
from studio.game.run_context import RunContext
from studio.models.game import AgentAction, ControlDiscovery, ControlResponse, DecisionEntry, Phase3Result, Rect
from studio.wording import plural

PROBE_PRESSES = (4, 1, 3)  # a key's first probe holds it; a second taps it, a third presses it three times: four
# turns of a rotate key (or two of a toggle) come back to where they began and show nothing
PROBING_SHARE = 0.6  # of the exploration window at most; the rest is play
STATE_SHOT_GAP_S = 2.0  # at most one state-change screenshot this often (a score ticking up is not a flood)
PHASE4_RESERVE_S = 5.0
RESTART_SETTLE_S = 0.3  # what the run keeps for scoring when the budget's clock runs short
AFTERGLOW_S = 1.5  # after a hit, games blink or shake the player this long (its frames hide what a key did)
REAL_SLACK_S = 30.0  # a stepped game's time can run slower than real time: play ends this long after the window in
# real time at the latest, well inside the phase's limit (the window plus 60 s), so a slow game is never cut off
REAL_FPS_S = 1.0  # after play, the game runs on in real time this long to measure its frame rate


@dataclass
class Play:
    """How the exploration is going."""

    started: float
    deadline: float
    settle_after: float
    last_progress: float
    last_discovery: float
    next_shot: float
    last_state_shot: float = -1e9
    best_score: int | None = None
    levels: set[int] = field(default_factory=set)
    over: bool = False
    stalled: int = 0
    restarts: int = 0
    frames_seen: bool = False
    play_moves_worked: bool = False
    responded: set[str] = field(default_factory=set)
    stop_reason: str = ""
    last_hurt: float = -1e9  # game time of the last probe in which the player was hit
    hits: dict[str, int] = field(default_factory=dict)  # per control: tries (probes and moves) that changed the game
    tries: dict[str, int] = field(default_factory=dict)
    real_deadline: float = float("inf")  # the same window in real time: a stepped game's time can run slower


async def run_phase3(ctx: RunContext, requires_interaction: bool) -> Phase3Result:
    with contextlib.suppress(EyesError):
        await ctx.probe.call("holdScroll", True)  # the page stays where it is: a scroll is not the game answering
    try:
        return await _phase3(ctx, requires_interaction)
    finally:
        with contextlib.suppress(EyesError):
            state = await ctx.probe.call("holdScroll", False)
            ctx.run.evidence.scrolls_undone = int(state or 0)
        if ctx.clock.stepping:
            await ctx.clock.stop()
            if ctx.animated:
                with contextlib.suppress(EyesError):
                    await sample_fps(ctx, REAL_FPS_S)  # the rate the game keeps on its own, not the stepped one


async def _phase3(ctx: RunContext, requires_interaction: bool) -> Phase3Result:
    options, evidence = ctx.options, ctx.run.evidence
    await ctx.clock.start()
    now = ctx.clock.now()
    window = min(options.max_explore_s, max(1.0, ctx.budget.remaining_seconds - PHASE4_RESERVE_S))
    play = Play(started=now, deadline=now + window, settle_after=now + min(options.min_explore_s, window),
                last_progress=now, last_discovery=now, next_shot=now + options.screenshot_every_s,
                real_deadline=time.monotonic() + window + REAL_SLACK_S)
    first_shot = len(ctx.shots)
    opening = await look(ctx)
    # The page's own words before anyone played ("press Enter to play again after a game over" in its instructions)
    # are not an end screen; words the game draws on its canvas are its screen, so one that opens on "Game over"
    # keeps it as one.
    ctx.standing_words = frozenset(opening.words - set(opening.state.get("drawnWords") or []))
    ctx.status("Starting the game")
    evidence.started = await start_game(ctx, requires_interaction)
    await ctx.clock.start()  # a game that only began to animate once started
    ctx.note("game_time", "stepped frame by frame" if ctx.clock.stepping else "real time (no animation frames seen)")
    calm = await calibrate(ctx)
    ctx.animated = ctx.animated or calm.frames > 0
    responses = await _probe_controls(ctx, play, calm)
    evidence.responses = responses
    if not requires_interaction:
        evidence.started = evidence.started or any(r.responded for r in responses) or ctx.animated
    await _explore(ctx, play, calm, responses)
    if calm.jumpy:
        responses = [_by_majority(r, play) for r in responses]
    evidence.responses = responses + list(ctx.buttons.values())
    while len(ctx.shots) - first_shot < options.min_screenshots:
        await ctx.screenshot(f"final-state-{len(ctx.shots) - first_shot + 1}")
    evidence.play_seconds = round(ctx.clock.now() - play.started, 1)
    evidence.idle_animation = ctx.animated
    ctx.note("phase3_stop", play.stop_reason or "time")
    success = play.play_moves_worked or evidence.score_changes > 0
    errors = [] if success else [NO_PROGRESS]
    errors += [f"Uncaught error: {item.text}" for item in ctx.problems("page_error", "phase3")][:5]
    findings = [r for r in responses if r.responded]
    ctx.run.findings = ("; ".join(f"{r.label} changed the game" + (f" ({r.text_change})" if r.text_change else "")
                                  for r in findings[:8]) or "No control changed the game.")
    taken = sum(1 for a in ctx.actions if a.phase == "phase3")
    ctx.status(f"Phase 3 complete - {plural(taken, 'action')}, {plural(len(ctx.shots) - first_shot, 'screenshot')}")
    return Phase3Result(success=success, screenshotCount=len(ctx.shots) - first_shot, errors=errors,
                        actionsTaken=taken)


async def _probe_controls(ctx: RunContext, play: Play, calm: Calm) -> list[ControlResponse]:
    """Probe each control worth probing, most likely first, while there is time."""
    wanted = [c for c in ctx.controls if c.confidence >= 0.5 and c.purpose in ("play", "surface")]
    wanted.sort(key=lambda c: (not c.expected, -c.confidence))
    responses: list[ControlResponse] = []
    probing_ends = play.started + PROBING_SHARE * (play.deadline - play.started)
    first = wanted[:ctx.options.max_probes]
    # A real-time game can hide one answer (a comet passing, a blink): an expected control that did nothing is tried
    # once more, and counts as responding if either try showed it. A game whose own motion comes in steps can also
    # fake one (calm.jumpy): there every control is tried twice (three times when the two disagree) and counts as
    # responding only when two tries showed it.
    queue = first + [c for c in first if c.expected or calm.jumpy]
    spoiled: set[str] = set()
    hits, tries = play.hits, play.tries
    turn = -1
    while turn + 1 < len(queue):
        turn += 1
        control = queue[turn]
        key = control.element_selector
        if turn >= len(first) and (hits.get(key, 0) >= (2 if calm.jumpy else 1)):
            continue
        if _out_of_time(ctx, play) or _cancelled(ctx):
            break
        # Probing has its share of the window; a game that moves in steps still gets the tries that confirm a
        # control seen once (on a busy machine a first round can take the whole share).
        if ctx.clock.now() >= probing_ends:
            if not calm.jumpy:
                break
            if not (turn >= len(first) and hits.get(key, 0) == 1):
                continue  # left to play, which tries every control too
        current = await look(ctx)
        if current.over or play.over or play.stalled >= 2:
            await _get_going(ctx, play, calm)
        presses = PROBE_PRESSES[tries.get(key, 0) % len(PROBE_PRESSES)] if control.key else 1
        label = move_label(control, presses)
        ctx.decide(DecisionEntry(timestamp=time.time() * 1000, decision=f"probe: {label}",
                                 context=f"Does {control.description} change the game? "
                                         f"({len(wanted)} controls to probe)"))
        glowing = ctx.clock.now() - play.last_hurt < AFTERGLOW_S
        seen = await measure(ctx, perform(ctx, control), presses, ignore=_own_box(control))
        hit = hurt(seen)
        if hit:
            play.last_hurt = ctx.clock.now()
        response = judge(label, control, seen, calm)
        screens = _spoiled(seen)
        if (not response.responded and (screens or glowing or hit)
                and control.element_selector not in spoiled):
            # The game changed screens around the probe (it ended, a level began), or the player was hit around it
            # (the hit's blink hides what the control did): the probe says nothing of the control. Try it again,
            # once the game is going.
            spoiled.add(control.element_selector)
            queue.insert(turn + 1 + sum(1 for c in queue[turn + 1:] if c.element_selector in spoiled), control)
            play.over = play.over or screens  # most likely an end screen (drawn, so unreadable): start again first
        tries[key] = tries.get(key, 0) + 1
        hits[key] = hits.get(key, 0) + int(response.responded)
        if calm.jumpy and tries[key] == 2 and hits[key] == 1:
            queue.append(control)  # the two tries disagree: a third decides
        counted = response
        if calm.jumpy and response.responded and hits[key] < 2:
            counted = response.model_copy(update={  # seen once: not confirmed yet
                "responded": False, "latency_ms": None,
                "text_change": f"changed the game in 1 of {plural(tries[key], 'try', 'tries')}, which the game's "
                               "own motion can also do: not confirmed"})
        earlier = next((i for i, r in enumerate(responses) if r.control == control.element_selector), None)
        if earlier is None:
            responses.append(counted)
        elif counted.responded or not responses[earlier].responded:
            responses[earlier] = counted
        _record(ctx, control, label, "Probe: does it change the game?", response, seen)
        await _take_in(ctx, play, seen, response, control)
        if response.responded:
            play.responded.add(control.element_selector)
        ctx.progress(f"Probing controls: {label} — {'responded' if response.responded else 'no visible effect'}")
    return responses


async def _explore(ctx: RunContext, play: Play, calm: Calm, responses: list[ControlResponse]) -> None:
    movable = [c for c in ctx.controls if c.confidence >= 0.5 and c.purpose in ("play", "surface")]
    restarters = {c.element_selector for c in ctx.controls if c.purpose in ("start", "restart")}
    explorer = Explorer(ctx.options.seed, movable + [c for c in ctx.controls if c.element_selector in restarters],
                        responses, restarters)
    pilot = ModelPilot(ctx.model, ctx.budget, ctx.run.id, movable, responses) \
        if ctx.model is not None and ctx.options.use_model and movable else None
    while not _should_stop(ctx, play):
        if play.over or play.stalled >= 2:
            await _get_going(ctx, play, calm)
            continue
        move = await _next_move(ctx, explorer, pilot)
        if move is None:
            play.stop_reason = "nothing to do"
            break
        if move == "wait":
            seen = await measure(ctx, None)
            await _take_in(ctx, play, seen, None, None)
            continue
        assert isinstance(move, Move)
        seen = await measure(ctx, perform(ctx, move.control), move.presses, ignore=_own_box(move.control))
        response = judge(move.label, move.control, seen, calm)
        explorer.learn(move.control, response.responded)
        if calm.jumpy:  # one move's change is no proof in a game that moves in steps on its own: tallied instead
            key = move.control.element_selector
            play.tries[key] = play.tries.get(key, 0) + 1
            play.hits[key] = play.hits.get(key, 0) + int(response.responded)
        else:
            _remember(responses, response)
        _record(ctx, move.control, move.label, move.reason, response, seen)
        await _take_in(ctx, play, seen, response, move.control)
        ctx.progress(f"Playing: {move.label} — {'it changed the game' if response.responded else 'no visible effect'}")


async def _next_move(ctx: RunContext, explorer: Explorer, pilot: ModelPilot | None) -> Move | str | None:
    if pilot is not None and pilot.usable:
        shot = await ctx.camera.screenshot()
        state = await ctx.probe.call("state") or {}
        chosen = await pilot.next(shot[0], f"{state.get('title', '')}\n{state.get('counters', {})}")
        if chosen is not None:
            what = chosen if isinstance(chosen, str) else chosen.label
            ctx.decide(DecisionEntry(timestamp=time.time() * 1000, decision=what,
                                     context="screenshot + controls: " + pilot.catalogue()[:900],
                                     ai_model=ctx.model.model if ctx.model else None))
            return chosen
        ctx.note("model", pilot.last_problem)
    move = explorer.next()
    if move is not None:
        ctx.decide(DecisionEntry(timestamp=time.time() * 1000, decision=move.label, context=move.reason))
    return move


async def _get_going(ctx: RunContext, play: Play, calm: Calm) -> None:
    """The game is over or stuck: try to start it again; a game that comes back counts as a restart."""
    before = await look(ctx)
    was_over = before.over or play.over
    touch, button = await restart_game(ctx, play.restarts)
    play.restarts += 1
    await ctx.clock.wait(RESTART_SETTLE_S)
    after = await look(ctx)
    change = page_change(before, after)
    back = touch.done and ((was_over and not after.over) or changed_share(before.frame, after.frame) > 0.01
                           or change.any)
    if button is not None:
        ctx.button_used(button, "restart", back)
    play.over = after.over
    if back:
        play.stalled = 0
        if was_over and not after.over:
            ctx.run.evidence.restart_seen = True
            ctx.run.evidence.state_changes += 1
            play.last_discovery = ctx.clock.now()
            await ctx.screenshot("restarted")
    if play.restarts > 6 and not back:
        play.stop_reason = "the game could not be started again"
        play.deadline = ctx.clock.now()


async def _take_in(ctx: RunContext, play: Play, seen: Measured, response: ControlResponse | None,
                   control: ControlDiscovery | None) -> None:
    """Update what the exploration knows from one measured move: progress, score, game over, screenshots."""
    evidence, now = ctx.run.evidence, ctx.clock.now()
    evidence.play_seconds = round(now - play.started, 1)
    after, change = seen.after, seen.change
    frames = int(after.state.get("frames") or 0) - int(seen.before.state.get("frames") or 0)
    seconds = max(after.at - seen.before.at, 1e-3)
    if not ctx.clock.stepping and ctx.animated:
        # Stepped frames say nothing of the rate the game keeps; a game that only animates after a move (a
        # turn-based puzzle) has no frame rate to judge: its frames between moves are idle, not slow.
        evidence.fps_samples.append(round(frames / seconds, 1))
    play.frames_seen = play.frames_seen or frames > 0
    if response is None and frames > 0:
        ctx.animated = True  # frames drawn while nobody acted: the game runs on its own
    still = seen.share_act == 0 and seen.share_idle == 0 and not change.any
    # Frozen: a game that runs on its own stopped drawing and did not answer what was pressed. A game idle between
    # moves is waiting for the player, not frozen.
    if still and ctx.animated and frames == 0 and not after.over:
        evidence.frozen_seconds = round(evidence.frozen_seconds + seconds, 1)
    play.stalled = play.stalled + 1 if still else 0
    evidence.score_seen = evidence.score_seen or after.score is not None
    if after.score is not None and not evidence.score_source:
        drawn = set(after.state.get("canvasCounters") or [])
        evidence.score_source = ("text drawn on the canvas" if drawn & set(SCORE_COUNTERS) else "the page's text")
    if response is not None and response.responded:
        play.last_progress = now
        evidence.effective_actions += 1
        if control is not None and control.purpose in ("play", "surface"):
            play.play_moves_worked = True
        if control is not None and control.element_selector not in play.responded:
            play.responded.add(control.element_selector)
            play.last_discovery = now
    state_change = seen.share_act >= TRANSITION_SHARE or bool(change.appeared or change.gone)
    score = after.score
    if score is not None and seen.before.score is not None and score != seen.before.score:
        evidence.score_changes += 1
        if play.best_score is None or score > play.best_score:
            play.best_score = score
            play.last_discovery = now
            state_change = True
    level = after.counters.get("level")
    if level is not None and level not in play.levels:
        play.levels.add(level)
        play.last_discovery, state_change = now, True
    if change.appeared & OVER_WORDS and not play.over:
        evidence.game_over_seen = True
        play.last_discovery = now
    play.over = after.over
    if state_change:
        evidence.state_changes += 1
    name = (move_label(control) if control is not None else "watching")
    if after.over and change.appeared & OVER_WORDS:
        await ctx.screenshot(f"game-over-after-{name}")
        play.last_state_shot = now
    elif state_change and now - play.last_state_shot >= STATE_SHOT_GAP_S:
        await ctx.screenshot(f"state-change-after-{name}")
        play.last_state_shot = now
    elif now >= play.next_shot:
        await ctx.screenshot(f"play-{int(now - play.started)}s-{name}")
    if now >= play.next_shot:
        play.next_shot = now + ctx.options.screenshot_every_s


def _by_majority(response: ControlResponse, play: Play) -> ControlResponse:
    """In a game that moves in steps on its own, a control answers when most of its tries (probes and moves while
    playing) changed the game: a few steps that happened to land while it was pressed do not make it work."""
    tries, hits = play.tries.get(response.control, 0), play.hits.get(response.control, 0)
    if tries < 2:
        return response
    answered = hits >= 2 and hits * 2 > tries
    if answered == response.responded:
        return response
    said = f"changed the game in {hits} of {plural(tries, 'try', 'tries')}"
    if not answered:
        said += ", which the game's own motion can also do: not confirmed"
    return response.model_copy(update={"responded": answered, "text_change": said,
                                       "latency_ms": response.latency_ms if answered else None})


def _remember(responses: list[ControlResponse], response: ControlResponse) -> None:
    """A move while playing is evidence about its control too: a control first tried in play is now tried, and one
    that answered in play counts as answering."""
    known = next((i for i, r in enumerate(responses) if r.control == response.control), None)
    if known is None:
        responses.append(response)
    elif response.responded and not responses[known].responded:
        responses[known] = response


def _own_box(control: ControlDiscovery) -> Rect | None:
    """A clicked button's own box (its hover and pressed looks are not the game answering); None for keys and the
    play surface itself."""
    return control.box if not control.key and control.purpose != "surface" else None


def _spoiled(seen: Measured) -> bool:
    """A screen change or the game's end while the probe watched the game left alone, or the game over after it."""
    return seen.share_idle >= TRANSITION_SHARE or seen.after.over or bool(seen.idle_change.appeared & OVER_WORDS)


def _record(ctx: RunContext, control: ControlDiscovery, label: str, reasoning: str, response: ControlResponse,
            seen: Measured) -> None:
    if seen.touch is not None and not seen.touch.done:
        outcome = f"could not act: {seen.touch.said}"
    elif response.responded:
        how = []
        if response.novel_blocks:
            how.append(f"{response.novel_blocks} blocks of the picture changed beyond the game's own motion")
        if response.text_change:
            how.append(response.text_change)
        if response.latency_ms is not None:
            how.append(f"first visible after ~{response.latency_ms:.0f} ms")
        outcome = "the game responded: " + ("; ".join(how) or "the screen changed")
    else:
        outcome = "no visible effect beyond what the game does on its own"
    ctx.act(AgentAction(timestamp=time.time() * 1000, action="keyboard" if control.key else "click",
                        reasoning=reasoning, outcome=outcome, phase="phase3", target=label))


def _should_stop(ctx: RunContext, play: Play) -> bool:
    now = ctx.clock.now()
    if play.stop_reason:
        return True
    if _out_of_time(ctx, play):
        play.stop_reason = play.stop_reason or "time"
        return True
    if _cancelled(ctx):
        play.stop_reason = "cancelled"
        return True
    if now - play.last_progress >= ctx.options.no_progress_s:
        play.stop_reason = f"no progress for {ctx.options.no_progress_s:g} s"
        return True
    if now >= play.settle_after and now - play.last_discovery >= ctx.options.no_progress_s:
        play.stop_reason = "nothing new to learn"
        return True
    return False


def _out_of_time(ctx: RunContext, play: Play) -> bool:
    return (ctx.clock.now() >= play.deadline or time.monotonic() >= play.real_deadline
            or ctx.budget.remaining_seconds <= PHASE4_RESERVE_S or ctx.budget.steps >= ctx.budget.limits.max_steps)


def _cancelled(ctx: RunContext) -> bool:
    return bool(ctx.control is not None and ctx.control.cancel_requested)
