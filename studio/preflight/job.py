"""The preflight job: the seven objectives of seed 000 in order, bounded by a budget, pausing for answers.

Each finished objective is recorded in the job (in the project file), so a paused or interrupted job resumes
where it stopped — in this run or after the studio was closed and reopened. A resumed run in a new browser
signs in again before going on.
"""

from __future__ import annotations

import logging
import uuid

from studio.browser.errors import SessionClosedError, first_line
from studio.browser.session import BrowserSession
from studio.llm.budget import Budget
from studio.llm.client import LanguageModel
from studio.llm.errors import BudgetExhausted
from studio.models.context import Answer, ContextCollection, JobKind, JobRecord, JobStatus
from studio.models.events import AskedQuestion, PreflightCompleted, PreflightQuestion, PreflightStarted
from studio.models.llm import JobBudget, JobBudgets
from studio.preflight.access import reach_stable_state
from studio.preflight.base_url import resolve_base_url
from studio.preflight.changes import detect_changes
from studio.preflight.discovery import discover_flows
from studio.preflight.entry_points import find_entry_points
from studio.preflight.gaps import detect_gaps
from studio.preflight.mapping import build_ui_map
from studio.preflight.nothing import preflight_nothing
from studio.preflight.run import Blocked, NeedAnswers, PreflightRun, add_answers, now_ms, record_questions
from studio.race.errors import RaceError
from studio.runtime.jobs import JobControl
from studio.runtime.live import LivePage
from studio.store.project import ProjectFile

log = logging.getLogger(__name__)

OBJECTIVES = ("resolve_base_url", "reach_stable_state", "build_ui_map", "find_entry_points", "discover_flows",
              "detect_changes", "detect_gaps")
PREFLIGHT_BUDGET = JobBudgets().preflight  # the default; Settings › Model and the CLI flags change it


class Cancelled(Exception):
    """The tester cancelled the job."""


def browser_stopped(error: Exception, session: BrowserSession | None = None) -> str:
    """What to tell the tester when the browser went away mid-job (in the session's own words when it ended)."""
    ended = session.end_message if session is not None and not session.alive else None
    said = (ended or first_line(error)).rstrip(".")
    return (f"The browser stopped during the job ({said}). Everything found so far is kept in the project; "
            "start the job again (or answer its questions) to go on in a new browser.")


