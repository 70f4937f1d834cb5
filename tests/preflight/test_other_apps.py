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


def stored_case(case_id, base_url, path, fields=(), steps=()):
    import time

    from studio.models.testcase import CaseStep, FieldSpec, Grounding, TestCase

    return TestCase(id=case_id, title=f"{path} as written", steps=[CaseStep(action="navigate", url=path), *steps],
                    expected_results=["as written"], priority="P2", gap_type="happy_path", status="active",
                    origin="tester", updated_at=time.time() * 1000,
                    grounding=Grounding(page_url=base_url + path,
                                        form_fields=[FieldSpec(name=n, type=t, required=r) for n, t, r in fields]))


async def test_change_detection_on_a_changed_app(harness, app):
    workspace = [Answer(key="tenant", value="Acme Corp")]
    first = await harness.preflight.resume(await harness.preflight.start(app.base_url), workspace)
    assert first.status == "completed" and "Team" in first.context.ui_map.top_nav
    from studio.models.locator import LocatorSpec, LocatorStep
    from studio.models.testcase import CaseStep

    def label(name: str) -> LocatorSpec:
        return LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=name, exact=True)])

    invite = [CaseStep(action="fill", target="Name", locator=label("Name"), data="Pat"),
              CaseStep(action="fill", target="Email", locator=label("Email"), data="pat@example.com"),
              CaseStep(action="click", target="the Invite button", locator=LocatorSpec(
                  strategy="role", steps=[LocatorStep(kind="role", role="button", name="Invite", exact=True)]))]
    fields = [("Name", "text", True), ("Email", "email", True)]
    for case in (stored_case("t-team", app.base_url, "/team", fields, invite),
                 # only opens the page: the form's changes do not impact it, the hidden link does
                 stored_case("t-team-opens", app.base_url, "/team", fields),
                 stored_case("t-users", app.base_url, "/manage/users"),
                 stored_case("t-reports", app.base_url, "/reports"),
                 stored_case("t-broken", app.base_url, "/broken")):
        harness.project.cases.save_case(case, "tester", "written by hand")
    # a deploy: the Team link leaves the navigation (the page still answers 200) and its form changes
    app.knobs.update(hide_team_link=True, team_fields=[("Name", "text", False), ("Phone", "tel", True)])

    job = await harness.preflight.resume(await harness.preflight.start(app.base_url), workspace)
    assert job.status == "completed", job.pending
    found = {(c.type, tuple(c.impacted_testcase_ids)) for c in job.context.detected_changes}
    assert found == {("entry_point_hidden", ("t-team", "t-team-opens")), ("form_field_changed", ("t-team",)),
                     ("form_field_removed", ("t-team",)), ("form_field_added", ("t-team",)),
                     ("permission_changed", ("t-users",)), ("entry_point_missing", ("t-reports",)),
                     ("entry_point_unreachable", ("t-broken",)),
                     ("element_missing", ("t-team",))}  # its Email field step can no longer be done
    hidden = next(c for c in job.context.detected_changes if c.type == "entry_point_hidden")
    assert "/team still answers 200" in hidden.evidence and "Top nav › Team" in hidden.evidence
    # the structured details sit beside the seed's evidence, in the job's state
    details = {d["type"]: d for d in job.state["change_details"]}
    assert details["form_field_removed"]["field"] == "Email" and details["form_field_added"]["field"] == "Phone"
    assert details["form_field_changed"]["was"]["required"] and not details["form_field_changed"]["now"]["required"]
    assert details["entry_point_hidden"]["nav_label"] == "Team" and details["permission_changed"]["status"] == 403
