"""The Test Cases dock on a real project file: the case form's edits undo and redo (fields and steps) and save as
a version; an Edit Cases job against the changed demo app shows its edits as diffs, and Reject restores the case
as it was while Accept keeps the agent's version."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest

from studio.models.testcase import CaseStep, Grounding, TestCase
from studio.ui.case_steps_model import DATA, LOCATOR
from studio.ui.context_tree import AMBER, CASE_ROLE
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui]


def hand_written(case_id: str, title: str, base_url: str, path: str, steps: list[CaseStep]) -> TestCase:
    return TestCase(id=case_id, title=title, steps=steps, expected_results=["The page opens"], priority="P2",
                    status="active", origin="tester", updated_at=time.time() * 1000,
                    grounding=Grounding(page_url=base_url + path))


def test_form_edits_undo_redo_and_save_as_a_new_version(qloop, tmp_path):
    services, window = open_studio(tmp_path, "cases.studio")
    try:
        project = services.project.project
        project.cases.save_case(hand_written("t-login", "Sign in with a valid account", "http://app.test", "/login", [
            CaseStep(action="navigate", url="/login"),
            CaseStep(action="fill", target="Email", data="ada@example.test"),
        ]), "tester", "written by hand")
        services.cases.reload()
        editor = window.playground.editor
        form = editor.form
        assert editor.select_case("t-login") and editor.current_id == "t-login"
        assert not editor.save_button.isEnabled()

        QTest.keyClicks(form.title, " twice")
        form.priority.setCurrentText("P0")
        model = form.steps_model
        assert model.setData(model.index(1, DATA), "grace@example.test")
        assert model.setData(model.index(1, LOCATOR), 'page.get_by_label("Email", exact=True)')
        form.add_step()
        assert model.rowCount() == 3 and editor.save_button.isEnabled()

        for _ in range(4):  # the added step, the locator, the data, the priority
            form.undo_action.trigger()
        assert model.rowCount() == 2 and model.rows[1].cells[DATA] == "ada@example.test"
        assert model.rows[1].cells[LOCATOR] == "" and form.priority.currentText() == "P2"
        assert form.title.text() == "Sign in with a valid account twice"  # typing is one undo step
        form.undo_action.trigger()
        assert form.title.text() == "Sign in with a valid account" and not editor.save_button.isEnabled()

        for _ in range(4):
            form.redo_action.trigger()
        assert form.title.text() == "Sign in with a valid account twice" and form.priority.currentText() == "P0"
        assert model.rows[1].cells[DATA] == "grace@example.test" and model.rowCount() == 2

        editor.save_button.click()
        stored = project.cases.case("t-login")
        assert (stored.version, stored.title, stored.priority) == (2, "Sign in with a valid account twice", "P0")
        assert stored.steps[1].locator.python() == 'page.get_by_label("Email", exact=True)'
        assert stored.steps[1].data == "grace@example.test"
        summary = project.cases.history("t-login")[-1].summary
        assert summary == ("Renamed to 'Sign in with a valid account twice'; priority P2 → P0; changed step 2's "
                           "locator and data.")
        assert form.history_list.count() == 2 and form.history_list.item(0).text().startswith("v2 · tester")
        assert editor.item_for("t-login").text(1) == "P0" and not editor.save_button.isEnabled()

        model.setData(model.index(1, LOCATOR), "page.get_by_label(")  # not a locator: refused with a sentence
        assert model.data(model.index(1, LOCATOR), Qt.ItemDataRole.ToolTipRole).startswith("This is not Python")
        assert editor.save() is None and project.cases.case("t-login").version == 2
        assert window.message_bar.label.text().startswith("Not saved: Step 2's locator: This is not Python")
    finally:
        qloop.run_until_complete(close_studio(services, window))


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_edit_job_shows_each_edit_as_a_diff_and_reject_restores_the_case(qloop, demo, tmp_path):
    user = demo.create_user()

    async def scenario():
        services, window = open_studio(tmp_path, "edits.studio")
        project, service = services.project.project, services.playground
        try:
            base = demo.base_url
            for case_id, title in (("t-alerts", "The alert centre opens"), ("t-alerts-2", "Alerts list loads")):
                project.cases.save_case(hand_written(case_id, title, base, "/alerts", [
                    CaseStep(action="navigate", url="/alerts"), CaseStep(action="expect_text", data="Alerts")]),
                    "tester", "written by hand")
            services.cases.reload()
            demo.set_flag("alerts_route", "redirect")  # the app changed under the cases
            front = window.playground
            window.url_bar.url_edit.setText(base)
            front.bar.job_actions["edit_test_case"].trigger()  # nothing selected: the impacted cases
            dialog = await until(lambda: front.question_dialog, what="the login question")
            dialog.boxes[0].set_value(user["email"])
            dialog.boxes[1].set_value(user["password"])
            finished = NextSignal(service.finished)
            dialog.answer_button.click()
            job = await finished.wait(90, what="the edit job")
            assert job.status == "completed" and not service.running, job.message

            # the Context dock: the change is highlighted, open, and names the cases it impacts
            context = front.context
            changes = context.find_item("changes")
            assert changes.background(0).color() == AMBER and changes.text(1) == "cases to update first"
            change = context.find_item("change:0")
            assert change.isExpanded() and change.text(1) == "/alerts now redirects to /notifications."
            impacted = [change.child(row) for row in range(change.childCount())]
            assert [item.data(0, CASE_ROLE) for item in impacted] == ["t-alerts", "t-alerts-2"]
            shoot(context, "context_panel_changes")

            editor = front.editor
            review = editor.review
            assert editor.tabs.currentWidget() is review and editor.tabs.tabText(1) == "Agent edits (2)"
            assert [edit.case_id for edit in review.edits] == ["t-alerts", "t-alerts-2"]
            diff = review.diff.toPlainText()  # the step-aware diff: the navigate step edited, the check unchanged
            assert "\n1\nedited: navigate\nurl: /alerts notifications\n2\nexpect_text\n" in diff, diff
            assert diff.startswith("/alerts now redirects to /notifications: the case opens /notifications "
                                   "directly.\n")
            assert review.summary.text() == '<b><a href="t-alerts">The alert centre opens</a></b>'
            shoot(editor, "case_editor_diff")

            review.reject_button.click()  # t-alerts: back as it was, saved as a new version
            restored = project.cases.case("t-alerts")
            assert restored.version == 3 and restored.steps[0].url == "/alerts"
            assert project.cases.history("t-alerts")[-1].summary == "Rejected the agent's edit; back to version 1."
            assert review.current.case_id == "t-alerts-2" and editor.tabs.tabText(1) == "Agent edits (1)"
            review.accept_button.click()  # t-alerts-2: the agent's version stays
            kept = project.cases.case("t-alerts-2")
            assert kept.version == 2 and kept.steps[0].url == "/notifications"
            assert editor.tabs.tabText(1) == "Agent edits" and not review.accept_button.isEnabled()
            assert [review.list.item(row).text() for row in range(2)] == [
                "✗ The alert centre opens", "✓ Alerts list loads"]
            assert editor.item_for("t-alerts").text(3) == "3"  # the tree shows the restored version

            context.tree.itemActivated.emit(impacted[1], 0)  # an impacted case opens in the editor
            assert editor.tabs.currentIndex() == 0 and editor.current_id == "t-alerts-2"
            assert editor.form.steps_model.rows[0].cells[3] == "/notifications"
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_window_shortcuts_are_unambiguous_and_an_empty_export_says_what_to_do(qloop, tmp_path):
    services, window = open_studio(tmp_path, "shortcuts.studio")
    try:
        # Qt runs neither of two window-wide actions that share a key, so a clash silently kills both.
        bound: dict[str, list[str]] = {}
        for action in window.findChildren(QAction):
            if action.shortcutContext() != Qt.ShortcutContext.WindowShortcut:
                continue
            for key in action.shortcuts():
                bound.setdefault(key.toString(), []).append(action.text())
        clashes = {key: names for key, names in bound.items() if len(names) > 1 and key}
        assert not clashes, clashes
        front = window.playground
        for kind, key in (("preflight", "Ctrl+Alt+P"), ("new_testsuite", "Ctrl+Alt+S"),
                          ("new_test_case", "Ctrl+Alt+C"), ("edit_test_case", "Ctrl+Alt+E")):
            assert front.bar.job_actions[kind].shortcut().toString() == key
        assert {"Ctrl+Alt+X", "Ctrl+Alt+A", "Ctrl+Alt+W", "Ctrl+Alt+R", "Ctrl+6", "Ctrl+7"} <= set(bound)

        front.export_action.trigger()  # nothing selected yet
        assert front.export_dialog is None
        assert window.message_bar.label.text() == "Select one or more cases in Test Cases, then export them."
        front.editor.new_button.click()
        case = services.cases.cases()[0]
        assert front.editor.current_id == case.id and case.steps == []
        front.export_action.trigger()
        assert front.export_dialog.preview.toPlainText().startswith("# This case has no steps yet.")
        assert not front.export_dialog.export_button.isEnabled()
        front.export_dialog.close()
    finally:
        qloop.run_until_complete(close_studio(services, window))
