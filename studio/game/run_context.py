"""What the four phases share during one run: the run record and the project rows, the browser's hands and eyes, the
evidence as it accumulates (screenshots written at once, console and network watched throughout), the budget, and
progress events (at most one every few seconds)."""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.game.clock import GameClock
from studio.game.eyes import Camera, PageProbe
from studio.game.frames import decode_png, detail_level, is_uniform
from studio.game.hands import GameHands
from studio.game.parties import Party, is_script, party
from studio.llm.budget import Budget
from studio.llm.client import LanguageModel
from studio.models.events import ConsoleEvent, EngineEvent, NetworkEvent, PageErrorEvent
from studio.models.game import (
    AgentAction,
    ControlDiscovery,
    ControlResponse,
    DecisionEntry,
    EvidenceShot,
    GameProgressEvent,
    GameRun,
    GameStatusEvent,
    PhaseKey,
    Rect,
    TechnicalDetail,
)
from studio.runtime.jobs import JobControl
from studio.runtime.live import LivePage
from studio.store.game import GameStore

log = logging.getLogger(__name__)


class GameOptions(BaseModel):
    """How a run explores; the defaults are seed 002's (Phase 3 adaptive 1–5 min, stop after 30 s of no progress)."""

    seed: int = Field(default=0, ge=0)
    min_explore_s: float = Field(default=60.0, gt=0)
    max_explore_s: float = Field(default=300.0, gt=0)
    no_progress_s: float = Field(default=30.0, gt=0)
    probe_window_s: float = Field(default=0.25, gt=0, description="How long each probe watches before and after.")
    screenshot_every_s: float = 10.0
    min_screenshots: int = 5
    progress_every_s: float = 5.0
    max_probes: int = 14
    use_model: bool = True


@dataclass
class Watched:
    """One console message, page error or failed request, with the phase it happened in."""

    at: float
    phase: str
    kind: str  # "console", "page_error", "network"
    level: str
    text: str
    party: Party = "game"  # whose it is: the game's own, a third party's, the browser's (game.parties)
    url: str = ""  # the request's address (network), or where a console message came from
    script: bool = False  # a failed request for code (network)


@dataclass
class ShotFacts:
    """What one evidence screenshot shows: blank or not, the play surface blank or not, how detailed."""

    shot: EvidenceShot
    blank: bool
    surface_blank: bool
    detail: float
    signature: bytes = b""


