"""Which evidence backs each score: the screenshots, log lines, actions and decisions a tester opens to check it.
Every metric gets references to what it was computed from (`MetricScore.evidence`), by the screenshot's file name
and the log's name, so the window and the JSON can show them beside the justification."""

from __future__ import annotations

from studio.game.run_context import RunContext, ShotFacts, Watched
from studio.models.game import EvidenceRef, MetricScore

MAX_REFS = 8


def attach_evidence(ctx: RunContext, metrics: list[MetricScore]) -> None:
    """Fill each metric's evidence (kept as the model gave it when it gave some)."""
    for metric in metrics:
        if not metric.evidence:
            metric.evidence = refs_for(ctx, metric.name)[:MAX_REFS]


def refs_for(ctx: RunContext, name: str) -> list[EvidenceRef]:
    shots = ctx.shots
    game = [w for w in ctx.watched if w.party == "game"]
    if name == "load":
        return (_shots([s for s in shots if s.shot.phase == "phase1"], 2)
                + _lines([w for w in game if w.phase == "phase1"], 4)
                + [_action(a) for a in ctx.actions if a.phase == "phase1"][:1])
    if name == "visual":
        return _spread(shots, 6)
    if name == "controls":
        probes = [a for a in ctx.actions if a.phase == "phase3" and a.reasoning.startswith("Probe")]
        return (_shots([s for s in shots if s.shot.phase == "phase2"], 1)
                + [_action(a) for a in probes][:6]
                + _shots([s for s in shots if "started" in s.shot.name or "restarted" in s.shot.name], 1))
    if name == "playability":
        play = [s for s in shots if s.shot.phase == "phase3"]
        telling = [s for s in play if any(word in s.shot.name for word in ("state-change", "game-over", "started"))]
        return (_shots(telling or play, 3)
                + [EvidenceRef(kind="decision", ref="agent-decisions.log", text=f"{d.decision} — {d.context}"[:200])
                   for d in ctx.decisions[-3:]]
                + [_action(a) for a in ctx.actions if a.phase == "phase3"][-2:])
    problems = [w for w in ctx.watched if w.kind in ("page_error", "console", "network")]
    return _lines(sorted(problems, key=lambda w: w.party != "game"), 6) + _shots(shots[-1:], 1)


def _shots(shots: list[ShotFacts], count: int) -> list[EvidenceRef]:
    return [EvidenceRef(kind="screenshot", ref=s.shot.name, text=_what(s)) for s in shots[:count]]


def _spread(shots: list[ShotFacts], count: int) -> list[EvidenceRef]:
    step = max(1, len(shots) // count)
    return _shots(shots[::step], count)


def _what(facts: ShotFacts) -> str:
    if facts.blank:
        return "blank (one colour)"
    if facts.surface_blank:
        return "the play surface is blank"
    return f"{facts.shot.phase}, detail {facts.detail:.2f}"


def _lines(items: list[Watched], count: int) -> list[EvidenceRef]:
    refs = []
    for item in items[:count]:
        log = "network.log" if item.kind == "network" else "console.log"
        whose = "" if item.party == "game" else f" ({item.party.replace('_', '-')}, not counted)"
        refs.append(EvidenceRef(kind="log", ref=log, text=f"[{item.phase}] {item.text}"[:200] + whose))
    return refs


def _action(action) -> EvidenceRef:  # an AgentAction
    return EvidenceRef(kind="action", ref="agent-decisions.log",
                       text=f"[{action.phase}] {action.target}: {action.outcome}"[:200])
