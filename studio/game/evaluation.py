"""A game evaluation (seed 002's TestAgent): one run record, four phases on one browser session, graceful degradation,
translated errors — as a JobWork the runtime's JobRunner runs (the CLI, the benches and a Qt service alike).

    evaluation = await GameEvaluation.on(runtime, url, options=GameOptions(seed=3))
    run = await runtime.jobs.run(evaluation)      # GameRun: status completed | failed, phase1..phase4, scores

Phases 1–3 never stop the run: a failed phase is recorded with its sentence and the next one that can still run
does (a game that cannot be loaded skips to scoring, with the little evidence there is, and the run fails). A failed
Phase 4 keeps partial scores from the rubric, with the message. Events: GameStatusEvent on every status or phase
change, GamePhaseCompleted per phase, GameProgressEvent at most every 5 s, GameRunCompleted at the end; the runner's
listeners also get each phase's result as a partial (GamePartial).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import BaseModel

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.game import errors
from studio.game.control_phase import run_phase2
from studio.game.gameplay_phase import run_phase3
from studio.game.identity import unidentify
from studio.game.load_phase import run_phase1
from studio.game.retries import PHASE_RETRIES, with_retries
from studio.game.run_context import GameOptions, RunContext
from studio.game.scoring_phase import rubric_scores, run_phase4
from studio.llm.budget import Budget
from studio.llm.client import LanguageModel
from studio.llm.errors import BudgetKind
from studio.models.game import (
    PHASE_TIMEOUTS_S,
    PHASE_TITLES,
    PHASES,
    GamePartial,
    GamePhaseCompleted,
    GameRun,
    GameRunCompleted,
    GameStatusEvent,
    InputSchema,
    Phase1Result,
    Phase2Result,
    Phase3Result,
    Phase4Result,
    PhaseKey,
    PhaseOutcome,
)
from studio.models.llm import JobBudget
from studio.runtime.engine import EngineRuntime
from studio.runtime.jobs import JobControl
from studio.store.game import GameStore
from studio.store.project import ProjectFile

log = logging.getLogger(__name__)

R = TypeVar("R", bound=BaseModel)
PHASE3_SLACK_S = 60.0  # probing, screenshots and restarts on top of the exploration window
GAME_SECONDS = sum(PHASE_TIMEOUTS_S.values()) + 30  # the default time budget: every phase's limit, and a margin
GAME_STEPS = 2000  # browser actions; play is many small moves


def game_budget(runtime: EngineRuntime) -> JobBudget:
    """The run's budget: --max-* flags first, then the game's own time and step limits, and the agent budget's
    tokens and dollars from Settings › Model."""
    main, given = runtime.settings.budgets.main, runtime.budget_limits
    return JobBudget(max_steps=int(given.get("max_steps") or GAME_STEPS),
                     max_seconds=float(given.get("max_seconds") or GAME_SECONDS),
                     max_tokens=int(given.get("max_tokens") or main.max_tokens),
                     max_cost_usd=float(given.get("max_cost_usd") or main.max_cost_usd))


def phase_limit_s(key: PhaseKey, options: GameOptions) -> float:
    """How long phase `key` may take: its seed limit, except play (phase 3), which takes the exploration window and a
    margin for probing, screenshots and restarts."""
    return options.max_explore_s + PHASE3_SLACK_S if key == "phase3" else PHASE_TIMEOUTS_S[key]


class ClockOnly(Budget):
    """What the job runner enforces of the run's budget: only its clock (plus a moment to score). Tokens and dollars
    running out end the model's part, not the run: the explorer and the rubric take over."""

    def __init__(self, budget: Budget, grace_s: float) -> None:
        super().__init__(budget.limits.model_copy(update={"max_seconds": budget.limits.max_seconds + grace_s}))
        self._started = budget._started

    def exhausted(self) -> BudgetKind | None:
        return "seconds" if self.elapsed_s >= self.limits.max_seconds else None


