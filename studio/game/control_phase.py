"""Phase 2, Control Discovery (seed 002, 45 s): the page's controls from the agent's snapshot (buttons, links, inputs,
elements with click listeners or a pointer cursor, the canvas), the keys the page listens for (read over CDP on the
window, the document, the body and the canvas, never guessed), the keys its instructions name, and what the tester's
InputSchema names (first in line, never instead of discovery). Each is stored with a confidence, a hypothesis
sentence says what they likely do, and a screenshot shows them outlined."""

from __future__ import annotations

import logging
import re
import time

from studio.game.errors import GamePhaseError
from studio.game.run_context import RunContext
from studio.models.game import (
    ControlDiscovery,
    ControlInfo,
    ControlKind,
    ControlPurpose,
    Phase2Result,
    Rect,
    key_name,
)
from studio.race.errors import RaceError
from studio.race.locators import synthesize
from studio.race.snapshot_lines import SnapshotLine, parse_snapshot
from studio.toolbelt.replies import ToolError

log = logging.getLogger(__name__)

CONTROL_ROLES = {"button", "a", "checkbox", "radio", "switch", "slider", "tab", "menuitem", "option", "combobox",
                 "textbox", "searchbox", "spinbutton"}
START = re.compile(r"^\s*(play|play now|play game|start|start game|begin|go|let'?s go|continue)\b", re.IGNORECASE)
RESTART = re.compile(r"\b(restart|new game|play again|try again|again|retry|reset|replay)\b", re.IGNORECASE)
ACTION_WORDS = re.compile(r"\b(pause|resume|jump|fire|shoot|move|left|right|up|down|turn|rotate|drop|hold|mute)\b",
                          re.IGNORECASE)
SIGN_OUT = re.compile(r"\b(sign|log)\s*(out|off)\b|\blogout\b|\bdelete (my )?account\b|\bunsubscribe\b",
                      re.IGNORECASE)
