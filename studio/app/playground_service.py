"""PlaygroundService: preflight and the playground agents (seed 000) for the GUI — start, answer, skip, cancel.

The engine runs as an owned task on the live browser session and the open project. While a job waits for
answers nothing runs: the job is paused in the project file and the service waits for answer() or skip(), so
the question dialog never blocks the event loop. The seed's events are forwarded as `progress`, and the job
is re-read from the project (at most four times a second) so the context panel follows it live.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable

from PySide6.QtCore import QObject, QTimer, Signal

from studio.app.browser_service import BrowserService
from studio.app.project_service import ProjectService
from studio.app.tasks import TaskOwner
from studio.browser.errors import BrowserError
from studio.browser.session import BrowserSession
from studio.llm import LanguageModel
from studio.llm.errors import LLMError
from studio.models.catalog import PageCatalog
from studio.models.context import SKIPPED, Answer, JobKind, JobRecord
from studio.models.events import (
    EngineEvent,
    ItemProgress,
    MainJobCompleted,
    MainJobStarted,
    PreflightCompleted,
    PreflightProgress,
    PreflightQuestion,
    PreflightStarted,
)
from studio.playground import Playground
from studio.settings import StudioSettings

log = logging.getLogger(__name__)

SEED_EVENTS = (PreflightStarted, PreflightProgress, PreflightQuestion, PreflightCompleted, MainJobStarted,
               ItemProgress, MainJobCompleted)
CANCEL_GRACE_S = 15.0  # the engine stops between objectives; after this the task itself is cancelled
KIND_NAMES = {"preflight": "Preflight", "new_testsuite": "New test suite", "new_test_case": "New test cases",
              "edit_test_case": "Edit test cases"}


class PlaygroundService(QObject):
    """The GUI's handle on preflight and playground jobs; one job runs at a time."""

    jobChanged = Signal(object)  # JobRecord: the job shown, live while it runs
    questionsAsked = Signal(object)  # JobRecord paused with ≤2 pending questions
    progress = Signal(object)  # a seed event (preflight_*, main_job_*, item_progress)
    finished = Signal(object)  # JobRecord that ended: completed, cancelled, failed or budget_exhausted
    pausedJobFound = Signal(object)  # JobRecord paused in a project that was just opened
    runningChanged = Signal(bool)
    errorOccurred = Signal(str)

    def __init__(self, browser: BrowserService, project: ProjectService, settings: StudioSettings,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.browser = browser
        self.project = project
        self.settings = settings
        self.job: JobRecord | None = None
        self.engine: Playground | None = None
        self._engine_session: BrowserSession | None = None
        self._language_model: LanguageModel | None = None
        self._active: asyncio.Task | None = None  # the task driving the job, while it runs
        self._live_job_id: str | None = None
        self._tasks = TaskOwner(on_error=self._unexpected)
        self._refresh = QTimer(self, singleShot=True, interval=250)
        self._refresh.timeout.connect(self._reload_live_job)
        self._unsubscribe = browser.bus.subscribe(self._on_event, *SEED_EVENTS)
        project.projectChanged.connect(self._on_project)

    # -- commands ----------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._active is not None

    def start(self, kind: JobKind, url: str | None, request: str = "", case_ids: list[str] | None = None) -> None:
        """Start a job (a running one is cancelled first); the outcome arrives as signals.

        For edit_test_case, no `case_ids` means the cases the preflight finds impacted by a change."""
        self._tasks.spawn(self.run_start(kind, url, request, case_ids), name=f"playground-{kind}")

    async def run_start(self, kind: JobKind, url: str | None, request: str = "",
                        case_ids: list[str] | None = None) -> JobRecord | None:
        if self.project.project is None:
            self.errorOccurred.emit("No project is open. Open or create one with File › New Project, then start again.")
            return None
        async with self._owning():
            engine = await self._new_engine()
            if engine is None:
                return None
            return await self._drive(engine.start(kind, url or None, request, case_ids or None))

    def answer(self, job_id: str, answers: list[Answer]) -> None:
        """Resume a paused job with the tester's answers."""
        self._tasks.spawn(self.run_answer(job_id, answers), name="playground-resume")

    def skip(self, job_id: str) -> None:
        """Skip every pending question: the engine decides without those answers (and does not ask them again)."""
        job = self._paused(job_id)
        if job is not None:
            self.answer(job_id, [Answer(key=question.key, value=SKIPPED) for question in job.pending])

    async def run_answer(self, job_id: str, answers: list[Answer]) -> JobRecord | None:
        job = self._paused(job_id)
        if job is None:
            return None
        async with self._owning():
            engine = self.engine
            if engine is None or self._engine_session is not self.browser.session or not self.browser.alive:
                engine = await self._new_engine()  # after a restart: a new browser signs in again
                if engine is None:
                    return None
            return await self._drive(engine.resume(job, answers))

    def cancel(self) -> None:
        """End the running job cleanly, or close a paused one; what was found so far is kept."""
        if self.running:
            self._tasks.spawn(self._cancel_running(), name="playground-cancel")
        elif self.job is not None and self.job.status == "paused":
            self._close_paused(self.job)

    def resume_paused(self, job: JobRecord) -> None:
        """Show a paused job (found in the project) and ask its questions again."""
        self._show(job)
        self.questionsAsked.emit(job)

    def catalogs(self, job_id: str) -> list[PageCatalog]:
        """The pages the job's preflight surveyed (with their screenshots)."""
        project = self.project.project
        return project.jobs.catalogs(job_id) if project is not None else []

    def screenshot_png(self, screenshot_id: int) -> bytes | None:
        project = self.project.project
        try:
            return project.screenshot_png(screenshot_id) if project is not None else None
        except KeyError:
            return None

    def base_url(self) -> str:
        """The base URL the latest job resolved, else the page the browser shows."""
        project = self.project.project
        if project is not None:
            for job in reversed(project.jobs.list()):
                if job.context.resolved_base_url:
                    return job.context.resolved_base_url
        session = self.browser.session
        return session.page.url if session is not None and self.browser.alive else ""

    async def shutdown(self) -> None:
        self._unsubscribe()
        self._refresh.stop()
        if self.running and self.engine is not None:
            self.engine.cancel()
        await self._tasks.cancel_all()
        if self._language_model is not None:
            await self._language_model.aclose()
            self._language_model = None

    # -- running -------------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _owning(self) -> AsyncIterator[None]:
        """The current task drives the job; a job that still runs is cancelled (cleanly) first."""
        previous = self._active
        if previous is not None and previous is not asyncio.current_task():
            await self._cancel_running()
        self._active = asyncio.current_task()
        self.runningChanged.emit(True)
        try:
            yield
        finally:
            if self._active is asyncio.current_task():
                self._active = None
                self.runningChanged.emit(False)

    async def _new_engine(self) -> Playground | None:
        session = await self._session()
        if session is None:
            return None
        budgets = self.settings.budgets
        self.engine = Playground(session, self.project.project, model=await self._model(), budget=budgets.main,
                                 preflight_budget=budgets.preflight)
        self._engine_session = session
        return self.engine

    async def _model(self) -> LanguageModel | None:
        """The configured model for the next job (None: offline heuristics); its calls go into the project."""
        if self._language_model is not None:
            await self._language_model.aclose()
            self._language_model = None
        project = self.project.project
        try:
            self._language_model = LanguageModel.from_settings(
                self.settings.llm, sink=project.llm_calls.add if project is not None else None)
        except LLMError as error:  # e.g. an endpoint that is not http(s): say so, go on offline
            self.errorOccurred.emit(f"{error} The job runs on the offline heuristics instead.")
        return self._language_model

    async def _session(self) -> BrowserSession | None:
        if self.browser.alive:
            return self.browser.session
        # The job works in the live browser, so the tester watches it; one is started when none runs.
        return await self.browser.start(self.settings.session_options(label="playground"))

    async def _drive(self, work: Awaitable[JobRecord]) -> JobRecord | None:
        try:
            job = await work
        except asyncio.CancelledError:
            raise
        except BrowserError as error:
            self._fail(f"The browser stopped the job: {error}")
            return None
        except Exception as error:  # an engine bug must not take the window down; the log has the trace
            log.exception("playground job failed")
            self._fail(f"The job failed unexpectedly ({type(error).__name__}: {error}). What it found so far is "
                       "kept in the project; see the log for details, then start the job again.")
            return None
        self._settle(job)
        return job

    def _settle(self, job: JobRecord) -> None:
        self._refresh.stop()
        self._show(job)
        if job.status == "paused":
            self.questionsAsked.emit(job)
        elif job.status != "running":
            self.finished.emit(job)

    def _show(self, job: JobRecord) -> None:
        self.job = job
        self._live_job_id = job.id
        self.jobChanged.emit(job)

    def _paused(self, job_id: str) -> JobRecord | None:
        job = self.job if self.job is not None and self.job.id == job_id else None
        if job is None and self.project.project is not None:
            job = self.project.project.jobs.get(job_id)
        if job is None or job.status != "paused":
            self.errorOccurred.emit("That job is no longer waiting for answers; start a new one from the Playground menu.")
            return None
        return job

    async def _cancel_running(self) -> None:
        task = self._active
        if task is None or task.done() or task is asyncio.current_task():
            return
        if self.engine is not None:
            self.engine.cancel()
            # A cancelled Playground stays cancelled (its flag is never reset), so answering another paused job
            # must not reuse it; the running task keeps its own reference until it stops.
            self.engine = None
        done, _ = await asyncio.wait({task}, timeout=CANCEL_GRACE_S)
        if done:
            return
        # The engine did not reach a stopping point in time: end the task and record the job as cancelled.
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        job = self._stored(self._live_job_id)
        if job is not None and job.status == "running":
            self._close(job, "Cancelled by the tester; the job was stopped mid-step. What was found so far is kept.")

    def _close_paused(self, job: JobRecord) -> None:
        self._close(job, "Cancelled by the tester while it waited for answers; what was found so far is kept.")

    def _fail(self, message: str) -> None:
        """The engine raised: the job is recorded as failed (not left "running"), with the sentence as its message."""
        job = self._stored(self._live_job_id)
        if job is not None and job.status == "running":
            self._close(job, message, status="failed")  # `finished` carries the sentence
        else:
            self.errorOccurred.emit(message)
            self._reload_live_job()

    def _close(self, job: JobRecord, message: str, status: str = "cancelled") -> None:
        job = job.model_copy(update={"status": status, "message": message, "pending": []})
        if self.project.project is not None:
            job = self.project.project.jobs.save(job)
        self._settle(job)

    def _stored(self, job_id: str | None) -> JobRecord | None:
        if job_id is None or self.project.project is None:
            return None
        return self.project.project.jobs.get(job_id)

    # -- engine → Qt ------------------------------------------------------------------------------------

    def _on_event(self, event: EngineEvent) -> None:
        job_id = getattr(event, "job_id", None)
        if isinstance(event, PreflightStarted):
            self._live_job_id = job_id
        self.progress.emit(event)
        if job_id is not None and job_id == self._live_job_id and not self._refresh.isActive():
            self._refresh.start()

    def _reload_live_job(self) -> None:
        job = self._stored(self._live_job_id)
        if job is not None:
            self.job = job
            self.jobChanged.emit(job)

    def _on_project(self, _path: str) -> None:
        self.job = None
        self.engine = None
        self._engine_session = None
        project = self.project.project
        paused = project.jobs.latest_paused() if project is not None else None
        if paused is not None:
            self.pausedJobFound.emit(paused)

    def _unexpected(self, error: BaseException) -> None:
        self.errorOccurred.emit(f"Something went wrong in the playground ({type(error).__name__}: {error}). "
                                "See the log for details.")