class Preflight:
    """Runs preflight jobs on one browser session's page (the tester's, as a PageDriver) and records them in the
    project."""

    def __init__(self, session: BrowserSession, project: ProjectFile | None,
                 budget: JobBudget = PREFLIGHT_BUDGET, model: LanguageModel | None = None,
                 try_forms: bool = False) -> None:
        self.session = session
        self.live = LivePage(session)  # one for every run: refs keep counting across runs on the same page
        self.try_forms = try_forms  # new jobs may send forms with sample data (the tester's choice)
        self.project = project
        self.model = model
        self.limits = budget
        self.secrets: dict[str, dict[str, str]] = {}  # job id -> secret answers, in memory only
        self.control: JobControl | None = None  # the runner's handle, when a JobRunner runs this job
        self._cancelled = False
        self.last_run: PreflightRun | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancelled or bool(self.control is not None and self.control.cancel_requested)

    @cancelled.setter
    def cancelled(self, value: bool) -> None:
        self._cancelled = value

    def new_job(self, url: str | None, request: str = "", kind: JobKind = "preflight",
                case_ids: list[str] | None = None) -> JobRecord:
        now = now_ms()
        return JobRecord(id=uuid.uuid4().hex[:12], kind=kind, status="running", request=request, start_url=url,
                         created_at=now, updated_at=now, context=ContextCollection(),
                         state={"done": [], "case_ids": case_ids or [], "try_forms": self.try_forms})

    async def start(self, url: str | None, request: str = "", kind: JobKind = "preflight",
                    case_ids: list[str] | None = None) -> JobRecord:
        return await self.run(self.new_job(url, request, kind, case_ids))

    async def resume(self, job: JobRecord, answers: list[Answer]) -> JobRecord:
        """Add the answers (secrets stay in memory) and go on from where the job stopped."""
        add_answers(job, answers, self.secrets.setdefault(job.id, {}))
        job = job.model_copy(update={"pending": [], "status": "running", "message": ""})
        return await self.run(job)

    def cancel(self) -> None:
        self.cancelled = True

    async def run(self, job: JobRecord) -> JobRecord:
        self.cancelled = False  # a cancel ends one run; starting or resuming is the tester going on
        budget = Budget(self.limits).carry(job.state.get("preflight_usage"))  # steps count per job, not per run
        run = PreflightRun(job=job, live=self.live, budget=budget, project=self.project,
                           secrets=self.secrets.setdefault(job.id, {}), model=self.model)
        self.last_run = run
        if self.control is not None:
            self.control.claim(job.id)  # before the job is saved as running: another process may hold it
            self.control.watch(budget)
        if self.project is not None:
            for catalog in self.project.jobs.catalogs(job.id):
                run.catalogs[catalog.path] = catalog
        self.session.publish(PreflightStarted(job_id=job.id, request=job.request, url=job.start_url))
        run.save()
        done: list[str] = job.state.setdefault("done", [])
        try:
            if done and "reach_stable_state" in done:
                await reach_stable_state(run)  # a fresh browser: sign in again before going on
            for number, name in enumerate(OBJECTIVES):
                if name in done:
                    continue
                if self.cancelled:
                    raise Cancelled()
                if self.control is not None:
                    self.control.report(f"Preflight: {name.replace('_', ' ')}", number / len(OBJECTIVES))
                await self._objective(name, run)
                done.append(name)
                run.save()
        except NeedAnswers as asked:
            if self.cancelled:  # cancelled while its last step ran: it ends, it does not wait for answers
                return self._end(run, "cancelled", "Cancelled by the tester; what was found so far is kept.")
            return self._pause(run, asked)
        except BudgetExhausted as spent:
            return self._end(run, "budget_exhausted", str(spent))
        except Blocked as blocked:
            return self._end(run, "failed", str(blocked))
        except Cancelled:
            return self._end(run, "cancelled", "Cancelled by the tester; what was found so far is kept.")
        except (SessionClosedError, RaceError) as error:
            if self.session.alive and not isinstance(error, SessionClosedError):
                raise
            return self._end(run, "failed", browser_stopped(error, self.session))
        job = run.job
        job.status, job.message = "completed", ""
        # A preflight of its own that found no control finished with nothing: it says what it tried and why.
        nothing = preflight_nothing(job, list(run.catalogs.values())) if job.kind == "preflight" else None
        if nothing is not None:
            job.message = nothing.summary("Preflight")
            job.result = {**nothing.model_dump(mode="json"), "summary": job.message}
            run.note(nothing.headline("Preflight"))
        run.save()
        self.session.publish(PreflightCompleted(
            job_id=job.id, confidence=job.context.confidence.model_copy(), steps=budget.steps, seconds=run.seconds(),
            outcome="nothing" if nothing is not None else "completed",
            reasons=[reason.said() for reason in nothing.reasons] if nothing is not None else []))
        return run.job

    async def _objective(self, name: str, run: PreflightRun) -> None:
        survey_all = run.job.kind == "new_testsuite" or not run.job.request.strip()
        if name == "resolve_base_url":
            await resolve_base_url(run)
        elif name == "reach_stable_state":
            await reach_stable_state(run)
        elif name == "build_ui_map":
            await build_ui_map(run, survey_all=survey_all)
        elif name == "find_entry_points":
            await find_entry_points(run)
        elif name == "discover_flows":
            await discover_flows(run)
        elif name == "detect_changes":
            await detect_changes(run)
        elif name == "detect_gaps":
            detect_gaps(run)

    def _pause(self, run: PreflightRun, asked: NeedAnswers) -> JobRecord:
        job = run.job
        job.status = "paused"
        job.pending = asked.questions
        record_questions(job, asked)
        job.message = asked.questions[0].why if asked.questions else ""
        run.save()
        self.session.publish(PreflightQuestion(job_id=job.id,
                                               questions=[AskedQuestion.of(q) for q in asked.questions]))
        return run.job

    def _end(self, run: PreflightRun, status: JobStatus, message: str) -> JobRecord:
        job = run.job
        job.status, job.message = status, message
        run.note(message)
        run.save()
        self.session.publish(PreflightCompleted(job_id=job.id, confidence=job.context.confidence.model_copy(),
                                                steps=run.budget.steps, seconds=run.seconds(), outcome=status))
        return run.job
