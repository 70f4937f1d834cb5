"""Phase 4, Evaluation & Scoring (seed 002, 60 s): gather the evidence of phases 1–3 (screenshots, console, network,
the measured responses and play), score the five metrics — with the rubric when no model is configured, with a
vision-capable model's validated JSON otherwise (the rubric stays the fallback: "technical-only scoring") — store the
six score rows and flush the logs into the project."""

from __future__ import annotations

import itertools
import json
import logging
import statistics
import time

import numpy as np
from pydantic import BaseModel, Field, field_validator

from studio.game import errors
from studio.game.evidence_refs import attach_evidence
from studio.game.explorer import move_label
from studio.game.rubric import overall, score_all
from studio.game.run_context import RunContext
from studio.game.verdict import UNPLAYABLE_CAP, capped, verdict
from studio.llm.errors import ModelOutputInvalid, ModelUnavailable
from studio.llm.safety import Untrusted
from studio.models.game import (
    METRIC_WEIGHTS,
    METRICS,
    ControlResponse,
    DecisionEntry,
    GameEvidence,
    MetricScore,
    Phase4Result,
)

log = logging.getLogger(__name__)

MAX_IMAGES = 6
SYSTEM = ("You are a senior QA tester scoring a browser game from screenshots of a test session and the evidence "
          "the test measured. Score each of five metrics from 0 to 100 and justify each in 2–3 sentences that cite "
          "the evidence: load (the game loads successfully), visual (polish and coherence of what is drawn), "
          "controls (controls and responsiveness), playability (clear objective, mechanics that work), technical "
          "(console errors, failed requests, crashes, frame rate). If the screenshots cannot be judged, say so with "
          "screenshots_judged false.")


class ModelScores(BaseModel):
    """What the model must answer: the five metrics, each once, and whether it could judge the screenshots."""

    metrics: list[MetricScore] = Field(min_length=5, max_length=5)
    screenshots_judged: bool = True

    @field_validator("metrics")
    @classmethod
    def _each_once(cls, metrics: list[MetricScore]) -> list[MetricScore]:
        names = [m.name for m in metrics]
        if sorted(names) != sorted(METRICS):
            raise ValueError(f"give each of {', '.join(METRICS)} exactly once (got {', '.join(names)})")
        for metric in metrics:
            if len(metric.justification.split()) < 8:
                raise ValueError(f"the justification of {metric.name} must be 2–3 sentences citing the evidence")
        return sorted(metrics, key=lambda m: METRICS.index(m.name))


def gather(ctx: RunContext) -> GameEvidence:
    """The run's evidence as scoring reads it, from what the phases recorded and what was watched."""
    evidence = ctx.run.evidence.model_copy(deep=True)
    shots = ctx.shots
    evidence.screenshots = len(shots)
    evidence.blank_shots = sum(1 for s in shots if s.blank)
    evidence.blank_surface_shots = sum(1 for s in shots if s.surface_blank)
    details = [s.detail for s in shots if not s.blank]
    evidence.detail_level = round(statistics.median(details), 3) if details else 0.0
    evidence.distinct_frames = sum(1 for a, b in itertools.pairwise(shots) if _differs(a.signature, b.signature))
    console = [w for w in ctx.watched if w.kind == "console" and w.level == "error" and w.party == "game"]
    uncaught = [w for w in ctx.watched if w.kind == "page_error"]
    evidence.console_errors = len(console)
    evidence.page_errors = len(uncaught)
    distinct: dict[str, str] = {}
    for item in uncaught + console:
        label = "uncaught" if item.kind == "page_error" else "console"
        distinct.setdefault(f"{label}:{item.text}", f"{item.phase} {label}: {item.text}")
    evidence.distinct_errors = list(distinct.values())
    network = [w for w in ctx.watched if w.kind == "network"]
    evidence.failed_requests = list(dict.fromkeys(f"{w.phase} {w.text}" for w in network if w.party == "game"))
    # The browser's own requests (its favicon) are nobody's failure: kept in network.log only.
    evidence.third_party_failures = list(dict.fromkeys(f"{w.phase} {w.text}" for w in network
                                                       if w.party == "third_party"))
    evidence.actions = sum(1 for a in ctx.actions if a.phase == "phase3")
    evidence.phases_failed = [p.phase for p in ctx.run.phases if p.status in ("failed", "skipped")]
    play = next((p for p in ctx.run.phases if p.phase == "phase3"), None)
    evidence.play_failure = play.message if play is not None and play.status == "failed" else ""
    if ctx.run.input_schema is not None and ctx.run.input_schema.objectives:
        evidence.objectives = ctx.run.input_schema.objectives
    evidence.responses = evidence.responses + _unconfirmed(ctx, evidence.responses)
    evidence.verdict = verdict(evidence)
    return evidence


