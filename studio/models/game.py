"""Seed 002 (GameEval): the four phases' results, the optional InputSchema, the five scored metrics, the records a
game evaluation keeps (run, control discoveries, agent actions, decisions, evidence) and its events.

Field names of the seed's shapes (Phase1Result … Phase4Result, MetricScore, InputSchema) are kept as the seed spells
them (`requiresInteraction`, `screenshotCount`, …): `studio game --json` prints them as they are.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from studio.models.events import JobEvent

# -- the seed's constants -------------------------------------------------------------------------------------------

MetricName = Literal["load", "visual", "controls", "playability", "technical"]
METRICS: tuple[MetricName, ...] = ("load", "visual", "controls", "playability", "technical")
METRIC_WEIGHTS: dict[str, int] = {"load": 15, "visual": 20, "controls": 20, "playability": 30, "technical": 15}
METRIC_TITLES: dict[str, str] = {"load": "Game Loads Successfully", "visual": "Visual Quality",
                                 "controls": "Controls & Responsiveness", "playability": "Playability",
                                 "technical": "Technical Stability"}
OVERALL = "overall"

PhaseKey = Literal["phase1", "phase2", "phase3", "phase4"]
PHASES: tuple[PhaseKey, ...] = ("phase1", "phase2", "phase3", "phase4")
PHASE_TITLES: dict[str, str] = {"phase1": "Load & Validation", "phase2": "Control Discovery",
                                "phase3": "Gameplay Exploration", "phase4": "Evaluation & Scoring"}
PHASE_TIMEOUTS_S: dict[str, float] = {"phase1": 30.0, "phase2": 45.0, "phase3": 300.0, "phase4": 60.0}

GameRunStatus = Literal["queued", "running", "completed", "failed"]
ScoringMethod = Literal["rubric", "model", "technical_only"]

ControlKind = Literal["button", "link", "input", "clickable", "canvas", "key"]
ControlPurpose = Literal["", "start", "restart", "play", "surface", "navigation", "input"]
SurfaceKind = Literal["canvas", "webgl", "board", "page"]
SURFACE_KINDS: dict[str, SurfaceKind] = {"canvas": "canvas", "webgl": "webgl", "board": "board", "page": "page"}

INPUT_SCHEMA_MAX_BYTES = 10 * 1024

# Key names an InputSchema may use, as testers write them, mapped to the browser's key names.
KEY_ALIASES: dict[str, str] = {
    "space": "Space", "spacebar": "Space", "enter": "Enter", "return": "Enter", "esc": "Escape", "escape": "Escape",
    "tab": "Tab", "shift": "Shift", "ctrl": "Control", "control": "Control", "alt": "Alt",
    "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight",
    "arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
    "↑": "ArrowUp", "↓": "ArrowDown", "←": "ArrowLeft", "→": "ArrowRight", "backspace": "Backspace",
}
CLICK_NAMES = {"click", "mouse", "tap", "left click", "mouse click"}


def key_name(text: str) -> str | None:
    """The browser key for a name a tester writes ("W", "Space", "up", "ArrowLeft", "5"), or None if it is none."""
    cleaned = text.strip()
    if len(cleaned) == 1 and cleaned.isalpha():
        return f"Key{cleaned.upper()}"
    if len(cleaned) == 1 and cleaned.isdigit():
        return f"Digit{cleaned}"
    if re.fullmatch(r"Key[A-Z]|Digit\d|F\d{1,2}", cleaned):
        return cleaned
    return KEY_ALIASES.get(cleaned.lower())


# -- InputSchema (optional, from the tester) -------------------------------------------------------------------------


class InputControls(BaseModel):
    """The controls a tester says the game has: key names such as W, Space, ArrowUp, Enter, or Click."""

    model_config = ConfigDict(extra="forbid")

    movement: list[str] | None = None
    actions: list[str] | None = None
    special: list[str] | None = None

    @field_validator("movement", "actions", "special")
    @classmethod
    def _known_names(cls, names: list[str] | None) -> list[str] | None:
        for name in names or []:
            if len(name) > 40 or (key_name(name) is None and name.strip().lower() not in CLICK_NAMES):
                raise ValueError(f"{name[:40]!r} is not a key name; use names such as W, Space, ArrowUp, Enter, "
                                 "Escape or Click")
        return names


class InputSchema(BaseModel):
    """Seed 002's optional InputSchema: what the tester knows of the controls, objectives and UI. It prioritises
    what discovery finds; it never replaces it."""

    model_config = ConfigDict(extra="forbid")

    controls: InputControls | None = None
    objectives: str | None = Field(default=None, max_length=2000)
    ui_elements: list[str] | None = None

    def named_keys(self) -> list[str]:
        """Every key the schema names, as browser key names, in order and without repeats."""
        found: list[str] = []
        for group in (self.controls.movement, self.controls.actions, self.controls.special) if self.controls else ():
            for name in group or []:
                key = key_name(name)
                if key and key not in found:
                    found.append(key)
        return found

    def names_click(self) -> bool:
        controls = self.controls
        groups = (controls.movement, controls.actions, controls.special) if controls else ()
        return any(name.strip().lower() in CLICK_NAMES for group in groups for name in group or [])


# -- the phases' results (seed shapes) ------------------------------------------------------------------------------


class ControlInfo(BaseModel):
    """One entry of the seed's ControlMap: how the control is used and what it seems to do."""

    type: Literal["click", "keyboard"]
    description: str


