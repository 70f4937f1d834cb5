"""PROOF that the cases the playground writes are tests: on a fixture app the studio was never written against, New
Suite writes its cases from a preflight that tried the app; the cases are exported as pytest-playwright tests and run
as their user runs them, against the healthy app (every test must pass) and against the app with each seeded fault
(some test must fail). The kill rate (faults caught / faults exercised) is printed and must reach 90 %."""

from __future__ import annotations

from pathlib import Path

import pytest
from exported_runs import kill_matrix

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.export.cases import export_cases
from studio.models.context import Answer
from studio.models.testcase import TestCase
from studio.playground import Playground
from studio.store.project import ProjectFile
from tests.apps.base import FaultyApp
from tests.apps.list_app import ListApp

pytestmark = [pytest.mark.browser, pytest.mark.slow]


async def written_cases(app: FaultyApp, project_path: Path) -> list[TestCase]:
    """New Suite on the app, every proposed module chosen: the cases it wrote."""
    project = ProjectFile.open_or_create(project_path)
    session = BrowserSession(EventBus())
    await session.start()
    try:
        playground = Playground(session, project)
        job = await playground.start("new_testsuite", app.base_url + "/")
        while job.status == "paused":
            assert [q.key for q in job.pending] == ["suites"], job.pending
            job = await playground.resume(job, [Answer(key="suites", value="All")])
        assert job.status == "completed", job.message
        return project.cases.cases()
    finally:
        await session.close()
        project.close()


def kill_rate(name: str, results: dict[str | None, tuple[int, str]]) -> float:
    code, output = results[None]
    assert code == 0, f"the {name} cases fail on the healthy app:\n{output[-5000:]}"
    faults = [fault for fault in results if fault is not None]
    for fault in faults:
        assert results[fault][0] in (0, 1), f"{fault}: the run crashed:\n{results[fault][1][-2000:]}"
    caught = [fault for fault in faults if results[fault][0] == 1]
    rate = len(caught) / len(faults)
    print(f"\n{name} (generated cases): caught {len(caught)} of {len(faults)} faults ({rate:.0%}); missed "
          f"{sorted(set(faults) - set(caught)) or 'none'}")
    return rate


@pytest.mark.timeout(1200)
async def test_the_cases_written_for_the_list_app_catch_its_faults(tmp_path, browser_info):
    with ListApp() as app:
        cases = await written_cases(app, tmp_path / "list.studio")
        assert len(cases) >= 8, [case.title for case in cases]
        export_cases(cases, lambda _case: app.base_url + "/", "python", tmp_path / "out")
        # Ten runs at once: a run spends its time waiting out the checks that fail, not on the CPU.
        results = await kill_matrix(ListApp, tmp_path / "out", browser_info.path, app, parallel=10)
    assert kill_rate("list", results) >= 0.9