def _unconfirmed(ctx: RunContext, responses: list[ControlResponse]) -> list[ControlResponse]:
    """The controls the game's page or schema names that were never tried (the time ran out first): listed as not
    confirmed, so a score never rests only on the controls that happened to be tried."""
    known = {r.control for r in responses}
    return [ControlResponse(control=c.element_selector, label=move_label(c), purpose=c.purpose or "play",
                            expected=True, responded=False, tried=False)
            for c in ctx.controls
            if c.expected and c.purpose in ("play", "surface") and c.element_selector not in known]


def _differs(a: bytes, b: bytes) -> bool:
    if not a or not b or len(a) != len(b):
        return bool(a or b)
    left, right = np.frombuffer(a, np.uint8).astype(np.int16), np.frombuffer(b, np.uint8).astype(np.int16)
    return float(np.abs(left - right).mean()) > 1.0


async def run_phase4(ctx: RunContext) -> Phase4Result:
    ctx.status("Scoring the game")
    await _read_long_tasks(ctx)
    evidence = gather(ctx)
    ctx.run.evidence = evidence
    metrics = score_all(evidence)
    ctx.run.scoring = "rubric"
    if ctx.model is not None and ctx.options.use_model:
        metrics = await _model_metrics(ctx, evidence, metrics)
    attach_evidence(ctx, metrics)
    total = _overall(ctx, metrics)
    lowered = evidence.verdict and total < (evidence.weighted_score or 0)
    cap = f" Capped at {UNPLAYABLE_CAP}: {evidence.verdict}" if lowered else ""
    note = ("Weighted average: " + ", ".join(f"{m.name} {m.score} × {METRIC_WEIGHTS[m.name]}%" for m in metrics)
            + f" = {evidence.weighted_score}.{cap} Scored by " + {"rubric": "the built-in rubric (no model).",
                                           "model": f"the model {ctx.model.model if ctx.model else ''}.",
                                           "technical_only": "the built-in rubric: technical-only scoring "
                                                             "(the model's answer could not be used)."}[ctx.run.scoring])
    if ctx.store is not None:
        ctx.store.save_scores(ctx.run.id, metrics, total, note)
    ctx.run.overall_score = total
    flush_logs(ctx)
    ctx.status(f"Phase 4 complete - overall score {total}")
    return Phase4Result(success=True, overallScore=total, metrics=metrics)


def _overall(ctx: RunContext, metrics: list[MetricScore]) -> int:
    """The weighted average, capped when the game could not be played (verdict); both kept in the evidence. When
    the game's own code failing at load is why, that is Phase 1's finding: its tile says so."""
    evidence = ctx.run.evidence
    evidence.weighted_score = overall(metrics)
    total = capped(evidence.weighted_score, evidence.verdict)
    if evidence.verdict and evidence.load_failures and ctx.run.phase1 is not None and ctx.run.phase1.success:
        ctx.run.phase1.success = False
        if evidence.verdict not in ctx.run.phase1.errors:
            ctx.run.phase1.errors.insert(0, evidence.verdict)
        outcome = next((p for p in ctx.run.phases if p.phase == "phase1"), None)
        if outcome is not None:
            outcome.status, outcome.message = "failed", evidence.verdict
    if evidence.verdict and evidence.verdict not in ctx.run.errors:
        ctx.run.errors.insert(0, evidence.verdict)
    return total


def rubric_scores(ctx: RunContext, why: str) -> Phase4Result:
    """Scores from the evidence so far with no page and no model (the run was stopped, or scoring failed): the
    partial results a failed or stopped run keeps."""
    evidence = gather(ctx)
    ctx.run.evidence = evidence
    metrics = score_all(evidence)
    attach_evidence(ctx, metrics)
    total = _overall(ctx, metrics)
    if ctx.store is not None:
        ctx.store.save_scores(ctx.run.id, metrics, total, f"Partial scores from the evidence so far ({why}).")
    ctx.run.overall_score = total
    return Phase4Result(success=False, overallScore=total, metrics=metrics)