class Phase1Result(BaseModel):
    """Seed 002: Load & Validation."""

    success: bool
    requiresInteraction: bool = False
    errors: list[str] = Field(default_factory=list)


class Phase2Result(BaseModel):
    """Seed 002: Control Discovery; `controls` is the ControlMap keyed by selector."""

    success: bool
    controls: dict[str, ControlInfo] = Field(default_factory=dict)
    hypothesis: str = ""


class Phase3Result(BaseModel):
    """Seed 002: Gameplay Exploration."""

    success: bool
    screenshotCount: int = 0
    errors: list[str] = Field(default_factory=list)
    actionsTaken: int = 0


class EvidenceRef(BaseModel):
    """One piece of evidence behind a score: a screenshot (by its file name), a log line (console.log, network.log),
    an action or a decision of the agent, with what it shows."""

    kind: Literal["screenshot", "log", "action", "decision"]
    ref: str  # the screenshot's file name, or the log's name ("console.log", "network.log", "agent-decisions.log")
    text: str = ""  # the line itself, or what the screenshot shows


class MetricScore(BaseModel):
    """One scored metric (load, visual, controls, playability, technical) with its 2–3 sentence justification and
    the evidence it rests on (extra to the seed's {name, score, justification})."""

    name: MetricName
    score: int = Field(ge=0, le=100)
    justification: str
    evidence: list[EvidenceRef] = Field(default_factory=list)


class Phase4Result(BaseModel):
    """Seed 002: Evaluation & Scoring; overallScore is the weighted average of the five metrics."""

    success: bool
    overallScore: int = Field(default=0, ge=0, le=100)
    metrics: list[MetricScore] = Field(default_factory=list)


class PhaseOutcome(BaseModel):
    """How one phase went, for the progress strip: when, how long, success, and the sentence when it failed."""

    phase: PhaseKey
    title: str
    status: Literal["pending", "running", "passed", "failed", "skipped"] = "pending"
    started_at: float | None = None
    seconds: float | None = None
    message: str = ""
    retries: int = 0  # tries again after the browser failed (seed: up to 2 per phase, exponential backoff)


class TechnicalDetail(BaseModel):
    """What went wrong underneath a translated sentence (kept in the project for the developer view, never shown
    as the error itself)."""

    phase: str
    kind: str
    detail: str
    at: float


class Rect(BaseModel):
    """A box on the page in CSS pixels."""

    x: float
    y: float
    width: float
    height: float


# -- the records of one run -----------------------------------------------------------------------------------------


