"""EDIT_TEST_CASE against a demo app that changed under the project's cases (its feature flags): a renamed call
to action, a moved route and a new required form field are detected by the preflight, and only the impacted
cases are edited — each with a before/after summary, undoable — while the rest are not touched."""

import time

import pytest

from studio.models.testcase import CaseStep, Grounding, TestCase
from studio.playground import revert_edit

pytestmark = [pytest.mark.browser]


def element(catalogs, path, name):
    """The element the browser saw on `path` under this accessible name (its synthesized locator included)."""
    for catalog in catalogs:
        if catalog.path.split("#")[0] == path:
            for item in [*catalog.actions, *catalog.nav]:
                if item.name == name and item.locator is not None:
                    return item
    raise AssertionError(f"{name!r} was not seen on {path}: "
                         f"{[(c.path, [a.name for a in c.actions]) for c in catalogs if c.path.startswith(path)]}")


def hand_written(case_id, title, base_url, path, steps):
    return TestCase(id=case_id, title=title, steps=steps, expected_results=["as written"], priority="P2",
                    gap_type="happy_path", status="active", origin="tester", updated_at=time.time() * 1000,
                    grounding=Grounding(page_url=base_url + path))


@pytest.mark.slow
async def test_edit_follows_the_changed_app_and_leaves_the_rest_untouched(bench, demo):
    user = demo.create_user()
    first = await bench.run("new_test_case", demo, user, request="disputes wizard")
    assert first.status == "completed"
    catalogs = bench.project.jobs.catalogs(first.id)
    wizard = next(c for c in bench.project.cases.cases() if c.gap_type == "happy_path")
    base = demo.base_url

    cta = element(catalogs, "/dashboard", "View full credit report")
    alerts_tile = element(catalogs, "/dashboard", "Alerts")
    offers_tile = element(catalogs, "/dashboard", "Offers")
    cases = [
        hand_written("t-cta", "Open the full credit report from the dashboard", base, "/dashboard", [
            CaseStep(action="navigate", url="/dashboard"),
            CaseStep(action="click", target=cta.name, locator=cta.locator),
            CaseStep(action="expect_url", url="/credit-report")]),
        hand_written("t-alerts", "The alert centre opens", base, "/alerts", [
            CaseStep(action="navigate", url="/alerts"),
            CaseStep(action="expect_text", data="Alerts")]),
        hand_written("t-tile", "The Alerts tile is on the dashboard", base, "/dashboard", [
            CaseStep(action="navigate", url="/dashboard"),
            CaseStep(action="click", target=alerts_tile.name, locator=alerts_tile.locator)]),
        hand_written("t-offers", "The Offers tile opens the offers", base, "/dashboard", [
            CaseStep(action="navigate", url="/dashboard"),
            CaseStep(action="click", target=offers_tile.name, locator=offers_tile.locator),
            CaseStep(action="expect_url", url="/offers")]),
    ]
    for case in cases:
        bench.project.cases.save_case(case, "tester", "written by hand")
    untouched_before = {c.id: c for c in bench.project.cases.cases() if c.id == "t-offers"}

    demo.set_flag("new_cta_labels", True)
    demo.set_flag("alerts_route", "redirect")
    demo.set_flag("dispute_phone_required", True)
    job = await bench.run("edit_test_case", demo, user)
    assert job.status == "completed", job.message

    changes = {(c.type, c.evidence): c.impacted_testcase_ids for c in job.context.detected_changes}
    kinds = {kind for kind, _ in changes}
    assert {"element_missing", "entry_point_redirected", "form_field_added"} <= kinds, changes
    missing = next(e for (k, e) in changes if k == "element_missing")
    assert "View full credit report" in missing and "See your full credit report" in missing
    assert changes[("entry_point_redirected", "/alerts now redirects to /notifications.")] == ["t-alerts"]
    added = next(ids for (k, e), ids in changes.items() if k == "form_field_added" and "Phone number" in e)
    assert wizard.id in added

    edits = {e["case_id"]: e for e in job.result["edits"]}
    assert "t-offers" not in edits, (edits.get("t-offers", {}).get("summary"), changes)  # impacted cases only
    now = {c.id: c for c in bench.project.cases.cases()}
    click = now["t-cta"].steps[1]
    assert click.locator.steps[-1].name == "See your full credit report" and now["t-cta"].version == 2
    assert "'View full credit report' is now 'See your full credit report'" in edits["t-cta"]["summary"]
    assert now["t-alerts"].steps[0].url == "/notifications" and now["t-alerts"].version == 2
    assert now["t-alerts"].grounding.page_url == base + "/notifications"
    phone = [s for s in now[wizard.id].steps if s.target.startswith("Phone number")]
    assert phone and phone[0].action == "fill" and phone[0].data, now[wizard.id].steps
    assert "Phone number" in edits[wizard.id]["summary"]
    for case_id in ("t-cta", "t-alerts", "t-tile", wizard.id):  # each with what it was and what it is now
        assert edits[case_id]["before"]["version"] == edits[case_id]["after"]["version"] - 1
    assert now["t-offers"] == untouched_before["t-offers"]
    # The Alerts tile was renamed with its route: the same control is found by its test id, not by a look-alike
    # name ('Offers' is as close to 'Alerts' as 'Notifications' is not).
    assert now["t-tile"].steps[1].target == "Notifications", edits["t-tile"]["summary"]

    # The tester rejects one edit: the case is back as it was, as a new version (the history keeps all three).
    restored = revert_edit(bench.project, "t-cta", 1)
    assert restored.steps[1].locator.steps[-1].name == "View full credit report" and restored.version == 3
    assert [h.version for h in bench.project.cases.history("t-cta")] == [1, 2, 3]


