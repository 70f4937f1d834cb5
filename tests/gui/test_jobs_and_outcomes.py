"""Jobs never replace each other silently, and every job's end says what came out with its next step as a button.

Starting a job while another runs or waits asks (Cancel the running one / Keep it waiting / Don't start) and each
choice does what it says to the project's job records; the status bar's job list shows the jobs that run or wait,
with Resume and Discard; the outcome messages of a preflight whose login was skipped, a full one, New Cases and a
change detection offer their next steps, and pressing them does those steps; Context's auth state follows the
sign-in. Against a real Chromium, the demo app (or the hostile fixture app for a page that is slow on purpose) and
real project files. Screenshots go to $STUDIO_GUI_SHOTS at a 1366×768 window."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from studio.app.playground_service import KEPT_WAITING
from studio.models.testcase import CaseStep, Grounding, TestCase
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]

LAPTOP = (1366, 768)


def laptop_studio(tmp_path, name="jobs.studio"):
    services, window = open_studio(tmp_path, name)
    window.resize(*LAPTOP)
    return services, window


def message(window) -> str:
    return window.message_bar.label.text() if window.message_bar.isVisible() else ""


def buttons(window) -> list[str]:
    return [button.text() for button in window.message_bar.action_buttons] if window.message_bar.isVisible() else []


async def outcome_of(window, service, timeout=90):
    """The next job end's record, once its message is up."""
    job = await NextSignal(service.finished).wait(timeout, what="the job to end")
    await until(lambda: window.message_bar.isVisible(), what="the outcome message")
    return job


async def answer_login(front, user):
    dialog = await until(lambda: front.question_dialog if front.question_dialog is not None
                         and front.question_dialog.isVisible() else None, timeout=60, what="the login question")
    assert dialog.boxes[0].pending.key == "credentials.email"
    dialog.boxes[0].set_value(user["email"])
    dialog.boxes[1].set_value(user["password"])
    dialog.answer_button.click()