METER = re.compile(r"^\s*\d+(\.\d+)?\s*(fps|ms|mb)\b|\bfps\b", re.IGNORECASE)
COMMON_KEYS = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Space")
MOVE_KEYS = {"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "KeyW", "KeyA", "KeyS", "KeyD"}
MAX_PAGE_CONTROLS = 16


async def run_phase2(ctx: RunContext) -> Phase2Result:
    ctx.status("Looking for the game's controls")
    snapshot = await ctx.hands.snapshot()
    if isinstance(snapshot, ToolError):
        raise GamePhaseError("unexpected", f"snapshot failed: {snapshot.error.message}")
    found = await _page_controls(ctx, parse_snapshot(snapshot.text))
    listeners = await ctx.probe.keyboard_listeners()
    ctx.run.evidence.keyboard_listeners = listeners
    hints = await ctx.probe.call("keyHints") or []
    found += _keys(ctx, listeners, hints, found)
    schema = ctx.run.input_schema
    found.sort(key=lambda c: (c.source != "input_schema", not c.expected, -c.confidence))
    if schema is not None and schema.objectives:
        ctx.run.evidence.objectives = schema.objectives
    for control in found:
        control.id = ctx.store.add_control(ctx.run.id, control) if ctx.store is not None else None
    ctx.controls = found
    ctx.run.evidence.controls_found = len([c for c in found if c.confidence >= 0.5])
    await _outlined_screenshot(ctx, found)
    if not any(c.confidence >= 0.5 for c in found):
        raise GamePhaseError("no_controls", f"{len(found)} low-confidence elements; keyboard listeners: "
                                            f"{', '.join(listeners) or 'none'}")
    hypothesis = hypothesis_of(found, listeners, ctx.run.evidence.surface)
    ctx.status(f"Phase 2 complete - Discovered {len(found)} controls")
    controls = {c.element_selector: ControlInfo(type="keyboard" if c.action_type == "keyboard" else "click",
                                                description=c.description) for c in found}
    return Phase2Result(success=True, controls=controls, hypothesis=hypothesis)


def site_control(line: SnapshotLine) -> str | None:
    """Why an element of the page is the site's, not the game's (never a control, never clicked while playing): its
    header, navigation or footer, a link to another page, a sign-out, a frame-rate meter. None for the game's."""
    if line.chrome:
        return "site navigation"
    if line.role == "link":
        return "a link to another page"
    if SIGN_OUT.search(line.name):
        return "signs the tester out"
    if METER.search(line.name):
        return "a frame-rate meter"
    return None


async def _page_controls(ctx: RunContext, lines: list[SnapshotLine]) -> list[ControlDiscovery]:
    now = time.time() * 1000
    site = [line for line in lines if _is_control(line) and site_control(line) is not None]
    ctx.run.evidence.site_controls = [f'{line.name or line.role} ({site_control(line)})' for line in site][:20]
    candidates = [line for line in lines if _is_control(line) and site_control(line) is None]
    boxes = await _boxes(ctx, [line.ref for line in candidates])
    surface = ctx.surface
    found: list[ControlDiscovery] = []
    for line in candidates[:40]:
        box = boxes.get(line.ref)
        if box is None:
            continue
        kind, confidence, what, purpose = _classify(line, box, surface)
        selector = await _selector(ctx, line) if len(found) < MAX_PAGE_CONTROLS else _role_selector(line)
        found.append(ControlDiscovery(element_selector=selector, action_type="click", confidence=confidence,
                                      discovered_at=now, kind=kind, description=what, source="page", ref=line.ref,
                                      name=line.name,
                                      box=box, expected=confidence >= 0.8 and kind != "link",
                                      purpose=purpose))
    return found


def _is_control(line: SnapshotLine) -> bool:
    return line.role in CONTROL_ROLES or line.role in ("link", "canvas") or "clickable" in line.states


def _classify(line: SnapshotLine, box: Rect, surface: Rect | None) -> tuple[ControlKind, float, str, ControlPurpose]:
    """(kind, confidence, description, purpose) of a page control."""
    name = line.name or line.role
    on_surface = surface is not None and _overlaps(box, surface)
    if line.role == "canvas" or (surface is not None and _same(box, surface)):
        clickable = "clickable" in line.states
        what = f"the play surface{' (it listens for clicks)' if clickable else ''}: {line.name or 'canvas'}"
        return "canvas", 0.7 if clickable else 0.4, what, "surface"
    if line.role in ("textbox", "searchbox", "spinbutton", "combobox"):
        return "input", 0.4, f'{line.role} "{name}"', "input"
    if START.search(line.name):
        return "button", 0.95, f'"{name}" likely starts the game', "start"
    if RESTART.search(line.name):
        return "button", 0.9, f'"{name}" likely restarts the game', "restart"
    if ACTION_WORDS.search(line.name) or on_surface:
        return "button", 0.8, f'"{name}" likely acts in the game', "play"
    if line.role in CONTROL_ROLES:
        return "button", 0.6, f'{line.role} "{name}"', "play"
    return "clickable", 0.5, f'{line.role} "{name}"', "play"


async def _boxes(ctx: RunContext, refs: list[str]) -> dict[str, Rect]:
    if not refs:
        return {}
    try:
        rects = await ctx.hands.driver.race.rects(refs)
    except RaceError as error:
        log.info("could not read control boxes: %s", error)
        return {}
    state = await ctx.probe.call("state") or {}
    left, top = state.get("scroll") or (0, 0)  # the boxes are in the viewport; ours are in the page
    return {ref: Rect(x=rect.x + left, y=rect.y + top, width=rect.width, height=rect.height)
            for ref, rect in rects.items() if rect is not None and rect.width > 0 and rect.height > 0}


async def _selector(ctx: RunContext, line: SnapshotLine) -> str:
    """The control's most stable Playwright locator (as Python), checked live; a role selector when that fails."""
    try:
        return (await synthesize(ctx.hands.driver.race, line.ref)).python()
    except Exception as error:  # a page that changed meanwhile: the role selector still names it
        log.info("no locator for %s: %s", line.ref, error)
        return _role_selector(line)


def _role_selector(line: SnapshotLine) -> str:
    return f'role={line.role}[name="{line.name}"]' if line.name else f"{line.role} {line.ref}"


def _keys(ctx: RunContext, listeners: list[str], hints: list[str],
          page: list[ControlDiscovery]) -> list[ControlDiscovery]:
    """Keyboard controls: what the InputSchema names, what the page's instructions name, and the common game keys
    when the page listens to the keyboard."""
    now = time.time() * 1000
    where = ", ".join(listeners) or "no keyboard listener was found"
    found: dict[str, ControlDiscovery] = {}

    def add(key: str, source: str, confidence: float, expected: bool, why: str) -> None:
        if key in found:
            return
        found[key] = ControlDiscovery(element_selector=f"key:{key}", action_type="keyboard", confidence=confidence,
                                      discovered_at=now, kind="key", key=key, source=source,  # type: ignore[arg-type]
                                      description=f"{_key_label(key)} ({why}; {where})", expected=expected,
                                      purpose="play")

    schema = ctx.run.input_schema
    for key in schema.named_keys() if schema is not None else []:
        add(key, "input_schema", 0.95, True, "named in the input schema")
    listening = bool(listeners)
    for hint in hints:
        hinted = key_name(hint)
        if hinted is not None:
            add(hinted, "page_text", 0.85 if listening else 0.6, True, "named in the page's instructions")
    if listening:
        for key in COMMON_KEYS:
            add(key, "common_key", 0.5, False, "a common game key")
    if schema is not None and schema.names_click() and ctx.surface is not None:
        for control in page:
            if control.kind == "canvas":
                control.confidence, control.expected, control.source = 0.95, True, "input_schema"
    return list(found.values())


def _key_label(key: str) -> str:
    return key.removeprefix("Key").removeprefix("Digit")


def hypothesis_of(controls: list[ControlDiscovery], listeners: list[str], surface: str) -> str:
    """One sentence of what the controls likely do, e.g. "arrow keys likely move; Space likely acts; "Restart"
    likely restarts the game; the play surface is a 640×400 canvas (2d)"."""
    keys = [c.key for c in controls if c.key]
    parts: list[str] = []
    arrows = [k for k in keys if k.startswith("Arrow")]
    wasd = [k for k in keys if k in ("KeyW", "KeyA", "KeyS", "KeyD")]
    if arrows:
        parts.append("arrow keys likely move")
    if wasd:
        parts.append("W A S D likely move")
    others = [_key_label(k) for k in keys if k not in MOVE_KEYS]
    if others:
        parts.append(f"{', '.join(others)} likely {'act' if len(others) > 1 else 'acts'} (jump, fire, restart)")
    for control in controls:
        if control.kind == "button" and control.confidence >= 0.8:
            parts.append(control.description)
    if listeners:
        parts.append(f"the page listens to the keyboard ({', '.join(listeners)})")
    if surface:
        parts.append(f"the play surface is {surface}")
    if not parts:
        return "No controls were found; the game may need interactions the agent could not detect."
    sentence = "; ".join(parts[:6])
    return sentence[0].upper() + sentence[1:] + "."


async def _outlined_screenshot(ctx: RunContext, controls: list[ControlDiscovery]) -> None:
    boxes = [{"x": c.box.x, "y": c.box.y, "width": c.box.width, "height": c.box.height,
              "label": c.description.split(" (")[0][:40]} for c in controls if c.box is not None and c.confidence >= 0.5]
    keys = [_key_label(c.key) for c in controls if c.key]
    if ctx.surface is not None and keys:
        box = ctx.surface
        boxes.append({"x": box.x, "y": box.y, "width": box.width, "height": box.height,
                      "label": f"play surface · keys {' '.join(keys[:10])}"})
    try:
        await ctx.probe.call("outline", boxes)
        await ctx.screenshot("controls")
    finally:
        await ctx.probe.call("clearOutline")


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.x + b.width and b.x < a.x + a.width and a.y < b.y + b.height and b.y < a.y + a.height


def _same(a: Rect, b: Rect) -> bool:
    return abs(a.x - b.x) < 4 and abs(a.y - b.y) < 4 and abs(a.width - b.width) < 4 and abs(a.height - b.height) < 4
