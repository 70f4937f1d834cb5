"""JobService: the Qt face of a capability's jobs on the shared EngineRuntime — run one (asking before it replaces
another), cancel it, and re-emit its progress, partial results and errors as signals.

A capability's service subclasses it and only says how to build its JobWork, what its records mean and which of its
jobs wait to be resumed; the lifecycle (one job at a time, leases, cancel grace, budgets, failures) is the engine's
JobRunner. No job is ever replaced without the tester's word: starting one while another runs (or waits) asks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Literal

from PySide6.QtCore import QObject, Signal

from studio.app.tasks import TaskOwner
from studio.runtime import EngineRuntime, JobBusy, JobWork
from studio.store.leases import JobLocked

log = logging.getLogger(__name__)

CANCEL_OTHER: Literal["cancel"] = "cancel"  # cancel the running job (or close the waiting ones), then start
KEEP_WAITING: Literal["keep"] = "keep"  # keep the other job resumable (a running one stops at its next step)
ConflictChoice = Literal["cancel", "keep"] | None  # None: don't start the new job


@dataclass(frozen=True)
class JobConflict:
    """A job about to start while another runs or waits, in the words the tester reads."""

    new: str  # "New Cases for “reports”"
    running: str | None = None  # "New Suite for “Disputes”" when one runs
    waiting: tuple[str, ...] = ()  # jobs waiting for answers or to be resumed
    can_keep_running: bool = False  # whether the running job can stop at its next step and wait to be resumed


ConflictQuestion = Callable[[JobConflict], Awaitable[ConflictChoice]]


class JobService(QObject):
    """Runs JobWork on the runtime's JobRunner; every task it starts has an owner."""

    runningChanged = Signal(bool)
    progressChanged = Signal(object)  # JobProgress of the running job
    partialResult = Signal(object)
    errorOccurred = Signal(str)
    notice = Signal(str)  # a sentence about what the tester chose (a job not started, one kept waiting)

    def __init__(self, runtime: EngineRuntime, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runtime = runtime
        self.ask_conflict: ConflictQuestion | None = None  # set by the window; without it nothing is replaced
        self._mine = False  # whether the runner's current job was started by this service
        self._ended: asyncio.Event | None = None  # set once the current run is settled (its record shown)
        self._tasks = TaskOwner(on_error=self._unexpected)
        self._unsubscribe = runtime.jobs.subscribe(self._on_runner)

    @property
    def running(self) -> bool:
        """Whether a job this service started runs now."""
        return self._mine and self.runtime.jobs.running

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        self._tasks.spawn(work, name=name)

    async def run_job(self, work: JobWork[Any], room_made: bool = False) -> Any:
        """Run `work` to its end and return `settle(record)`; another job is cancelled or kept waiting only when the
        tester says so (`room_made`: the caller asked already). None when it did not run (the sentence went to
        errorOccurred or notice)."""
        if not room_made and not await self.make_room(work):
            return None
        ended = self._ended = asyncio.Event()
        record = None
        try:
            self._mine = True
            self.runningChanged.emit(True)
            try:
                record = await self.runtime.jobs.run(work)
            except (JobLocked, JobBusy) as error:
                self.errorOccurred.emit(str(error))
            finally:
                self._mine = False
                self.runningChanged.emit(False)
            return self.settle(record)
        finally:
            ended.set()

    def settle(self, record: Any) -> Any:
        """What a capability does with a job's end record before run_job returns it (show it, say it)."""
        return record

    async def make_room(self, work: JobWork[Any]) -> bool:
        """Whether `work` may start now. Here only a running job stands in the way, and it can be cancelled (a
        capability whose jobs can wait says more: see PlaygroundService)."""
        if not self.runtime.jobs.running:
            return True
        conflict = JobConflict(new=work.label, running=self.runtime.jobs.label or "Another job")
        choice = await self.ask(conflict)
        if choice == CANCEL_OTHER:
            return await self.stop_running()
        return False

    async def ask(self, conflict: JobConflict) -> ConflictChoice:
        """The tester's choice about `conflict`; None (don't start) also says so."""
        choice = await self.ask_conflict(conflict) if self.ask_conflict is not None else None
        if choice is None:
            other = conflict.running or (conflict.waiting[0] if conflict.waiting else "Another job")
            verb = "still runs" if conflict.running else "waits"
            self.notice.emit(f"{conflict.new} did not start; {other} {verb}.")
        return choice

    async def stop_running(self) -> bool:
        """Stop the running job (at its next step; mid-step after the runner's grace) and wait until its end is
        recorded and shown; True when nothing runs any more."""
        ended = self._ended
        await self.runtime.jobs.cancel()
        if ended is not None:
            await ended.wait()
        return not self.runtime.jobs.running

    async def cancel_running(self) -> None:
        """Ask the running job to stop; it is stopped mid-step after the runner's grace period."""
        await self.runtime.jobs.cancel()

    async def shutdown(self) -> None:
        self._unsubscribe()
        if self.running:
            await self.runtime.jobs.cancel(grace_s=2.0)
        await self._tasks.cancel_all()

    # -- internals -----------------------------------------------------------------------------------

    def _on_runner(self, kind: str, value: Any) -> None:
        if not self._mine:
            return
        if kind == "progress":
            self.progressChanged.emit(value)
        elif kind == "partial":
            self.partialResult.emit(value)

    def _unexpected(self, error: BaseException) -> None:
        self.errorOccurred.emit(f"Something went wrong ({type(error).__name__}: {error}). See the log for details.")