@pytest.mark.timeout(300)
@pytest.mark.slow
def test_a_job_started_while_another_runs_or_waits_asks_and_does_what_the_tester_chose(qloop, tmp_path):
    """Every job here first opens a page the app takes 6 s to answer (it then stops at the login, waiting): long
    enough to start another job meanwhile; a job asked to stop ends at its next step, after that page."""
    from tests.trust.hostile_app import HostileApp

    async def scenario():
        services, window = laptop_studio(tmp_path)
        service, jobs = services.playground, services.project.project.jobs
        front = window.playground
        listed = front.jobs_button
        real_choose = front.choose
        asked: list[tuple[str, list[str]]] = []
        answer = {"choice": "Don't start"}

        async def choose(title, text, choices, default, escape=None):
            asked.append((text, choices))
            return answer["choice"]

        def statuses() -> list[str]:
            return [job.status for job in jobs.all()]

        async def started(count: int, what: str) -> str:
            await until(lambda: len(jobs.all()) == count and service.running, timeout=60, what=what)
            return jobs.all()[-1].id

        try:
            with HostileApp() as app:
                app.knobs["slow_s"] = 6.0
                window.url_bar.url_edit.setText(app.app_url + "/slow")
                front.bar.job_actions["preflight"].trigger()
                first = await started(1, "the preflight")

                # the real question names both jobs and offers the three choices; Don't start changes nothing
                front.bar.request.setText("reports")
                front.bar.request.returnPressed.emit()  # Enter in the Request field: New Cases
                box = await until(lambda: next((b for b in window.findChildren(QMessageBox) if b.isVisible()), None),
                                  what="the job-conflict question")
                assert box.text().startswith("Preflight is running. Start New Cases for “reports”?")
                assert "Keep it waiting: it stops at its next step and waits in Jobs" in box.text()
                assert [b.text() for b in box.buttons()] == ["Cancel the running one", "Keep it waiting",
                                                             "Don't start"]
                assert box.defaultButton().text() == box.escapeButton().text() == "Don't start"
                shoot(box, "job_conflict_question")
                window.repaint()
                shoot(window, "job_conflict_question_window")
                next(b for b in box.buttons() if b.text() == "Don't start").click()
                await until(lambda: "did not start" in message(window), what="the sentence")
                assert message(window) == "New Cases for “reports” did not start; Preflight still runs."
                assert service.running and [job.id for job in jobs.all()] == [first] and statuses() == ["running"]

                # Keep it waiting: the preflight stops after its step and waits, resumable; New Cases starts
                front.choose = choose
                answer["choice"] = "Keep it waiting"
                front.bar.job_actions["new_test_case"].trigger()
                second = await started(2, "the second job")
                kept = jobs.get(first)
                assert kept.status == "interrupted" and kept.message == KEPT_WAITING.format(
                    new="New Cases for “reports”")
                assert not any(note.startswith("Cancelled") for note in kept.context.evidence.notes)
                assert message(window).startswith("Preflight is kept waiting; resume it from Jobs")
                assert buttons(window) == ["Show Jobs"]

                # the job list: one running (Cancel), one waiting (Resume, Discard)
                await until(lambda: listed.text() == "Jobs: 1 running, 1 waiting", what="the job list's count")
                window.message_bar.button("Show Jobs").click()
                panel = listed.panel
                assert panel.isVisible() and list(panel.rows) == [first, second]
                assert panel.rows[first]["status"].text().startswith("Waiting to be resumed · started ")
                assert {"resume", "discard"} <= set(panel.rows[first]) and "cancel" in panel.rows[second]
                assert panel.rows[second]["title"].text() == "<b>New Cases</b> · “reports”"
                shoot(panel, "job_list")
                shoot(window, "job_list_window")
                panel.hide()

                # a third job while one runs and one waits: the question names both; Cancel the running one
                answer["choice"] = "Cancel the running one"
                front.bar.request.setText("")
                front.bar.job_actions["preflight"].trigger()
                third = await started(3, "the third job")
                assert asked[-1][0].startswith("New Cases for “reports” is running, and Preflight is waiting. Start "
                                               "Preflight?")
                assert statuses() == ["interrupted", "cancelled", "running"]

                # Discard from the list: closed for good, what it found kept; Context still follows the running job
                listed.click()
                panel.rows[first]["discard"].click()
                await until(lambda: jobs.get(first).status == "cancelled", what="the discard")
                assert jobs.get(first).message.startswith("Discarded by the tester")
                assert message(window).startswith("Discarded Preflight;")
                await until(lambda: listed.text() == "Jobs: 1 running", what="the list to follow")
                await until(lambda: service.job.id == third and front.context.job.id == third, what="Context")

                # the third stops at the login question; closed unanswered, it waits (Answer Questions offered)
                dialog = await until(lambda: front.question_dialog, timeout=60, what="the login question")
                dialog.close()
                assert jobs.get(third).status == "paused" and buttons(window) == ["Answer Questions"]
                await until(lambda: listed.text() == "Jobs: 1 waiting", what="the list to follow")

                # a waiting job kept waiting, then a running one kept waiting too
                answer["choice"] = "Keep it waiting"
                front.bar.request.setText("reports")
                front.bar.job_actions["new_test_case"].trigger()
                fourth = await started(4, "the fourth job")
                assert asked[-1][0].startswith("Preflight is waiting. Start New Cases for “reports”?")
                assert asked[-1][1] == ["Cancel the waiting one", "Keep it waiting", "Don't start"]
                assert jobs.get(third).status == "paused"
                front.bar.job_actions["preflight"].trigger()
                fifth = await started(5, "the fifth job")
                assert asked[-1][0].startswith("New Cases for “reports” is running, and Preflight is waiting.")
                assert [jobs.get(i).status for i in (third, fourth, fifth)] == ["paused", "interrupted", "running"]
                await until(lambda: listed.text() == "Jobs: 1 running, 2 waiting", what="the list to follow")

                # Cancel Job: the outcome says so and offers Start again
                front.bar.cancel_action.trigger()
                await until(lambda: not service.running and jobs.get(fifth).status == "cancelled", timeout=60,
                            what="the fifth job to stop")
                await until(lambda: "was cancelled" in message(window), what="the cancel's outcome")
                assert "Start again" in buttons(window)

                # Resume the kept job from the list: the same job goes on, nothing else is asked or started
                asked.clear()
                listed.click()
                panel.rows[fourth]["resume"].click()
                await until(lambda: service.running and jobs.get(fourth).status == "running", timeout=30,
                            what="the kept job to go on")
                assert asked == [] and len(jobs.all()) == 5
                front.bar.cancel_action.trigger()
                await until(lambda: not service.running and jobs.get(fourth).status == "cancelled", timeout=60,
                            what="the fourth job to stop")

                # Resume the paused one: its questions open again
                listed.click()
                panel.rows[third]["resume"].click()
                dialog = await until(lambda: front.question_dialog if front.question_dialog is not None
                                     and front.question_dialog.isVisible() else None, what="its questions")
                assert dialog.boxes[0].pending.key == "credentials.email"
                dialog.close()

                # Cancel the waiting one: closed for good when the new job starts
                answer["choice"] = "Cancel the waiting one"
                front.bar.job_actions["preflight"].trigger()
                await started(6, "the sixth job")
                closed = jobs.get(third)
                assert closed.status == "cancelled" and "when Preflight for “reports” started" in closed.message
                front.bar.cancel_action.trigger()
                await until(lambda: not service.running, timeout=60, what="the sixth job to stop")
                assert "interrupted" not in statuses() and "paused" not in statuses()
                await until(lambda: listed.text() == "Jobs: none", what="an empty list")
        finally:
            front.choose = real_choose
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(300)
@pytest.mark.slow
def test_outcomes_say_what_came_out_and_their_buttons_take_the_next_step(qloop, demo, tmp_path):
    user = demo.create_user()

    async def scenario():
        services, window = laptop_studio(tmp_path)
        service, front = services.playground, window.playground
        try:
            # a preflight whose login is skipped: the outcome says so, with the low confidence in words
            window.url_bar.url_edit.setText(demo.base_url)
            front.bar.request.setText("disputes wizard")
            front.bar.job_actions["preflight"].trigger()
            dialog = await until(lambda: front.question_dialog, timeout=60, what="the login question")
            ending = NextSignal(service.finished)
            dialog.skip_button.click()
            await ending.wait(90, what="the skipped-login preflight")
            await until(lambda: message(window), what="the outcome")
            said = message(window)
            assert said.startswith("Preflight for “disputes wizard” finished without signing in (only the public "
                                   "pages): ")
            assert "the entry point is a guess (confidence 0.15): the login was skipped" in said
            assert buttons(window) == ["Answer the login question", "New Cases for “disputes wizard”"]
            assert window.message_bar.level == "warning"
            assert front.context.find_item("auth").text(1) == "not signed in: the login was skipped · 1 blocker"
            shoot(window, "outcome_preflight_login_skipped")

            # Answer the login question: a preflight that asks it, and Context then says who is signed in
            window.message_bar.button("Answer the login question").click()
            assert not window.message_bar.isVisible()
            ending = NextSignal(service.finished)
            await answer_login(front, user)
            job = await ending.wait(90, what="the signed-in preflight")
            await until(lambda: message(window), what="the outcome")
            assert job.status == "completed" and job.request == "disputes wizard"
            said = message(window)
            assert said.startswith(f"Preflight for “disputes wizard” finished: signed in as {user['email']}, ")
            assert "entry point Disputes (/disputes)" in said and "coverage gaps to write cases for" in said
            assert "Low confidence" not in said and window.message_bar.level == "info"
            assert buttons(window) == ["New Cases for “disputes wizard”"]
            assert front.context.find_item("auth").text(1) == f"signed in as {user['email']}"
            assert "Context" in window.statusBar().currentMessage()  # badged and said, never raised
            shoot(window, "outcome_preflight")

            # Context, opened by the tester: the gap sentences read whole, wrapped to the dock's width
            dock = window.docks["context"]
            dock.show()
            dock.raise_()
            context = front.context
            await until(lambda: context.tree.isVisible(), what="the context tree")
            gap = context.find_item("gaps:validation").child(0)
            tree = context.tree
            tree.scrollToItem(gap)
            rect = tree.visualItemRect(gap)
            needed = tree.fontMetrics().horizontalAdvance(gap.text(0))
            assert rect.width() < needed and rect.height() > 1.5 * tree.fontMetrics().height()  # wrapped, not cut
            assert gap.toolTip(0) == gap.text(0)
            shoot(window, "context_after_preflight")
            shoot(context, "context_panel")

            # New Cases for the area: the count and where they went; Open shows them in Test Cases
            ending = NextSignal(service.finished)
            window.message_bar.button("New Cases for “disputes wizard”").click()
            job = await ending.wait(120, what="New Cases")
            await until(lambda: message(window), what="the outcome")
            created = job.result["cases"]
            assert job.kind == "new_test_case" and len(created) >= 5, job.result
            said = message(window)
            assert said.startswith(f"New Cases for “disputes wizard” finished: {len(created)} cases written")
            open_label = f"Open the {len(created)} new cases"
            assert buttons(window) == [open_label]
            shoot(window, "outcome_new_cases")
            window.message_bar.button(open_label).click()
            editor = front.editor
            assert set(editor.selected_ids()) == set(created) and editor.current_id == created[0]
            assert window.docks["cases"].isVisible()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(240)
