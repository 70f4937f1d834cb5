"""What every playground agent works with: the finished preflight, the page catalogues, a budget, events."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field

from studio.llm.budget import Budget
from studio.llm.client import LanguageModel
from studio.models.catalog import PageCatalog
from studio.models.context import JobRecord
from studio.models.events import ItemProgress, MainJobStarted
from studio.models.testcase import TestCase
from studio.preflight.run import PreflightRun
from studio.runtime.jobs import JobControl


class Cancelled(Exception):
    """The tester cancelled the main job."""


@dataclass
class MainJob:
    """One agent run after its preflight: the job, its browser run (catalogues, visits) and the model if any."""

    run: PreflightRun
    model: LanguageModel | None = None
    cancelled: bool = False
    control: JobControl | None = None  # the runner's handle: its cancel request stops the job like `cancelled`
    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def job(self) -> JobRecord:
        return self.run.job

    @property
    def budget(self) -> Budget:
        return self.run.budget

    @property
    def catalogs(self) -> list[PageCatalog]:
        return list(self.run.catalogs.values())

    def check(self) -> None:
        """Between items: stop on cancel or when the budget is spent (both end the job cleanly)."""
        if self.cancelled or (self.control is not None and self.control.cancel_requested):
            raise Cancelled()
        self.budget.check()

    async def checkpoint(self) -> None:
        """`check`, after letting the event loop run (a Cancel click in the GUI is handled here)."""
        await asyncio.sleep(0)
        self.check()

    def started(self, total_items: int) -> None:
        """The seed's main_job_started, once the agent knows how many items it will report (a job resumed after a
        question is the same job: it is said once)."""
        if self.job.state.get("main_started_said"):
            return
        self.job.state["main_started_said"] = True
        self.run.session.publish(MainJobStarted(job_id=self.job.id, kind=self.job.kind, total_items=total_items))

    def item(self, item: str, index: int, total: int, status: str, message: str = "") -> None:
        self.run.session.publish(ItemProgress(job_id=self.job.id, item=item, index=index, total=total,
                                              status=status, message=message))


def new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def signature(case: TestCase) -> tuple:
    """What a case does, independent of its wording: the same steps under the same preconditions.

    Steps alone are not enough: a happy path and "the server fails on submit" share their steps.
    """
    steps = tuple((s.action, s.locator.python() if s.locator else (s.url or ""), s.data or "") for s in case.steps)
    return steps, tuple(sorted(p.strip().lower() for p in case.preconditions))


def _title(case: TestCase) -> str:
    return " ".join(case.title.lower().split())


def duplicate_of(case: TestCase, existing: list[TestCase]) -> TestCase | None:
    """An existing case doing the same thing, or carrying the same title (fuzzy titles would merge
    "step 1 … refused" with "step 2 … refused")."""
    mine, title = signature(case), _title(case)
    return next((other for other in existing if signature(other) == mine or _title(other) == title), None)
