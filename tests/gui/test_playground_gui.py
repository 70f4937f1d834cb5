"""The playground in the studio window against the demo app and a real Chromium: a New Cases job started from the
Playground bar asks for the login in the question dialog, resumes, ticks through its cases and fills the Test Cases
editor; the Context dock shows what the preflight found; the selected case exports as a Playwright test; Cancel
ends a running or a paused job cleanly."""

from __future__ import annotations

import asyncio
import py_compile

import pytest
from PySide6.QtWidgets import QLineEdit

from studio.models.events import ItemProgress, PreflightProgress
from studio.ui.context_tree import BAR_ROLE, GAP, KEY_ROLE, SCREENSHOT_ROLE, _bar_color
from studio.ui.dialogs import ScreenshotViewer
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]


async def start_new_cases(services, window, demo, request="disputes wizard"):
    """What a tester does: open the app in the browser, type the area, press New Cases."""
    session = await services.browser.start(services.runtime.session_options(viewport=(1280, 720)), demo.base_url)
    assert session is not None
    await until(lambda: window.url_bar.url_edit.text().startswith(demo.base_url), what="the address")
    front = window.playground
    front.bar.request.setText(request)
    front.bar.job_actions["new_test_case"].trigger()
    return front


async def question_dialog(front):
    return await until(lambda: front.question_dialog if front.question_dialog is not None
                       and front.question_dialog.isVisible() else None, what="the question dialog")


