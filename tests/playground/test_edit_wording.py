"""An edited case says what the app says now: when the demo app moves its alert centre from /alerts to
/notifications (renaming the page and its tile) and renames a call to action, EDIT_TEST_CASE brings the expected
results, preconditions and step descriptions that name the old route or name along, and leaves every other word
(and every case the change does not impact) as it was."""

import time

import pytest

from studio.models.testcase import CaseStep, Grounding, TestCase

pytestmark = [pytest.mark.browser]


def element(catalogs, path, name):
    """The element the browser saw on `path` under this accessible name (its verified locator included)."""
    found = [item for catalog in catalogs if catalog.path == path for item in [*catalog.actions, *catalog.nav]
             if item.name == name and item.locator is not None]
    assert found, f"{name!r} was not seen on {path}"
    return found[0]


def written(case_id, title, base_url, path, steps, expected):
    return TestCase(id=case_id, title=title, steps=steps, expected_results=expected, priority="P2",
                    gap_type="happy_path", status="active", origin="tester", updated_at=time.time() * 1000,
                    preconditions=["Signed in with a test account."], grounding=Grounding(page_url=base_url + path))


@pytest.mark.slow
async def test_an_edit_rewords_what_names_the_moved_route_and_the_renamed_labels(bench, demo):
    user = demo.create_user()
    first = await bench.run("new_test_case", demo, user, request="alerts")
    assert first.status == "completed", first.message
    made = bench.project.cases.cases()
    signed_out = next(c for c in made if c.gap_type == "permissions" and "returns to /alerts" in c.expected_results[0])
    filters = next(c for c in made if "each filter" in c.title)
    catalogs = bench.project.jobs.catalogs(first.id)
    # The dashboard as a hand-written case knows it (the alerts preflight opened it on its way).
    cta = element(catalogs, "/dashboard", "View full credit report")
    tile = element(catalogs, "/dashboard", "Alerts")
    base = demo.base_url
    for case in [
        written("t-cta", "Open the full credit report from the dashboard", base, "/dashboard", [
            CaseStep(action="navigate", url="/dashboard", target="the Dashboard page"),
            CaseStep(action="click", target="the View full credit report link", locator=cta.locator,
                     expected="The View full credit report link opens the report."),
            CaseStep(action="expect_url", url="/credit-report")],
            ["'View full credit report' opens the full credit report.", "The score is shown at the top."]),
        written("t-tile", "The alerts tile opens the alert centre", base, "/dashboard", [
            CaseStep(action="navigate", url="/dashboard"),
            CaseStep(action="click", target="the Alerts tile", locator=tile.locator),
            CaseStep(action="expect_url", url="/alerts", target="the address", expected="The address is /alerts.")],
            ["The Alerts tile opens /alerts.", "Unread alerts come first."]),
        written("t-offers", "The Offers page is not the alert centre", base, "/offers", [
            CaseStep(action="navigate", url="/offers", target="the Offers page")],
            ["The Offers page does not open /alerts."]),
    ]:
        bench.project.cases.save_case(case, "tester", "written by hand")
    before = {c.id: c for c in bench.project.cases.cases()}

    demo.set_flag("alerts_route", "redirect")  # the alert centre moves to /notifications and is called so
    demo.set_flag("new_cta_labels", True)  # 'View full credit report' is now 'See your full credit report'
    job = await bench.run("edit_test_case", demo, user)
    assert job.status == "completed", job.message
    edits = {e["case_id"]: e for e in job.result["edits"]}
    now = {c.id: c for c in bench.project.cases.cases()}

    # The case of the issue: its route moved, so its expected result no longer says "returns to /alerts".
    moved = now[signed_out.id]
    returns = "The sign-in page (/login) opens and, after signing in, returns to /notifications."
    assert moved.expected_results == [returns]
    assert (moved.steps[0].url, moved.steps[0].target, moved.steps[0].expected) == (
        "/notifications", "the Notifications page", "The Notifications page opens.")
    assert moved.steps[1] == signed_out.steps[1]  # the sign-in check names neither
    assert moved.title == signed_out.title and moved.preconditions == signed_out.preconditions
    assert "/alerts → /notifications" in edits[signed_out.id]["summary"]

    # Only what names a change moves: the filters' expectations say neither the route nor the page's name.
    assert now[filters.id].expected_results == filters.expected_results
    assert now[filters.id].steps[0].target == "the Notifications page"
    assert now[filters.id].steps[1:] == filters.steps[1:]

    # A renamed call to action: the steps and expected results that name it follow; the rest stays word for word.
    cta_case = now["t-cta"]
    assert cta_case.expected_results == ["'See your full credit report' opens the full credit report.",
                                         "The score is shown at the top."]
    assert cta_case.steps[1].target == "the See your full credit report link"
    assert cta_case.steps[1].expected == "The See your full credit report link opens the report."
    assert cta_case.steps[0] == before["t-cta"].steps[0] and cta_case.steps[2] == before["t-cta"].steps[2]
    assert cta_case.title == before["t-cta"].title and cta_case.preconditions == before["t-cta"].preconditions

    # The tile took the new name with the route: its check of the address expects where the app now lands.
    tile_case = now["t-tile"]
    assert tile_case.steps[2].url == "/notifications"
    assert tile_case.steps[2].expected == "The address is /notifications."
    assert tile_case.expected_results == ["The Notifications tile opens /notifications.", "Unread alerts come first."]
    assert "It now expects /notifications where it expected /alerts." in edits["t-tile"]["summary"]

    # A case the change does not impact is not touched, even where its words name the old route.
    assert "t-offers" not in edits and now["t-offers"] == before["t-offers"]
