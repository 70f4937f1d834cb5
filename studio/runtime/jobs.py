"""The job lifecycle every capability shares: one job at a time per runtime, a lease on it in the project file,
cancel with a grace period, budgets enforced during a step, failures recorded, progress and partial results.

A capability hands the runner a JobWork: `run(control)` does the job and settles it (completed, paused, ...), and
`record_end(job_id, status, message)` records an end the runner had to force (cancelled mid-step, out of budget,
failed). The job itself only looks at its JobControl: `cancel_requested`, `claim(job_id)`, `watch(budget)`,
`report(...)` and `partial(...)` (in the spirit of Orange3's TaskState).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from studio.browser.errors import BrowserError, first_line
from studio.llm.budget import Budget
from studio.store.leases import JobLocked, Lease
from studio.store.project import ProjectFile

log = logging.getLogger(__name__)

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

CANCEL_GRACE_S = 15.0  # a job stops at its next checkpoint; after this its task is cancelled mid-step
BUDGET_GRACE_S = 1.0  # a job past its budget may still end itself cleanly for this long
WATCH_INTERVAL_S = 0.25
HEARTBEAT_S = 5.0


class JobBusy(Exception):
    """Another job runs in this runtime; the front end asks the tester before cancelling it."""


class JobWork(Protocol[T_co]):
    """A capability's job, as the runner drives it."""

    label: str  # for sentences: "Preflight", "New test cases"

    @property
    def job_id(self) -> str | None:
        """The job's id when it is known before running (a resumed job), else None."""

    async def run(self, control: JobControl) -> T_co:
        """Do the job and settle it; call control.claim(job_id) before marking a new job as running."""

    def record_end(self, job_id: str, status: str, message: str) -> T_co | None:
        """Record an end the runner forced (status cancelled, budget_exhausted, failed) and return the record."""


@dataclass
class JobProgress:
    """How far the running job is: a fraction (None when unknown) and a sentence."""

    fraction: float | None = None
    message: str = ""


class JobControl:
    """What a running job sees of its runner."""

    def __init__(self, runner: JobRunner) -> None:
        self._runner = runner
        self.job_id: str | None = None
        self.cancel_requested = False
        self.budget: Budget | None = None
        self.progress = JobProgress()
        self.partial_result: Any = None

    def claim(self, job_id: str) -> None:
        """Take the job's lease in the project file; raises JobLocked when another process runs it."""
        self._runner._claim(self, job_id)

    def watch(self, budget: Budget) -> None:
        """Enforce `budget` from now on, also while a step runs (a stuck page cannot outlast it)."""
        self.budget = budget

    def report(self, message: str, fraction: float | None = None) -> None:
        self.progress = JobProgress(fraction, message)
        self._runner._notify("progress", self.progress)

    def partial(self, result: Any) -> None:
        """Results found so far, for front ends that show them before the job ends."""
        self.partial_result = result
        self._runner._notify("partial", result)


Listener = Callable[[str, Any], None]


