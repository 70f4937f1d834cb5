"""The job lifecycle on its own: one job at a time, leases in a real project file, cancel with a grace period,
budgets enforced while a step hangs, failures recorded, and a cancelled caller taking its job down with it."""

from __future__ import annotations

import asyncio

import pytest

from studio.browser.errors import BrowserError
from studio.llm.budget import Budget
from studio.models.llm import JobBudget
from studio.runtime import JobBusy, JobControl, JobRunner
from studio.store.leases import JobLocked
from studio.store.project import ProjectFile


class Work:
    """A job that claims its id, then does `body(control)`; ends forced by the runner are kept in `ended`."""

    label = "Test job"

    def __init__(self, body, job_id: str = "job-1", known: bool = False) -> None:
        self.body, self.id, self.known = body, job_id, known
        self.ended: list[tuple[str, str]] = []

    @property
    def job_id(self) -> str | None:
        return self.id if self.known else None

    async def run(self, control: JobControl) -> str:
        control.claim(self.id)
        return await self.body(control)

    def record_end(self, job_id: str, status: str, message: str) -> str:
        self.ended.append((status, message))
        return status


@pytest.fixture
def project(tmp_path):
    with ProjectFile.create(tmp_path / "p.studio") as opened:
        yield opened


async def test_a_job_runs_to_its_own_end_and_releases_its_lease(project):
    runner = JobRunner(lambda: project)

    async def body(control):
        assert project.leases.holder("job-1") is not None
        control.report("half way", 0.5)
        return "completed"

    seen = []
    runner.subscribe(lambda kind, value: seen.append((kind, value.message)))
    assert await runner.run(Work(body)) == "completed"
    assert project.leases.holder("job-1") is None and not runner.running
    assert seen == [("progress", "half way")]


async def test_only_one_job_runs_at_a_time(project):
    runner = JobRunner(lambda: project)
    release = asyncio.Event()

    async def body(control):
        await release.wait()
        return "completed"

    first = asyncio.create_task(runner.run(Work(body)))
    await asyncio.sleep(0.05)
    with pytest.raises(JobBusy):
        await runner.run(Work(body, job_id="job-2"))
    release.set()
    assert await first == "completed"


async def test_a_job_held_by_another_connection_is_refused_before_it_runs(project, tmp_path):
    ran = []

    async def body(control):
        ran.append(True)
        return "completed"

    with ProjectFile.open(tmp_path / "p.studio") as other:
        lease = other.leases.acquire("job-1")  # same process here, so make it look like someone else's
        other.db.execute("UPDATE job_leases SET pid = 1 WHERE job_id = 'job-1'")
        other.db.conn.commit()
        with pytest.raises(JobLocked) as locked:
            await JobRunner(lambda: project).run(Work(body, known=True))
        assert "is running in another process (pid 1" in str(locked.value)
        assert not ran
        other.leases.release(lease)


async def test_cancel_stops_a_cooperative_job_and_forces_a_stuck_one_after_the_grace(project):
    runner = JobRunner(lambda: project, grace_s=0.3)

    async def polite(control):
        while not control.cancel_requested:
            await asyncio.sleep(0.01)
        return "cancelled"

    task = asyncio.create_task(runner.run(Work(polite)))
    await asyncio.sleep(0.05)
    await runner.cancel()
    assert await task == "cancelled"

    async def stuck(control):
        await asyncio.Event().wait()

    work = Work(stuck)
    task = asyncio.create_task(runner.run(work))
    await asyncio.sleep(0.05)
    await runner.cancel()
    assert await task == "cancelled"
    assert work.ended[0][0] == "cancelled" and "stopped mid-step" in work.ended[0][1]
    assert project.leases.holder("job-1") is None


async def test_a_budget_ends_a_step_that_hangs(project):
    budget = Budget(JobBudget(max_seconds=0.3))

    async def hangs(control):
        control.watch(budget)
        await asyncio.Event().wait()

    work = Work(hangs)
    assert await asyncio.wait_for(JobRunner(lambda: project).run(work), 5) == "budget_exhausted"
    assert "time budget of 0.3 seconds" in work.ended[0][1]


async def test_failures_are_recorded_as_sentences(project):
    async def browser_gone(control):
        raise BrowserError("The browser stopped unexpectedly.")

    async def bug(control):
        raise KeyError("oops")

    for body, expected in ((browser_gone, "The browser stopped the job: The browser stopped unexpectedly."),
                           (bug, "The job failed unexpectedly (KeyError: 'oops')")):
        work = Work(body)
        assert await JobRunner(lambda: project).run(work) == "failed"
        assert work.ended[0][1].startswith(expected)


async def test_a_cancelled_caller_records_its_job_as_cancelled(project):
    async def long(control):
        await asyncio.sleep(30)

    work = Work(long)
    task = asyncio.create_task(JobRunner(lambda: project).run(work))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert work.ended == [("cancelled", work.ended[0][1])] and "stopped" in work.ended[0][1]
    assert project.leases.holder("job-1") is None
