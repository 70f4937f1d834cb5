"""The studio's main window: project tree, live view with URL bar, docks, menus and status bar."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QVBoxLayout,
    QWidget,
)

from studio.app.browser_service import BrowserService
from studio.app.case_service import CaseService
from studio.app.game_service import GameService
from studio.app.pilot_service import PilotService
from studio.app.scenario_service import ScenarioService
from studio.app.playground_service import PlaygroundService
from studio.app.project_service import ProjectService
from studio.app.race_service import RaceService
from studio.app.settings_service import SettingsService
from studio.app.studio_app import StudioServices
from studio.browser.urls import normalize_url
from studio.settings import StudioSettings, logins_folder
from studio.ui.about_dialog import AboutDialog
from studio.ui.dialogs import ScreenshotViewer, SettingsDialog
from studio.ui.docks import DockHost
from studio.ui.events_dock import EventsPanel
from studio.ui.first_run import BrowserSetup
from studio.ui.game_front import GameFront
from studio.ui.live_page_window import LivePagePlacement
from studio.ui.live_view import LiveView
from studio.ui.screen_fit import fit_to_screen
from studio.ui.message_bar import MessageBar
from studio.ui.playground_front import PlaygroundFront
from studio.ui.project_tree import ProjectTree
from studio.ui.race_front import RaceFront
from studio.ui.pilot_front import PilotFront
from studio.ui.scenario_front import ScenarioFront
from studio.ui.url_bar import UrlBar
from studio.ui.workspaces import EXPLORE, PLAYGROUND, Workspaces

PROJECT_FILTER = "Preflight Studio projects (*.studio)"


class StudioWindow(QMainWindow):
    """Composes the widgets around the two services; it holds no engine logic itself.

    Dialogs are opened through `ask_*` methods so tests can answer them without a modal loop.
    """

    def __init__(self, browser: BrowserService, project: ProjectService, settings: SettingsService,
                 race: RaceService | None = None, playground: PlaygroundService | None = None,
                 cases: CaseService | None = None, games: GameService | None = None,
                 scenarios: ScenarioService | None = None, pilot: PilotService | None = None) -> None:
        super().__init__()
        self.browser = browser
        self.project = project
        self.settings_service = settings
        self.race = race
        self.closed: asyncio.Future[None] | None = None
        self.tracing = False
        self.setWindowTitle("Preflight Studio")
        fit_to_screen(self)

        self.url_bar = UrlBar(browser, self)
        self.url_bar.open_url = self.open_url
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.url_bar)
        self.live_view = LiveView(browser, self)
        self.message_bar = MessageBar(self)
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.message_bar)
        layout.addWidget(self.live_view, 1)
        self.setCentralWidget(central)

        self._build_menus()
        # No browser when a session starts: a dialog offers to fetch Playwright's Chromium or choose one.
        self.browser_setup = BrowserSetup(self, browser, settings)
        self.docks = DockHost(self, self.view_menu)
        # View › Workspace and the live page's place come first in the View menu, the dock toggles after them.
        self.live_page = LivePagePlacement(self, self.live_view, layout, self.view_menu)
        self.workspaces = Workspaces(self, self.docks, settings, self.live_page, self.view_menu)
        self.view_menu.addSeparator()
        self.workspaces.register(EXPLORE)
        self.project_tree = ProjectTree(project, self)
        self.project_tree.screenshotActivated.connect(self.show_screenshot)
        self.docks.add("project", "Project", self.project_tree, Qt.DockWidgetArea.LeftDockWidgetArea, "Ctrl+1")
        self.events = EventsPanel(self, project)  # pages older events back in from the project file
        self.docks.add("events", "Events", self.events, Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+2")
        self.race_front: RaceFront | None = RaceFront(self, race) if race is not None else None
        self.playground: PlaygroundFront | None = None
        if playground is not None and cases is not None:
            self.playground = PlaygroundFront(self, playground, cases)
            self.workspaces.register(PLAYGROUND)
        self.games: GameFront | None = GameFront(self, games) if games is not None else None
        self.scenarios: ScenarioFront | None = ScenarioFront(self, scenarios) if scenarios is not None else None
        self.pilot: PilotFront | None = PilotFront(self, pilot) if pilot is not None else None
        self.workspaces.add_switcher(self.url_bar)
        self.workspaces.start()  # the last session's workspace, with its layout

        self.session_label = QLabel("No browser session", self)
        self.fps_label = QLabel("", self)
        self.project_label = QLabel("", self)
        status = self.statusBar()
        status.addWidget(self.session_label, 1)
        status.addPermanentWidget(self.fps_label)
        status.addPermanentWidget(self.project_label)
        self._painted_before = 0
        self._fps_timer = QTimer(self, interval=1000)
        self._fps_timer.timeout.connect(self._update_fps)
        self._fps_timer.start()

        browser.engineEvent.connect(self.events.add)
        browser.errorOccurred.connect(lambda text: self.message_bar.show_message(text, "error"))
        browser.notice.connect(lambda text: self.message_bar.show_message(text, "info"))
        browser.tracingChanged.connect(self._on_tracing)
        browser.sessionStarted.connect(self._on_session_started)
        browser.sessionEnded.connect(self._on_session_ended)
        browser.urlChanged.connect(self._on_url)
        project.errorOccurred.connect(lambda text: self.message_bar.show_message(text, "error"))
        project.foreignSchemaFound.connect(lambda path, text: self.message_bar.show_message(
            text, "error", [("Open Clean Copy", lambda: project.open_clean_copy(path))]))
        project.projectChanged.connect(self._on_project)
        # An error stays up until dismissed, or until the next thing the tester does works.
        for worked in (browser.sessionStarted, browser.navigated, project.projectChanged):
            worked.connect(self.message_bar.clear_problem)

    @property
    def settings(self) -> StudioSettings:
        return self.settings_service.settings

    # -- menus ---------------------------------------------------------------------------------------

    def _action(self, menu: QMenu, text: str, slot, shortcut: str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self._action(file_menu, "&New Project…", self.new_project, "Ctrl+N")
        self._action(file_menu, "&Open Project…", self.open_project, "Ctrl+O")
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(file_menu, "Save Project &As…", self.save_project_as, "Ctrl+Shift+S")
        file_menu.addSeparator()
        self._action(file_menu, "&Settings…", self.edit_settings, "Ctrl+,")
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, "Ctrl+Q")

        session_menu = bar.addMenu("&Session")
        self._action(session_menu, "&New Session", self.new_session, "Ctrl+Shift+N")
        self._action(session_menu, "Start Signed &In…", self.start_signed_in)
        self._action(session_menu, "&End Session", self.end_session, "Ctrl+Shift+W")
        session_menu.addSeparator()
        self._action(session_menu, "Take &Screenshot", lambda: self.browser.take_screenshot("manual"), "Ctrl+Shift+P")
        self._action(session_menu, "Save &Login State…", self.save_login_state)
        self.trace_action = self._action(session_menu, "Start &Trace", self.toggle_trace)
        session_menu.addSeparator()
        self._action(session_menu, "&Browser…", lambda: self.browser_setup.offer())

        self.view_menu = bar.addMenu("&View")
        self.help_menu = bar.addMenu("&Help")
        self._action(self.help_menu, "&About Preflight Studio", self.about)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        if not self.settings.recent_projects:
            self.recent_menu.addAction("No recent projects").setEnabled(False)
        for path in self.settings.recent_projects:
            def open_recent(p: str = path) -> None:
                self.project.open_project(p)

            self.recent_menu.addAction(path, open_recent)

    # -- dialog seams (tests replace these) ----------------------------------------------------------

    def ask_open_path(self) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self, "Open project", str(Path.cwd()), PROJECT_FILTER)
        return path or None

    def ask_save_path(self, title: str, default_name: str = "project.studio", file_filter: str = PROJECT_FILTER) -> str | None:
        path, _ = QFileDialog.getSaveFileName(self, title, str(Path.cwd() / default_name), file_filter)
        return path or None

    def ask_settings(self) -> StudioSettings | None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return None
        updated = dialog.result_settings()
        if dialog.key_problem:
            self.message_bar.show_message(dialog.key_problem, "warning")
        return updated

    # -- actions -------------------------------------------------------------------------------------

    def new_project(self) -> None:
        path = self.ask_save_path("New project")
        if path:
            self.project.new_project(_with_suffix(path))

    def open_project(self) -> None:
        path = self.ask_open_path()
        if path:
            self.project.open_project(path)

    def save_project_as(self) -> None:
        path = self.ask_save_path("Save project as")
        if path and self.project.save_as(_with_suffix(path)):
            self.message_bar.show_message(f"Saved as {path}. Recording continues there.", "info")

    def edit_settings(self) -> None:
        updated = self.ask_settings()
        if updated is not None:
            self.settings_service.apply(updated)  # every holder follows through its `changed` signal
            self.message_bar.show_message("Settings saved. They apply to the next browser session.", "info")

    def open_url(self, text: str) -> None:
        """Enter in the address field: go there, starting a browser session first when none runs."""
        if self.browser.alive:
            self.browser.navigate(text)
            return
        try:
            url = normalize_url(text, allow_files=self.settings.allow_file_urls)
        except ValueError as error:
            self.message_bar.show_message(str(error), "error")
            return
        self.new_session(url)

    def new_session(self, url: str | None = None) -> None:
        target = url or self.url_bar.url_edit.text().strip() or self.settings.last_url
        self.browser.start_session(self.settings.session_options(label="exploration"), target or None)

    def end_session(self) -> None:
        self.browser.end_session()

    def save_login_state(self) -> None:
        # Saved logins go to the user's config folder by default, never the folder the studio was started in.
        path = self.ask_save_path("Save login state", str(logins_folder() / "login-state.json"), "Storage state (*.json)")
        if path:
            self.browser.save_storage_state(path)

    def ask_login_state_path(self) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self, "Start signed in from a saved login state", str(logins_folder()),
                                              "Storage state (*.json)")
        return path or None

    def start_signed_in(self) -> None:
        """A new session that starts with the cookies and storage of a login state saved earlier."""
        path = self.ask_login_state_path()
        if path:
            target = self.url_bar.url_edit.text().strip() or self.settings.last_url
            options = self.settings.session_options(label="exploration (signed in)", storage_state=path)
            self.browser.start_session(options, target or None)

    def toggle_trace(self) -> None:
        # The label follows the session's real state (tracingChanged), not the click: a failed start stays "Start".
        if not self.tracing:
            self.browser.start_tracing()
            return
        path = self.ask_save_path("Save trace", "trace.zip", "Playwright traces (*.zip)")
        if path:
            self.browser.stop_tracing(path)

    def _on_tracing(self, on: bool) -> None:
        self.tracing = on
        self.trace_action.setText("Stop Trace and &Save…" if on else "Start &Trace")

    def show_screenshot(self, screenshot_id: int) -> None:
        if self.project.project is None:
            return
        viewer = ScreenshotViewer(self.project.project.screenshot_png(screenshot_id), f"Screenshot {screenshot_id}", self)
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.show()

    def about(self) -> AboutDialog:
        dialog = AboutDialog(self.browser, self.settings, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    # -- reactions -----------------------------------------------------------------------------------

    def _on_session_started(self, session_id: str) -> None:
        # Describe the session that runs, not the saved settings (--headed or a test may differ).
        options = self.browser.session.options if self.browser.session else self.settings.session_options()
        mode = "headless" if options.headless else "headed"
        signed_in = " · signed in from saved state" if options.storage_state else ""
        remote = f" · remote browser at {options.browser_endpoint}" if options.browser_endpoint else ""
        self.session_label.setText(
            f"Session {session_id} · {mode} · {options.viewport[0]}×{options.viewport[1]}{signed_in}{remote}")
        self._on_tracing(bool(options.trace_path))

    def _on_session_ended(self, reason: str, message: str) -> None:
        self._on_tracing(False)
        self.session_label.setText("No browser session")
        if reason != "closed":
            self.message_bar.show_message(message, "error")

    def _on_url(self, url: str) -> None:
        self.settings.last_url = url

    def _on_project(self, path: str) -> None:
        suffix = " (untitled)" if self.project.untitled else ""
        self.project_label.setText(f"Project: {Path(path).name}{suffix}")
        self.setWindowTitle(f"{Path(path).name}{suffix} — Preflight Studio")

    def _update_fps(self) -> None:
        painted = self.live_view.frames_shown
        fps, self._painted_before = painted - self._painted_before, painted
        self.fps_label.setText(f"{fps} fps" if self.browser.alive else "")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Esc that no widget took (the live view gives every key to the page) dismisses the message bar.
        if event.key() == Qt.Key.Key_Escape and self.message_bar.dismiss():
            event.accept()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        # The launcher awaits `closed`, then shuts the browser down before the event loop ends.
        self.live_page.show_in_window()
        self.workspaces.save()
        self.settings_service.save()
        if self.closed is not None and not self.closed.done():
            self.closed.set_result(None)
        event.accept()


def _with_suffix(path: str) -> str:
    return path if path.endswith(".studio") else path + ".studio"


def build_window(services: StudioServices) -> StudioWindow:
    """The window as `studio gui` builds it: every capability's docks and workspace on the services."""
    return StudioWindow(services.browser, services.project, services.settings, services.race, services.playground,
                        services.cases, games=services.games, scenarios=services.scenarios,
                        pilot=services.pilot)