class GameEvaluation:
    """One game evaluation of `url` on `session`, recorded into `project`."""

    label = "Game evaluation"

    def __init__(self, session: BrowserSession, bus: EventBus, project: ProjectFile | None, url: str, *,
                 input_schema: InputSchema | None = None, options: GameOptions | None = None,
                 model: LanguageModel | None = None, budget: JobBudget | None = None) -> None:
        self.session, self.bus, self.project = session, bus, project
        self.options = options or GameOptions()
        self.model = model if self.options.use_model else None
        self.limits = budget or JobBudget(max_steps=GAME_STEPS, max_seconds=GAME_SECONDS)
        now = time.time() * 1000
        self.run_record = GameRun(id=uuid.uuid4().hex[:12], url=url, created_at=now, updated_at=now,
                                  seed=self.options.seed, input_schema=input_schema,
                                  ai_model=self.model.model if self.model else None,
                                  phases=[PhaseOutcome(phase=key, title=PHASE_TITLES[key]) for key in PHASES])
        self.store = GameStore(project.db) if project is not None else None
        self.ctx: RunContext | None = None

    @classmethod
    async def on(cls, runtime: EngineRuntime, url: str, *, input_schema: InputSchema | None = None,
                 options: GameOptions | None = None) -> GameEvaluation:
        """An evaluation on the runtime's live browser (started if none), project, model and budgets."""
        session = await runtime.browser()
        options = options or GameOptions()
        model = await runtime.language_model() if options.use_model else None
        return cls(session, runtime.bus, runtime.project, url, input_schema=input_schema, options=options,
                   model=model, budget=game_budget(runtime))

    @property
    def job_id(self) -> str | None:
        return None

    @property
    def run_id(self) -> str:
        return self.run_record.id

    # -- the run -------------------------------------------------------------------------------------------------

    async def run(self, control: JobControl | None = None) -> GameRun:
        budget = Budget(self.limits)
        ctx = self.ctx = RunContext(run=self.run_record, session=self.session, bus=self.bus, store=self.store,
                                    options=self.options, budget=budget, model=self.model, control=control)
        ctx.save()
        self._status("queued", "", "The evaluation is queued.")
        if control is not None:
            control.claim(ctx.run.id)
            control.watch(ClockOnly(budget, grace_s=10.0))
        ctx.run.status = "running"
        ctx.save()
        self._status("running", "", f"Evaluating {ctx.run.url}")
        ctx.watch()
        try:
            phase1 = await self._phase("phase1", lambda: run_phase1(ctx), Phase1Result)
            ctx.run.phase1 = phase1
            if phase1.success and not self._stopping():
                phase2 = await self._phase("phase2", lambda: run_phase2(ctx), Phase2Result)
            else:
                phase2 = self._skip("phase2", Phase2Result(success=False))
            ctx.run.phase2 = phase2
            if phase2.success and not self._stopping():
                phase3 = await self._phase("phase3", lambda: run_phase3(ctx, phase1.requiresInteraction),
                                           Phase3Result)
            else:
                phase3 = self._skip("phase3", Phase3Result(success=False))
            ctx.run.phase3 = phase3
            if self._stopping():
                ctx.run.phase4 = rubric_scores(ctx, "stopped by the tester")
                return self._finish("failed", "cancelled", errors.CANCELLED)
            ctx.run.phase4 = await self._phase("phase4", lambda: run_phase4(ctx), Phase4Result)
        finally:
            ctx.stop_watching()
            if self.session.alive:
                await unidentify(ctx.live)  # the tester's page goes on as itself
        if not phase1.success:
            return self._finish("failed", "failed", ctx.run.errors[0] if ctx.run.errors else errors.NOT_ACCESSIBLE)
        if not ctx.run.phase4.success:
            return self._finish("failed", "failed", errors.SCORING_FAILED)
        return self._finish("completed", "completed", ctx.run.errors[0] if ctx.run.errors else "")

    def record_end(self, job_id: str, status: str, message: str) -> GameRun | None:
        """The runner stopped the run (cancelled, out of time, an engine error): keep partial scores, say why."""
        ctx = self.ctx
        if ctx is None or ctx.run.id != job_id:
            stored = self.store.run(job_id) if self.store is not None else None
            return stored
        if ctx.run.end_reason:
            return ctx.run
        ctx.stop_watching()
        if status == "cancelled":
            sentence = errors.CANCELLED
        elif status == "budget_exhausted":
            sentence = (f"The evaluation stopped at its time budget of {ctx.budget.limits.max_seconds:g} seconds. "
                        "What it found so far is kept; give it more time with --max-seconds.")
        else:
            sentence = errors.BROWSER_STOPPED if "browser" in message.lower() else errors.sentence("unexpected")
        ctx.note(status, message)
        running = next((p for p in ctx.run.phases if p.status == "running"), None)
        if running is not None:
            running.status, running.message = "failed", sentence
        try:
            ctx.run.phase4 = rubric_scores(ctx, status.replace("_", " "))
        except Exception:  # scoring what there is must not hide why the run ended
            log.exception("partial scores of game run %s", job_id)
        return self._finish("failed", status, sentence)

    # -- phases --------------------------------------------------------------------------------------------------

    async def _phase(self, key: PhaseKey, body: Callable[[], Awaitable[R]], shape: type[R]) -> R:
        ctx = self.ctx
        assert ctx is not None
        ctx.phase = key
        outcome = self._outcome(key)
        outcome.status, outcome.started_at = "running", time.time() * 1000
        started = time.monotonic()
        ctx.save()
        self._status("running", key, f"{PHASE_TITLES[key]} started")
        limit = phase_limit_s(key, ctx.options)
        async def retrying(number: int, delay: float, error: BaseException) -> None:
            outcome.retries = number
            ctx.note("retry", f"{key} try {number + 1} in {delay:g} s after {type(error).__name__}: {error}")
            self._status("running", key, f"{PHASE_TITLES[key]}: the browser failed ({type(error).__name__}); "
                                         f"trying again in {delay:g} s (retry {number} of {PHASE_RETRIES})")
            if key in ("phase2", "phase3") and self.session.alive:
                await ctx.hands.navigate(ctx.run.url)  # the game again, as the phase expects to find it

        try:
            result = await with_retries(lambda: asyncio.wait_for(body(), limit), before_retry=retrying)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            kind, sentence, detail = errors.translate(error, key)
            ctx.note(kind, detail)
            log.info("game run %s: %s failed (%s)", ctx.run.id, key, kind)
            result = self._failed(key, shape, sentence)
            outcome.message = sentence
        failures = list(getattr(result, "errors", []) or [])
        if not getattr(result, "success", False) and not outcome.message:
            outcome.message = failures[0] if failures else errors.sentence("unexpected", key)
        if outcome.message and outcome.message not in ctx.run.errors:
            ctx.run.errors.append(outcome.message)
        outcome.status = "passed" if getattr(result, "success", False) else "failed"
        outcome.seconds = round(time.monotonic() - started, 2)
        ctx.save()
        dumped = result.model_dump(mode="json")
        ctx.publish(GamePhaseCompleted(job_id=ctx.run.id, phase=key, status=outcome.status, seconds=outcome.seconds,
                                       message=outcome.message, result=dumped))
        if ctx.control is not None:
            ctx.control.partial(GamePartial(run_id=ctx.run.id, phase=key, result=dumped,
                                            run=ctx.run.model_copy(deep=True)))
        return result

    def _failed(self, key: PhaseKey, shape: type[R], sentence: str) -> R:
        ctx = self.ctx
        assert ctx is not None
        if key == "phase4":
            try:
                return rubric_scores(ctx, "scoring failed")  # type: ignore[return-value]
            except Exception:
                log.exception("partial scores of game run %s", ctx.run.id)
                return Phase4Result(success=False)  # type: ignore[return-value]
        if key in ("phase1", "phase3"):
            return shape.model_validate({"success": False, "errors": [sentence]})
        return shape.model_validate({"success": False})

    def _skip(self, key: PhaseKey, result: R) -> R:
        ctx = self.ctx
        assert ctx is not None
        outcome = self._outcome(key)
        outcome.status, outcome.seconds = "skipped", 0.0
        outcome.message = "Skipped: an earlier phase could not give it what it needs."
        ctx.publish(GamePhaseCompleted(job_id=ctx.run.id, phase=key, status="skipped", seconds=0.0,
                                       message=outcome.message, result=result.model_dump(mode="json")))
        return result

    def _outcome(self, key: PhaseKey) -> PhaseOutcome:
        return next(p for p in self.run_record.phases if p.phase == key)  # ctx.run is this same record

    def _stopping(self) -> bool:
        ctx = self.ctx
        return bool(ctx is not None and ctx.control is not None and ctx.control.cancel_requested)

    def _status(self, status: str, phase: str, message: str) -> None:
        ctx = self.ctx
        assert ctx is not None
        ctx.publish(GameStatusEvent(job_id=ctx.run.id, status=status, phase=phase, message=message))  # type: ignore

    def _finish(self, status: str, reason: str, message: str) -> GameRun:
        ctx = self.ctx
        assert ctx is not None
        run = ctx.run
        run.status, run.end_reason, run.message = status, reason, message  # type: ignore[assignment]
        if message and message not in run.errors:
            run.errors.append(message)
        ctx.save()
        phase4 = run.phase4
        self._status(status, "", message or f"Evaluation complete - overall score {run.overall_score}")
        ctx.publish(GameRunCompleted(job_id=run.id, status=run.status, overall_score=run.overall_score,
                                     metrics=phase4.metrics if phase4 else [], message=message))
        return run
