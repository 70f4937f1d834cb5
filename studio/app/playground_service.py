"""PlaygroundService: preflight and the playground agents (seed 000) for the GUI — start, answer, skip, cancel,
keep waiting, resume, discard.

The engine runs on the live browser session and the open project through the runtime's JobRunner (see
JobService). While a job waits for answers nothing runs: the job is paused in the project file and the service
waits for answer() or skip(), so the question dialog never blocks the event loop. The seed's events are forwarded
as `progress`, and the job is re-read from the project (at most four times a second) so the context panel follows
it live. Starting a job while another runs or waits asks the tester first (make_room): the other one is cancelled,
kept waiting (a running one stops at its next step and is kept `interrupted`, to be resumed), or the new one does
not start; `open_jobs` lists every job still to be resumed, answered or discarded.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from studio.app.browser_service import BrowserService
from studio.app.job_service import CANCEL_OTHER, KEEP_WAITING, JobConflict, JobService
from studio.app.project_service import ProjectService
from studio.browser.session import BrowserSession
from studio.models.catalog import PageCatalog
from studio.models.context import SKIPPED, Answer, JobKind, JobRecord
from studio.models.events import JobEvent, PreflightStarted
from studio.playground import KIND_NAMES, Playground, PlaygroundJob
from studio.playground.outcomes import JOB_NAMES, job_title
from studio.runtime import JobWork

log = logging.getLogger(__name__)

__all__ = ["JOB_NAMES", "KIND_NAMES", "PlaygroundService", "job_title"]

OPEN_STATUSES = ("running", "paused", "interrupted")  # a job still to be resumed, answered or discarded
KEPT_WAITING = "Kept waiting by the tester while {new} ran; resume it to go on from where it stopped, or discard it."


class PlaygroundService(JobService):
    """The GUI's handle on preflight and playground jobs."""

    jobChanged = Signal(object)  # JobRecord: the job shown, live while it runs
    jobsChanged = Signal()  # a job started, paused, ended, was kept waiting or discarded: open_jobs() changed
    questionsAsked = Signal(object)  # JobRecord paused with ≤2 pending questions
    progress = Signal(object)  # a seed event (preflight_*, main_job_*, item_progress)
    finished = Signal(object)  # JobRecord that ended: completed, cancelled, failed or budget_exhausted
    jobKept = Signal(object)  # JobRecord stopped at its next step and kept waiting (interrupted) for a new job
    stopping = Signal(str, bool)  # (job title, kept): a running job was asked to stop so that another can start
    pausedJobFound = Signal(object)  # JobRecord paused in a project that was just opened
    interruptedJobFound = Signal(object)  # JobRecord whose process went away while it ran

    def __init__(self, browser: BrowserService, project: ProjectService, parent: QObject | None = None) -> None:
        super().__init__(browser.runtime, parent)
        self.browser = browser
        self.project = project
        self.job: JobRecord | None = None
        self.title: str | None = None  # the job this service runs now, in words ("New Cases for “reports”")
        self.engine: Playground | None = None
        self._engine_session: BrowserSession | None = None
        self._live_job_id: str | None = None
        self._held: dict[str, str] = {}  # job id -> the title of the job it is kept waiting for
        self._refresh = QTimer(self, singleShot=True, interval=250)
        self._refresh.timeout.connect(self._reload_live_job)
        self._unsubscribe_events = self.runtime.bus.subscribe(self._on_event, JobEvent)
        self.runningChanged.connect(lambda _running: self.jobsChanged.emit())
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
        if not await self._make_room_for(kind, request):
            return None
        engine = await self._new_engine()
        if engine is None:
            return None
        self.title = job_title(kind, request)
        return await self.run_job(PlaygroundJob(engine, kind, url or None, request, case_ids or None), room_made=True)

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
        if not await self._make_room_for(job.kind, job.request, resuming=job.id):
            return None
        engine = self.engine
        if engine is None or self._engine_session is not self.browser.session or not self.browser.alive:
            engine = await self._new_engine()  # after a restart: a new browser signs in again
            if engine is None:
                return None
        self.title = job_title(job.kind, job.request)
        return await self.run_job(PlaygroundJob(engine, job.kind, resume=job, answers=answers), room_made=True)

    def resume_interrupted(self, job: JobRecord) -> None:
        """Go on with a job whose process stopped while it ran (or that was kept waiting), from where it was last
        saved."""
        self.answer(job.id, [])

    def resume(self, job: JobRecord) -> None:
        """Go on with a job of the job list: a paused one asks its questions again, an interrupted one runs on."""
        stored = self._stored(job.id) or job
        if stored.status == "paused":
            self.resume_paused(stored)
        elif stored.status == "interrupted":
            self.resume_interrupted(stored)
        else:
            self.errorOccurred.emit(f"{job_title(stored.kind, stored.request)} is no longer waiting; start a new job "
                                    "from the Playground bar.")

    def discard(self, job: JobRecord) -> None:
        """Close an interrupted (or paused) job for good; what it found is kept."""
        if self.running and self.runtime.jobs.control is not None and self.runtime.jobs.control.job_id == job.id:
            self.cancel()
            return
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

    def open_jobs(self) -> list[JobRecord]:
        """The project's jobs that are running, wait for answers, or wait to be resumed; oldest first."""
        project = self.project.project
        if project is None:
            return []
        jobs = [job for status in OPEN_STATUSES for job in project.jobs.all(status=status)]
        return sorted(jobs, key=lambda job: job.created_at)

    def is_running(self, job_id: str) -> bool:
        """Whether `job_id` is the job running in this studio now."""
        control = self.runtime.jobs.control
        return self.running and control is not None and control.job_id == job_id

    def case_titles(self, case_ids: list[str]) -> dict[str, str]:
        """Case id -> title, for the cases of `case_ids` still in the project."""
        project = self.project.project
        if project is None or not case_ids:
            return {}
        wanted = set(case_ids)
        return {case.id: case.title for case in project.cases.cases() if case.id in wanted}

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
        return session.url if session is not None and self.browser.alive else ""

    async def shutdown(self) -> None:
        self._unsubscribe_events()
        self._refresh.stop()
        await super().shutdown()

    # -- another job in the way ------------------------------------------------------------------------

    async def make_room(self, work: JobWork[Any]) -> bool:
        kind = getattr(work, "kind", "preflight")
        return await self._make_room_for(kind, getattr(work, "request", ""), resuming=work.job_id)

    async def _make_room_for(self, kind: str, request: str, resuming: str | None = None) -> bool:
        """Ask the tester before a job starts (or `resuming` goes on) while another job runs or waits; do what they
        chose. A job resumed from the list does not ask about the other waiting ones: that is the tester's pick."""
        control = self.runtime.jobs.control
        running_id = control.job_id if self.running and control is not None else None
        running = self._stored(running_id)
        # A job saved as running that is not ours may be another process's: never closed from here.
        waiting = [job for job in self.open_jobs() if job.status != "running"] if resuming is None else []
        if not self.runtime.jobs.running and not waiting:
            return True
        new = job_title(kind, request)
        running_title = (job_title(running.kind, running.request) if running is not None
                         else self.runtime.jobs.label if self.runtime.jobs.running else None)
        conflict = JobConflict(new=new, running=running_title,
                               waiting=tuple(job_title(job.kind, job.request) for job in waiting),
                               can_keep_running=running_id is not None)
        choice = await self.ask(conflict)
        if choice is None:
            return False
        if running_title is not None:  # the question was about the running job (the waiting ones stay as they are)
            if self.runtime.jobs.running:
                if choice == KEEP_WAITING and running_id is not None:
                    self._held[running_id] = new
                self.stopping.emit(running_title, choice == KEEP_WAITING)
                return await self.stop_running()
            ended = self._stored(running_id)  # it paused (or ended) while the tester read the question
            if choice == CANCEL_OTHER and ended is not None and ended.status in ("paused", "interrupted"):
                self._close(ended, f"Cancelled by the tester when {new} started; what it found so far is kept.")
            return True
        if choice == CANCEL_OTHER:
            for job in waiting:
                self._close(job, f"Cancelled by the tester when {new} started; what it found so far is kept.")
        return True

    def _keep_waiting(self, job: JobRecord, new: str) -> JobRecord:
        """A job stopped for `new`: kept resumable (interrupted) instead of cancelled, without the cancel's words."""
        cancelled = ("Cancelled by the tester", "Stopped before it finished")
        context = job.context.model_copy(deep=True)
        context.evidence.notes = [note for note in context.evidence.notes if not note.startswith(cancelled)]
        result = dict(job.result)
        if str(result.get("summary", "")).startswith(cancelled):
            result.pop("summary")
        kept = job.model_copy(update={"status": "interrupted", "pending": [], "context": context, "result": result,
                                      "message": KEPT_WAITING.format(new=new)})
        return self.project.project.jobs.save(kept) if self.project.project is not None else kept

    def set_try_forms(self, allowed: bool) -> None:
        """Whether the next preflights may send the app's forms with sample data (writes reach the app)."""
        self.runtime.try_forms = allowed
        if self.engine is not None:
            self.engine.preflight.try_forms = allowed

    # -- running -------------------------------------------------------------------------------------

    async def _new_engine(self) -> Playground | None:
        # The job works in the live browser, so the tester watches it; one is started when none runs.
        if not self.browser.alive and await self.browser.start(self.runtime.session_options(label="playground")) is None:
            return None
        self.engine = await Playground.on(self.runtime)
        self._engine_session = self.engine.session
        return self.engine

    def settle(self, record: JobRecord | None) -> JobRecord | None:
        job = record
        if job is None:
            self._reload_live_job()
            self.jobsChanged.emit()
            return None
        other_runs = self.running and not self.is_running(job.id)  # a waiting job discarded while another runs
        if not other_runs:
            self._refresh.stop()
        new = self._held.pop(job.id, None)
        if new is not None and job.status in ("cancelled", "interrupted"):
            job = self._keep_waiting(job, new)
            self._show(job)
            self.jobKept.emit(job)
        else:
            if not other_runs:
                self._show(job)  # Context keeps following the job that runs
            if job.status == "paused":
                self.questionsAsked.emit(job)
            elif job.status != "running":
                self.finished.emit(job)
        self.jobsChanged.emit()
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
        self.settle(job)

    def _stored(self, job_id: str | None) -> JobRecord | None:
        if job_id is None or self.project.project is None:
            return None
        return self.project.project.jobs.get(job_id)

    # -- engine → Qt ------------------------------------------------------------------------------------

    def _on_event(self, event: JobEvent) -> None:
        if isinstance(event, PreflightStarted):
            self._live_job_id = event.job_id
            QTimer.singleShot(0, self.jobsChanged.emit)  # the job saves itself right after saying it started
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
        self._held.clear()
        project = self.project.project
        self.jobsChanged.emit()
        if project is None:
            return
        for job in project.jobs.sweep_interrupted():
            self.interruptedJobFound.emit(job)
        jobs = project.jobs.all()
        if jobs:
            self.jobChanged.emit(jobs[-1])  # Context shows what the latest job found (its findings, its outcome)
        paused = project.jobs.latest_paused()
        if paused is not None:
            self.pausedJobFound.emit(paused)
