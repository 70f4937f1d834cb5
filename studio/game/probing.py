"""Does a control do anything? Each probe watches the game as long without acting, acts, and watches again; the
effect is what the pictures and the page's text show beyond what the game does on its own.

The same probe with no action (a calibration) measures what the game does on its own — twinkling backgrounds,
enemies, timers — so a busy game is not mistaken for a responsive one, nor a quiet one for a dead one. Pixel
evidence counts the blocks of the play surface that changed while acting and changed neither just before nor just
after (a sprite that moved), or a steady motion that changed course (a snake that turned: its later changes are not
its earlier ones carried along, frames.surprise); page evidence is a counter or a game word that changed only while
acting.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import numpy as np

from studio.game.clock import FRAME_S
from studio.game.frames import Frame, changed_blocks, dilate, predictability, surprise, unexplained
from studio.game.hands import Touch
from studio.game.looking import OVER_WORDS, Look, PageChange, look, page_change
from studio.game.run_context import RunContext
from studio.models.game import ControlDiscovery, ControlResponse, Rect

TRANSITION_SHARE = 0.25  # of the surface changing at once: a screen change (a menu closed, a level began)
MIN_NOVEL_BLOCKS = 7  # a sprite of about 30 CSS px that moved; a busy game's own motion reaches 5–6 now and then
STEADY = 0.7  # a game whose own motion is this predictable shows a turn as a drop of
TURN_DROP = 0.4  # this much in predictability
SWERVE_DROP = 0.25  # a swerve (frames.surprise) also shows as a drop in predictability of at least this much
HARM_COUNTERS = {"lives", "life", "health", "hp"}
REPEAT_S = 0.05  # between the presses of a held key (a keyboard's repeat), and the step of the latency watch


@dataclass
class Calm:
    """What the game does with nobody acting: the noise a probe must rise above."""

    novel: int = 0
    share: float = 0.0
    steady: float | None = None  # how predictable the game's own motion is (see frames.predictability)
    surprise: int = 0  # blocks of the game's own motion that its earlier motion did not predict (frames.surprise)
    text_moves: bool = False  # the page's text changes on its own (a clock, a survival score)
    counters_move: set[str] | None = None
    frames: int = 0  # animation frames the game drew while left alone (0: it waits for the player)
    jumpy: bool = False  # left alone, the game sometimes changes as much as an answer would (gravity ticks, spawns)

    @property
    def novel_floor(self) -> int:
        return max(MIN_NOVEL_BLOCKS, 3 * self.novel + 2)

    @property
    def surprise_floor(self) -> int:
        return max(MIN_NOVEL_BLOCKS, 2 * self.surprise + 2)

    def swerved(self, seen: Measured) -> bool:
        """The game's motion after the action is not its motion before carried on (frames.surprise), by more than
        it ever is left alone, and is clearly less predictable than usual: a steady mover that changed course."""
        return (seen.surprise >= self.surprise_floor and self.steady is not None and seen.predictability is not None
                and seen.predictability <= self.steady - SWERVE_DROP)

    def turned(self, seen: Measured) -> bool:
        """The game's one steady motion changed course after the action (a snake turning): only said of games whose
        motion left alone is predictable."""
        return (self.steady is not None and self.steady >= STEADY and seen.predictability is not None
                and seen.predictability <= self.steady - TURN_DROP)


@dataclass
class Measured:
    """What one watched action (or pause) showed."""

    novel: int
    predictability: float | None
    surprise: int
    share_act: float
    share_idle: float
    change: PageChange
    idle_change: PageChange
    latency_ms: float | None
    before: Look
    after: Look
    touch: Touch | None
    windows: tuple[float, ...] = ()  # the share that changed in each watched window: before, while acting, after


Act = Callable[[], Awaitable[Touch]]


async def measure(ctx: RunContext, act: Act | None, repeats: int = 1, ignore: Rect | None = None) -> Measured:
    """Watch, act `repeats` times (a held key) or only wait when `act` is None, watch again. `ignore` is the clicked
    control's own box: its hover, focus and pressed looks are the control's, not the game's answer."""
    window = ctx.options.probe_window_s
    l0 = await look(ctx)
    await ctx.clock.wait(window)
    l1 = await look(ctx)
    idle = _masked(changed_blocks(l0.frame, l1.frame), ignore, ctx.play_box())
    touch, latency = None, None
    if act is not None:
        touch, latency = await _act_watching(ctx, act, repeats, l1.frame, idle, window)
    else:
        await ctx.clock.wait(window)
    l2 = await look(ctx)
    await ctx.clock.wait(window)
    l3 = await look(ctx)
    acting = _masked(changed_blocks(l1.frame, l2.frame), ignore, ctx.play_box())
    after = _masked(changed_blocks(l2.frame, l3.frame), ignore, ctx.play_box())
    same = acting.shape == idle.shape == after.shape
    novel = unexplained(idle, acting, after) if same else 0
    steady = predictability(idle, after) if same else None
    unforeseen = surprise(idle, after) if same and steady is not None else 0
    return Measured(novel=novel, predictability=steady, surprise=unforeseen, share_act=_share(acting), share_idle=max(_share(idle), _share(after)),
                    change=page_change(l1, l3), idle_change=page_change(l0, l1), latency_ms=latency,
                    before=l1, after=l3, touch=touch, windows=(_share(idle), _share(acting), _share(after)))


