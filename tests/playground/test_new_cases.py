"""NEW_TEST_CASE and NEW_TESTSUITE against the demo app: grounded, gaps first, no duplicates, suites chosen."""

from __future__ import annotations

import pytest

from studio.models.testcase import CaseStep, TestCase

pytestmark = pytest.mark.browser


def grounded(case: TestCase, catalogs) -> bool:
    """Every step's target was seen by the browser in the preflight (its locator is in a catalogue)."""
    seen = set()
    options = set()
    for catalog in catalogs:
        for element in [*catalog.actions, *catalog.nav, *catalog.search_inputs, *catalog.filters, *catalog.file_inputs]:
            if element.locator:
                seen.add(element.locator.python())
        for form in catalog.forms:
            for field in form.fields:
                options.update(field.options)
                if field.locator:
                    seen.add(field.locator.python())
            if form.submit and form.submit.locator:
                seen.add(form.submit.locator.python())
    for step in case.steps:
        if step.locator is None:
            continue
        if step.locator.python() not in seen and not (step.action == "check" and step.data in options):
            return False
    return True


async def test_new_test_case_for_the_disputes_wizard_covers_the_gaps_without_duplicates(bench, demo):
    user = demo.create_user()
    job = await bench.run("new_test_case", demo, user, request="create test cases for the disputes wizard")
    assert job.status == "completed", job.message
    cases = bench.project.cases.cases()
    kinds = {case.gap_type for case in cases}
    # (f) validation, permissions, state transitions, concurrency (double submit) and error states
    assert {"validation", "permissions", "state_transitions", "concurrency", "error_states"} <= kinds
    assert any("twice" in case.title and case.gap_type == "concurrency" for case in cases)
    # gaps first, nice-to-have after
    order = [case.gap_type for case in cases]
    assert order.index("happy_path") == len(order) - 1
    # only the scoped area (plus the role-gated page the preflight found)
    assert {case.grounding.page_url.split("/", 3)[-1] for case in cases} <= {"disputes", "admin"}
    catalogs = bench.project.jobs.catalogs(job.id)
    assert all(grounded(case, catalogs) for case in cases)
    assert all(case.status == "draft" and case.origin == "agent" and case.version == 1 for case in cases)
    wizard = next(case for case in cases if case.gap_type == "happy_path")
    assert {spec.name for spec in wizard.grounding.form_fields} >= {"Account", "Reason", "Description"}
    # the seed's events
    types = bench.types()
    assert types.index("preflight_completed") < types.index("main_job_started") < types.index("main_job_completed")
    assert types.count("item_progress") >= len(cases)
    assert job.result["cases"] == [case.id for case in cases]

    # a second run finds every case already there: nothing new, each skip said
    again = await bench.run("new_test_case", demo, user, request="create test cases for the disputes wizard")
    assert again.status == "completed" and again.result["cases"] == []
    assert len(again.result["skipped"]) == len(cases) and all("duplicates" in s for s in again.result["skipped"])
    assert len(bench.project.cases.cases()) == len(cases)


async def test_new_test_case_skips_what_a_tester_already_wrote(bench, demo):
    user = demo.create_user()
    first = await bench.run("new_test_case", demo, user, request="disputes wizard")
    made = bench.project.cases.cases()
    # A tester's own case doing the same as one the agent would write (same steps, same preconditions).
    mine = made[0].model_copy(update={"id": "tester-1", "title": "My own empty-form check", "origin": "tester"})
    for case in made:
        bench.project.cases.delete_case(case.id)
    bench.project.cases.save_case(mine, "tester", "written by hand")
    again = await bench.run("new_test_case", demo, user, request="disputes wizard")
    titles = [c.title for c in bench.project.cases.cases()]
    assert made[0].title not in titles and "My own empty-form check" in titles
    assert any("duplicates 'My own empty-form check'" in s for s in again.result["skipped"])
    assert first.status == again.status == "completed"


@pytest.mark.slow
async def test_new_testsuite_proposes_modules_asks_and_populates_the_chosen_ones(bench, demo):
    user = demo.create_user()
    job = await bench.playground.start("new_testsuite", demo.base_url)
    from studio.models.context import Answer

    job = await bench.playground.resume(job, [Answer(key="credentials.email", value=user["email"]),
                                              Answer(key="credentials.password", value=user["password"])])
    # (e) on an empty project: at least two suites proposed, uncovered modules named, the user asked to choose
    assert job.status == "paused" and job.pending[0].key == "suites"
    question = job.pending[0].question
    proposed = [o for o in question.options if not o.startswith("All")]
    assert 2 <= len(proposed) <= 5 and "Not covered by any suite yet" in question.question
    assert "Disputes" in proposed
    # (a GUI re-sending the sign-in with the choice, as after a restart: the password must still stay out)
    job = await bench.playground.resume(job, [Answer(key="suites", value="Disputes, Help Center"),
                                              Answer(key="credentials.password", value=user["password"])])
    assert job.status == "completed", job.message
    assert user["password"] not in bench.project.jobs.get(job.id).model_dump_json()
    suites = bench.project.cases.suites()
    assert sorted(s.module for s in suites) == ["Disputes", "Help Center"] and job.result["suites"]
    for suite in suites:
        assert bench.project.cases.cases(suite_id=suite.id), f"{suite.title} has no cases"
    assert bench.types().count("main_job_started") == 1
    # the next proposal knows what is covered now
    second = await bench.playground.start("new_testsuite", demo.base_url)
    second = await bench.playground.resume(second, [Answer(key="credentials.email", value=user["email"]),
                                                    Answer(key="credentials.password", value=user["password"])])
    text = second.pending[0].question.question
    assert "Disputes" not in text.split("Not covered by any suite yet:")[-1]