class ControlDiscovery(BaseModel):
    """A control_discoveries row: a control the agent found, how to use it, and how sure it is (0..1)."""

    id: int | None = None
    element_selector: str
    action_type: Literal["click", "keyboard", "drag", "hover"]
    confidence: float = Field(ge=0, le=1)
    discovered_at: float
    kind: ControlKind = "button"
    description: str = ""
    name: str = ""  # the accessible name of a page control
    source: Literal["page", "keyboard_listener", "page_text", "input_schema", "common_key"] = "page"
    key: str | None = None  # the browser key name of a keyboard control
    ref: str | None = None  # the snapshot ref of a page control, while the page lives
    box: Rect | None = None
    expected: bool = False  # named by the InputSchema or the page's own instructions
    purpose: ControlPurpose = ""


class AgentAction(BaseModel):
    """An agent_actions row: what the agent did, why, and what came of it."""

    id: int | None = None
    timestamp: float
    action: Literal["click", "type", "scroll", "wait", "keyboard", "navigate"]
    reasoning: str
    outcome: str | None = None
    phase: PhaseKey = "phase3"
    target: str = ""


class DecisionEntry(BaseModel):
    """A decision_log row: what the agent decided, from what, and which model decided (None: the built-in
    explorer)."""

    id: int | None = None
    timestamp: float
    decision: str
    context: str
    ai_model: str | None = None


class EvidenceShot(BaseModel):
    """A screenshot kept as evidence, named `{timestamp}-phase{n}-{action}.png`; its PNG lives in the project."""

    id: int
    run_id: str
    phase: PhaseKey
    name: str
    at: float
    width: int
    height: int
    size_bytes: int = 0


class ControlResponse(BaseModel):
    """What probing one control showed: did the game respond, how (pixels, motion, page text) and how fast."""

    control: str  # the ControlDiscovery's selector
    label: str
    purpose: str = "play"  # the control's: play, surface, start, restart
    expected: bool = False  # the input schema or the page's instructions named it
    responded: bool
    latency_ms: float | None = None
    changed_share: float = 0.0  # of the play surface, while acting
    idle_share: float = 0.0  # of the play surface, while waiting as long
    novel_blocks: int = 0
    motion_blocks: int = 0
    text_change: str = ""
    tried: bool = True  # False: a control the game's page or schema names that was never tried (no time left)


class GameEvidence(BaseModel):
    """Everything measured, as the rubric and the model read it: each score cites these numbers."""

    url: str = ""
    http_status: int | None = None
    reachable: bool = True
    load_ms: float | None = None
    dom_content_loaded_ms: float | None = None
    first_paint_ms: float | None = None
    blank_page: bool = False
    requires_interaction: bool = False
    interaction_hint: str = ""
    surface: str = ""  # "a 640×400 canvas (2d)", "the page"
    surface_kind: SurfaceKind = "page"
    blank_surface_shots: int = 0
    screenshots: int = 0
    blank_shots: int = 0
    detail_level: float = 0.0  # 0..1: how much a frame shows (edges and colours), median over the screenshots
    distinct_frames: int = 0
    controls_found: int = 0
    keyboard_listeners: list[str] = Field(default_factory=list)
    responses: list[ControlResponse] = Field(default_factory=list)
    started: bool = False
    state_changes: int = 0
    score_changes: int = 0
    score_seen: bool = False
    game_over_seen: bool = False
    restart_seen: bool = False
    frozen_seconds: float = 0.0
    fps_samples: list[float] = Field(default_factory=list)
    long_tasks: int = 0
    long_task_ms: float = 0.0
    console_errors: int = 0
    page_errors: int = 0
    distinct_errors: list[str] = Field(default_factory=list)
    failed_requests: list[str] = Field(default_factory=list)  # the game's own (its site's scripts and assets)
    third_party_failures: list[str] = Field(default_factory=list)  # adverts, analytics, fonts; the browser's favicon
    load_failures: list[str] = Field(default_factory=list)  # the game's own code failing while it loaded
    scrolls_undone: int = 0  # keys or clicks that scrolled the page (put back: not the game answering)
    site_controls: list[str] = Field(default_factory=list)  # the site's navigation around the game, never tried
    idle_animation: bool = False  # the game draws frames while nobody plays (a real-time game)
    score_source: str = ""  # where the score was read: "the page's text", "text drawn on the canvas"
    verdict: str = ""  # one sentence when the game could not be played, and why
    play_failure: str = ""  # the sentence of a failed gameplay phase
    weighted_score: int | None = None  # the five metrics' weighted average, before the verdict's cap
    actions: int = 0
    effective_actions: int = 0
    play_seconds: float = 0.0
    phases_failed: list[str] = Field(default_factory=list)
    objectives: str = ""