async def _act_watching(ctx: RunContext, act: Act, repeats: int, base: Frame, idle: np.ndarray,
                        window: float) -> tuple[Touch, float | None]:
    """Act `repeats` times (a keyboard's repeat apart: three frames), a picture after each, then keep looking until
    the window is over; the latency is the game time from the first action to the first picture showing more change
    than the game makes on its own."""
    clock = ctx.clock
    started = clock.now()
    floor = max(MIN_NOVEL_BLOCKS, int(idle.sum() * 0.5) + 1)
    latency: float | None = None
    touch = Touch(False, "", 0.0)
    count = 0
    while count < repeats or (latency is None and clock.now() < started + window):
        if count < repeats:
            pressed_at = clock.now()
            touch = await act()
            count += 1
            if not touch.done:
                break
            await clock.sync()  # a release ran frames of its own: they are part of the repeat
        else:
            pressed_at = clock.now()
        if clock.stepping:
            await clock.wait(max(FRAME_S, REPEAT_S - (clock.now() - pressed_at)))
        if latency is None:
            frame = await ctx.camera.frame(ctx.play_box())
            grid = changed_blocks(base, frame)
            if grid.shape == idle.shape and int((grid & ~dilate(idle, 1)).sum()) >= floor:
                latency = round((clock.now() - started) * 1000, 1)
    return Touch(touch.done, touch.said, clock.now() - started), latency


async def calibrate(ctx: RunContext, rounds: int = 3, spare: int = 2) -> Calm:
    """Measure the game left alone, `rounds` times. A round in which something happened to the player (a life lost:
    the ship blinks, an explosion) or the game changed screens is an event, not the game's usual motion: another
    round is watched instead (up to `spare` more), so that one hit does not raise the bar every later probe must
    clear (calm_of)."""
    watched: list[Measured] = []
    for _ in range(rounds + spare):
        watched.append(await measure(ctx, None))
        if sum(1 for seen in watched if not _event(seen)) >= rounds:
            break
    return calm_of(watched)


def calm_of(watched: list[Measured]) -> Calm:
    """The noise a probe must rise above, from rounds of the game left alone: the pixels of the rounds without an
    event (all rounds when every one had one: then events are the game's usual motion). The blocks that change
    unexplained are what every round shows (the least: a ship still blinking from a hit just before the watch is a
    passing thing, not the game's usual motion; MIN_NOVEL_BLOCKS keeps the bar above a busy game's odd blip); its
    surprises, as most rounds show them (the median). What the page's text does on its own, from every round."""
    calm = Calm(counters_move=set())
    for seen in watched:
        calm.text_moves = calm.text_moves or seen.change.text or seen.idle_change.text
        assert calm.counters_move is not None
        calm.counters_move |= set(seen.change.counters) | set(seen.idle_change.counters)
    calm.frames = sum(max(0, int(seen.after.state.get("frames") or 0) - int(seen.before.state.get("frames") or 0))
                      for seen in watched)
    used = [seen for seen in watched if not _event(seen)] or watched
    calm.novel = min(seen.novel for seen in used)
    # A game whose own motion comes in steps between still moments (a falling piece moving a row now and then) has
    # some watched windows that change and some that do not: a step landing while a key is pressed looks like an
    # answer, so there one probe proves nothing and an answer must be seen twice (gameplay_phase). A game that
    # moves all the time (comets, a snake) is judged against its own motion as before.
    windows = [share for seen in used for share in seen.windows]
    calm.jumpy = bool(windows) and max(windows) >= 0.005 and min(windows) == 0.0
    calm.surprise = _median([seen.surprise for seen in used])
    calm.share = max(max(seen.share_act, seen.share_idle) for seen in used)
    steadiness = [seen.predictability for seen in used]
    known = [value for value in steadiness if value is not None]
    calm.steady = min(known) if len(known) == len(steadiness) and known else None
    return calm


