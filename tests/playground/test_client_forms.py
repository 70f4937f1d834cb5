"""A form that only checks its fields in the page (nothing goes to a server): New Suite writes the cases it saw the
form's checks make, and no template beside them that would check nothing (a "server error" no request ever meets,
"empty fields are refused" with nothing to see): each is said as not written, never exported as a skipped test."""

from __future__ import annotations

import pytest

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.models.context import Answer
from studio.playground import Playground
from studio.playground.new_cases import checks_anything
from studio.playground.templates import Draft
from studio.store.project import ProjectFile
from tests.apps.shapes import ShapeApps

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_draft_checks_something_only_with_an_outcome_an_expect_step_or_a_quoted_text():
    from studio.models.outcomes import PageErrorsOutcome
    from studio.models.testcase import CaseStep

    opened = CaseStep(action="navigate", url="/", target="the page")
    assert not checks_anything(Draft("t", "validation", [opened], ["Nothing is saved."]))
    assert checks_anything(Draft("t", "validation", [opened], ['It says "Username is required".']))
    assert checks_anything(Draft("t", "validation", [opened], ["It stays on /signup."]))
    assert checks_anything(Draft("t", "validation", [opened.model_copy(update={"outcomes": [
        PageErrorsOutcome(messages=[], why="")]})], []))


async def test_a_client_side_forms_cases_all_check_something(tmp_path, browser_info):
    bus = EventBus()
    events: list = []
    bus.subscribe(events.append)
    project = ProjectFile.open_or_create(tmp_path / "signup.studio")
    session = BrowserSession(bus)
    await session.start()
    try:
        with ShapeApps(("registration",)) as shapes:
            playground = Playground(session, project)
            job = await playground.start("new_testsuite", shapes.url("registration"))
            while job.status == "paused":
                job = await playground.resume(job, [Answer(key=q.key, value="All" if q.key == "suites" else "")
                                                    for q in job.pending])
        assert job.status == "completed", job.message
        cases = project.cases.cases()
        assert cases
        for case in cases:
            draft = Draft(case.title, case.gap_type, case.steps, case.expected_results)
            assert checks_anything(draft), case.title
        assert not [case for case in cases if "server error" in case.title]
        said = [getattr(e, "message", "") for e in events if getattr(e, "status", "") == "skipped"]
        assert any("was not written: it would check nothing" in text for text in said), said
    finally:
        await session.close()
        project.close()
