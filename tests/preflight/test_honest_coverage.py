"""confidence.coverage is 1.0 only when every gap category was really checked: looked for on the area's pages and,
where the page has something of that kind, tried. A form never sent, a field never typed into, a search never used,
a file input (never sent) or a page where nothing was tried leave their categories unchecked, each with why in the
notes; a page with no control is coverage 0. Before, any page with content counted five categories as checked.

The runs here are the objective as the preflight runs it (detect_gaps on a PreflightRun with its surveyed pages and
tried behaviours), without a browser; the last test runs a real preflight on the records fixture app."""

from __future__ import annotations

import pytest

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.llm.budget import Budget
from studio.models.behaviour import Behaviour
from studio.models.catalog import CatalogElement, FormField, FormInfo, PageCatalog
from studio.models.context import AuthState, ContextCollection, EntryPoint, JobRecord
from studio.models.llm import JobBudget
from studio.models.testcase import CaseStep, FieldSpec
from studio.preflight.gaps import detect_gaps
from studio.preflight.run import PreflightRun
from studio.runtime.live import LivePage

BUTTON = CatalogElement(role="button", name="Add transaction")
FORM = FormInfo(name="Add new transaction", submit=BUTTON, method="post", fields=[
    FormField(spec=FieldSpec(name="text", type="text", required=True, label="Text")),
    FormField(spec=FieldSpec(name="amount", type="number", required=True, label="Amount"))])


def page(path: str = "/", **controls) -> PageCatalog:
    return PageCatalog(url=f"http://127.0.0.1:9/{path.lstrip('/')}", path=path, status=200, title="Expenses",
                       heading="Expense Tracker", **controls)


def behaviour(kind: str, path: str = "/") -> dict:
    step = CaseStep(action="click", target="'Add transaction'")
    return Behaviour(kind=kind, name=kind, page=path, steps=[step]).model_dump(mode="json")


def run_on(*pages: PageCatalog, behaviours: list[dict] | None = None, probed: bool = True) -> PreflightRun:
    """A preflight that surveyed `pages` (the first is the validated area), tried `behaviours` there, probed the
    privileged pages signed in when `probed`; detect_gaps has run."""
    context = ContextCollection(resolved_base_url="http://127.0.0.1:9/", auth_state=AuthState(),
                                candidate_entry_points=[EntryPoint(label="Home", url=pages[0].path, confidence=0.9)])
    job = JobRecord(id="j1", kind="preflight", status="running", created_at=1, updated_at=1, context=context,
                    state={"privileged_probed": probed, "behaviours": {pages[0].path: behaviours or []}})
    run = PreflightRun(job=job, live=LivePage(BrowserSession(EventBus())), budget=Budget(JobBudget()),
                       catalogs={p.path: p for p in pages})
    detect_gaps(run)
    return run


def unchecked_note(run: PreflightRun) -> str:
    return next((n for n in run.context.evidence.notes if n.startswith("Coverage gaps could not be checked")), "")


def test_a_form_that_was_never_sent_leaves_its_categories_unchecked():
    run = run_on(page(forms=[FORM], actions=[BUTTON]))
    assert run.context.confidence.coverage == 0.43  # it read 1.0: the page had content
    note = unchecked_note(run)
    assert "validation, state_transitions, concurrency, error_states ('Add new transaction' on / was not sent)" in note


def test_a_form_sent_and_refused_empty_checks_them_all():
    run = run_on(page(forms=[FORM], actions=[BUTTON]), behaviours=[behaviour("refused"), behaviour("save")])
    assert run.context.confidence.coverage == 1.0
    assert unchecked_note(run) == ""


def test_a_page_where_nothing_was_tried_is_not_fully_covered():
    """Buttons that change nothing by their names (a deck of cards' Next, Flip): nothing pressed, nothing checked."""
    buttons = [CatalogElement(role="button", name=name) for name in ("Next", "Flip", "Previous")]
    run = run_on(page(actions=buttons))
    assert run.context.confidence.coverage == round(6 / 7, 2)
    assert "state_transitions (none of the 3 controls on / was tried)" in unchecked_note(run)
    tried = run_on(page(actions=buttons), behaviours=[behaviour("page_action")])
    assert tried.context.confidence.coverage == 1.0


def test_a_lone_field_never_typed_into_and_an_unused_filter_are_said():
    field = CatalogElement(role="textbox", name="What needs to be done?")
    view = CatalogElement(role="link", name="Active", href="#/active")
    run = run_on(page(inputs=[field], views=[view]))
    note = unchecked_note(run)
    assert run.context.confidence.coverage == round(3 / 7, 2)
    assert "validation (the field 'What needs to be done?' on / was never typed into)" in note
    assert "search_filter_sort_pagination ('Active' on / was not used)" in note
    tried = run_on(page(inputs=[field], views=[view]), behaviours=[behaviour("add"), behaviour("view")])
    assert tried.context.confidence.coverage == 1.0


def test_a_file_input_is_never_sent_so_upload_stays_open():
    upload = CatalogElement(role="button", name="Receipt")
    run = run_on(page(forms=[FORM], actions=[BUTTON], file_inputs=[upload]),
                 behaviours=[behaviour("refused"), behaviour("save")])
    assert run.context.confidence.coverage == round(6 / 7, 2)
    assert "file_upload ('Receipt' on / takes a file, and no file was sent)" in unchecked_note(run)


def test_roles_count_only_once_probed_signed_in_and_no_control_means_zero():
    run = run_on(page(forms=[FORM], actions=[BUTTON]), behaviours=[behaviour("save"), behaviour("refused")],
                 probed=False)
    assert run.context.confidence.coverage == round(6 / 7, 2)
    assert "permissions (the privileged pages were not probed)" in unchecked_note(run)
    empty = run_on(page())
    assert empty.context.confidence.coverage == 0.0
    assert any("No page of the area showed anything to check (no control was found on the area's pages)" in note
               for note in empty.context.evidence.notes)


@pytest.mark.browser
async def test_a_records_catalogue_without_try_forms_is_not_said_to_be_fully_covered(harness):
    """Its search is tried (a GET), its New-item form is not sent without Try Forms: coverage says so."""
    from tests.apps.records_app import RecordsApp

    with RecordsApp() as app:
        job = await harness.preflight.start(app.base_url + "/items", request="")
    assert job.status == "completed", job.message
    assert job.context.confidence.coverage < 1.0  # it read 1.0
    note = next(n for n in job.context.evidence.notes if n.startswith("Coverage gaps could not be checked"))
    assert "on /items/new was not sent" in note