def _median(values: list[int]) -> int:
    """The middle value (the larger middle one of an even count: two rounds that disagree keep the higher)."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def hurt(seen: Measured) -> bool:
    """The player lost a life or health while the game was watched: the hit's blink or explosion is on screen."""
    changes = (seen.change, seen.idle_change)
    return any(_harm(name, value) for change in changes for name, value in change.counters.items())


def _event(seen: Measured) -> bool:
    """Something happened to the player, or the game's screen words changed, while it was watched."""
    return hurt(seen) or any(change.appeared or change.gone for change in (seen.change, seen.idle_change))


def judge(label: str, control: ControlDiscovery, seen: Measured, calm: Calm) -> ControlResponse:
    """Whether the measured action made the game respond, beyond what it does on its own."""
    change, idle = seen.change, seen.idle_change
    moving = calm.counters_move or set()
    counters = {name: value for name, value in change.counters.items() if name not in moving
                and name not in idle.counters and not _harm(name, value)}
    ended = bool(change.appeared & OVER_WORDS)  # the game ending by itself is no answer to a key
    words = (change.appeared | change.gone) - (idle.appeared | idle.gone)
    # Other text than a counter (a status line, a message); a counter's own change is judged above.
    text = change.text and not change.counters and not calm.text_moves and not idle.text
    transition = seen.share_act >= TRANSITION_SHARE and seen.share_idle < TRANSITION_SHARE / 2
    # A screen change while the game was left alone (it ended, a level began) hides what the action did to pixels,
    # and so does a hit on the player (its blink changes blocks no key moved).
    pixels = (not hurt(seen) and seen.share_idle < TRANSITION_SHARE
              and (seen.novel >= calm.novel_floor or calm.turned(seen) or calm.swerved(seen)))
    responded = (not ended or bool(change.gone & OVER_WORDS)) and (pixels or bool(counters) or bool(words)
                                                                    or text or transition)
    said = change.describe() if (counters or words or text or change.url) else ""
    return ControlResponse(control=control.element_selector, label=label, purpose=control.purpose or "play",
                           expected=control.expected, responded=responded,
                           latency_ms=seen.latency_ms if responded else None,
                           changed_share=round(seen.share_act, 3), idle_share=round(seen.share_idle, 3),
                           novel_blocks=seen.novel, text_change=said)


def _harm(name: str, value: tuple[int, int]) -> bool:
    """Lives or health going down: the game acting on the player, not an answer to a key."""
    return name in HARM_COUNTERS and value[1] < value[0]


def _masked(grid: np.ndarray, box: Rect | None, play: Rect) -> np.ndarray:
    """`grid` (blocks of a frame of `play`) with the blocks under `box` (and a focus ring's width around it) off."""
    if box is None or grid.size == 0 or play.width <= 0 or play.height <= 0:
        return grid
    rows, cols = grid.shape
    sx, sy = cols / play.width, rows / play.height  # blocks per CSS px
    ring = 6.0
    x0, x1 = int((box.x - ring - play.x) * sx), int(np.ceil((box.x + box.width + ring - play.x) * sx))
    y0, y1 = int((box.y - ring - play.y) * sy), int(np.ceil((box.y + box.height + ring - play.y) * sy))
    out = grid.copy()
    out[max(0, y0):max(0, min(rows, y1)), max(0, x0):max(0, min(cols, x1))] = False
    return out


def _share(grid: np.ndarray) -> float:
    return float(grid.mean()) if grid.size else 0.0
