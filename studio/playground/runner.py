"""Playground: a preflight, then the requested agent, as one job that can pause, resume, be cancelled and
run out of budget — recorded in the project with the seed's main-job events."""

from __future__ import annotations

from studio.browser.errors import SessionClosedError
from studio.browser.session import BrowserSession
from studio.llm.budget import Budget
from studio.llm.client import LanguageModel
from studio.llm.errors import BudgetExhausted
from studio.models.context import SKIPPED, Answer, JobKind, JobRecord, JobStatus
from studio.models.events import (
    AskedQuestion,
    MainJobCompleted,
    MainJobSummary,
    PreflightCompleted,
    PreflightQuestion,
)
from studio.models.llm import JobBudget, JobBudgets
from studio.playground.edit import CannotProceed, edit_test_cases
from studio.playground.filing import filed_records, new_cases_summary
from studio.playground.main_job import Cancelled, MainJob
from studio.playground.new_cases import area_paths, new_test_cases
from studio.playground.suites import new_testsuite
from studio.preflight.access import reach_stable_state
from studio.preflight.entry_points import AREA
from studio.preflight.job import Preflight, browser_stopped
from studio.preflight.nothing import cases_nothing
from studio.preflight.run import NeedAnswers, PreflightRun, add_answers, record_questions
from studio.race.errors import RaceError
from studio.runtime import EngineRuntime
from studio.runtime.jobs import JobControl
from studio.store.project import ProjectFile
from studio.wording import plural

MAIN_BUDGET = JobBudgets().main  # the default; Settings › Model and the CLI flags change it
WRITERS = ("new_testsuite", "new_test_case")  # the agents whose job is to write cases: none written is "nothing"


