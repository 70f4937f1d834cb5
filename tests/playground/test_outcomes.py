"""The end message of every job kind and status, in the tester's words: what came out (counts), what blocks, which
confidences are low and why, and the next steps offered. The records have the shape real runs on the demo app
leave in the project (a full preflight, one whose login was skipped, a change detection, the main jobs)."""

from __future__ import annotations

from studio.models.context import (
    SKIPPED,
    Answer,
    AuthState,
    Confidence,
    ContextCollection,
    CoverageGap,
    DetectedChange,
    EntryPoint,
    Evidence,
    FlowSummary,
    JobRecord,
    KeyPage,
    UIMap,
)
from studio.playground.outcomes import CaseFacts, NextStep, auth_words, job_title, outcome, plural

ALL_DONE = ["resolve_base_url", "reach_stable_state", "build_ui_map", "find_entry_points", "discover_flows",
            "detect_changes", "detect_gaps"]
PAGES = [KeyPage(name=name, url=f"/{name.lower()}", how_to_reach=f"Top nav › {name}")
         for name in ("Dashboard", "Disputes", "Alerts", "Offers")]
LOGIN_HINT = "Login form at /login: Email, Password, button Sign in."
SKIPPED_LOGIN = "The login at /login was skipped: only the public pages are mapped; pages behind the login are not " \
                "checked."


def signed_in_context(**changes) -> ContextCollection:
    context = ContextCollection(
        resolved_base_url="http://127.0.0.1:8765/",
        auth_state=AuthState(requires_login=True, hints=LOGIN_HINT),
        candidate_entry_points=[EntryPoint(label="Disputes", url="/disputes", click_path="Top nav › Disputes",
                                           confidence=1.0)],
        ui_map=UIMap(top_nav=[p.name for p in PAGES], key_pages=PAGES),
        discovered_flows_summary=[FlowSummary(flow_name="Dispute wizard", entry_point="/disputes")],
        coverage_gaps=[CoverageGap(gap_type="validation", suggestion="Submit the wizard empty"),
                       CoverageGap(gap_type="concurrency", suggestion="Double-click Submit")],
        answers=[Answer(key="credentials.email", value="demo@example.com"),
                 Answer(key="credentials.password", value="(given; kept out of the project file)")],
        confidence=Confidence(base_url=0.95, entry_points=1.0, coverage=1.0),
        evidence=Evidence(notes=["Signed in as demo@example.com at /login; landed on /dashboard."]))
    return context.model_copy(update=changes)


def skipped_login_context() -> ContextCollection:
    return signed_in_context(
        auth_state=AuthState(requires_login=True, hints=LOGIN_HINT, blockers=[SKIPPED_LOGIN]),
        candidate_entry_points=[EntryPoint(label="Disputes", url="/disputes", confidence=0.15)],
        discovered_flows_summary=[], coverage_gaps=[CoverageGap(gap_type="validation", suggestion="x")],
        answers=[Answer(key="credentials.email", value=SKIPPED), Answer(key="credentials.password", value=SKIPPED)],
        confidence=Confidence(base_url=0.95, entry_points=0.15, coverage=0.0),
        evidence=Evidence(notes=[SKIPPED_LOGIN]))


def job(kind="preflight", status="completed", request="disputes wizard", context=None, result=None, message="",
        done=ALL_DONE, **state) -> JobRecord:
    return JobRecord(id="j1", kind=kind, status=status, request=request, created_at=1.0, updated_at=2.0,
                     context=context or signed_in_context(), state={"done": list(done), **state},
                     result=result or {}, message=message)


def labels(said) -> list[str]:
    return [step.label for step in said.steps]


def test_job_titles_and_plurals_read_as_the_bar_names_them():
    assert job_title("new_testsuite", "Disputes") == "New Suite for “Disputes”"
    assert job_title("preflight") == "Preflight"
    assert [plural(1, "fact"), plural(3, "fact"), plural(2, "entry point")] == ["1 fact", "3 facts", "2 entry points"]


