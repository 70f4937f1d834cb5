"""Reviewing the agent's edits on a real project file at a 1366×768 window: Accept All / Reject All in one step,
Ctrl+Z and the Undo button put every case back (in the project file too), single decisions undo as well; the
step-aware diff shows renumbered, moved, edited and added steps as such; the impacted cases are listed by title,
each a link that opens it; the edit list is wide enough for the titles; a case export's folder name is safe."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.models.context import ContextCollection, DetectedChange, JobRecord
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.testcase import CaseEdit, CaseStep, Grounding, TestCase, TestSuite
from studio.ui.export_dialog import safe_folder_name
from tests.gui.support import close_studio, open_studio, shoot

pytestmark = [pytest.mark.gui]

BASE = "http://127.0.0.1:8765"
TITLES = ["Disputes (step 1 of 3): empty required fields are refused",
          "Disputes (step 2 of 3): Description with special characters",
          "Disputes (step 2 of 3): Description with over-long text",
          "Disputes: a server error on Submit dispute keeps the answers",
          "Disputes: pressing Submit dispute twice submits once",
          "Disputes wizard: Back keeps what was entered",
          "Disputes: complete the wizard with valid data",
          "Disputes: signed-out visitors are sent to sign in",
          "Disputes (step 2 of 3): empty required fields are refused"]
UNEDITED = "Disputes: the dispute list shows the newest first"


def role(kind: str, name: str) -> LocatorSpec:
    return LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role=kind, name=name, exact=True)])


def label(text: str) -> LocatorSpec:
    return LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=text, exact=True)])


def wizard_steps(submit: str = "Submit dispute") -> list[CaseStep]:
    return [CaseStep(action="navigate", url="/disputes", expected="Step 1 of 3 shows"),
            CaseStep(action="select", target="Account", locator=label("Account"), data="Checking ••4411"),
            CaseStep(action="click", target="the Next button", locator=role("button", "Next")),
            CaseStep(action="select", target="Reason", locator=label("Reason"), data="Unrecognised charge"),
            CaseStep(action="fill", target="Description", locator=label("Description"), data="I never bought this"),
            CaseStep(action="click", target="the Next button", locator=role("button", "Next")),
            CaseStep(action="click", target=f"the {submit} button", locator=role("button", submit),
                     expected="A dispute number shows")]


def seeded_edits(project) -> tuple[list[CaseEdit], dict[str, TestCase]]:
    """Nine agent-written cases and the agent's edit of each (Submit dispute is now Send dispute); the first also
    gets a new required field filled, Description moved before Reason, and a changed expected result."""
    now = time.time() * 1000
    suite = project.cases.save_suite(TestSuite(id="ts-disputes", title="Disputes suite", module="Disputes",
                                               created_at=now, updated_at=now))
    originals: dict[str, TestCase] = {}
    edits = []
    for number, title in enumerate(TITLES, 1):
        case = TestCase(id=f"tc-{number}", suite_id=suite.id, title=title, steps=wizard_steps(), priority="P1",
                        expected_results=["Step 2 of 3 shows", "A dispute number shows"], status="active",
                        grounding=Grounding(page_url=BASE + "/disputes"), updated_at=now)
        before = originals[case.id] = project.cases.save_case(case, "agent", "Created from a gap.")
        steps = wizard_steps("Send dispute")
        reasons = ["'Submit dispute' is now 'Send dispute' (page.get_by_role(\"button\", name=\"Send dispute\"))."]
        changed = {"steps": steps}
        if number == 1:
            steps.insert(0, CaseStep(action="navigate", url="/", expected="The dashboard shows"))
            steps[4], steps[5] = steps[5], steps[4]  # Description now comes before Reason
            steps.insert(6, CaseStep(action="check", target="I confirm the charge is not mine",
                                     locator=label("I confirm the charge is not mine")))
            changed["expected_results"] = ["Step 2 of 4 shows", "A dispute number shows"]
            reasons.append("New required field 'I confirm the charge is not mine' (checkbox): the case now checks it.")
        after = project.cases.save_case(before.model_copy(update=changed), "agent", " ".join(reasons))
        edits.append(CaseEdit(case_id=case.id, before=before, after=after, summary=" ".join(reasons),
                              reasons=reasons))
    unedited = project.cases.save_case(TestCase(id="tc-list", suite_id=suite.id, title=UNEDITED, updated_at=now,
                                                steps=[CaseStep(action="navigate", url="/disputes")]), "agent", "")
    impacted = [edit.case_id for edit in edits] + [unedited.id]
    project.jobs.save(JobRecord(
        id="job-edit", kind="edit_test_case", status="completed", created_at=now, updated_at=now,
        context=ContextCollection(detected_changes=[DetectedChange(
            type="cta_renamed", evidence="'Submit dispute' is now 'Send dispute' on /disputes.",
            impacted_testcase_ids=impacted)]),
        result={"edits": [edit.model_dump(mode="json") for edit in edits]}))
    return edits, originals


def contents(case: TestCase) -> tuple:
    """What a tester sees of a case, whatever its version number."""
    return case.title, case.steps, case.expected_results, case.status, case.suite_id


def open_review(tmp_path: Path, name: str):
    services, window = open_studio(tmp_path, name)
    window.resize(1366, 768)
    project = services.project.project
    edits, originals = seeded_edits(project)
    services.cases.reload()
    editor = window.playground.editor
    window.workspaces.switch("Playground")  # the workspace the tester reviews in
    window.docks["cases"].raise_()
    editor.set_edits(edits)  # as the window does when an Edit Test Cases job ends
    QTest.qWait(50)
    return services, window, project, editor, edits, originals


def test_accept_all_and_reject_all_are_one_step_each_and_undo_restores_every_case(qloop, tmp_path):
    services, window, project, editor, edits, originals = open_review(tmp_path, "review.studio")
    try:
        review = editor.review
        assert editor.tabs.currentWidget() is review and editor.tabs.tabText(1) == "Agent edits (9)"
        assert review.accept_all_button.text() == "Accept All (9)" and not review.undo_button.isEnabled()
        agent = {edit.case_id: contents(project.cases.case(edit.case_id)) for edit in edits}
        shoot(window, "review_edit_list_1366")

        review.reject_all_button.click()  # nine cases back as they were, in one transaction
        for edit in edits:
            case = project.cases.case(edit.case_id)
            assert contents(case) == contents(originals[edit.case_id]) and case.version == 3
        assert editor.tabs.tabText(1) == "Agent edits" and not review.reject_all_button.isEnabled()
        assert all(review.list.item(row).text().startswith("✗ ") for row in range(9))
        assert review.list.item(0).toolTip().endswith("\nRejected.")
        assert window.message_bar.label.text().startswith("Rejected the agent's edits of 9 cases")
        assert review.undo_button.isEnabled() and "Reject all 9 edits" in review.undo_button.toolTip()
        assert editor.item_for("tc-1").text(3) == "3"  # the tree shows the restored versions

        review.list.setFocus()
        QTest.keyClick(review.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Z in the list
        for edit in edits:
            case = project.cases.case(edit.case_id)
            assert contents(case) == agent[edit.case_id] and case.version == 4
            assert project.cases.history(edit.case_id)[-1].summary == ("Undid the rejection of the agent's edit. "
                                                                       "Back to version 2.")
        assert editor.tabs.tabText(1) == "Agent edits (9)" and review.waiting == 9
        assert [review.list.item(row).text() for row in range(9)] == TITLES
        assert window.message_bar.label.text().startswith("Undone: reject all 9 edits.")

        review.accept_all_button.click()  # the agent's versions stay: nothing is written
        assert all(project.cases.case(e.case_id).version == 4 for e in edits) and review.waiting == 0
        shoot(window, "review_accept_all_1366")
        review.undo_button.click()
        assert review.waiting == 9 and all(project.cases.case(e.case_id).version == 4 for e in edits)

        # One at a time: each decision is its own undo step, in the project file too.
        review.select("tc-2")
        review.reject_button.click()
        assert contents(project.cases.case("tc-2")) == contents(originals["tc-2"])
        assert review.current.case_id == "tc-1"  # the next edit still waiting
        review.accept_button.click()
        assert review.waiting == 7
        review.undo_stack.undo()  # the accept
        assert review.waiting == 8 and review.current.case_id == "tc-1" and review.accept_button.isEnabled()
        review.undo_stack.undo()  # the reject
        assert contents(project.cases.case("tc-2")) == agent["tc-2"] and review.waiting == 9
        review.redo_action.trigger()
        assert contents(project.cases.case("tc-2")) == contents(originals["tc-2"]) and review.waiting == 8

        # An undo never overwrites what the tester saved after the decision.
        review.select("tc-3")
        review.reject_button.click()
        rejected = project.cases.case("tc-3")
        services.cases.save(rejected.model_copy(update={"title": "Disputes: over-long Description is cut"}))
        review.undo_stack.undo()
        kept = project.cases.case("tc-3")
        assert kept.title == "Disputes: over-long Description is cut" and kept.version == rejected.version + 1
        assert "changed after the rejection" in window.message_bar.label.text()
        assert review.waiting == 8  # the decision is open again all the same
    finally:
        qloop.run_until_complete(close_studio(services, window))


def test_the_diff_matches_steps_by_content_and_impacted_cases_open_by_title(qloop, tmp_path):
    services, window, _project, editor, edits, _originals = open_review(tmp_path, "diff.studio")
    try:
        review = editor.review
        review.select("tc-1")
        text = review.diff.toPlainText()
        # renumbered, moved, edited and added steps said as such, never as removed and added again
        assert "Steps: 5 renumbered, 1 moved, 1 edited, 2 added." in text, text
        assert "\n1\nadded: navigate\nurl: /\nexpect: The dashboard shows\n1 → 2\nrenumbered: navigate\n2 → 3" in text
        assert "\n3 → 4\nrenumbered: click the Next button\n" in text
        assert "\n5\nmoved up: fill Description\n" in text  # it now comes before Reason
        assert "\n4 → 6\nrenumbered: select Reason\n" in text
        assert "\n7\nadded: check I confirm the charge is not mine\n" in text
        assert "\n7 → 9\nedited: click the Submit Send dispute button\n" in text
        assert "removed" not in text
        assert "\n1\nedited: Step 2 of 3 4 shows\n2\nA dispute number shows" in text
        assert text.startswith("'Submit dispute' is now 'Send dispute'")  # what the edit is for, then the diff
        html = review.shown_html
        assert "line-through" in html and ">Submit<" in html and ">Send<" in html  # the words that changed
        assert review.diff.find("moved up")  # the tester scrolls to the moved step
        scroll = review.diff.verticalScrollBar()
        scroll.setValue(scroll.value() + review.diff.cursorRect().top() - 60)
        review.diff.moveCursor(review.diff.textCursor().MoveOperation.Start)
        shoot(window, "review_step_diff_1366")
        dock = window.docks["cases"]
        window.resizeDocks([dock], [900], Qt.Orientation.Horizontal)  # the tester widens the panel: side by side
        QTest.qWait(50)
        assert review.splitter.orientation() == Qt.Orientation.Horizontal
        assert review.diff.find("edited:")
        shoot(window, "review_step_diff_wide_1366")
        window.resizeDocks([dock], [420], Qt.Orientation.Horizontal)
        QTest.qWait(50)
        assert review.splitter.orientation() == Qt.Orientation.Vertical

        # the impacted cases by title (not id), each a link; the one not edited says so
        impacted = review.impacted.text()
        assert impacted.startswith(f'<b>Impacted cases (10):</b> <a href="tc-list">{UNEDITED}</a>')
        for edit in edits:
            assert f'<a href="{edit.case_id}">{edit.after.title}</a>' in impacted
        assert f'<a href="tc-list">{UNEDITED}</a> <span style="color:#6b7280;">(not edited)</span>' in impacted
        assert "tc-1<" not in impacted and ">tc-" not in impacted
        assert review.impacted_area.isVisible()
        shoot(review, "review_impacted_by_title_1366")
        review.impacted.linkActivated.emit("tc-list")  # what a click on the link sends
        assert editor.tabs.currentIndex() == 0 and editor.current_id == "tc-list"
        shoot(window, "review_opened_case_1366")
        editor.tabs.setCurrentWidget(review)
        review.summary.linkActivated.emit(review.current.case_id)  # the selected edit's title is a link too
        assert editor.current_id == "tc-1"

        # the list is wide enough for the titles at 1366×768; a longer one is elided with its full text as tooltip
        editor.tabs.setCurrentWidget(review)
        QTest.qWait(50)
        metrics = review.list.fontMetrics()
        room = review.list.viewport().width() - 8
        assert all(metrics.horizontalAdvance(title) <= room for title in TITLES), (room, window.width())
        first = review.list.item(0)
        assert first.toolTip().startswith(TITLES[0] + "\n'Submit dispute' is now 'Send dispute'")
        assert review.list.textElideMode() == Qt.TextElideMode.ElideRight
    finally:
        qloop.run_until_complete(close_studio(services, window))


def test_a_case_exports_into_a_folder_any_system_accepts(qloop, tmp_path):
    assert safe_folder_name("case:tc-1a2b: Disputes? <step 2>/3 *now*|\\\"") == "case-tc-1a2b-Disputes-step-2-3-now"
    assert safe_folder_name("::") == "test" and safe_folder_name("résumé.v2_final") == "r-sum-.v2_final"
    services, window = open_studio(tmp_path, "export.studio")
    try:
        project = services.project.project
        project.cases.save_case(TestCase(id="tc-9f8e7d6c", title="Disputes: step 1 of 3 — refused? (empty)",
                                         steps=wizard_steps(), grounding=Grounding(page_url=BASE + "/disputes")),
                                "agent", "written")
        services.cases.reload()
        front = window.playground
        assert front.editor.select_case("tc-9f8e7d6c")
        front.export_action.trigger()
        dialog = front.export_dialog
        for language in (0, 1):
            dialog.language.setCurrentIndex(language)
            name = Path(dialog.folder.text()).name
            assert re.fullmatch(r"[A-Za-z0-9._-]+", name), name
            assert name.startswith("tc-9f8e7d6c-disputes-step-1-of-3-refused")
            assert name.endswith(("-python", "-typescript"))
        dialog.close()
    finally:
        qloop.run_until_complete(close_studio(services, window))