@pytest.mark.slow
async def test_edit_of_selected_cases_only(bench, demo):
    user = demo.create_user()
    await bench.run("new_test_case", demo, user, request="disputes wizard")
    cases = bench.project.cases.cases()
    picked = [c for c in cases if c.gap_type == "happy_path"]
    demo.set_flag("dispute_phone_required", True)
    job = await bench.run("edit_test_case", demo, user, case_ids=[c.id for c in picked])
    assert [e["case_id"] for e in job.result["edits"]] == [picked[0].id]
    after = {c.id: c.version for c in bench.project.cases.cases()}
    assert all(after[c.id] == 1 for c in cases if c.id != picked[0].id)


@pytest.mark.slow
async def test_an_unchanged_app_edits_nothing_and_secrets_stay_out_of_the_project(bench, demo):
    """A permissions case that expects the 403 (as the agent writes them) is not made stale by it."""
    user = demo.create_user()
    await bench.run("new_test_case", demo, user, request="disputes wizard")
    # NEW_TEST_CASE keeps to the requested area: no "/admin is denied" case for a wizard request.
    assert not any("/admin" in c.title for c in bench.project.cases.cases())
    bench.project.cases.save_case(hand_written("t-admin", "/admin is denied to viewer", demo.base_url, "/admin", [
        CaseStep(action="navigate", url="/admin"), CaseStep(action="expect_text", data="Access Denied")]),
        "tester", "written by hand")
    before = {c.id: c.version for c in bench.project.cases.cases()}
    job = await bench.run("edit_test_case", demo, user)
    assert job.status == "completed" and job.context.detected_changes == [] and job.result["edits"] == []
    assert {c.id: c.version for c in bench.project.cases.cases()} == before
    # passwords answered during either run never reach the file
    bench.project.close()
    assert user["password"].encode() not in bench.path.read_bytes()
    bench.project = type(bench.project).open(bench.path)


@pytest.mark.slow
async def test_an_entry_point_that_is_gone_marks_its_case_stale(bench, demo):
    user = demo.create_user()
    first = await bench.run("new_test_case", demo, user, request="disputes wizard")
    assert first.status == "completed"
    bench.project.cases.save_case(hand_written("t-alerts", "The alert centre opens", demo.base_url, "/alerts", [
        CaseStep(action="navigate", url="/alerts"), CaseStep(action="expect_text", data="Alerts")]),
        "tester", "written by hand")
    demo.set_flag("alerts_route", "gone")  # the alert centre moved to /notifications, /alerts answers 404
    job = await bench.run("edit_test_case", demo, user, case_ids=["t-alerts"])
    assert job.status == "completed"
    [change] = job.context.detected_changes
    assert change.type == "entry_point_missing" and change.impacted_testcase_ids == ["t-alerts"]
    assert "/alerts now answers 404" in change.evidence
    [edit] = job.result["edits"]
    assert edit["after"]["status"] == "stale" and "Marked stale: /alerts now answers 404" in edit["summary"]