def test_a_completed_preflight_says_what_it_mapped_and_offers_new_cases_for_the_area():
    said = outcome(job())
    assert said.text == ("Preflight for “disputes wizard” finished: signed in as demo@example.com, 4 pages mapped, "
                         "entry point Disputes (/disputes), 1 flow walked, 2 coverage gaps to write cases for.")
    assert said.level == "info"
    assert said.steps == (NextStep("New Cases for “disputes wizard”", "start", "new_test_case", "disputes wizard"),)
    # without a request the area is the entry point it found
    assert labels(outcome(job(request=""))) == ["New Cases for “Disputes”"]


def test_a_preflight_whose_login_was_skipped_says_so_and_offers_the_login_question():
    said = outcome(job(context=skipped_login_context()))
    assert said.text.startswith("Preflight for “disputes wizard” finished without signing in (only the public "
                                "pages): 4 pages mapped, 1 coverage gap to write cases for. Low confidence: ")
    assert "Low confidence: the entry point is a guess (confidence 0.15): the login was skipped; the coverage gaps " \
           "could not all be checked (confidence 0.00)." in said.text
    assert said.level == "warning"
    assert said.steps[0] == NextStep("Answer the login question", "start", "preflight", "disputes wizard")
    assert labels(said) == ["Answer the login question", "New Cases for “disputes wizard”"]


def test_a_preflight_that_detects_changes_offers_the_stale_cases():
    changes = [DetectedChange(type="entry_point_redirected", evidence="/alerts now redirects to /notifications.",
                              impacted_testcase_ids=["t-alerts"]),
               DetectedChange(type="element_missing", evidence="'View full credit report' is gone.",
                              impacted_testcase_ids=["t-cta", "t-tile"]),
               DetectedChange(type="form_field_added", evidence="Phone number is new.",
                              impacted_testcase_ids=["t-cta"])]
    said = outcome(job(context=signed_in_context(detected_changes=changes)))
    assert "3 changes in the app that make 3 cases stale" in said.text and said.level == "warning"
    assert said.steps[0] == NextStep("Open the 3 stale cases", "open_cases", case_ids=("t-alerts", "t-cta", "t-tile"))
    assert said.steps[1] == NextStep("Edit the 3 stale cases", "start", "edit_test_case", "disputes wizard",
                                     ("t-alerts", "t-cta", "t-tile"))


def test_an_unmeasured_confidence_is_not_called_low():
    # cancelled before the entry points were looked for: their 0.00 is "not yet", not "a guess"
    said = outcome(job(status="cancelled", context=signed_in_context(confidence=Confidence(base_url=0.95)),
                       done=["resolve_base_url"], message="Cancelled by the tester; what was found so far is kept."))
    assert said.text == "Preflight for “disputes wizard” was cancelled; what it found is kept (4 pages mapped)."
    assert said.steps == (NextStep("Start again", "start", "preflight", "disputes wizard"),)


def test_new_cases_say_how_many_were_written_and_where_they_were_filed():
    result = {"cases": ["tc-1", "tc-2", "tc-3"], "skipped": ["'A' duplicates 'B' (tc-0)."], "notes": [],
              "summary": "Created 3 case(s) for /disputes; 1 duplicate(s) skipped."}
    said = outcome(job("new_test_case", result=result), CaseFacts(filed={"Disputes suite": 3}))
    assert said.text == ("New Cases for “disputes wizard” finished: 3 cases written, filed under “Disputes suite”, "
                         "1 duplicate skipped.")
    assert said.steps == (NextStep("Open the 3 new cases", "open_cases", case_ids=("tc-1", "tc-2", "tc-3")),)
    loose = outcome(job("new_test_case", result=result), CaseFacts(filed={"": 2, "Disputes suite": 1}))
    assert "3 cases written (1 in “Disputes suite”, 2 in no suite yet), 1 duplicate skipped." in loose.text
    # the job's own record of where they went (a suite it made for them) comes first
    filed = {**result, "suites": ["ts-1"], "filed": [{"suite_id": "ts-1", "suite": "Disputes suite",
                                                        "module": "Disputes", "cases": 3, "new": True}]}
    said = outcome(job("new_test_case", result=filed))
    assert said.text == ("New Cases for “disputes wizard” finished: 3 cases written, filed under the new “Disputes "
                         "suite”, 1 duplicate skipped.")


