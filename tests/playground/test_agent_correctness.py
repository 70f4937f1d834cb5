"""Seed 000 point by point, on the demo: the agents' own correctness beyond the shapes — EDIT stops rather than
damage cases when it cannot see the app as the cases do, the record keeps the dialogue, main_job_started counts
the items the job reports, and a new suite takes in its module's loose cases."""

from __future__ import annotations

import pytest

from studio.models.context import SKIPPED, Answer
from studio.models.testcase import CaseStep
from tests.playground.test_edit import hand_written


@pytest.mark.slow
async def test_edit_with_the_login_skipped_cannot_proceed_and_changes_nothing(bench, demo):
    user = demo.create_user()
    first = await bench.run("new_test_case", demo, user, request="disputes wizard")
    assert first.status == "completed"
    before = {c.id: (c.version, c.model_dump_json()) for c in bench.project.cases.cases()}

    await bench.session.page.context.clear_cookies()  # a new browser: signed out
    job = await bench.playground.start("edit_test_case", demo.base_url)
    assert job.status == "paused" and [q.key for q in job.pending][:1] == ["credentials.email"]
    job = await bench.playground.resume(job, [Answer(key="credentials.email", value=SKIPPED),
                                              Answer(key="credentials.password", value=SKIPPED)])
    assert job.status == "failed" and job.result["summary"].startswith("Cannot proceed: "), (job.result, job.context.auth_state, job.context.detected_changes)
    assert "No case was changed" in job.result["summary"]
    # Signed out, /disputes shows the login page: that is not an app change, and no case was edited.
    assert not any("/login" in change.evidence for change in job.context.detected_changes)
    assert {c.id: (c.version, c.model_dump_json()) for c in bench.project.cases.cases()} == before


async def test_the_finished_record_keeps_the_questions_asked_and_one_answer_each(bench, demo):
    user = demo.create_user()
    job = await bench.playground.start("preflight", demo.base_url, request="disputes wizard")
    asked = [q.question for q in job.pending]
    job = await bench.playground.resume(job, [Answer(key="credentials.email", value=user["email"]),
                                              Answer(key="credentials.password", value=user["password"])])
    assert job.status == "completed", job.message
    assert job.context.questions == asked and [q.info_needed for q in asked] == [["credentials.email"],
                                                                                  ["credentials.password"]]
    keys = [a.key for a in job.context.answers]
    assert keys == ["credentials.email", "credentials.password"]
    # the same answers given again (a corrected answers file) replace the earlier ones, never duplicate them
    from studio.preflight.run import add_answers

    add_answers(job, [Answer(key="credentials.email", value=user["email"])], {})
    assert [a.key for a in job.context.answers].count("credentials.email") == 1


async def test_main_job_started_counts_the_items_the_job_then_reports(bench, demo):
    user = demo.create_user()
    job = await bench.run("new_test_case", demo, user, request="disputes wizard")
    [started] = [e for e in bench.events if e.type == "main_job_started"]
    created = [e for e in bench.events if e.type == "item_progress" and e.status == "created"]
    assert started.total_items == len(created) == len(job.result["cases"]) > 1
    assert {e.total for e in created} == {started.total_items}


async def test_a_new_suite_takes_in_its_modules_loose_cases(bench, demo):
    user = demo.create_user()
    loose = hand_written("t-loose", "Disputes opens", demo.base_url, "/disputes",
                         [CaseStep(action="navigate", url="/disputes"), CaseStep(action="expect_text", data="Dispute")])
    bench.project.cases.save_case(loose, "tester", "written by hand")
    job = await bench.run("new_testsuite", demo, user, answers=[("suites", "Disputes")])
    assert job.status == "completed", job.message
    [suite] = bench.project.cases.suites()
    filed = bench.project.cases.cases(suite_id=suite.id)
    assert "t-loose" in [c.id for c in filed] and len(filed) > 1  # the loose case, and the new ones
    [started] = [e for e in bench.events if e.type == "main_job_started"]
    items = [e for e in bench.events if e.type == "item_progress" and e.status in ("created", "filed")]
    assert started.total_items == len(items) and items[-1].index == started.total_items


async def test_a_preflight_ended_by_its_budget_reports_how_long_it_ran(bench, demo):
    from studio.models.events import PreflightCompleted
    from studio.preflight.job import PREFLIGHT_BUDGET

    bench.playground.preflight.limits = PREFLIGHT_BUDGET.model_copy(update={"max_steps": 2})
    job = await bench.playground.start("preflight", demo.base_url + "/help", request="help")
    assert job.status == "budget_exhausted"
    [done] = [e for e in bench.events if isinstance(e, PreflightCompleted)]
    assert done.seconds > 0
