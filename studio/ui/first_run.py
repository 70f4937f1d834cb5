"""The browser on first run: when a session cannot start because no Chrome, Edge or Chromium is found (or the one
chosen in Settings is gone), the window says so and offers three choices — fetch Playwright's Chromium (a progress
bar fed from the installer's output, and Cancel that stops it), choose a browser by path (checked with --version, then
kept in Settings), or not now. Once a browser is ready the session starts again.

The dialog opens with open(), never exec(); its one modal seam, the file dialog, is `ask_browser_path` (tests replace
it). The installer command can be given (`installer`, or STUDIO_BROWSER_INSTALLER) so tests run a stand-in.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCommandLinkButton,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.app.browser_service import BrowserService
from studio.app.settings_service import SettingsService
from studio.app.tasks import TaskOwner
from studio.browser.browser_places import Machine, playwright_folder
from studio.browser.chromium_install import ChromiumInstall, InstallOutcome, InstallProgress
from studio.browser.discovery import BrowserNotFound, check_browser, find_browser
from studio.browser.launcher import configured_endpoint
from studio.ui.ask import present

log = logging.getLogger(__name__)

_ERROR = "color:#611a15; background:#fdecea; border:1px solid #f5c2c0; padding:6px;"
_DONE = "color:#0d3c61; background:#e8f4fd; border:1px solid #b6dcf7; padding:6px;"


def describe_problem(problem: BrowserNotFound | None) -> str:
    """What is missing and the two ways out, in the window's words (the engine's sentence names the CLI commands)."""
    if problem is None:
        return ""
    if problem.searched:  # nothing found anywhere
        return ("No Chrome, Edge or Chromium was found on this computer, and the studio needs one to open pages. "
                "Fetch Playwright's Chromium, or choose a browser you already have.")
    if problem.missing.startswith("STUDIO_BROWSER"):  # it comes before any browser found: fetching cannot help
        return (f"{problem.missing}. Fix or unset STUDIO_BROWSER and start the studio again, or choose a browser "
                "here: one chosen in Settings comes first.")
    return f"{problem.missing}. Fetch Playwright's Chromium, or choose another browser."


def _home_as_tilde(path: str) -> str:
    home = str(Path.home())
    return "~" + path[len(home):] if path.startswith(home + os.sep) else path


class BrowserSetupDialog(QDialog):
    """What is missing, and the ways to a browser; `browserReady(path)` once one is installed or chosen."""

    browserReady = Signal(str)

    def __init__(self, settings: SettingsService, problem: BrowserNotFound | None, parent: QWidget | None = None,
                 installer: list[str] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("A browser for Preflight Studio")
        self.setObjectName("browser-setup")
        self.settings = settings
        self.problem = problem
        self.installer = installer
        self.install: ChromiumInstall | None = None
        self.outcome: InstallOutcome | None = None
        self.closed = False  # a Python flag: the Qt object may be deleted while a task still ends
        self._tasks = TaskOwner(on_error=self._task_failed)
        self._build()
        self.finished.connect(self._closed)

    def _build(self) -> None:
        self.headline = QLabel("Preflight Studio needs a browser" if self.problem else self._current(), self)
        self.headline.setStyleSheet("font-weight:600; font-size:12pt;")
        self.headline.setWordWrap(True)
        self.detail = QLabel(describe_problem(self.problem) or
                             "Fetch Playwright's Chromium, or choose another browser for new sessions.", self)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        folder = _home_as_tilde(playwright_folder(Machine.local()))
        self.fetch_button = QCommandLinkButton(
            "Fetch Playwright's Chromium",
            f"Downloads Chromium for the studio into {folder} (a few hundred MB; you can cancel).", self)
        self.fetch_button.clicked.connect(self.fetch)
        self.choose_button = QCommandLinkButton(
            "Choose a Browser…", "Use Chrome, Edge or Chromium already on this computer: pick its program.", self)
        self.choose_button.clicked.connect(self.choose)
        self.progress = QProgressBar(self, minimum=0, maximum=100)
        self.progress.setFormat("%p%")
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop the download; nothing is installed")
        self.cancel_button.clicked.connect(self.cancel_fetch)
        self.progress_row = QWidget(self)
        row = QHBoxLayout(self.progress_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.progress, 1)
        row.addWidget(self.cancel_button)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        self.answer = QLabel("", self)
        self.answer.setWordWrap(True)
        self.answer.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(self)
        self.later_button = self.buttons.addButton("Not Now" if self.problem else "Close",
                                                   QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.headline, self.detail, self.fetch_button, self.choose_button, self.progress_row,
                       self.status, self.answer):
            layout.addWidget(widget)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.progress_row.hide()
        self.status.hide()
        self.answer.hide()
        self.setMinimumWidth(560)

    def _current(self) -> str:
        """The headline when a browser is found: which one new sessions use."""
        endpoint = configured_endpoint(setting=self.settings.settings.browser_endpoint)
        if endpoint:
            return f"New sessions connect to the browser at {endpoint}"
        try:
            info = find_browser(chosen=self.settings.settings.browser_path)
        except BrowserNotFound:
            return "Preflight Studio needs a browser"
        return f"New sessions use {info.path}"

    # -- the choices --------------------------------------------------------------------------------------------------

    @property
    def fetching(self) -> bool:
        return self.install is not None and self.outcome is None

    def fetch(self) -> None:
        """Run the installer, its progress in the bar; Cancel stops it."""
        if self.fetching:
            return
        self.outcome = None
        self.install = ChromiumInstall(self.installer, on_progress=self._on_progress)
        self._set_busy(True)
        self.progress.setRange(0, 0)  # busy until the installer says how far it is
        self.status.setText("Starting the installer…")
        self._tasks.spawn(self._run_install(self.install), name="fetch-chromium")

    def cancel_fetch(self) -> None:
        if self.install is not None and self.fetching:
            self.cancel_button.setEnabled(False)
            self.status.setText("Cancelling…")
            self.install.cancel()

    def ask_browser_path(self) -> str | None:
        """The file dialog (tests replace this seam)."""
        path, _ = QFileDialog.getOpenFileName(self, "Choose Chrome, Edge or Chromium")
        return path or None

    def choose(self) -> None:
        path = self.ask_browser_path()
        if path:
            self._set_busy(True, progress=False)
            self.status.setText(f"Checking {path} (--version)…")
            self.status.show()
            self._tasks.spawn(self._check_and_keep(path), name="check-browser")

    # -- the work -----------------------------------------------------------------------------------------------------

    async def _run_install(self, install: ChromiumInstall) -> None:
        try:
            outcome = await install.run()
        finally:
            if self.closed:  # closed mid-fetch: the install was cancelled; nothing left to show
                self.deleteLater()
        self.outcome = outcome
        if self.closed:
            return
        self._set_busy(False)
        if not outcome.ok:
            self._say(outcome.message, error=outcome.status == "failed")
            return
        if self.settings.settings.browser_path and outcome.browser is not None:
            self._keep(None)  # a chosen browser would still come first: the one the tester fetched replaces it
        self._ready(outcome.message)

    async def _check_and_keep(self, path: str) -> None:
        try:
            version = await asyncio.to_thread(check_browser, path)
        except BrowserNotFound as error:
            if not self.closed:
                self._set_busy(False)
                self._say(str(error), error=True)
            return
        if self.closed:
            return
        self._set_busy(False)
        self._keep(path)
        self._ready(f"New sessions use {version} at {path} (kept in Settings).")

    def _keep(self, path: str | None) -> None:
        updated = self.settings.settings.model_copy(deep=True)
        updated.browser_path = path
        self.settings.apply(updated)

    def _ready(self, sentence: str) -> None:
        try:
            found = find_browser(chosen=self.settings.settings.browser_path)
        except BrowserNotFound as error:  # e.g. STUDIO_BROWSER still names a missing file
            self._say(str(error), error=True)
            return
        self._say(sentence, error=False)
        self.browserReady.emit(found.path)
        self.accept()

    # -- what the dialog shows ----------------------------------------------------------------------------------------

    def _on_progress(self, progress: InstallProgress) -> None:
        if progress.percent is not None:
            self.progress.setRange(0, 100)
            self.progress.setValue(progress.percent)
        self.status.setText(progress.sentence())

    def _set_busy(self, busy: bool, progress: bool = True) -> None:
        self.fetch_button.setEnabled(not busy)
        self.choose_button.setEnabled(not busy)
        self.answer.hide()
        if progress:
            self.progress_row.setVisible(busy)
            self.cancel_button.setEnabled(busy)
            self.status.setVisible(busy)
            if busy:
                self.progress.setValue(0)

    def _say(self, text: str, error: bool) -> None:
        self.status.hide()
        self.answer.setText(text)
        self.answer.setStyleSheet(_ERROR if error else _DONE)
        self.answer.show()

    def _task_failed(self, error: BaseException) -> None:
        if not self.closed:
            self._set_busy(False)
            self._say(f"Something went wrong ({error}); the log has the details. Try again.", error=True)

    def _closed(self, _result: int) -> None:
        """Closing the dialog (Not Now, Esc, the window closing) stops a running fetch: nothing runs unowned. The
        dialog goes once nothing of it runs."""
        self.closed = True
        if self.install is not None and self.fetching:
            self.install.cancel()  # _run_install deletes the dialog when the installer has stopped
        else:
            self.deleteLater()


class BrowserSetup(QObject):
    """The window's side: offers the dialog when the browser service finds no browser, and starts the session again
    (with the address the tester typed) once a browser is ready."""

    def __init__(self, window, browser: BrowserService, settings: SettingsService,
                 installer: list[str] | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.installer = installer
        self.dialog: BrowserSetupDialog | None = None
        browser.browserMissing.connect(self.offer_after_failure)

    def offer_after_failure(self, problem: BrowserNotFound) -> BrowserSetupDialog:
        self._keep_way_back(problem)  # in the bar too, in the window's words, in case the dialog is put aside
        return self.offer(problem, retry=True)

    def offer(self, problem: BrowserNotFound | None = None, retry: bool = False) -> BrowserSetupDialog:
        """Open the dialog (or bring the open one forward); with `retry`, a ready browser starts the session."""
        if self.dialog is not None and not self.dialog.closed:
            present(self.dialog)
            return self.dialog
        dialog = BrowserSetupDialog(self.settings, problem, self.window, self.installer)
        dialog.browserReady.connect(lambda path: self._ready(path, retry))
        dialog.rejected.connect(lambda: self._keep_way_back(problem))
        self.dialog = dialog
        present(dialog)
        return dialog

    def _ready(self, path: str, retry: bool) -> None:
        self.window.message_bar.show_message(f"The studio now uses the browser at {path}.", "info")
        if retry:
            self.window.new_session()

    def _keep_way_back(self, problem: BrowserNotFound | None) -> None:
        if problem is not None:  # the bar keeps the problem, with the way back to the choices
            self.window.message_bar.show_message(describe_problem(problem), "error",
                                                 [("Fetch or Choose a Browser…", lambda: self.offer(problem, True))])
