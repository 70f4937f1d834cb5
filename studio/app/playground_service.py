"""PlaygroundService: preflight and the playground agents (seed 000) for the GUI — start, answer, skip, cancel.

The engine runs on the live browser session and the open project through the runtime's JobRunner (see
JobService). While a job waits for answers nothing runs: the job is paused in the project file and the service
waits for answer() or skip(), so the question dialog never blocks the event loop. The seed's events are forwarded
as `progress`, and the job is re-read from the project (at most four times a second) so the context panel follows
it live.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, QTimer, Signal

from studio.app.browser_service import BrowserService
from studio.app.job_service import JobService
from studio.app.project_service import ProjectService
from studio.browser.session import BrowserSession
from studio.models.catalog import PageCatalog
from studio.models.context import SKIPPED, Answer, JobKind, JobRecord
from studio.models.events import JobEvent, PreflightStarted
from studio.playground import KIND_NAMES, Playground, PlaygroundJob

log = logging.getLogger(__name__)

__all__ = ["KIND_NAMES", "PlaygroundService"]


class PlaygroundService(JobService):
    """The GUI's handle on preflight and playground jobs."""

    jobChanged = Signal(object)  # JobRecord: the job shown, live while it runs
    questionsAsked = Signal(object)  # JobRecord paused with ≤2 pending questions
    progress = Signal(object)  # a seed event (preflight_*, main_job_*, item_progress)
    finished = Signal(object)  # JobRecord that ended: completed, cancelled, failed or budget_exhausted
    pausedJobFound = Signal(object)  # JobRecord paused in a project that was just opened
    interruptedJobFound = Signal(object)  # JobRecord whose process went away while it ran

    def __init__(self, browser: BrowserService, project: ProjectService, parent: QObject | None = None) -> None:
        super().__init__(browser.runtime, parent)
        self.browser = browser
        self.project = project
        self.job: JobRecord | None = None
        self.engine: Playground | None = None
        self._engine_session: BrowserSession | None = None
        self._live_job_id: str | None = None
        self._refresh = QTimer(self, singleShot=True, interval=250)
        self._refresh.timeout.connect(self._reload_live_job)
        self._unsubscribe_events = self.runtime.bus.subscribe(self._on_event, JobEvent)
        project.projectChanged.connect(self._on_project)

    # -- commands ----------------------------------------------------------------------------------

    def start(self, kind: JobKind, url: str | None, request: str = "", case_ids: list[str] | None = None) -> None:
        """Start a job; the outcome arrives as signals. For edit_test_case, no `case_ids` means the cases the
        preflight finds impacted by a change."""
        self.spawn(self.run_start(kind, url, request, case_ids), name=f"playground-{kind}")

    async def run_start(self, kind: JobKind, url: str | None, request: str = "",
                        case_ids: list[str] | None = None) -> JobRecord | None:
        if self.project.project is None:
            self.errorOccurred.emit("No project is open. Open or create one with File › New Project, then start again.")
            return None
        engine = await self._new_engine()
        if engine is None:
            return None
        return self._settle(await self.run_job(PlaygroundJob(engine, kind, url or None, request, case_ids or None)))

    def answer(self, job_id: str, answers: list[Answer]) -> None:
        """Resume a paused (or interrupted) job with the tester's answers."""
        self.spawn(self.run_answer(job_id, answers), name="playground-resume")

    def skip(self, job_id: str) -> None:
        """Skip every pending question: the engine decides without those answers (and does not ask them again)."""
        job = self._resumable(job_id)
        if job is not None:
            self.answer(job_id, [Answer(key=question.key, value=SKIPPED) for question in job.pending])

    async def run_answer(self, job_id: str, answers: list[Answer]) -> JobRecord | None:
        job = self._resumable(job_id)
        if job is None:
            return None
        engine = self.engine
        if engine is None or self._engine_session is not self.browser.session or not self.browser.alive:
            engine = await self._new_engine()  # after a restart: a new browser signs in again
            if engine is None:
                return None
        return self._settle(await self.run_job(PlaygroundJob(engine, job.kind, resume=job, answers=answers)))

    def resume_interrupted(self, job: JobRecord) -> None:
        """Go on with a job whose process stopped while it ran, from where it was last saved."""
        self._show(job)
        self.answer(job.id, [])

    def discard(self, job: JobRecord) -> None:
        """Close an interrupted (or paused) job for good; what it found is kept."""
        self._close(job, "Discarded by the tester; what it found so far is kept.")

    def cancel(self) -> None:
        """End the running job cleanly, or close a paused one; what was found so far is kept."""
        if self.running:
            self.spawn(self.cancel_running(), name="playground-cancel")
        elif self.job is not None and self.job.status in ("paused", "interrupted"):
            self._close(self.job, "Cancelled by the tester while it waited for answers; what was found so far is "
                                  "kept.")

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
        known = project.jobs.last_base_url() if project is not None else None
        if known:
            return known
        session = self.browser.session
        return session.page.url if session is not None and self.browser.alive else ""

    async def shutdown(self) -> None:
        self._unsubscribe_events()
        self._refresh.stop()
        await super().shutdown()

    # -- running -------------------------------------------------------------------------------------

    async def _new_engine(self) -> Playground | None:
        if not self.browser.alive:
            # The job works in the live browser, so the tester watches it; one is started when none runs.
            if await self.browser.start(self.runtime.session_options(label="playground")) is None:
                return None
        self.engine = await Playground.on(self.runtime)
        self._engine_session = self.engine.session
        return self.engine

    def _settle(self, job: JobRecord | None) -> JobRecord | None:
        if job is None:
            self._reload_live_job()
            return None
        self._refresh.stop()
        self._show(job)
        if job.status == "paused":
            self.questionsAsked.emit(job)
        elif job.status != "running":
            self.finished.emit(job)
        return job

    def _show(self, job: JobRecord) -> None:
        self.job = job
        self._live_job_id = job.id
        self.jobChanged.emit(job)

    def _resumable(self, job_id: str) -> JobRecord | None:
        job = self.job if self.job is not None and self.job.id == job_id else None
        if self.project.project is not None:
            job = self.project.project.jobs.get(job_id) or job
        if job is None or job.status not in ("paused", "interrupted"):
            self.errorOccurred.emit("That job is no longer waiting for answers; start a new one from the Playground menu.")
            return None
        return job

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

    def _on_event(self, event: JobEvent) -> None:
        if isinstance(event, PreflightStarted):
            self._live_job_id = event.job_id
        self.progress.emit(event)
        if event.job_id == self._live_job_id and not self._refresh.isActive():
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
        if project is None:
            return
        for job in project.jobs.sweep_interrupted():
            self.interruptedJobFound.emit(job)
        paused = project.jobs.latest_paused()
        if paused is not None:
            self.pausedJobFound.emit(paused)
