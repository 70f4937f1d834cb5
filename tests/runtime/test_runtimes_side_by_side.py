"""Several engine runtimes in one process, each with its own bus and browser, recording into one project: two
preflights run at the same time and both complete, each job under its own lease (the scenario runner's --parallel
builds on this)."""

from __future__ import annotations

import asyncio

from studio.models.context import Answer
from studio.models.events import JobEvent, PreflightCompleted
from studio.playground import Playground, PlaygroundJob
from studio.runtime import EngineRuntime
from studio.settings import StudioSettings
from studio.store.project import ProjectFile
from tests.preflight.fixture_app import FixtureApp


async def test_two_runtimes_run_their_jobs_side_by_side(tmp_path, browser_info):
    with FixtureApp() as app, ProjectFile.create(tmp_path / "p.studio") as project:
        runtimes = [EngineRuntime(StudioSettings(), project) for _ in range(2)]
        seen: list[list[JobEvent]] = [[], []]
        for runtime, events in zip(runtimes, seen):
            runtime.bus.subscribe(events.append, JobEvent)

        async def preflight(runtime: EngineRuntime, request: str):
            await runtime.start_browser()
            held = []
            runtime.jobs.subscribe(lambda kind, _value: held.append(project.leases.holder(runtime.jobs.control.job_id)
                                                                     if runtime.jobs.control.job_id else None))
            playground = await Playground.on(runtime)
            job = await runtime.jobs.run(PlaygroundJob(playground, "preflight", app.base_url, request=request))
            assert job is not None and [q.key for q in job.pending] == ["tenant"]  # the app's workspace switcher
            job = await runtime.jobs.run(PlaygroundJob(playground, "preflight", resume=job,
                                                       answers=[Answer(key="tenant", value="Globex")]))
            return job, held

        try:
            (first, held_first), (second, held_second) = await asyncio.gather(
                preflight(runtimes[0], "transfers"), preflight(runtimes[1], "team"))
        finally:
            await asyncio.gather(*(runtime.aclose() for runtime in runtimes))
        assert first.status == second.status == "completed" and first.id != second.id
        assert any(held_first) and any(held_second)  # each held its own job's lease while it ran
        assert {e.job_id for e in seen[0]} == {first.id} and {e.job_id for e in seen[1]} == {second.id}
        assert all(isinstance(events[-1], PreflightCompleted) for events in seen)
        stored = {job.id: job.status for job in project.jobs.all()}
        assert stored == {first.id: "completed", second.id: "completed"}
        assert project.jobs.events(first.id)[-1]["type"] == "preflight_completed"
        assert project.leases.holder(first.id) is None and project.leases.holder(second.id) is None