def test_new_cases_without_the_login_write_nothing_and_offer_the_login_question():
    result = {"cases": [], "summary": f"Created no cases: no area was validated. {SKIPPED_LOGIN}"}
    said = outcome(job("new_test_case", context=skipped_login_context(), result=result))
    assert said.text.startswith("New Cases for “disputes wizard” wrote no cases: no area was validated. The login at "
                                "/login was skipped")
    assert "the entry point is a guess (confidence 0.15): the login was skipped" in said.text
    assert said.level == "warning" and labels(said) == ["Answer the login question"]


def test_a_new_suite_names_the_suites_it_made():
    result = {"suites": ["ts-1"], "cases": ["tc-1", "tc-2"], "skipped": [],
              "notes": ["The suite question was skipped: auto-approved the top candidate (Disputes)."]}
    said = outcome(job("new_testsuite", request="", result=result),
                   CaseFacts(filed={"Disputes suite": 2}, suites=["Disputes suite"]))
    assert said.text == ("New Suite finished: 1 suite made (Disputes suite), 2 cases written, filed under “Disputes "
                         "suite”. The suite question was skipped: auto-approved the top candidate (Disputes).")
    assert labels(said) == ["Open the 2 new cases"]


def test_edit_cases_offer_the_review_and_the_stale_cases():
    edits = [{"case_id": "t-cta", "after": {"status": "active"}}, {"case_id": "t-gone", "after": {"status": "stale"}}]
    changes = [DetectedChange(type="element_missing", evidence="x", impacted_testcase_ids=["t-cta", "t-gone"])]
    said = outcome(job("edit_test_case", request="", context=signed_in_context(detected_changes=changes),
                       result={"edits": edits}))
    assert said.text.startswith("Edit Cases finished: 2 cases edited after 1 change in the app, 1 of them marked "
                                "stale; the other cases were not touched.")
    assert labels(said) == ["Review the 2 edits", "Open the 1 stale case"]
    assert said.steps[1].case_ids == ("t-gone",) and said.level == "warning"
    unchanged = outcome(job("edit_test_case", request="", result={"edits": []}))
    assert unchanged.text == "Edit Cases finished: no case needed a change (the app still matches them)."
    assert unchanged.steps == () and unchanged.level == "info"


def test_cancelled_failed_and_budget_runs_say_what_is_kept_and_how_to_go_on():
    made = {"cases": ["tc-1", "tc-2"], "summary": "Cancelled by the tester; what was made is kept."}
    cancelled = outcome(job("new_test_case", status="cancelled", result=made, message=made["summary"]))
    assert cancelled.text == "New Cases for “disputes wizard” was cancelled; the 2 cases it wrote are kept."
    assert labels(cancelled) == ["Start again", "Open the 2 new cases"]

    spent = "The job used its 40 browser steps."
    budget = outcome(job("new_test_case", status="budget_exhausted", result={"cases": ["tc-1"], "summary": spent},
                         message=spent))
    assert budget.text == ("New Cases for “disputes wizard” stopped at its budget: The job used its 40 browser steps. "
                           "The 1 case it wrote is kept. Narrow the request and start it again to go on.")
    assert labels(budget) == ["Narrow the request", "Start again"] and budget.level == "warning"

    failed = outcome(job(status="failed", message="The browser stopped during the job (Target closed).",
                         context=signed_in_context(ui_map=UIMap())))
    assert failed.text == ("Preflight for “disputes wizard” failed: The browser stopped during the job (Target "
                           "closed). Nothing was found yet.")
    assert failed.level == "error" and labels(failed) == ["Start again"]

    edit_again = outcome(job("edit_test_case", status="cancelled", case_ids=["t-1"], message="Cancelled by the tester"))
    assert edit_again.steps[0] == NextStep("Start again", "start", "edit_test_case", "disputes wizard", ("t-1",))

    discarded = outcome(job(status="cancelled", message="Discarded by the tester; what it found so far is kept."))
    assert discarded.text == "Discarded Preflight for “disputes wizard”; what it found is kept (4 pages mapped)."