@pytest.mark.timeout(120)
def test_new_cases_from_the_bar_ask_for_the_login_then_fill_the_editor(qloop, demo, tmp_path):
    user = demo.create_user()

    async def scenario():
        services, window = open_studio(tmp_path)
        service = services.playground
        seen: list[tuple[bool, str]] = []  # what the progress bar showed as each case was reported
        try:
            front = await start_new_cases(services, window, demo)
            bar, context, editor = front.bar, front.context, front.editor
            service.progress.connect(lambda event: isinstance(event, ItemProgress) and event.index and seen.append(
                (bar.progress_action.isVisible(), bar.progress.format())))

            # (a) the job pauses at the login wall and the dialog asks for the account, saying why
            dialog = await question_dialog(front)
            assert service.job.status == "paused" and not service.running
            assert [box.pending.key for box in dialog.boxes] == ["credentials.email", "credentials.password"]
            assert "The app asks for a login at /login" in dialog.boxes[0].question.text()
            assert dialog.boxes[0].why.text().startswith("Why I'm asking: ")
            assert dialog.boxes[1].edit.echoMode() == QLineEdit.EchoMode.Password
            assert not dialog.answer_button.isEnabled()  # nothing typed yet
            assert bar.cancel_action.isEnabled() and not bar.progress_action.isVisible()
            dialog.boxes[0].set_value(user["email"])
            dialog.boxes[1].set_value(user["password"])
            shoot(dialog, "question_dialog")
            assert dialog.answer_button.isEnabled()
            finished = NextSignal(service.finished)
            dialog.answer_button.click()
            assert not dialog.isVisible()

            # the job resumes from the answers and ends; every case ticked the progress bar by
            job = await finished.wait(90, what="the job to complete")
            assert job.status == "completed" and not service.running and service.job is job, job.message
            created = job.result["cases"]
            assert len(created) >= 5, job.result
            assert seen[:len(created)] == [(True, f"Case {n} of {len(created)} created")
                                           for n in range(1, len(created) + 1)]
            assert bar.ticks == list(range(1, len(created) + 1))
            assert not bar.progress_action.isVisible() and not bar.cancel_action.isEnabled()
            assert window.message_bar.label.text().startswith("New Cases for “disputes wizard” finished: ")

            # the cases are in the editor's tree, the first one open in the form
            assert all(editor.item_for(case_id) is not None for case_id in created)
            first = services.cases.case(created[0])
            assert editor.current_id == created[0] and editor.form.title.text() == first.title
            assert editor.form.steps_model.rowCount() == len(first.steps) > 0
            editor.priority_filter.setCurrentIndex(editor.priority_filter.findData("P0"))
            p0 = {case.id for case in services.cases.cases() if case.priority == "P0"}
            assert set(editor.visible_case_ids()) == p0 != set(created)
            editor.priority_filter.setCurrentIndex(0)
            shoot(window, "window_after_new_cases")
            shoot(editor, "case_editor_form")

            # (b) the Context dock: /disputes as an entry point with its confidence drawn as a bar, gaps highlighted
            context.show_job(job)
            window.docks["context"].show()  # the tester opens it (View › Context): jobs never move the docks
            window.docks["context"].raise_()
            entry = next(p for p in job.context.candidate_entry_points if p.url and p.url.endswith("/disputes"))
            item = context.find_item(f"entry:{entry.url}")
            assert item is not None and item.data(1, BAR_ROLE) == entry.confidence >= 0.5
            await until(lambda: context.tree.isVisible(), what="the context tree")
            context.tree.scrollToItem(item)
            rect = context.tree.visualItemRect(item)
            column = context.tree.header().sectionPosition(1)
            image = context.tree.viewport().grab().toImage()
            fill = image.pixelColor(column + 10, rect.center().y())
            expected = _bar_color(entry.confidence)
            assert abs(fill.red() - expected.red()) + abs(fill.green() - expected.green()) \
                + abs(fill.blue() - expected.blue()) < 90, (fill.name(), expected.name())
            gaps = context.find_item("gaps")
            assert gaps.background(0).color() == GAP and gaps.text(1) == "cases to write first"
            kinds = {gaps.child(row).data(0, KEY_ROLE) for row in range(gaps.childCount())}
            assert {"gaps:validation", "gaps:concurrency", "gaps:error_states"} <= kinds
            validation = context.find_item("gaps:validation")
            assert validation.isExpanded() and validation.childCount() >= 1  # open: these are the work to do
            shoot(context, "context_panel")

            # an evidence link opens the page's screenshot
            shots = context.find_item("evidence:shots")
            assert shots.childCount() > 0
            link = shots.child(0)
            context.tree.itemActivated.emit(link, 0)
            viewer = await until(lambda: [v for v in window.findChildren(ScreenshotViewer) if v.isVisible()],
                                 what="the screenshot viewer")
            assert link.data(0, SCREENSHOT_ROLE) is not None and viewer[0].windowTitle().startswith("Screenshot ")
            viewer[0].close()

            # (d) export of the selected case: a preview in Playwright code, then a file that compiles
            wizard = next(c for c in services.cases.cases() if c.gap_type == "happy_path")
            editor.select_case(wizard.id)
            editor.tree.clearSelection()
            editor.item_for(wizard.id).setSelected(True)
            front.export_action.trigger()
            export = front.export_dialog
            assert export is not None and export.isVisible()
            code = export.preview.toPlainText()
            assert "page.get_by_" in code and 'page.goto("/disputes")' in code, code
            assert export.preview.document().firstBlock().layout().formats()  # highlighted, not plain text
            shoot(export, "export_preview")
            export.folder.setText(str(tmp_path / "exported"))
            export.export_button.click()
            written = export.result_info
            assert written is not None and written.test_file.read_text() == code
            py_compile.compile(str(written.test_file), doraise=True)
            assert str(written.test_file) in window.message_bar.label.text()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(150)
