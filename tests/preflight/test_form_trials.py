"""With the tester's leave (try_forms), the preflight sends a page's form with sample data: empty (the errors it
shows are kept), filled in (what the page reached shows is kept: the values saved, the confirmation), and it removes
the record it saved through the page's own Delete button and dialog (and keeps that the record is gone). Without
leave, nothing reaches the app's server."""

from __future__ import annotations

import pytest

from studio.models.behaviour import Behaviour
from studio.preflight.discovery import behaviours_of
from tests.apps.records_app import RecordsApp
from tests.preflight.conftest import Harness


@pytest.fixture
async def roomy(tmp_path, browser_info):
    made = await Harness(tmp_path / "p.studio").open(max_seconds=240)
    yield made
    await made.close()


def checks(behaviour: Behaviour) -> list[str]:
    return [o.why for step in behaviour.steps for o in step.outcomes if o.kind not in ("page_errors", "skipped")]


@pytest.mark.slow
async def test_forms_are_sent_with_sample_data_only_with_leave_and_what_they_did_is_kept(roomy):
    with RecordsApp() as app:
        before = dict(app.items)
        roomy.preflight.try_forms = True
        job = await roomy.preflight.start(app.base_url + "/items/new", request="")
        assert job.status == "completed", job.message
        found = {b.kind: b for b in behaviours_of(job.state, "/items/new")}
        assert {"refused", "save", "remove"} <= set(found), [b.name for b in found.values()]

        # empty: the error summary the page shows
        refused = found["refused"]
        assert [s.action for s in refused.steps] == ["click"]
        assert any("There is a problem" in why for why in checks(refused)), checks(refused)

        # filled in: Copies refused text ("Sample Copies") and was given a number; the saved values and the toast
        save = found["save"]
        typed = {s.target: s.data for s in save.steps if s.action == "fill"}
        assert typed["'Copies'"] == "3" and typed["'Title'"] == "Sample Title", typed
        said = checks(save)
        assert any("Added “Sample Title” to the catalogue." in why for why in said), said
        assert any('"3"' in why for why in said) and any("Sample Author" in why for why in said), said

        # removed through the dialog, and gone: the record's page opened again is an error page
        remove = found["remove"]
        assert [s.action for s in remove.steps] == ["click", "click", "back", "reload"]
        assert remove.steps[1].locator.steps[0].role == "dialog"
        assert [s.action for s in remove.setup][-1] == "click" and not any(s.outcomes for s in remove.setup)
        assert any("Deleted “Sample Title”." in why for why in checks(remove)), checks(remove)
        assert any("Error response" in why for why in remove.steps[-1].expected.split("\n")) or any(
            "Error response" in o.why for o in remove.steps[-1].outcomes), remove.steps[-1]

        # what the preflight saved it deleted again: the catalogue is as it was
        assert app.items == before
        assert any("sent" in note and " write" in note for note in job.context.evidence.notes)


async def test_without_leave_no_form_is_sent(roomy):
    with RecordsApp() as app:
        before = dict(app.items)
        job = await roomy.preflight.start(app.base_url + "/items/new", request="")
        assert job.status == "completed", job.message
        assert not job.state["try_forms"]
        # Sent empty, the browser refuses it before any request (kept); sent filled in, it would write: stopped.
        assert not [b for b in behaviours_of(job.state, "/items/new") if b.kind in ("save", "remove")]
        assert any("which the sandbox stops" in note for note in job.context.evidence.notes)
        assert app.items == before