@pytest.mark.slow
def test_a_detected_change_offers_the_stale_cases_and_their_edit(qloop, demo, tmp_path):
    user = demo.create_user()

    async def scenario():
        services, window = laptop_studio(tmp_path, "changes.studio")
        service, front, project = services.playground, window.playground, services.project.project
        try:
            titles = {"t-alerts": "The alert centre opens", "t-alerts-2": "Alerts list loads",
                      "t-alerts-3": "An alert can be read"}
            for case_id, title in titles.items():
                project.cases.save_case(TestCase(
                    id=case_id, title=title, status="active", origin="tester", updated_at=1.0,
                    grounding=Grounding(page_url=demo.base_url + "/alerts"),
                    steps=[CaseStep(action="navigate", url="/alerts"), CaseStep(action="expect_text", data="Alerts")]),
                    "tester", "written by hand")
            services.cases.reload()
            demo.set_flag("alerts_route", "redirect")  # the app changed under the cases
            window.url_bar.url_edit.setText(demo.base_url)
            front.bar.job_actions["preflight"].trigger()
            ending = NextSignal(service.finished)
            await answer_login(front, user)
            await ending.wait(90, what="the preflight")
            await until(lambda: message(window), what="the outcome")
            said = message(window)
            assert "1 change in the app that make 3 cases stale" in said, said
            assert buttons(window)[:2] == ["Open the 3 stale cases", "Edit the 3 stale cases"]
            # Context names the impacted cases by their titles
            change = front.context.find_item("change:0")
            assert [change.child(row).text(0) for row in range(change.childCount())] == \
                [f"Impacted: {title}" for title in titles.values()]
            shoot(window, "outcome_change_detection")

            window.message_bar.button("Open the 3 stale cases").click()
            assert set(front.editor.selected_ids()) == set(titles)

            # Edit the stale cases: the edit job runs on exactly them, and its outcome offers the review
            ending = NextSignal(service.finished)
            window.url_bar.url_edit.setText(demo.base_url)
            window.message_bar.button("Edit the 3 stale cases").click()
            job = await ending.wait(120, what="Edit Cases")
            await until(lambda: message(window), what="the outcome")
            assert job.kind == "edit_test_case" and set(job.state["case_ids"]) == set(titles)
            assert message(window).startswith("Edit Cases finished: 3 cases edited after 1 change in the app")
            assert buttons(window)[0] == "Review the 3 edits"
            shoot(window, "outcome_edit_cases")
            window.message_bar.button("Review the 3 edits").click()
            assert front.editor.tabs.currentWidget() is front.editor.review and window.docks["cases"].isVisible()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(120)
