"""JobService: the Qt face of a capability's jobs on the shared EngineRuntime — run one (asking before another is
replaced), cancel it, and re-emit its progress, partial results and errors as signals.

A capability's service subclasses it and only says how to build its JobWork and what its records mean; the
lifecycle (one job at a time, leases, cancel grace, budgets, failures) is the engine's JobRunner.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from studio.app.tasks import TaskOwner
from studio.runtime import EngineRuntime, JobBusy, JobWork
from studio.store.leases import JobLocked

log = logging.getLogger(__name__)

# The front's question before a running job is replaced: (running label, new label) -> True to replace it.
ReplaceQuestion = Callable[[str, str], Awaitable[bool]]


class JobService(QObject):
    """Runs JobWork on the runtime's JobRunner; every task it starts has an owner."""

    runningChanged = Signal(bool)
    progressChanged = Signal(object)  # JobProgress of the running job
    partialResult = Signal(object)
    errorOccurred = Signal(str)

    def __init__(self, runtime: EngineRuntime, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runtime = runtime
        self.ask_replace: ReplaceQuestion | None = None  # set by the window; without it a running job is kept
        self._mine = False  # whether the runner's current job was started by this service
        self._tasks = TaskOwner(on_error=self._unexpected)
        self._unsubscribe = runtime.jobs.subscribe(self._on_runner)

    @property
    def running(self) -> bool:
        """Whether a job this service started runs now."""
        return self._mine and self.runtime.jobs.running

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        self._tasks.spawn(work, name=name)

    async def run_job(self, work: JobWork[Any]) -> Any:
        """Run `work` to its end; a job already running is replaced only when the tester agrees. None when it did
        not run (the sentence went to errorOccurred)."""
        if self.runtime.jobs.running and not await self._replace_running(work.label):
            return None
        self._mine = True
        self.runningChanged.emit(True)
        try:
            return await self.runtime.jobs.run(work)
        except (JobLocked, JobBusy) as error:
            self.errorOccurred.emit(str(error))
            return None
        finally:
            self._mine = False
            self.runningChanged.emit(False)

    async def cancel_running(self) -> None:
        """Ask the running job to stop; it is stopped mid-step after the runner's grace period."""
        await self.runtime.jobs.cancel()

    async def shutdown(self) -> None:
        self._unsubscribe()
        if self.running:
            await self.runtime.jobs.cancel(grace_s=2.0)
        await self._tasks.cancel_all()

    # -- internals -----------------------------------------------------------------------------------

    async def _replace_running(self, new_label: str) -> bool:
        running = self.runtime.jobs.label or "Another job"
        if self.ask_replace is None or not await self.ask_replace(running, new_label):
            self.errorOccurred.emit(f"{running} is still running, so {new_label} did not start. Cancel it first "
                                    "(Cancel Job), or wait until it ends.")
            return False
        await self.runtime.jobs.cancel()
        return not self.runtime.jobs.running

    def _on_runner(self, kind: str, value: Any) -> None:
        if not self._mine:
            return
        if kind == "progress":
            self.progressChanged.emit(value)
        elif kind == "partial":
            self.partialResult.emit(value)

    def _unexpected(self, error: BaseException) -> None:
        self.errorOccurred.emit(f"Something went wrong ({type(error).__name__}: {error}). See the log for details.")