async def test_cancel_ends_the_main_job_and_keeps_what_was_made(bench, demo):
    user = demo.create_user()
    # The tester presses Cancel as soon as the first case is reported (the bus delivers events as they happen).
    bench.bus.subscribe(lambda event: event.type == "item_progress" and bench.playground.cancel())
    job = await bench.run("new_test_case", demo, user, request="disputes wizard")
    assert job.status == "cancelled" and "Cancelled" in job.result["summary"]
    assert bench.project.jobs.get(job.id).status == "cancelled"
    assert len(bench.project.cases.cases()) == len(job.result["cases"]) == 1
    assert bench.types()[-1] == "main_job_completed"
    # Cancelling ended that job, not the Playground: the next job runs to the end (a preflight has no items,
    # so the Cancel-on-first-item subscriber above stays quiet).
    again = await bench.playground.start("preflight", demo.base_url, request="disputes wizard")
    assert again.status == "completed", again.message


def test_case_steps_are_what_the_exporter_needs():
    from studio.export import render_test
    from studio.models.locator import LocatorSpec, LocatorStep
    from studio.playground import case_steps

    button = LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="button", name="Next", exact=True)])
    case = TestCase(id="c1", title="Empty step 1 is refused", steps=[
        CaseStep(action="navigate", url="/disputes"), CaseStep(action="click", locator=button),
        CaseStep(action="expect_text", data="Step 1 of 3"), CaseStep(action="expect_url", url="/disputes")])
    code = render_test(case_steps(case, "http://app.test"), "python", case.title)
    assert 'page.goto("/disputes")' in code and 'get_by_role("button", name="Next", exact=True)' in code
    assert 'expect(page.get_by_text("Step 1 of 3")).to_be_visible()' in code
    assert "to_have_url(re.compile(" in code


async def test_a_spent_main_job_budget_ends_cleanly_and_keeps_the_preflight(tmp_path, demo):
    from studio.models.llm import JobBudget
    from tests.playground.conftest import Bench

    bench = await Bench(tmp_path / "b.studio").open(budget=JobBudget(max_steps=40, max_seconds=0.001))
    try:
        user = demo.create_user()
        job = await bench.run("new_test_case", demo, user, request="disputes wizard")
        assert job.status == "budget_exhausted" and "time" in job.result["summary"].lower()
        stored = bench.project.jobs.get(job.id)
        assert stored.status == "budget_exhausted"
        assert any(p.url == "/disputes" for p in stored.context.candidate_entry_points)  # the preflight is kept
        assert bench.types()[-1] == "main_job_completed"
    finally:
        await bench.close()


async def test_skipping_the_suite_question_auto_approves_the_top_candidate(bench, demo):
    from studio.models.context import SKIPPED

    user = demo.create_user()
    job = await bench.run("new_testsuite", demo, user, answers=[("suites", SKIPPED)])
    assert job.status == "completed", job.message
    proposed = job.state["main"]["proposed"]
    suites = bench.project.cases.suites()
    assert [s.module for s in suites] == [proposed[0]["module"]] and job.result["cases"]
    assert any("suite question was skipped: auto-approved" in note for note in job.result["notes"])
    assert bench.types().count("preflight_question") == 2  # the login, then the suites once; never again


async def test_upload_and_permission_cases_use_what_the_app_states(bench, demo):
    user = demo.create_user()
    job = await bench.run("new_test_case", demo, user, request="profile")
    assert job.status == "completed", job.message
    cases = bench.project.cases.cases()
    upload = next(case for case in cases if case.gap_type == "file_upload")
    # the profile photo field: accept="image/png,…" and "PNG, JPEG, GIF or WebP, up to 2 MB." on the page
    assert [s.data for s in upload.steps if s.action == "upload"] == ["a .png file just over 2 MB", "notes.txt"]
    assert "Files over 2 MB" in upload.expected_results[0] and "image/png" in upload.expected_results[0]
    # signed out: the login page the preflight itself met; gated pages: the role it detected, not a stock name
    assert job.state["login_path"] == "/login"
    signed_out = next(case for case in cases if "signed-out" in case.title)
    assert [s.url for s in signed_out.steps if s.action == "expect_url"] == ["/login"]
    # scope: cases for the requested area only (the pages closed to the role are not the profile's cases)
    assert not any(case.title.startswith("/admin is denied") for case in cases)
    assert job.state["gated_pages"] and job.context.environment.role == "viewer"


def test_permission_cases_follow_the_apps_own_login_path_and_role():
    from studio.models.catalog import PageCatalog
    from studio.playground.templates import permissions

    page = PageCatalog(url="http://app.test/reports", path="/reports", heading="Reports")
    gate = {"path": "/manage/users", "status": 403, "heading": "Access denied", "in_nav": True}
    [signed_out, denied] = permissions(page, True, [gate], login_path="/auth/sign-in", role="support agent")
    assert [s.url for s in signed_out.steps if s.action == "expect_url"] == ["/auth/sign-in"]
    assert denied.title == "/manage/users is denied to support agent"
    assert not any("navigation" in line for line in denied.expected_results)  # the link is in its navigation
    [without_path] = permissions(page, True, [], login_path=None)
    assert not any(s.action == "expect_url" for s in without_path.steps)  # no invented /login
