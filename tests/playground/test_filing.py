"""New Cases files its cases into the suite of the area asked for (made when there is none) and says where they
went; New Suite then sees that area covered. On the demo app with a real Chromium and no model."""

from __future__ import annotations

import time

import pytest

from studio.models.context import Answer
from studio.models.testcase import CaseStep, TestSuite
from studio.playground.filing import name_words, suite_for_module
from tests.playground.test_edit import hand_written

NOT_COVERED = "Not covered by any suite yet:"


def suite(title: str, module: str = "") -> TestSuite:
    now = time.time() * 1000
    return TestSuite(id=f"ts-{title.lower().replace(' ', '-')}", title=title, module=module, created_at=now,
                     updated_at=now)


def test_a_module_finds_its_suite_by_name_words_not_by_a_shared_word():
    disputes, history, help_center = suite("Disputes suite", "Disputes"), suite("Dispute history"), suite("Help")
    suites = [history, help_center, disputes]
    assert suite_for_module("Disputes", suites) is disputes  # the module named the same
    assert suite_for_module("disputes", [history, suite("Disputes")]).title == "Disputes"  # a tester's own suite
    assert suite_for_module("Dispute", [history, suite("The disputes suite")]).title == "The disputes suite"
    assert suite_for_module("Help Center", suites) is None  # "Help" is another module
    assert suite_for_module("History", suites) is None
    assert name_words("Disputes suite") == name_words("dispute") == {"dispute"}
    assert name_words("Address") == {"address"}  # not a plural


async def _suite_question(bench, demo, user):
    job = await bench.playground.start("new_testsuite", demo.base_url)
    job = await bench.playground.resume(job, [Answer(key="credentials.email", value=user["email"]),
                                              Answer(key="credentials.password", value=user["password"])])
    assert job.status == "paused" and job.pending[0].key == "suites", job.message
    return job


@pytest.mark.slow
async def test_new_cases_file_into_the_areas_suite_and_new_suite_then_sees_it_covered(bench, demo):
    user = demo.create_user()
    loose = hand_written("t-loose", "Disputes opens", demo.base_url, "/disputes",
                         [CaseStep(action="navigate", url="/disputes"), CaseStep(action="expect_text", data="Dispute")])
    bench.project.cases.save_case(loose, "tester", "written by hand")  # an earlier case of the area, in no suite

    job = await bench.run("new_test_case", demo, user, request="create test cases for the disputes wizard")
    assert job.status == "completed", job.message
    [made] = bench.project.cases.suites()
    assert (made.title, made.module) == ("Disputes suite", "Disputes")
    created = job.result["cases"]
    cases = bench.project.cases.cases()
    assert len(cases) == len(created) + 1 and all(case.suite_id == made.id for case in cases), \
        [(case.title, case.suite_id) for case in cases]
    assert job.result["suites"] == [made.id]
    assert job.result["filed"] == [{"suite_id": made.id, "suite": "Disputes suite", "module": "Disputes",
                                    "cases": len(created), "new": True}]
    assert job.result["summary"] == f"{len(created)} cases filed into the Disputes suite (new); no duplicates.", \
        job.result["summary"]
    said = [e.message for e in bench.events if e.type == "item_progress" and e.status == "created"]
    assert len(said) == len(created) and all(m.endswith("in the Disputes suite") for m in said)
    filed = [e for e in bench.events if e.type == "item_progress" and e.status == "filed"]
    assert [e.item for e in filed] == ["case t-loose"]  # the area's loose case joined its new suite
    [started] = [e for e in bench.events if e.type == "main_job_started"]
    assert started.total_items == len(created) + 1

    # New Suite right after: the area has its suite now (uncovered modules come first; Disputes is not one).
    job = await _suite_question(bench, demo, user)
    question = job.pending[0].question.question
    assert NOT_COVERED in question and "Disputes" not in question.split(NOT_COVERED)[1], question
    assert "seed" not in job.pending[0].why and "several: separate" not in question


@pytest.mark.slow
async def test_new_suite_for_a_module_with_its_suite_adds_to_it(tmp_path, browser_info):
    """A one-module app: New Cases makes its suite; New Suite proposes the module as covered and, chosen, fills the
    same suite instead of making a second one."""
    from tests.apps.list_app import ListApp
    from tests.playground.conftest import Bench

    with ListApp() as app:
        bench = await Bench(tmp_path / "list.studio").open()
        try:
            job = await bench.playground.start("new_test_case", app.base_url + "/", request="the to-do list")
            if job.status == "paused":  # which area: the app's one page
                [asked] = job.pending
                job = await bench.playground.resume(job, [Answer(key=asked.key, value=asked.question.options[0])])
            assert job.status == "completed", (job.status, job.message, job.pending)
            [made] = bench.project.cases.suites()
            assert job.result["summary"].startswith(f"{len(job.result['cases'])} cases filed into "
                                                    f"the {made.title} (new)"), job.result["summary"]
            job = await bench.playground.start("new_testsuite", app.base_url + "/")
            assert job.status == "paused" and job.pending[0].key == "suites", job.message
            assert NOT_COVERED not in job.pending[0].question.question
            job = await bench.playground.resume(job, [Answer(key="suites", value="All")])
            assert job.status == "completed", job.message
            assert [s.id for s in bench.project.cases.suites()] == [made.id] and job.result["suites"] == []
            assert all(case.suite_id == made.id for case in bench.project.cases.cases())
        finally:
            await bench.close()


async def test_new_cases_use_a_suite_the_tester_made_for_the_area(bench, demo):
    user = demo.create_user()
    mine = suite("Disputes")  # made by hand in the editor: a title, no module
    bench.project.cases.save_suite(mine)
    job = await bench.run("new_test_case", demo, user, request="disputes wizard")
    assert job.status == "completed", job.message
    assert [s.id for s in bench.project.cases.suites()] == [mine.id] and job.result["suites"] == []
    count = len(job.result["cases"])
    assert count and all(case.suite_id == mine.id for case in bench.project.cases.cases())
    assert job.result["summary"] == f"{count} cases filed into the Disputes suite; no duplicates."