class Playground:
    """Runs playground jobs (preflight + agent) on one browser session, recording into the project."""

    def __init__(self, session: BrowserSession, project: ProjectFile | None, model: LanguageModel | None = None,
                 budget: JobBudget | None = None, preflight_budget: JobBudget | None = None,
                 try_forms: bool = False) -> None:
        self.session = session
        self.project = project
        self.model = model
        self.limits = budget or MAIN_BUDGET
        self.preflight = Preflight(session, project, model=model, try_forms=try_forms,
                                   **({"budget": preflight_budget} if preflight_budget else {}))
        self.main: MainJob | None = None

    @classmethod
    async def on(cls, runtime: EngineRuntime) -> Playground:
        """A Playground on the runtime's live browser, project, model and budgets (the browser is started if none)."""
        session = await runtime.browser()
        budgets = runtime.budgets
        return cls(session, runtime.project, model=await runtime.language_model(), budget=budgets.main,
                   preflight_budget=budgets.preflight, try_forms=runtime.try_forms)

    @property
    def control(self) -> JobControl | None:
        return self.preflight.control

    @control.setter
    def control(self, control: JobControl | None) -> None:
        """The JobRunner's handle for the next start or resume: its cancel and budget watch apply to both stages."""
        self.preflight.control = control

    async def start(self, kind: JobKind, url: str | None, request: str = "",
                    case_ids: list[str] | None = None) -> JobRecord:
        self.preflight.cancelled = False
        job = self.preflight.new_job(url, request, kind, case_ids)
        return await self._go(await self.preflight.run(job))

    async def resume(self, job: JobRecord, answers: list[Answer]) -> JobRecord:
        if not job.state.get("preflight_done"):
            return await self._go(await self.preflight.resume(job, answers))
        self.preflight.cancelled = False
        add_answers(job, answers, self.preflight.secrets.setdefault(job.id, {}))
        job = job.model_copy(update={"pending": [], "status": "running"})
        return await self._main_job(job, resumed=True)

    def cancel(self) -> None:
        self.preflight.cancel()
        if self.main is not None:
            self.main.cancelled = True

    async def _go(self, job: JobRecord) -> JobRecord:
        if job.status != "completed" or job.kind == "preflight":
            return job
        job.state["preflight_done"] = True
        return await self._main_job(job, resumed=False)

    async def _main_job(self, job: JobRecord, resumed: bool) -> JobRecord:
        catalogs = dict(self.preflight.last_run.catalogs) if self.preflight.last_run else {}
        if not catalogs and self.project is not None:
            catalogs = {c.path: c for c in self.project.jobs.catalogs(job.id)}
        budget = Budget(self.limits).carry(job.state.get("main_usage"))
        run = PreflightRun(job=job, live=self.preflight.live, budget=budget, project=self.project,
                           secrets=self.preflight.secrets.setdefault(job.id, {}), catalogs=catalogs,
                           usage_key="main_usage", model=self.model)
        main = self.main = MainJob(run=run, model=self.model, cancelled=self.preflight.cancelled,
                                   control=self.control)
        if self.control is not None:
            self.control.claim(job.id)
            self.control.watch(budget)
        job.status = "running"
        run.save()
        job.state["main_started"] = True  # main_job_started itself is said by the agent, with its item count
        try:
            if resumed and run.driver.url in ("about:blank", ""):
                await reach_stable_state(run)  # a fresh browser after a restart: sign in before browsing
            result = await self._agent(main)
            return self._finish(main, "completed", result)
        except NeedAnswers as asked:
            if main.cancelled or (self.control is not None and self.control.cancel_requested):
                return self._finish(main, "cancelled", {"summary": "Cancelled by the tester; what was made is kept."})
            return self._pause(main, asked)
        except BudgetExhausted as spent:
            return self._finish(main, "budget_exhausted", {"summary": spent.sentence})
        except CannotProceed as blocked:
            return self._finish(main, "failed", {"summary": str(blocked)})
        except Cancelled:
            return self._finish(main, "cancelled", {"summary": "Cancelled by the tester; what was made is kept."})
        except (SessionClosedError, RaceError) as error:
            if self.session.alive and not isinstance(error, SessionClosedError):
                raise
            return self._finish(main, "failed", {"summary": browser_stopped(error, self.session)})

    async def _agent(self, main: MainJob) -> dict:
        kind = main.job.kind
        if kind == "new_test_case":
            paths = area_paths(main)
            points = main.job.context.candidate_entry_points
            if main.job.context.answer(AREA) == SKIPPED and points:
                main.notes.append(f"The area question was skipped: the cases are for the best guess {points[0].label} "
                                  f"({points[0].url}, confidence {points[0].confidence:.2f}).")
            cases, filings = await new_test_cases(main, paths)
            if not paths:
                blockers = main.job.context.auth_state.blockers
                why = blockers[0] if blockers else "the browser could not confirm any page for the request."
                return {"cases": [], "summary": f"Created no cases: no area was validated. {why}"}
            return {"cases": [c.id for c in cases], "suites": [f.suite.id for f in filings if f.new],
                    "filed": filed_records(filings, cases), "summary": new_cases_summary(paths, cases, filings,
                                                                                         len(main.skipped))}
        if kind == "new_testsuite":
            suites = await new_testsuite(main)
            return {"suites": [s.id for s in suites], "summary": f"Created {plural(len(suites), 'suite')} with "
                    f"{plural(len(main.created), 'case')}."}
        if kind == "edit_test_case":
            edits = edit_test_cases(main)
            stale = sum(1 for e in edits if e.after.status == "stale")
            return {"edits": [e.model_dump(mode="json") for e in edits],
                    "summary": f"Edited {plural(len(edits), 'case')} ({stale} marked stale); the others were not touched."}
        raise ValueError(f"unknown playground job kind {kind!r}")

    def _pause(self, main: MainJob, asked: NeedAnswers) -> JobRecord:
        job = main.job
        job.status, job.pending = "paused", asked.questions
        record_questions(job, asked)
        job.message = asked.questions[0].why if asked.questions else ""
        main.run.save()
        self.session.publish(PreflightQuestion(job_id=job.id,
                                               questions=[AskedQuestion.of(q) for q in asked.questions]))
        return main.run.job

    def record_end(self, job_id: str, status: str, message: str) -> JobRecord | None:
        """An end forced from outside (cancelled mid-step, out of budget, failed): the stored job says so, with the
        seed's completion event; a job that already ended on its own is returned as it is."""
        stored = self.project.jobs.get(job_id) if self.project is not None else None
        if stored is None:
            return None
        if stored.status not in ("running", "interrupted"):
            return stored
        notes = stored.context.evidence.notes
        if message not in notes:
            notes.append(message)
        job = stored.model_copy(update={"status": status, "message": message, "pending": []})
        if job.state.get("main_started"):
            job.result = {**job.result, "summary": message}
        job = self.project.jobs.save(job) if self.project is not None else job
        if job.state.get("main_started"):
            self.session.publish(MainJobCompleted(job_id=job.id, kind=job.kind, status=status,
                                                  summary=MainJobSummary.model_validate(job.result)))
        else:
            self.session.publish(PreflightCompleted(job_id=job.id, confidence=job.context.confidence.model_copy(),
                                                    steps=int(job.state.get("preflight_usage", {}).get("steps", 0)),
                                                    seconds=0))
        return job

    def _finish(self, main: MainJob, status: JobStatus, result: dict) -> JobRecord:
        job = main.job
        result = {"cases": list(main.created), "skipped": main.skipped, "notes": main.notes, **result,
                  "outcome": status}
        if status == "completed" and job.kind in WRITERS and not main.created and not result.get("suites"):
            # Never a silent nothing: what it tried, and why no case came out, each with the next step.
            duplicates = [said for said in main.skipped if " duplicates '" in said]
            nothing = cases_nothing(job, main.catalogs, [str(result.get("summary") or ""), *main.notes], duplicates)
            result |= {**nothing.model_dump(mode="json"), "summary": nothing.summary(KIND_NAMES[job.kind])}
        job.status, job.result, job.message = status, result, result.get("summary", "")
        main.run.save()
        self.session.publish(MainJobCompleted(job_id=job.id, kind=job.kind, status=status,
                                              summary=MainJobSummary.model_validate(result)))
        return main.run.job


KIND_NAMES = {"preflight": "Preflight", "new_testsuite": "New test suite", "new_test_case": "New test cases",
              "edit_test_case": "Edit test cases"}


class PlaygroundJob:
    """A playground start or resume as a JobRunner runs it (see studio.runtime.jobs.JobWork)."""

    def __init__(self, playground: Playground, kind: JobKind, url: str | None = None, request: str = "",
                 case_ids: list[str] | None = None, resume: JobRecord | None = None,
                 answers: list[Answer] | None = None) -> None:
        self.playground = playground
        self.kind: JobKind = resume.kind if resume is not None else kind
        self.label = KIND_NAMES[self.kind]
        self.url, self.request, self.case_ids = url, request, case_ids
        self.resumed, self.answers = resume, answers or []

    @property
    def job_id(self) -> str | None:
        return self.resumed.id if self.resumed is not None else None

    async def run(self, control: JobControl) -> JobRecord:
        self.playground.control = control
        if self.resumed is not None:
            return await self.playground.resume(self.resumed, self.answers)
        return await self.playground.start(self.kind, self.url, self.request, self.case_ids)

    def record_end(self, job_id: str, status: str, message: str) -> JobRecord | None:
        return self.playground.record_end(job_id, status, message)