async def _model_metrics(ctx: RunContext, evidence: GameEvidence, fallback: list[MetricScore]) -> list[MetricScore]:
    assert ctx.model is not None
    images = _images(ctx)
    summary = evidence.model_dump(mode="json", exclude={"responses"})
    summary["responses"] = [r.model_dump(mode="json", include={"label", "responded", "latency_ms", "text_change"})
                            for r in evidence.responses]
    parts: list[str | Untrusted] = [
        f"Evidence measured by the test (JSON):\n{json.dumps(summary)[:6000]}",
        f"{len(images)} screenshots follow, oldest first.",
        Untrusted("\n".join(f"- {a.target}: {a.outcome}" for a in ctx.actions[-20:]), "the test's action log")]
    decided = time.time() * 1000
    try:
        answer = await ctx.model.structured("game: evaluation", SYSTEM, parts, ModelScores, ctx.budget,
                                            job_id=ctx.run.id, images=images)
    except (ModelUnavailable, ModelOutputInvalid) as error:
        kind = "model_unavailable" if isinstance(error, ModelUnavailable) else "model_unusable"
        ctx.note(kind, error.sentence)
        _said(ctx, errors.sentence(kind))
        ctx.run.scoring = "technical_only"
        ctx.decide(DecisionEntry(timestamp=decided, decision="score with the built-in rubric (technical-only)",
                                 context=f"the model's scores could not be used: {error.sentence[:300]}",
                                 ai_model=ctx.model.model))
        return fallback
    if not answer.screenshots_judged:
        ctx.run.scoring = "technical_only"
        _said(ctx, errors.MODEL_UNUSABLE)
        ctx.decide(DecisionEntry(timestamp=decided, decision="score with the built-in rubric (technical-only)",
                                 context="the model could not judge the screenshots", ai_model=ctx.model.model))
        return fallback
    ctx.run.scoring = "model"
    ctx.decide(DecisionEntry(timestamp=decided, decision="scores: " + ", ".join(f"{m.name} {m.score}"
                                                                                 for m in answer.metrics),
                             context=f"{len(images)} screenshots and the measured evidence", ai_model=ctx.model.model))
    return answer.metrics


def _said(ctx: RunContext, sentence: str) -> None:
    if sentence not in ctx.run.errors:
        ctx.run.errors.append(sentence)


def _images(ctx: RunContext) -> list[bytes]:
    if ctx.store is None or not ctx.shots:
        return []
    shots = [s.shot for s in ctx.shots]
    step = max(1, len(shots) // MAX_IMAGES)
    chosen = shots[::step][:MAX_IMAGES]
    return [ctx.store.screenshot_png(shot.id) for shot in chosen]


async def _read_long_tasks(ctx: RunContext) -> None:
    if not ctx.session.alive or not ctx.run.evidence.reachable:
        return
    try:
        state = await ctx.probe.call("state") or {}
    except Exception as error:  # the page may be gone; long tasks are one figure among many
        ctx.note("long_tasks", f"{type(error).__name__}: {error}")
        return
    ctx.run.evidence.long_tasks = int(state.get("longTasks") or 0)
    ctx.run.evidence.long_task_ms = float(state.get("longTaskMs") or 0)


def flush_logs(ctx: RunContext) -> None:
    """console.log, network.log and agent-decisions.log into the project (seed: flushed at the end of a run)."""
    if ctx.store is None:
        return
    stamp = lambda at: time.strftime("%H:%M:%S", time.localtime(at / 1000))
    console = "\n".join(f"{stamp(w.at)} [{w.phase}] {w.kind} {w.level}: {w.text}" for w in ctx.watched
                        if w.kind != "network")
    network = "\n".join(f"{stamp(w.at)} [{w.phase}] {w.text}" for w in ctx.watched if w.kind == "network")
    decisions = "\n".join(f"{stamp(d.timestamp)} {d.ai_model or 'explorer'}: {d.decision} — {d.context}"
                          for d in ctx.decisions)
    actions = "\n".join(f"{stamp(a.timestamp)} [{a.phase}] {a.action} {a.target}: {a.reasoning} → {a.outcome}"
                        for a in ctx.actions)
    for name, text in (("console.log", console), ("network.log", network),
                       ("agent-decisions.log", decisions + ("\n\n" + actions if actions else ""))):
        ctx.store.add_log(ctx.run.id, "phase4", name, text)