class JobRunner(Generic[T]):
    """Runs one job at a time; the job's lease lives in the project `project()` returns."""

    def __init__(self, project: Callable[[], ProjectFile | None], grace_s: float = CANCEL_GRACE_S) -> None:
        self._project = project
        self.grace_s = grace_s
        self.control: JobControl | None = None
        self.label: str | None = None  # the running job's, for sentences ("Preflight is still running")
        self._task: asyncio.Task[T] | None = None
        self._forced: tuple[str, str] | None = None  # (status, message) of an end the runner forces
        self._lease: Lease | None = None
        self._listeners: list[Listener] = []
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def running(self) -> bool:
        return self._task is not None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """`listener(kind, value)` for "progress" (JobProgress) and "partial" (a result so far)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    async def run(self, work: JobWork[T]) -> T | None:
        """Run `work` to its end and return its record; raises JobBusy or JobLocked before anything ran."""
        if self._task is not None:
            raise JobBusy(f"{work.label} cannot start while another job runs; cancel that one first.")
        control = JobControl(self)
        if work.job_id is not None:
            self._claim(control, work.job_id)  # before anything changes: a second process is refused here
        self.control, self.label, self._forced = control, work.label, None
        self._idle.clear()
        task = self._task = asyncio.get_running_loop().create_task(work.run(control), name=f"job {work.label}")
        watchdog = asyncio.get_running_loop().create_task(self._watch(control, task), name="job watchdog")
        try:
            return await self._outcome(work, control, task)
        finally:
            watchdog.cancel()
            await asyncio.gather(watchdog, return_exceptions=True)
            self._release()
            self._task = None
            self.control = None
            self.label = None
            self._idle.set()

    async def cancel(self, grace_s: float | None = None) -> None:
        """Ask the running job to stop; after the grace period its task is cancelled mid-step."""
        task, control = self._task, self.control
        if task is None or control is None or task.done():
            return
        control.cancel_requested = True
        done, _ = await asyncio.wait({task}, timeout=self.grace_s if grace_s is None else grace_s)
        if not done:
            self._force(task, "cancelled", "Cancelled by the tester; the job was stopped mid-step. What was found so "
                                           "far is kept.")
            await asyncio.gather(task, return_exceptions=True)
        await self._idle.wait()  # the job's end is recorded and its lease released before anything new starts

    # -- internals -------------------------------------------------------------------------------

    async def _outcome(self, work: JobWork[T], control: JobControl, task: asyncio.Task[T]) -> T | None:
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                # The caller was cancelled (Ctrl+C, SIGTERM, the window closing): stop the job with it.
                self._force(task, "cancelled", "Stopped before it finished (the studio or the command was "
                                               "stopped); what was found so far is kept.")
                await asyncio.gather(task, return_exceptions=True)
                self._end(work, control)
                raise
            if self._forced is None:
                raise  # cancelled from outside the runner without a reason: not ours to record
            return self._end(work, control)
        except (JobLocked, JobBusy):
            raise
        except BrowserError as error:
            self._forced = ("failed", f"The browser stopped the job: {error}")
        except Exception as error:  # an engine bug must not take the front end down; the log has the trace
            log.exception("%s failed", work.label)
            self._forced = ("failed", f"The job failed unexpectedly ({type(error).__name__}: {first_line(error)}). "
                                      "What it found so far is kept in the project; see the log for details, then "
                                      "start the job again.")
        return self._end(work, control)

    def _end(self, work: JobWork[T], control: JobControl) -> T | None:
        status, message = self._forced or ("failed", "The job ended without a result.")
        if control.job_id is None:
            log.warning("%s ended (%s) before it had an id: %s", work.label, status, message)
            return None
        return work.record_end(control.job_id, status, message)

    def _force(self, task: asyncio.Task[Any], status: str, message: str) -> None:
        if self._forced is None:
            self._forced = (status, message)
        task.cancel()

    async def _watch(self, control: JobControl, task: asyncio.Task[Any]) -> None:
        """Enforce the budget during steps and keep the lease fresh, until the job ends."""
        loop = asyncio.get_running_loop()
        over_since: float | None = None
        next_beat = loop.time() + HEARTBEAT_S
        while not task.done():
            await asyncio.sleep(WATCH_INTERVAL_S)
            budget = control.budget
            kind = budget.exhausted() if budget is not None else None
            if kind is None:
                over_since = None
            elif over_since is None:
                over_since = loop.time()
            elif loop.time() - over_since >= BUDGET_GRACE_S and not task.done():
                assert budget is not None
                self._force(task, "budget_exhausted", budget.sentence(kind))
                return
            if loop.time() >= next_beat:
                next_beat = loop.time() + HEARTBEAT_S
                self._heartbeat()

    def _claim(self, control: JobControl, job_id: str) -> None:
        if control.job_id == job_id and self._lease is not None:
            return
        project = self._project()
        if project is not None:
            lease = project.leases.acquire(job_id)
            self._release()
            self._lease = lease
        control.job_id = job_id

    def _heartbeat(self) -> None:
        project, lease = self._project(), self._lease
        if project is None or lease is None:
            return
        try:
            if not project.leases.renew(lease):
                log.warning("The lease on job %s was taken over by another process.", lease.job_id)
        except Exception:  # a busy or vanished file must not stop the job; the next beat tries again
            log.warning("Could not renew the lease on job %s", lease.job_id, exc_info=True)

    def _release(self) -> None:
        project, lease, self._lease = self._project(), self._lease, None
        if project is None or lease is None or project.closed:
            return
        try:
            project.leases.release(lease)
        except Exception:
            log.warning("Could not release the lease on job %s", lease.job_id, exc_info=True)

    def _notify(self, kind: str, value: Any) -> None:
        for listener in list(self._listeners):
            try:
                listener(kind, value)
            except Exception:
                log.exception("job listener failed")