def test_cancel_ends_running_and_paused_jobs_cleanly_and_a_waiting_job_still_resumes(qloop, demo, tmp_path):
    user = demo.create_user()

    async def scenario():
        services, window = open_studio(tmp_path)
        service, jobs = services.playground, services.project.project.jobs
        try:
            # a job waits at the login question; the tester closes the dialog and starts another one, keeping the
            # first one waiting
            front = await start_new_cases(services, window, demo)
            (await question_dialog(front)).close()

            async def keep_waiting(title, text, choices, default, escape=None):
                return "Keep it waiting"

            front.choose = keep_waiting
            waiting = service.job
            pressed: list[str] = []

            def cancel_on_first_step(event):
                if isinstance(event, PreflightProgress) and not pressed:
                    pressed.append(event.objective)
                    assert front.bar.cancel_action.isEnabled() and front.bar.progress_action.isVisible()
                    front.bar.cancel_action.trigger()

            service.progress.connect(cancel_on_first_step)
            front.bar.job_actions["new_test_case"].trigger()
            await until(lambda: pressed and not service.running, timeout=60, what="the job to stop")
            job = jobs.get(service.job.id)
            assert job.id != waiting.id and job.status == "cancelled" and "Cancelled by the tester" in job.message
            assert front.question_dialog is None and not front.bar.cancel_action.isEnabled()
            assert not front.bar.progress_action.isVisible()
            assert front.context.status.text().find("Cancelled") > 0 and not front.context.cancel_button.isEnabled()
            assert window.message_bar.label.text().startswith("New Cases for “disputes wizard” was cancelled")
            service.progress.disconnect(cancel_on_first_step)

            # the first job is untouched by that cancel: answered, it runs to its end (not on the cancelled engine)
            assert jobs.get(waiting.id).status == "paused"
            front.answer_action.trigger()
            dialog = await question_dialog(front)
            assert service.job.id == waiting.id
            dialog.boxes[0].set_value(user["email"])
            dialog.boxes[1].set_value(user["password"])
            dialog.answer_button.click()
            await until(lambda: jobs.get(waiting.id).status != "paused" and not service.running, timeout=90,
                        what="the waiting job to end")
            assert jobs.get(waiting.id).status == "completed", jobs.get(waiting.id).message

            # paused at the login question (a new browser, so signed out): Cancel closes the job and the dialog
            window.end_session()
            await until(lambda: not services.browser.alive, what="the session to end")
            front.bar.job_actions["new_test_case"].trigger()
            await question_dialog(front)
            paused = service.job
            front.bar.cancel_action.trigger()
            await until(lambda: front.question_dialog is None, what="the dialog to close")
            stored = jobs.get(paused.id)
            assert stored.status == "cancelled" and stored.pending == []
            assert not service.running and not front.bar.cancel_action.isEnabled()
            assert jobs.latest_paused() is None
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(150)
@pytest.mark.slow
def test_new_suite_paused_at_its_choice_resumes_after_the_studio_is_reopened(qloop, demo, tmp_path):
    user = demo.create_user()

    async def answer_login(front):
        dialog = await question_dialog(front)
        assert dialog.boxes[0].pending.key == "credentials.email"
        dialog.boxes[0].set_value(user["email"])
        dialog.boxes[1].set_value(user["password"])
        dialog.answer_button.click()

    async def scenario():
        services, window = open_studio(tmp_path)
        front = window.playground
        window.url_bar.url_edit.setText(demo.base_url)
        front.bar.job_actions["new_testsuite"].trigger()
        await answer_login(front)
        dialog = await until(lambda: front.question_dialog if front.question_dialog is not None
                             and front.question_dialog.boxes[0].pending.key == "suites" else None,
                             timeout=60, what="the suite question")
        options = [button.text() for button in dialog.boxes[0].choices.buttons()]
        assert "Disputes" in options and options[-1] == "Other:"  # choices, and room for the tester's own
        assert not dialog.answer_button.isEnabled()
        dialog.close()  # the tester closes the dialog (and then the studio) without choosing
        assert "waits for your answers" in window.message_bar.label.text()
        await close_studio(services, window)

        services, window = open_studio(tmp_path, "playground.studio", reopen=True)
        front = window.playground
        try:
            assert window.message_bar.label.text().startswith("This project has a paused job: New Suite waits")
            front.answer_action.trigger()
            dialog = await question_dialog(front)
            disputes = next(b for b in dialog.boxes[0].choices.buttons() if b.text() == "Disputes")
            disputes.click()
            assert dialog.answers()[0].value == "Disputes"
            service = services.playground
            finished = NextSignal(service.finished)
            dialog.answer_button.click()
            await answer_login(front)  # a new browser signs in again: the password was never stored
            job = await finished.wait(90, what="the suite job")
            assert job.status == "completed" and not service.running, job.message
            suites = services.cases.suites()
            assert [suite.module for suite in suites] == ["Disputes"]
            group = front.editor.tree.topLevelItem(0)
            cases = services.cases.cases()
            assert group.text(0) == f"{suites[0].title}  ({len(cases)})" and len(cases) >= 3
            assert all(case.suite_id == suites[0].id for case in cases)
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.timeout(120)
def test_skip_in_the_question_dialog_lets_the_job_decide_without_the_answers(qloop, demo, tmp_path):
    from studio.models.context import SKIPPED

    async def scenario():
        services, window = open_studio(tmp_path)
        service = services.playground
        try:
            front = await start_new_cases(services, window, demo)
            dialog = await question_dialog(front)
            assert dialog.skip_button.isEnabled()
            finished = NextSignal(service.finished)
            dialog.skip_button.click()  # "decide without my answer": the login is skipped
            job = await finished.wait(90, what="the job to end")
            assert job.status == "completed", job.message
            assert front.question_dialog is None or not front.question_dialog.isVisible()  # not asked again
            assert {(a.key, a.value) for a in job.context.answers} >= {("credentials.email", SKIPPED),
                                                                        ("credentials.password", SKIPPED)}
            assert "login at /login was skipped" in job.message and job.result["cases"] == []
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.slow
def test_starting_a_job_while_one_runs_asks_first_and_never_orphans_it(qloop, tmp_path):
    from tests.trust.hostile_app import HostileApp

    async def scenario():
        services, window = open_studio(tmp_path)
        service, jobs = services.playground, services.project.project.jobs
        front = window.playground
        asked: list[str] = []
        answer = {"choice": "Don't start"}

        async def choose(title, text, choices, default, escape=None):
            asked.append(text)
            return next(choice for choice in choices if choice.startswith(answer["choice"]))

        front.choose = choose
        try:
            with HostileApp() as app:
                app.knobs["slow_s"] = 30.0
                window.url_bar.url_edit.setText(app.app_url + "/slow")
                front.bar.job_actions["preflight"].trigger()
                await until(lambda: service.running and service.job is not None, timeout=30, what="the preflight")
                first = service.job.id

                front.bar.request.setText("reports")
                front.bar.job_actions["new_test_case"].trigger()
                await until(lambda: asked, what="the question")
                assert "Preflight is running. Start New Cases for “reports”?" in asked[0]
                await until(lambda: "did not start" in window.message_bar.label.text(), what="the sentence")
                assert service.running and [job.id for job in jobs.all()] == [first]

                answer["choice"] = "Cancel the running one"
                front.bar.job_actions["new_test_case"].trigger()
                await until(lambda: len(jobs.all()) == 2, timeout=60, what="the second job")
                assert jobs.get(first).status == "cancelled"
                front.bar.cancel_action.trigger()
                await until(lambda: not service.running, timeout=60, what="the second job to stop")
                assert [job.status for job in jobs.all()] == ["cancelled", "cancelled"]
                assert jobs.latest_paused() is None
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_an_interrupted_job_is_offered_when_the_project_opens_and_can_be_discarded(qloop, tmp_path):
    from studio.preflight.job import Preflight
    from studio.store.project import ProjectFile

    with ProjectFile.create(tmp_path / "playground.studio") as project:
        job = Preflight(None, project).new_job("http://127.0.0.1:9/", "reports")  # type: ignore[arg-type]
        project.jobs.save(job)  # saved as running by a process that is gone: no lease

    async def scenario():
        services, window = open_studio(tmp_path, reopen=True)
        asked: list[str] = []

        async def choose(title, text, choices, default, escape=None):
            asked.append(f"{title}: {text} {choices}")
            return "Discard"

        window.playground.choose = choose
        try:
            await until(lambda: asked, what="the offer")
            assert asked[0].startswith(f"Interrupted job: Preflight for “reports” (job {job.id}) did not finish.")
            assert "['Resume', 'Discard', 'Later']" in asked[0]
            jobs = services.project.project.jobs
            await until(lambda: jobs.get(job.id).status == "cancelled", what="the discard")
            assert window.message_bar.label.text().startswith("Discarded Preflight for “reports”")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_the_choice_box_answers_with_the_button_pressed(qloop, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from studio.ui.ask import ask_choice

    async def scenario():
        services, window = open_studio(tmp_path)
        try:
            asking = asyncio.ensure_future(ask_choice(window, "A job is running", "Preflight is still running. Cancel "
                                                      "it and start New test cases? What it found so far is kept.",
                                                      ["Cancel it and start New test cases", "Keep it running"],
                                                      "Keep it running"))
            box = await until(lambda: next(iter(window.findChildren(QMessageBox)), None), what="the box")
            await until(box.isVisible, what="the box shown")
            shoot(box, "ask-replace-job")
            assert box.defaultButton().text() == box.escapeButton().text() == "Keep it running"
            assert [b.text() for b in box.buttons()] == ["Cancel it and start New test cases", "Keep it running"]
            next(b for b in box.buttons() if b.text().startswith("Cancel it")).click()
            assert await asking == "Cancel it and start New test cases"
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
