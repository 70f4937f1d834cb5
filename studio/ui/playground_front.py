"""The playground in the main window: the Playground bar and menu, the Context and Test Cases docks, the question
dialog, the job list, the export of cases, and the sentences the tester reads when a job pauses, ends or fails —
each end with its next step as a button. Jobs never move the docks: a dock with news is badged (DockHost.attention).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from studio.app.case_service import CaseService
from studio.app.job_service import CANCEL_OTHER, KEEP_WAITING, ConflictChoice, JobConflict
from studio.app.playground_service import PlaygroundService, job_title
from studio.models.context import JobKind, JobRecord
from studio.models.events import EngineEvent, ItemProgress
from studio.models.testcase import CaseEdit, TestCase
from studio.playground.outcomes import CaseFacts, NextStep, outcome
from studio.ui.ask import ask_choice
from studio.ui.case_editor import CaseEditorPanel, export_folder
from studio.ui.case_export import CaseExportDialog, written_sentence
from studio.ui.context_panel import ContextPanel
from studio.ui.job_list import JobListButton
from studio.ui.playground_bar import CANCEL_SHORTCUT, PlaygroundBar
from studio.ui.question_dialog import QuestionDialog

if TYPE_CHECKING:  # the window imports this module
    from studio.ui.main_window import StudioWindow

ANSWER_SHORTCUT = "Ctrl+Alt+A"
EXPORT_SHORTCUT = "Ctrl+Alt+W"
JOBS_SHORTCUT = "Ctrl+Alt+J"
# The job-conflict question's buttons.
CANCEL_RUNNING, CANCEL_WAITING, KEEP, DONT_START = ("Cancel the running one", "Cancel the waiting one",
                                                    "Keep it waiting", "Don't start")


class PlaygroundFront(QObject):
    """Composes the playground widgets on `window` (a StudioWindow) around the two services."""

    def __init__(self, window: StudioWindow, service: PlaygroundService, cases: CaseService) -> None:
        super().__init__(window)
        self.window = window
        self.service = service
        self.cases = cases
        self.question_dialog: QuestionDialog | None = None
        self.export_dialog: CaseExportDialog | None = None

        self.bar = PlaygroundBar(service, window)
        window.addToolBarBreak(Qt.ToolBarArea.TopToolBarArea)
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.bar)
        self.context = ContextPanel(service, window, cases=cases)
        self.editor = CaseEditorPanel(cases, window)
        docks = window.docks
        docks.add("context", "Context", self.context, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+6")
        docks.add("cases", "Test Cases", self.editor, Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+7")
        if "inspector" in docks.docks:
            window.tabifyDockWidget(docks["inspector"], docks["context"])
            docks["inspector"].raise_()
        bottom = docks["steps"] if "steps" in docks.docks else docks["events"]
        window.tabifyDockWidget(bottom, docks["cases"])
        docks["events"].raise_()
        window.resizeDocks([docks["events"]], [260], Qt.Orientation.Vertical)
        self._build_menu()
        self.jobs_button = JobListButton(service, window)
        window.statusBar().addPermanentWidget(self.jobs_button)

        self.bar.startRequested.connect(self.start)
        service.runningChanged.connect(self._running)
        service.questionsAsked.connect(self.ask)
        service.finished.connect(self._finished)
        service.pausedJobFound.connect(self._paused_job_found)
        service.interruptedJobFound.connect(self._interrupted_job_found)
        service.ask_conflict = self.ask_conflict
        service.jobKept.connect(self._kept)
        service.stopping.connect(self._stopping)
        service.progress.connect(self._on_progress)
        service.errorOccurred.connect(lambda text: self._say(text, "error"))
        service.notice.connect(lambda text: self._say(text, "info"))
        cases.errorOccurred.connect(lambda text: self._say(text, "error"))
        cases.notice.connect(lambda text: self._say(text, "info"))
        self.editor.notice.connect(lambda text: self._say(text, "warning"))
        self.editor.exportRequested.connect(self.export_cases)
        self.context.caseActivated.connect(self.open_case)
        self.context.screenshotActivated.connect(window.show_screenshot)

    def _build_menu(self) -> None:
        menu = QMenu("&Playground", self.window)
        self.window.menuBar().insertMenu(self.window.help_menu.menuAction(), menu)
        for action in self.bar.job_actions.values():
            menu.addAction(action)
        menu.addSeparator()
        self.answer_action = self._menu_action(menu, "&Answer Questions…", self.answer_questions, ANSWER_SHORTCUT)
        menu.addAction(self.bar.cancel_action)
        self.jobs_action = self._menu_action(menu, "&Jobs…", lambda: self.jobs_button.open_list(), JOBS_SHORTCUT)
        menu.addSeparator()
        menu.addAction(self.bar.focus_action)
        self.export_action = self._menu_action(menu, "E&xport Selected Cases…", self.editor.request_export,
                                               EXPORT_SHORTCUT)

    def _menu_action(self, menu: QMenu, text: str, slot, shortcut: str) -> QAction:
        action = QAction(text, self.window)
        action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _say(self, text: str, level: str, steps: tuple[NextStep, ...] = ()) -> None:
        self.window.message_bar.show_message(text, level, [(step.label, self._taker(step)) for step in steps])

    def _taker(self, step: NextStep) -> Callable[[], None]:
        return lambda: self.take(step)

    def _attention(self, key: str, reason: str) -> None:
        """`key` has news: its title is badged and the status bar says why; the layout never moves."""
        self.window.docks.attention(key, reason)

    # -- starting ------------------------------------------------------------------------------------

    def start(self, kind: JobKind, request: str, case_ids: list[str] | None = None) -> None:
        """Start `kind` on the app the browser shows (or the project's known base URL)."""
        if kind == "edit_test_case" and case_ids is None:
            case_ids = self.editor.selected_ids()
            if not case_ids:
                self._say("No cases are selected, so the agent edits the cases a detected change impacts.", "info")
        self.service.start(kind, self._app_url(), request, case_ids if kind == "edit_test_case" else None)

    def _app_url(self) -> str | None:
        typed = self.window.url_bar.url_edit.text().strip()
        if urlsplit(typed).scheme in ("http", "https"):
            return typed
        return self.service.base_url() or None

    def _running(self, running: bool) -> None:
        if running:
            self._attention("context", f"{self.service.title or 'A job'} runs; Context follows it.")

    def _on_progress(self, event: EngineEvent) -> None:
        if isinstance(event, ItemProgress):
            self.cases.reload_soon()  # the tree fills while the agent writes

    # -- questions -----------------------------------------------------------------------------------

    def ask(self, job: JobRecord) -> None:
        """Open the question dialog for a paused job (replacing one still open); answering resumes the job."""
        self._withdraw_dialog()
        if not job.pending:
            return
        dialog = QuestionDialog(job.pending, f"{job_title(job.kind, job.request)} is paused until you answer. Skip "
                                "lets it decide without your answers.", self.window)
        dialog.answered.connect(lambda answers, job_id=job.id: self.service.answer(job_id, answers))
        dialog.dismissed.connect(self._dismissed)
        self.question_dialog = dialog
        dialog.ask()

    def answer_questions(self) -> None:
        job = self.service.job
        if job is None or job.status != "paused":
            project = self.service.project.project
            job = project.jobs.latest_paused() if project is not None else None
        if job is None:
            self._say("No job is waiting for answers. Start one from the Playground menu.", "info")
            return
        self.service.resume_paused(job)

    def _dismissed(self) -> None:
        job = self.service.job
        what = job_title(job.kind, job.request) if job is not None else "The job"
        self._say(f"{what} waits for your answers. Reopen its questions with Answer Questions ({ANSWER_SHORTCUT}), "
                  f"or end it with Cancel Job ({CANCEL_SHORTCUT}).", "warning",
                  (NextStep("Answer Questions", "answer"),))

    def _withdraw_dialog(self) -> None:
        dialog, self.question_dialog = self.question_dialog, None
        if dialog is not None:
            dialog.dismissed.disconnect(self._dismissed)
            dialog.close()
            dialog.deleteLater()

    def _paused_job_found(self, job: JobRecord) -> None:
        self._say(f"This project has a paused job: {job_title(job.kind, job.request)} waits for your answers. "
                  f"Answer them (Playground › Answer Questions, {ANSWER_SHORTCUT}) and it goes on where it stopped.",
                  "warning", (NextStep("Answer Questions", "answer", job_id=job.id),))

    def _interrupted_job_found(self, job: JobRecord) -> None:
        self.service.spawn(self._offer_resume(job), "resume or discard an interrupted job")

    async def _offer_resume(self, job: JobRecord) -> None:
        what = job_title(job.kind, job.request)
        choice = await self.choose("Interrupted job", f"{what} (job {job.id}) did not finish. "
                                f"{job.message.removeprefix('Interrupted: ')}", ["Resume", "Discard", "Later"],
                                "Resume", escape="Later")
        if choice == "Resume":
            self.service.resume_interrupted(job)
        elif choice == "Discard":
            self.service.discard(job)  # its end message says what is kept
        else:
            self._say(f"{what} stays interrupted; resume or discard it from Jobs in the status bar.", "info",
                      (NextStep("Show Jobs", "show_jobs"),))

    async def ask_conflict(self, conflict: JobConflict) -> ConflictChoice:
        """Another job runs or waits while `conflict.new` is to start: cancel it, keep it waiting, or don't start."""
        waiting = conflict.waiting
        others = _listed(waiting)
        if conflict.running:
            title = "A job is running"
            said = f"{conflict.running} is running" + (f", and {others} {_is(waiting)} waiting" if waiting else "")
            cancel = CANCEL_RUNNING
            lines = [f"{cancel}: it ends at its next step; what it found so far is kept."]
            if conflict.can_keep_running:
                lines.append(f"{KEEP}: it stops at its next step and waits in Jobs (status bar); Resume goes on "
                             "from there.")
            else:
                lines.append("It cannot be kept waiting: it has saved nothing to go on from yet.")
            lines.append(f"{DONT_START}: it goes on.")
        else:
            title = "A job is waiting"
            said = f"{others} {_is(waiting)} waiting"
            cancel = CANCEL_WAITING if len(waiting) == 1 else "Cancel the waiting ones"
            lines = [f"{cancel}: closed for good; what {'it' if len(waiting) == 1 else 'they'} found is kept.",
                     (f"{KEEP}: {'it stays' if len(waiting) == 1 else 'they stay'} in Jobs (status bar), to resume "
                      "later."), f"{DONT_START}: nothing changes."]
        choices = [cancel, *([KEEP] if conflict.can_keep_running or not conflict.running else []), DONT_START]
        text = f"{said}. Start {conflict.new}?\n\n" + "\n".join(lines)
        choice = await self.choose(title, text, choices, DONT_START, escape=DONT_START)
        if choice == cancel:
            return CANCEL_OTHER
        return KEEP_WAITING if choice == KEEP else None

    def _stopping(self, title: str, kept: bool) -> None:
        self._say(f"Stopping {title} at its next step so that the new job can start…" if kept else
                  f"Cancelling {title} so that the new job can start…", "info")

    def _kept(self, job: JobRecord) -> None:
        self._say(outcome(job).text, "info", outcome(job).steps)

    async def choose(self, title: str, text: str, choices: list[str], default: str,
                     escape: str | None = None) -> str | None:
        """The tester's choice (a seam: tests replace it)."""
        return await ask_choice(self.window, title, text, choices, default, escape)

    # -- endings -------------------------------------------------------------------------------------

    def _finished(self, job: JobRecord) -> None:
        self._withdraw_dialog()
        self.cases.reload()
        said = outcome(job, self._case_facts(job))
        self._say(said.text, said.level, said.steps)
        nothing = job.status == "completed" and job.result.get("outcome") == "nothing"
        self._attention("context", f"{job_title(job.kind, job.request)} finished with nothing: why is in Context."
                        if nothing else f"{job_title(job.kind, job.request)}: what it found is in Context.")
        edits = [CaseEdit.model_validate(edit) for edit in job.result.get("edits") or []]
        if edits:
            self.editor.set_edits(edits)
            self._attention("cases", f"{len(edits)} agent edit{'s' if len(edits) != 1 else ''} to review in Test "
                                     "Cases.")
        elif job.result.get("cases"):
            self.editor.select_case(job.result["cases"][0])
            count = len(job.result["cases"])
            self._attention("cases", f"{count} new case{'s' if count != 1 else ''} in Test Cases.")

    def _case_facts(self, job: JobRecord) -> CaseFacts:
        """Where the job's new cases went, and the names of the suites it made."""
        suites = {suite.id: suite.title for suite in self.cases.suites()}
        filed: dict[str, int] = {}
        for case_id in job.result.get("cases") or []:
            case = self.cases.case(case_id)
            if case is not None:
                name = suites.get(case.suite_id or "", "")
                filed[name] = filed.get(name, 0) + 1
        made = [suites[suite_id] for suite_id in job.result.get("suites") or [] if suite_id in suites]
        return CaseFacts(filed=filed, suites=made)

    # -- next steps ------------------------------------------------------------------------------------

    def take(self, step: NextStep) -> None:
        """Do what an outcome's button offers."""
        if step.intent == "start":
            if step.kind != "edit_test_case":
                self.bar.request.setText(step.request)
            case_ids = list(step.case_ids) if step.kind == "edit_test_case" else None
            self.start(step.kind, step.request, case_ids)  # type: ignore[arg-type]  # a kind the outcome names
        elif step.intent == "open_cases":
            self.open_cases(list(step.case_ids))
        elif step.intent == "review_edits":
            self._show_dock("cases")
            self.editor.tabs.setCurrentWidget(self.editor.review)
        elif step.intent == "narrow":
            self.bar.focus_request()
        elif step.intent == "show_jobs":
            self.jobs_button.open_list()
        elif step.intent == "try_forms":
            self.bar.try_forms_action.setChecked(True)
            self._say("Try Forms is on: the next preflight sends the app's forms with sample data (use it on a test "
                      "or staging app). Start the job again.", "info", (NextStep("Start again", "start", step.kind,
                                                                                 step.request),))
        elif step.intent == "answer":
            project = self.service.project.project
            job = project.jobs.get(step.job_id) if step.job_id and project is not None else None
            if job is not None and job.status == "paused":
                self.service.resume_paused(job)
            else:
                self.answer_questions()

    # -- cases ---------------------------------------------------------------------------------------

    def open_case(self, case_id: str) -> None:
        """The tester opened a case (Context, an outcome's button): Test Cases shows it."""
        if self.editor.select_case(case_id):
            self._show_dock("cases")
        else:
            self._say(f"Case {case_id} is no longer in this project (it was deleted or the project changed).",
                      "warning")

    def open_cases(self, case_ids: list[str]) -> None:
        """Show `case_ids` selected in Test Cases, the first one open in the form."""
        self.cases.reload()
        found = [case_id for case_id in case_ids if self.editor.item_for(case_id) is not None]
        if not found:
            self._say("Those cases are no longer in this project (they were deleted or the project changed).",
                      "warning")
            return
        self.editor.select_case(found[0])
        for case_id in found:
            item = self.editor.item_for(case_id)
            if item is not None:
                item.setSelected(True)
        self._show_dock("cases")

    def _show_dock(self, key: str) -> None:
        """Only for what the tester asked to see (a case they opened, an outcome's button)."""
        dock = self.window.docks[key]
        dock.show()
        dock.raise_()

    def export_cases(self, cases: list[TestCase]) -> None:
        """Preview the selected cases as Playwright tests; the dialog writes them all, one test file each."""
        if not cases:
            self._say("Select one or more cases in Test Cases, then export them.", "info")
            return
        project = self.service.project
        folder = export_folder(project.path, project.untitled)
        dialog = CaseExportDialog(cases, self.cases.base_url, folder, self.window)
        dialog.exported.connect(lambda result: self._say(written_sentence(result, dialog.written), "info"))
        if self.export_dialog is not None:
            self.export_dialog.close()
        self.export_dialog = dialog
        dialog.open()


def _listed(titles: tuple[str, ...]) -> str:
    if len(titles) <= 2:
        return " and ".join(titles)
    return f"{', '.join(titles[:2])} and {len(titles) - 2} more"


def _is(titles: tuple[str, ...]) -> str:
    return "is" if len(titles) == 1 else "are"
