"""The playground in the main window: the Playground bar and menu, the Context and Test Cases docks, the question
dialog, the export of cases, and the sentences the tester reads when a job pauses, ends or fails."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from studio.app.case_service import CaseService
from studio.app.playground_service import KIND_NAMES, PlaygroundService
from studio.models.context import JobKind, JobRecord
from studio.models.events import EngineEvent, ItemProgress, PreflightStarted
from studio.models.testcase import CaseEdit, TestCase
from studio.ui.case_editor import CaseEditorPanel, export_folder
from studio.ui.case_export import CaseExportDialog
from studio.ui.context_panel import ContextPanel
from studio.ui.playground_bar import CANCEL_SHORTCUT, PlaygroundBar
from studio.ui.ask import ask_choice
from studio.ui.question_dialog import QuestionDialog

if TYPE_CHECKING:  # the window imports this module
    from studio.ui.main_window import StudioWindow

ANSWER_SHORTCUT = "Ctrl+Alt+A"
EXPORT_SHORTCUT = "Ctrl+Alt+W"
CASES_HEIGHT = 430  # the bottom dock area grows to this when the case editor comes to the front
CONTEXT_WIDTH = 440  # and the right one to this for the context tree's labels and bars


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
        self.context = ContextPanel(service, window)
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

        self.bar.startRequested.connect(self.start)
        service.runningChanged.connect(self._running)
        service.questionsAsked.connect(self.ask)
        service.finished.connect(self._finished)
        service.pausedJobFound.connect(self._paused_job_found)
        service.interruptedJobFound.connect(self._interrupted_job_found)
        service.ask_replace = self.ask_replace
        service.progress.connect(self._on_progress)
        service.errorOccurred.connect(lambda text: self._say(text, "error"))
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

    def _say(self, text: str, level: str) -> None:
        self.window.message_bar.show_message(text, level)

    def _raise(self, key: str) -> None:
        dock = self.window.docks[key]
        dock.show()
        dock.raise_()
        if key == "cases":
            self.window.resizeDocks([dock], [CASES_HEIGHT], Qt.Orientation.Vertical)
        elif key == "context":
            self.window.resizeDocks([dock], [CONTEXT_WIDTH], Qt.Orientation.Horizontal)

    # -- starting ------------------------------------------------------------------------------------

    def start(self, kind: JobKind, request: str) -> None:
        """Start `kind` on the app the browser shows (or the project's known base URL)."""
        case_ids = self.editor.selected_ids() if kind == "edit_test_case" else None
        if kind == "edit_test_case" and not case_ids:
            self._say("No cases are selected, so the agent edits the cases a detected change impacts.", "info")
        self.service.start(kind, self._app_url(), request, case_ids)

    def _app_url(self) -> str | None:
        typed = self.window.url_bar.url_edit.text().strip()
        if urlsplit(typed).scheme in ("http", "https"):
            return typed
        return self.service.base_url() or None

    def _running(self, running: bool) -> None:
        if running:
            self._raise("context")

    def _on_progress(self, event: EngineEvent) -> None:
        if isinstance(event, ItemProgress):
            self.cases.reload_soon()  # the tree fills while the agent writes
        elif isinstance(event, PreflightStarted):
            self.window.docks["context"].raise_()

    # -- questions -----------------------------------------------------------------------------------

    def ask(self, job: JobRecord) -> None:
        """Open the question dialog for a paused job (replacing one still open); answering resumes the job."""
        self._withdraw_dialog()
        if not job.pending:
            return
        what = KIND_NAMES.get(job.kind, job.kind) + (f" for “{job.request}”" if job.request else "")
        dialog = QuestionDialog(job.pending, f"{what} is paused until you answer. Skip lets it decide without "
                                "your answers.", self.window)
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
        self._say(f"The job waits for your answers. Reopen its questions with Playground › Answer Questions "
                  f"({ANSWER_SHORTCUT}), or end it with Cancel Job ({CANCEL_SHORTCUT}).", "warning")

    def _withdraw_dialog(self) -> None:
        dialog, self.question_dialog = self.question_dialog, None
        if dialog is not None:
            dialog.dismissed.disconnect(self._dismissed)
            dialog.close()
            dialog.deleteLater()

    def _paused_job_found(self, job: JobRecord) -> None:
        self._say(f"This project has a paused {KIND_NAMES.get(job.kind, job.kind)} job waiting for your answers. "
                  f"Answer them with Playground › Answer Questions ({ANSWER_SHORTCUT}) and it goes on where it "
                  "stopped.", "warning")

    def _interrupted_job_found(self, job: JobRecord) -> None:
        self.service.spawn(self._offer_resume(job), "resume or discard an interrupted job")

    async def _offer_resume(self, job: JobRecord) -> None:
        what = KIND_NAMES.get(job.kind, job.kind) + (f" for “{job.request}”" if job.request else "")
        choice = await self.choose("Interrupted job", f"{what} (job {job.id}) did not finish. "
                                f"{job.message.removeprefix('Interrupted: ')}", ["Resume", "Discard", "Later"],
                                "Resume", escape="Later")
        if choice == "Resume":
            self.service.resume_interrupted(job)
        elif choice == "Discard":
            self.service.discard(job)
            self._say(f"Discarded {what}; what it found is kept in the project.", "info")
        else:
            self._say(f"{what} stays interrupted; it is offered again when the project is opened.", "info")

    async def ask_replace(self, running: str, new: str) -> bool:
        choice = await self.choose("A job is running", f"{running} is still running. Cancel it and start {new}? "
                                "What it found so far is kept.", [f"Cancel it and start {new}", "Keep it running"],
                                "Keep it running")
        return choice is not None and choice.startswith("Cancel it")

    async def choose(self, title: str, text: str, choices: list[str], default: str,
                     escape: str | None = None) -> str | None:
        """The tester's choice (a seam: tests replace it)."""
        return await ask_choice(self.window, title, text, choices, default, escape)

    # -- endings -------------------------------------------------------------------------------------

    def _finished(self, job: JobRecord) -> None:
        self._withdraw_dialog()
        kind = KIND_NAMES.get(job.kind, job.kind)
        summary = str(job.result.get("summary") or job.message or "").strip()
        if job.status == "completed":
            self._say(f"{kind} finished. {summary}".strip(), "info")
        elif job.status == "cancelled":
            self._say(f"{kind} cancelled. {summary or 'What it found so far is kept.'}", "info")
        elif job.status == "budget_exhausted":
            self._say(f"{kind} stopped at its budget: {summary} What it made is kept; start it again with a narrower "
                      "request (the Request field) to go on.", "warning")
        else:
            self._say(f"{kind} failed. {summary or 'No reason was recorded; see the log, then start it again.'}",
                      "error")
        self.cases.reload()
        edits = [CaseEdit.model_validate(edit) for edit in job.result.get("edits") or []]
        if edits:
            self.editor.set_edits(edits)
            self._raise("cases")
        elif job.result.get("cases"):
            self._raise("cases")
            self.editor.select_case(job.result["cases"][0])

    # -- cases ---------------------------------------------------------------------------------------

    def open_case(self, case_id: str) -> None:
        if self.editor.select_case(case_id):
            self._raise("cases")
        else:
            self._say(f"Case {case_id} is no longer in this project (it was deleted or the project changed).",
                      "warning")

    def export_cases(self, cases: list[TestCase]) -> None:
        """Preview the selected cases as Playwright tests; the dialog writes the one shown."""
        if not cases:
            self._say("Select one or more cases in Test Cases, then export them.", "info")
            return
        project = self.service.project
        folder = export_folder(project.path, project.untitled)
        dialog = CaseExportDialog([(case, self.cases.export_steps(case)) for case in cases], folder, self.window)
        dialog.exported.connect(lambda result: self._say(
            f"Wrote {result.test_file}. Run it with pytest (or npx playwright test) from {result.out}.", "info"))
        if self.export_dialog is not None:
            self.export_dialog.close()
        self.export_dialog = dialog
        dialog.open()
