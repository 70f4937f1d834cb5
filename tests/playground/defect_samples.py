"""Suspected defects as an explorer reports them, on the to-do list fixture (tests/apps/list_app.py): what it expected
(items kept after a reload, the counter agreeing with the items), what the browser showed, and how to check the
EXPECTED behaviour from a fresh browser. `reported_project` runs the real engine path — report_finding during a
preflight run, then New Cases' drafting and storing — on a real project file, without a browser (nothing here acts
on a page)."""

from __future__ import annotations

from pathlib import Path

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.llm.budget import Budget
from studio.models.behaviour import Behaviour
from studio.models.catalog import CatalogElement, PageCatalog
from studio.models.context import ContextCollection, EntryPoint, Finding, JobRecord
from studio.models.llm import JobBudget
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import TextOutcome, TextsOutcome
from studio.models.testcase import CaseStep
from studio.playground.main_job import MainJob
from studio.playground.new_cases import draft_cases, store_cases
from studio.preflight.findings import report_finding
from studio.preflight.run import PreflightRun
from studio.runtime.live import LivePage
from studio.store.project import ProjectFile

BASE = "http://127.0.0.1:9/"
FIELD = LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="textbox", name="What needs to be done?",
                                                        exact=True)])
ITEMS = LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value="ul.todo-list li label")])
COUNT = LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value="span.todo-count")])

LOST = Finding(kind="data_lost_on_reload", page_url=BASE,
               summary="Items added to the list were gone after a reload; users of a to-do list expect them kept.",
               evidence=["Typed 'Milk' into 'What needs to be done?' and pressed Enter: 'Milk' was listed.",
                         "Reloaded the page: the list was empty."])
COUNTER = Finding(kind="count_disagrees", page_url=BASE,
                  summary="The counter said 2 items left while 1 active item was listed.",
                  evidence=["Added 'Milk' and 'Eggs', checked 'Milk': the counter still said '2 items left'."])


def adding(text: str) -> list[CaseStep]:
    return [CaseStep(action="navigate", url="/"),
            CaseStep(action="fill", target="'What needs to be done?'", locator=FIELD, data=text),
            CaseStep(action="press", target="'What needs to be done?'", locator=FIELD, data="Enter")]


KEPT = Behaviour(kind="persist", name="Added items are still there after a reload", page="/", setup=adding("Milk"),
                 steps=[CaseStep(action="reload", outcomes=[TextsOutcome(
                     locator=ITEMS, texts=["Milk"], why="'Milk' is still listed after the reload")])],
                 summary="Items added to the list are still listed after a reload.")
COUNTED = Behaviour(kind="toggle", name="The counter counts the active items", page="/",
                    setup=[*adding("Milk"), *adding("Eggs")[1:]],
                    steps=[CaseStep(action="check", target="'Milk'", locator=LocatorSpec(strategy="css", steps=[
                        LocatorStep(kind="css", value="ul.todo-list li:first-child input.toggle")]), outcomes=[
                        TextOutcome(locator=COUNT, text="1 item left", why="the counter says '1 item left'")])],
                    summary="Checking an item makes the counter say one item less.")


def list_page() -> PageCatalog:
    field = CatalogElement(role="textbox", name="What needs to be done?", locator=FIELD)
    return PageCatalog(url=BASE, path="/", status=200, title="Errands", heading="Errands", inputs=[field])


def preflight_run(project: ProjectFile, job_id: str = "job-1") -> PreflightRun:
    """A preflight run on the list page, as the explorer has it while it tries the page (no browser needed here)."""
    context = ContextCollection(resolved_base_url=BASE,
                                candidate_entry_points=[EntryPoint(label="Errands", url="/", confidence=0.9)])
    job = JobRecord(id=job_id, kind="new_test_case", status="running", created_at=1, updated_at=1, context=context,
                    state={"done": [], "behaviours": {"/": []}})
    return PreflightRun(job=job, live=LivePage(BrowserSession(EventBus())), budget=Budget(JobBudget()),
                        project=project, catalogs={"/": list_page()})


async def reported_project(path: Path, findings: tuple[tuple[Finding, Behaviour], ...] = ((LOST, KEPT),
                                                                                          (COUNTER, COUNTED))):
    """A project where a New Cases job's preflight reported `findings` and the job wrote their cases; returns the
    project (open), the completed job and its cases."""
    project = ProjectFile.open_or_create(path)
    run = preflight_run(project)
    for finding, expected in findings:
        report_finding(run, finding, expected=expected)
    main = MainJob(run=run)
    cases = await store_cases(main, await draft_cases(main, ["/"]))
    run.job.status = "completed"
    run.save()
    return project, run.job, cases