def test_waiting_jobs_point_to_their_questions_or_the_job_list():
    paused = outcome(job(status="paused"))
    assert paused.text == "Preflight for “disputes wizard” waits for your answers."
    assert paused.steps == (NextStep("Answer Questions", "answer", job_id="j1"),)
    kept = outcome(job("new_testsuite", status="interrupted", request="Disputes"))
    assert kept.text.startswith("New Suite for “Disputes” is kept waiting") and labels(kept) == ["Show Jobs"]


def test_the_auth_state_follows_the_sign_in():
    assert auth_words(job()) == "signed in as demo@example.com"
    before = job(status="running", done=["resolve_base_url"],
                 context=signed_in_context(evidence=Evidence(), answers=[]))
    assert auth_words(before) == "login required"
    asked = before.model_copy(update={"context": signed_in_context(
        auth_state=AuthState(requires_login=True, blockers=["A login is required at /login and no account was given."]),
        answers=[], evidence=Evidence())})
    assert auth_words(asked) == "not signed in · 1 blocker"
    assert auth_words(job(context=skipped_login_context())) == "not signed in: the login was skipped · 1 blocker"
    kept = signed_in_context(answers=[], evidence=Evidence(), auth_state=AuthState(
        requires_login=True, hints="Signed in already (session kept from an earlier job in this project)."))
    assert auth_words(job(context=kept)) == "signed in (kept from an earlier job)"
    assert auth_words(job(context=ContextCollection())) == "no login seen"


def test_a_job_that_wrote_nothing_is_an_error_with_its_reasons_not_finished():
    from studio.models.nothing import NothingProduced, NothingReason, Tried
    from studio.preflight.nothing import LOGIN, TRY_FORMS

    nothing = NothingProduced(what="wrote no test case", tried=Tried(pages_visited=["/", "/login"], controls_found=7),
                              reasons=[NothingReason(kind="blocked", sentence=SKIPPED_LOGIN, next_step=LOGIN),
                                       NothingReason(kind="blocked", sentence="1 form(s) were not sent.",
                                                     next_step=TRY_FORMS)])
    result = {"cases": [], "suites": [], **nothing.model_dump(mode="json")}
    said = outcome(job("new_testsuite", request="", context=skipped_login_context(), result=result))
    assert said.level == "error"
    assert said.text.startswith("New Suite wrote no test case. It opened 2 pages (/, /login), found 7 controls there "
                                "and tried 0 of them. The login at /login was skipped")
    assert f"Next: {TRY_FORMS}" in said.text and "finished" not in said.text
    assert labels(said) == ["Answer the login question", "Allow Try Forms", "Narrow the request"]
    # an older record (no outcome) reads as before
    assert outcome(job("new_testsuite", request="", result={"cases": [], "suites": []})).level == "warning"


def test_suspected_defects_are_counted_in_the_outcome_until_decided():
    from studio.models.context import Finding

    findings = [Finding(kind="data_lost_on_reload", summary="Items were gone after a reload.", page_url="/"),
                Finding(kind="page_error", summary="The page threw on Next with no cards.", page_url="/cards"),
                Finding(kind="other", summary="Dismissed already.", status="dismissed")]
    result = {"suites": ["ts-1"], "cases": ["tc-1"], "skipped": [], "outcome": "completed"}
    said = outcome(job("new_testsuite", request="", context=signed_in_context(findings=findings), result=result),
                   CaseFacts(filed={"Disputes suite": 1}, suites=["Disputes suite"]))
    assert ("2 suspected defects to confirm or dismiss in Context: Items were gone after a reload; The page threw on "
            "Next with no cards.") in said.text
    assert said.level == "warning"
