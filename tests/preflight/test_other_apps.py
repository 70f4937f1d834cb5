"""Preflight on an app shaped unlike the demo (tests/preflight/fixture_app.py): no login, a numeric Amount field,
flags in a window global, a role badge, an admin area at /manage/users, a workspace switcher, a 404 entry point."""

from __future__ import annotations

import pytest

from studio.models.context import Answer
from tests.preflight.fixture_app import FixtureApp

pytestmark = pytest.mark.browser


@pytest.fixture
def app():
    with FixtureApp() as served:
        yield served


async def test_an_app_unlike_the_demo_is_understood_from_its_own_pages(harness, app):
    job = await harness.preflight.start(app.base_url, request="transfers")
    # (5) a workspace switcher with two workspaces: asked as a choice, before anything else
    assert job.status == "paused" and [q.key for q in job.pending] == ["tenant"]
    assert job.pending[0].question.options == ["Acme Corp", "Globex"]
    job = await harness.preflight.resume(job, [Answer(key="tenant", value="Globex")])
    assert job.status == "completed", (job.message, job.pending)
    context = job.context
    # the answered workspace is selected in the browser and read back from the page
    assert context.environment.workspace == "Globex"
    assert "Globex" in await harness.session.page.locator("#ws").input_value()
    # (1) an Amount field (inputmode=numeric) with a Send button is not a login wall; nothing was typed or sent
    assert not context.auth_state.requires_login and not context.auth_state.blockers
    assert app.posts == []
    assert context.candidate_entry_points[0].url == "/transfers"
    # (2) flags from an SDK-style window bootstrap: enabled ones, variants with their value, disabled ones left out
    assert {"instant_transfers", "checkout_variant=b"} <= set(context.environment.feature_flags)
    assert not any(flag.startswith("legacy_export") for flag in context.environment.feature_flags)
    # (3) the role read from the account menu; the admin area found from its hidden link, gated, said truthfully
    assert context.environment.role == "support agent"
    gated = job.state["gated_pages"]
    assert [(g["path"], g["status"], g["in_nav"]) for g in gated] == [("/manage/users", 403, False)]
    assert not any("/admin" in url for url in context.evidence.visited_urls)  # no conventional guessing needed
    permission = [g.suggestion for g in context.coverage_gaps if "/manage/users" in g.suggestion]
    assert permission and "hidden from its navigation" in permission[0] and "support agent" in permission[0]


async def test_a_request_about_the_hidden_admin_area_asks_for_the_role(harness, app):
    job = await harness.preflight.start(app.base_url, request="manage users")
    job = await harness.preflight.resume(job, [Answer(key="tenant", value="Acme Corp")])
    assert job.status == "paused" and job.pending[0].key == "role"
    assert "/manage/users" in job.pending[0].question.question and "403" in job.pending[0].question.question


async def test_an_entry_point_that_answers_404_after_the_visit_asks_which_page(harness, app):
    job = await harness.preflight.start(app.base_url, request="monthly reports")
    job = await harness.preflight.resume(job, [Answer(key="tenant", value="Acme Corp")])
    # "Reports" matches the request by its words, but the page answers 404: ask, with the map's pages as choices
    assert job.status == "paused" and job.pending[0].key == "area", job.message
    assert "could not confirm" in job.pending[0].why and "/reports" in job.pending[0].why
    options = job.pending[0].question.options
    assert "Transfers" in options and "Reports" not in options
    job = await harness.preflight.resume(job, [Answer(key="area", value="Transfers")])
    assert job.status == "completed" and job.context.candidate_entry_points[0].url == "/transfers"