def test_a_cancelled_job_says_what_is_kept_and_starts_again_from_its_button(qloop, tmp_path):
    from tests.trust.hostile_app import HostileApp

    async def scenario():
        services, window = laptop_studio(tmp_path)
        service, jobs = services.playground, services.project.project.jobs
        services.runtime.jobs.grace_s = 2.0
        front = window.playground
        try:
            with HostileApp() as app:
                app.knobs["slow_s"] = 60.0
                window.url_bar.url_edit.setText(app.app_url + "/slow")
                front.bar.request.setText("reports")
                front.bar.job_actions["new_test_case"].trigger()
                await until(lambda: service.running and jobs.all(), timeout=30, what="the job")
                ending = NextSignal(service.finished)
                front.bar.cancel_action.trigger()
                job = await ending.wait(60, what="the cancel")
                await until(lambda: message(window), what="the outcome")
                assert job.status == "cancelled"
                assert message(window) == "New Cases for “reports” was cancelled; nothing was found yet."
                assert buttons(window) == ["Start again"] and window.message_bar.level == "info"
                shoot(window, "outcome_cancelled")

                front.bar.request.setText("something else")
                window.message_bar.button("Start again").click()
                # The new job may run or already ask (the slow page may still hold the server): it exists either way.
                await until(lambda: len(jobs.all()) == 2, timeout=30, what="the new job")
                again = jobs.all()[1]
                assert (again.kind, again.request) == ("new_test_case", "reports")
                assert front.bar.request.text() == "reports"
                # Cancel is enabled once the job runs or asks (a disabled action ignores its trigger).
                await until(front.bar.cancel_action.isEnabled, timeout=30, what="Cancel Job to be enabled")
                front.bar.cancel_action.trigger()
                await until(lambda: not service.running and jobs.get(again.id).status in ("cancelled", "completed"),
                            timeout=60, what="the job to stop")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
