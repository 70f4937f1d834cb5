"""The moves of Phase 3, through the agent's hands: one control's action, starting a game that waits for the player,
and getting a finished or stuck game going again (finding the Play again / Restart button it shows now)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from studio.game.control_phase import RESTART, START, site_control
from studio.game.eyes import EyesError
from studio.game.frames import changed_share
from studio.game.hands import Touch
from studio.game.looking import Look, look, page_change
from studio.game.run_context import RunContext
from studio.models.game import AgentAction, ControlDiscovery
from studio.race.snapshot_lines import parse_snapshot
from studio.toolbelt.replies import ToolError

START_SETTLE_S = 0.5
START_KEYS = ("Space", "Enter")


def perform(ctx: RunContext, control: ControlDiscovery) -> Callable[[], Awaitable[Touch]]:
    """One press of the control's key, or one click on it (found again by its name if the page replaced it)."""
    if control.key:
        key = control.key

        async def press() -> Touch:
            return await settled(ctx, await ctx.hands.press(key))

        return press

    async def click() -> Touch:
        touch = await ctx.hands.click(control.ref) if control.ref else Touch(False, "no ref", 0.0)
        if touch.done or not control.name:
            return await settled(ctx, touch)
        ref = await _find(ctx, lambda line: line.name == control.name and site_control(line) is None)
        if ref is None:
            return touch
        control.ref = ref
        return await settled(ctx, await ctx.hands.click(ref))

    return click


async def settled(ctx: RunContext, touch: Touch) -> Touch:
    """After an action: the page's scroll put back (arrow keys and Space scroll a page by themselves) and the focus
    taken off a clicked button, so the camera sees the game's answer, not the page moving or a focus ring."""
    try:
        await ctx.probe.call("settle")
    except EyesError:
        pass  # the page went away: the next look says so
    return touch


async def start_game(ctx: RunContext, requires_interaction: bool) -> bool:
    """Start a game that waits for the player (Phase 1 said so): its start button, what its page says to press, a
    click on the play surface; True once the game visibly started."""
    if not requires_interaction:
        return False
    candidates: list[tuple[str, Callable[[], Awaitable[Touch]], str]] = []
    for control in ctx.controls:
        if control.purpose == "start":
            candidates.append((f'click "{control.name}"', perform(ctx, control), "click"))
    for control in ctx.controls:
        if control.purpose == "surface":
            candidates.append(("click the play surface", perform(ctx, control), "click"))
    for key in START_KEYS:
        if any(c.key == key for c in ctx.controls) or ctx.run.evidence.keyboard_listeners:
            candidates.append((f"press {key}", _press(ctx, key), "keyboard"))
    for label, act, kind in candidates[:4]:
        # What the start screen does on its own first, over a second (a blinking "Press Space", a title
        # animation): only a change beyond it is the game starting.
        resting = await look(ctx)
        await ctx.clock.wait(START_SETTLE_S)
        middle = await look(ctx)
        await ctx.clock.wait(START_SETTLE_S)
        before = await look(ctx)
        touch = await act()
        await ctx.clock.wait(START_SETTLE_S)
        after = await look(ctx)
        change = page_change(before, after)
        started = touch.done and beyond(resting, middle, before, after)
        ctx.act(AgentAction(timestamp=time.time() * 1000, action=kind, phase="phase3", target=label,  # type: ignore
                            reasoning="Phase 1 found that the game waits for the player: start it",
                            outcome=("the game started" + (f": {change.describe()}" if change.any else ""))
                            if started else f"nothing visible changed ({touch.said})"))
        if kind == "click":
            ctx.button_used(label, "start", started)
        if started:
            await ctx.screenshot(f"game-started-{label}")
            return True
    return False


def beyond(resting: Look, middle: Look, before: Look, after: Look) -> bool:
    """The page changed from `before` to `after` (an action between them) more than it did on its own over the two
    windows from `resting` to `before`: the picture by a clear margin, or game words, counters, text or the address
    that stood still."""
    idles = (page_change(resting, middle), page_change(middle, before))
    change = page_change(before, after)
    idle_share = max(changed_share(resting.frame, middle.frame), changed_share(middle.frame, before.frame))
    share = changed_share(before.frame, after.frame)
    words = (change.appeared | change.gone) - {w for idle in idles for w in idle.appeared | idle.gone}
    counters = set(change.counters) - {name for idle in idles for name in idle.counters}
    return ((share >= 0.05 and share > 2 * idle_share + 0.02) or bool(words) or bool(counters) or change.url
            or (change.text and not any(idle.text for idle in idles)))


async def restart_game(ctx: RunContext, attempt: int) -> tuple[Touch, str | None]:
    """Try, in turn: the start or restart button the page shows now, Space, Enter, R, a click on the surface.
    Returns what the action did and the button's label when a button was clicked."""
    found = await _find_line(ctx, lambda line: site_control(line) is None and line.role in ("button", "a")
                             and bool(START.search(line.name) or RESTART.search(line.name)))
    options: list[tuple[str, Callable[[], Awaitable[Touch]], str]] = []
    if found is not None:
        ref, name = found
        async def click_found() -> Touch:
            return await settled(ctx, await ctx.hands.click(ref))

        options.append((f'click "{name}"', click_found, "click"))
    for key in ("Space", "Enter", "KeyR"):
        options.append((f"press {key.removeprefix('Key')}", _press(ctx, key), "keyboard"))
    surface = next((c for c in ctx.controls if c.purpose == "surface"), None)
    if surface is not None:
        options.append(("click the play surface", perform(ctx, surface), "click"))
    label, act, kind = options[0] if found is not None and attempt % 2 == 0 else options[attempt % len(options)]
    touch = await act()
    ctx.act(AgentAction(timestamp=time.time() * 1000, action=kind, phase="phase3", target=label,  # type: ignore
                        reasoning="The game looks over or stuck: start it again", outcome=touch.said))
    return touch, (label if found is not None and label == options[0][0] else None)


def _press(ctx: RunContext, key: str) -> Callable[[], Awaitable[Touch]]:
    async def press() -> Touch:
        return await settled(ctx, await ctx.hands.press(key))

    return press


async def _find(ctx: RunContext, wanted: Callable) -> str | None:
    """The ref of the first element of a fresh snapshot that `wanted(line)` accepts."""
    found = await _find_line(ctx, wanted)
    return found[0] if found is not None else None


async def _find_line(ctx: RunContext, wanted: Callable) -> tuple[str, str] | None:
    snapshot = await ctx.hands.snapshot()
    if isinstance(snapshot, ToolError):
        return None
    return next(((line.ref, line.name) for line in parse_snapshot(snapshot.text) if wanted(line)), None)