class GameRun(BaseModel):
    """One game evaluation as the project keeps it: status queued → running → completed | failed."""

    id: str
    url: str
    status: GameRunStatus = "queued"
    created_at: float
    updated_at: float
    seed: int = 0
    ai_model: str | None = None
    scoring: ScoringMethod = "rubric"
    input_schema: InputSchema | None = None
    phase1: Phase1Result | None = None
    phase2: Phase2Result | None = None
    phase3: Phase3Result | None = None
    phase4: Phase4Result | None = None
    phases: list[PhaseOutcome] = Field(default_factory=list)
    overall_score: int | None = None
    message: str = ""  # the sentence a tester reads when something went wrong
    errors: list[str] = Field(default_factory=list)  # every translated sentence, in order
    details: list[TechnicalDetail] = Field(default_factory=list)
    end_reason: Literal["", "completed", "failed", "cancelled", "budget_exhausted"] = ""
    findings: str = ""  # what probing confirmed, e.g. "ArrowLeft, ArrowRight moved the picture; Restart reset it"
    evidence: GameEvidence = Field(default_factory=GameEvidence)
    budget: dict = Field(default_factory=dict)

    def seed_results(self) -> dict:
        """The seed's four result shapes and the run id, as `studio game --json` prints them."""
        results: dict[str, object] = {"runId": self.id, "status": self.status, "url": self.url,
                                      "message": self.message}
        for key in PHASES:
            result = getattr(self, key)
            results[key] = result.model_dump(mode="json") if result else None
        # Extra to the seed's shapes: how long each phase took (and its retries), and the overall score's basis.
        results["phaseDurations"] = {p.phase: {"status": p.status, "seconds": p.seconds, "retries": p.retries}
                                     for p in self.phases}
        results["verdict"] = self.evidence.verdict
        results["weightedScore"] = self.evidence.weighted_score
        return results


# -- events (seed: updateStatus and the WebSocket broadcast → typed events on the bus, stored per run) ---------------


class GameStatusEvent(JobEvent):
    """The run's status or phase changed (seed: updateStatus(phase, message))."""

    type: Literal["game_status"] = "game_status"
    status: GameRunStatus
    phase: str = ""
    message: str = ""


class GameProgressEvent(JobEvent):
    """How a phase is going (at most one every 5 seconds): the current action, counts so far."""

    type: Literal["game_progress"] = "game_progress"
    phase: str
    message: str
    actions: int = 0
    screenshots: int = 0
    seconds: float = 0.0


class GamePhaseCompleted(JobEvent):
    """A phase ended (passed, failed or skipped) with its seed result."""

    type: Literal["game_phase_completed"] = "game_phase_completed"
    phase: PhaseKey
    status: str
    seconds: float
    message: str = ""
    result: dict = Field(default_factory=dict)


class GameRunCompleted(JobEvent):
    """The run ended (completed or failed) with its scores, if any, and the sentence to show."""

    type: Literal["game_run_completed"] = "game_run_completed"
    status: GameRunStatus
    overall_score: int | None = None
    metrics: list[MetricScore] = Field(default_factory=list)
    message: str = ""


class GamePartial(BaseModel):
    """A phase's result as soon as it is known, for front ends that show it before the run ends."""

    run_id: str
    phase: PhaseKey
    result: dict
    run: GameRun