@dataclass
class RunContext:
    """The state of one run across its phases."""

    run: GameRun
    session: BrowserSession
    bus: EventBus
    store: GameStore | None
    options: GameOptions
    budget: Budget
    model: LanguageModel | None = None
    control: JobControl | None = None
    hands: GameHands = field(init=False)
    probe: PageProbe = field(init=False)
    camera: Camera = field(init=False)
    clock: GameClock = field(init=False)
    phase: PhaseKey = "phase1"
    surface: Rect | None = None  # page coordinates (CSS px from the document's top left)
    scroll: tuple[float, float] = (0.0, 0.0)  # the page's scroll at the last look
    controls: list[ControlDiscovery] = field(default_factory=list)
    buttons: dict[str, ControlResponse] = field(default_factory=dict)  # start and restart buttons, as used
    animated: bool = False  # the game draws animation frames while nobody plays (a frozen loop is then a freeze)
    standing_words: frozenset[str] = frozenset()  # game words on the page before play began: its instructions
    watched: list[Watched] = field(default_factory=list)
    shots: list[ShotFacts] = field(default_factory=list)
    actions: list[AgentAction] = field(default_factory=list)
    decisions: list[DecisionEntry] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    _last_progress: float = field(default=-1e9, init=False)
    _unsubscribe: list = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        # One driver of the live page for the agent's hands, its probe and its camera.
        self.live = LivePage(self.session)
        self.hands = GameHands(self.live, self.run.url)
        self.probe = PageProbe(self.live)
        self.camera = Camera(self.live)
        self.clock = GameClock(self.probe)

    def play_box(self) -> Rect:
        """Where the game is played: the play surface found in Phase 1, else the viewport."""
        if self.surface is not None:
            return self.surface
        width, height = self.session.options.viewport
        return Rect(x=0, y=0, width=width, height=height)

    # -- watching the page -----------------------------------------------------------------------------------------

    def watch(self) -> None:
        """Keep every console message, uncaught error and failed request of this session from now on."""
        self._unsubscribe.append(self.bus.subscribe(self._on_event, ConsoleEvent, PageErrorEvent, NetworkEvent))

    def stop_watching(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()

    def _on_event(self, event: EngineEvent) -> None:
        if event.session_id != self.session.id:
            return
        home = self.run.url
        if isinstance(event, ConsoleEvent) and event.level in ("error", "warning"):
            # "Failed to load resource" comes with the resource's address: it is that request's party's.
            self.watched.append(Watched(event.at, self.phase, "console", event.level, event.text[:500],
                                        party(event.url, home), event.url or ""))
        elif isinstance(event, PageErrorEvent):
            self.watched.append(Watched(event.at, self.phase, "page_error", "error", event.message[:500]))
        elif isinstance(event, NetworkEvent) and event.failed:
            what = f"{event.status} " if event.status else f"{event.failure} "
            self.watched.append(Watched(event.at, self.phase, "network", "error",
                                        f"{what}{event.method} {event.url}"[:500], party(event.url, home),
                                        event.url, is_script(event.url, event.resource_type)))

    def button_used(self, label: str, purpose: str, worked: bool) -> None:
        """Remember whether a start or restart button did its job (it counts once it worked)."""
        known = self.buttons.get(label)
        if known is None or (worked and not known.responded):
            self.buttons[label] = ControlResponse(control=label, label=label, purpose=purpose, expected=True,
                                                  responded=worked)

    def problems(self, kind: str, phase: str | None = None, party: Party | None = "game") -> list[Watched]:
        """What was watched of `kind` (in `phase`), the game's own by default (None: everyone's)."""
        return [item for item in self.watched if item.kind == kind and (phase is None or item.phase == phase)
                and (party is None or item.party == party)]

    # -- records ---------------------------------------------------------------------------------------------------

    def save(self) -> None:
        """Write the run record (one transaction); the record stays the same object."""
        self.run.budget = self.budget.snapshot()
        self.run.updated_at = time.time() * 1000
        if self.store is not None:
            self.store.save_run(self.run)

    def act(self, action: AgentAction) -> None:
        self.actions.append(action)
        self.budget.charge_step()
        if self.store is not None:
            self.store.add_action(self.run.id, action)

    def decide(self, entry: DecisionEntry) -> None:
        self.decisions.append(entry)
        if self.store is not None:
            self.store.add_decision(self.run.id, entry)

    def note(self, kind: str, detail: str) -> None:
        self.run.details.append(TechnicalDetail(phase=self.phase, kind=kind, detail=detail, at=time.time() * 1000))

    def publish(self, event: EngineEvent) -> None:
        self.session.publish(event) if self.session.alive else self.bus.publish(event)

    def status(self, message: str) -> None:
        """A phase's milestone ("Phase 1 complete - Game loaded successfully"): a status event, never throttled."""
        self.publish(GameStatusEvent(job_id=self.run.id, status=self.run.status, phase=self.phase, message=message))
        if self.control is not None:
            self.control.report(message)

    def progress(self, message: str) -> None:
        """What the agent is doing now: a progress event at most every `progress_every_s` seconds (seed: at most
        one broadcast per 5 s); the ones in between are dropped."""
        now = time.monotonic()
        if now - self._last_progress < self.options.progress_every_s:
            return
        self._last_progress = now
        self.publish(GameProgressEvent(job_id=self.run.id, phase=self.phase, message=message,
                                       actions=len(self.actions), screenshots=len(self.shots),
                                       seconds=round(now - self.started, 1)))
        if self.control is not None:
            self.control.report(message)

    # -- evidence --------------------------------------------------------------------------------------------------

    async def screenshot(self, action: str) -> ShotFacts | None:
        """A screenshot of the page named `{timestamp}-{phase}-{action}.png`, written to the project at once."""
        try:
            png, width, height = await self.camera.screenshot()
        except Exception as error:  # evidence is best effort: a lost screenshot must not stop a phase
            self.note("screenshot", f"{type(error).__name__}: {error}")
            return None
        at = time.time() * 1000
        name = f"{int(at)}-{self.phase}-{slug(action)}.png"
        if self.store is not None:
            shot = self.store.add_screenshot(self.run.id, self.phase, name, png, width, height, at)
        else:
            shot = EvidenceShot(id=len(self.shots) + 1, run_id=self.run.id, phase=self.phase, name=name, at=at,
                                width=width, height=height, size_bytes=len(png))
        facts = self._facts(shot, png)
        self.shots.append(facts)
        return facts

    def _facts(self, shot: EvidenceShot, png: bytes) -> ShotFacts:
        try:
            rgb = decode_png(png)
        except ValueError:
            return ShotFacts(shot, blank=False, surface_blank=False, detail=0.0)
        surface_blank = False
        box = self.surface
        if box is not None:
            x0, y0 = max(0, int(box.x - self.scroll[0])), max(0, int(box.y - self.scroll[1]))
            region = rgb[y0:y0 + int(box.height), x0:x0 + int(box.width)]
            surface_blank = region.size > 0 and is_uniform(region)
        small = rgb[::8, ::8]
        return ShotFacts(shot, blank=is_uniform(rgb), surface_blank=surface_blank, detail=detail_level(rgb[::2, ::2]),
                         signature=small.tobytes())


def slug(text: str) -> str:
    """An action description as a file-name part: "click Play" -> "click-play"."""
    cleaned = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return cleaned[:48] or "screenshot"
