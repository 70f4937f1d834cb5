"""The pilot protocol in the main window: the Pilot dock and workspace (the live page beside it, where the outside
AI's actions happen), the Pilot menu, and the sentence a session ends with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from studio.app.pilot_service import PilotService
from studio.pilot.session import PilotReport
from studio.playground.outcomes import plural
from studio.ui.pilot_panel import PilotPanel
from studio.ui.workspaces import RIGHT, Workspace, place_tabs

if TYPE_CHECKING:  # the window imports this module
    from studio.ui.main_window import StudioWindow

START_SHORTCUT = "Ctrl+Alt+I"
TAKE_OVER_SHORTCUT = "Ctrl+Alt+T"


# A little wider than other side columns, for the actions table's selectors and outcomes (elided, their full text
# in tooltips and in the reason line under the table); 440 px is as wide as it gets while the page keeps 45% of a
# 1366×768 window.
PILOT_SIDE_WIDTH = 440


def _pilot_layout(window, docks) -> None:
    place_tabs(window, docks, RIGHT, ["pilot"], PILOT_SIDE_WIDTH)


PILOT = Workspace("Pilot", ("pilot",), _pilot_layout,
                  description="An outside AI drives the live page through observation.json and action.json; watch, "
                              "take over and hand back")


class PilotFront(QObject):
    """Composes the Pilot dock on `window` (a StudioWindow) around the PilotService."""

    def __init__(self, window: StudioWindow, service: PilotService) -> None:
        super().__init__(window)
        self.window = window
        self.service = service
        self.panel = PilotPanel(window)
        window.docks.add("pilot", "Pilot", self.panel, Qt.DockWidgetArea.RightDockWidgetArea, visible=False)
        window.workspaces.register(PILOT)
        self._build_menu()
        panel = self.panel
        panel.startRequested.connect(service.start)
        panel.stopRequested.connect(service.stop)
        panel.takeOverToggled.connect(lambda on: service.take_over() if on else service.hand_back())
        service.sessionStarted.connect(panel.session_started)
        service.runningChanged.connect(panel.set_running)
        service.statusChanged.connect(panel.show_status)
        service.observationWritten.connect(self._observation)
        service.outcomeAdded.connect(lambda outcome: panel.add_action(outcome.get("action") or {}, outcome))
        service.warned.connect(panel.add_warning)
        service.fileError.connect(lambda text: panel.add_warning(text, "error"))
        service.finished.connect(self._finished)
        service.errorOccurred.connect(lambda text: window.message_bar.show_message(text, "error"))
        service.notice.connect(lambda text: window.message_bar.show_message(text, "info"))
        service.ask_conflict = self._ask_conflict
        self._tester_seen = 0

    def _build_menu(self) -> None:
        menu = QMenu("P&ilot", self.window)
        self.window.menuBar().insertMenu(self.window.help_menu.menuAction(), menu)
        self.start_action = QAction("&Start a Pilot Session on This Page", self.window)
        self.start_action.setShortcut(QKeySequence(START_SHORTCUT))
        self.start_action.triggered.connect(self.panel.start_button.click)
        self.take_over_action = QAction("&Take Over / Hand Back", self.window)
        self.take_over_action.setShortcut(QKeySequence(TAKE_OVER_SHORTCUT))
        self.take_over_action.triggered.connect(self.panel.take_over.toggle)
        self.stop_action = QAction("S&top the Pilot Session", self.window)
        self.stop_action.triggered.connect(self.service.stop)
        for action in (self.take_over_action, self.stop_action):
            action.setEnabled(False)
            self.service.runningChanged.connect(action.setEnabled)
        self.service.runningChanged.connect(lambda running: self.start_action.setEnabled(not running))
        for action in (self.start_action, self.take_over_action, self.stop_action):
            menu.addAction(action)

    def _observation(self, observation: dict[str, Any]) -> None:
        self.panel.show_observation(observation)
        # the tester's actions (handed back) appear in the action list once, as the observation carries them
        mine = [a for a in observation.get("previousActions") or [] if a.get("by") == "tester"]
        for action in mine[self._tester_seen:]:
            self.panel.add_action(action, {"ok": True}, by="tester")
        self._tester_seen = len(mine)

    async def _ask_conflict(self, conflict):
        playground = self.window.playground
        if playground is not None:
            return await playground.ask_conflict(conflict)
        return None

    def _finished(self, report: PilotReport) -> None:
        self._tester_seen = 0
        counts = (f"{plural(report.actionsExecuted, 'action')} executed, {report.actionsFailed} failed, "
                  f"{report.actionsRefused} refused")
        self.panel.show_status("DONE", f"{counts} ({report.endReason})")
        self.window.message_bar.show_message(
            f"Pilot session ended ({report.endReason}): {counts}. The report is in {report.folder}.", "info")
