"""A pilot session as a job of the shared runtime (the studio's Pilot workspace): the JobRunner runs it like any
capability's job (one at a time, a lease in the project file), and Cancel ends the session cleanly — status DONE
and report.json written — instead of cutting it mid-action."""

from __future__ import annotations

import asyncio

from studio.pilot.session import PilotReport, PilotSession
from studio.runtime.jobs import JobControl

CANCEL_POLL_S = 0.1


class PilotJob:
    """JobWork running `session` until it ends (done, max steps, stop() or the tester's Cancel)."""

    label = "Pilot session"

    def __init__(self, session: PilotSession) -> None:
        self.session = session

    @property
    def job_id(self) -> str | None:
        return None

    async def run(self, control: JobControl) -> PilotReport:
        control.claim(f"pilot-{self.session.folder.name}")
        control.report(f"Pilot session in {self.session.folder}", None)
        watcher = asyncio.get_running_loop().create_task(self._stop_when_cancelled(control))
        try:
            return await self.session.run()
        finally:
            watcher.cancel()

    async def _stop_when_cancelled(self, control: JobControl) -> None:
        while not control.cancel_requested:
            await asyncio.sleep(CANCEL_POLL_S)
        self.session.stop()

    def record_end(self, job_id: str, status: str, message: str) -> PilotReport | None:
        """The runner stopped the session mid-action: what was written stays in the folder; say why."""
        return self.session.report
