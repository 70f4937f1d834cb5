"""Race preflight in the main window: the Observations, Steps and Element Inspector docks, the Pick and Record
toggles on the navigation bar, and the live view's input routed through the race service."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt

from studio.app.race_entries import RaceEntry
from studio.app.race_service import RaceService
from studio.ui.inspector_dock import InspectorPanel
from studio.ui.observations_dock import ObservationsPanel, outcome_text
from studio.ui.steps_dock import StepsPanel, TypedUrlRoute

if TYPE_CHECKING:  # the window imports this module
    from studio.ui.main_window import StudioWindow


class RaceFront(QObject):
    """Composes the race widgets on `window` (a StudioWindow) around the RaceService."""

    def __init__(self, window: StudioWindow, race: RaceService) -> None:
        super().__init__(window)
        self.window = window
        self.service = race
        window.live_view.input_filter = race.filter_input
        self.observations = ObservationsPanel(race, window.live_view, window)
        self.inspector = InspectorPanel(race, window.live_view, window)
        self.steps = StepsPanel(race, window)
        self.typed_urls = TypedUrlRoute(window.url_bar.url_edit, race)
        docks = window.docks
        docks.add("observations", "Observations", self.observations, Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+3")
        docks.add("steps", "Steps", self.steps, Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+4")
        docks.add("inspector", "Element Inspector", self.inspector, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+5")
        # Where these docks sit is the workspace's (studio.ui.workspaces); news never moves or raises one.
        race.entryAdded.connect(self._entry_added)
        race.recordingChanged.connect(self._recording_changed)
        race.pickModeChanged.connect(window.live_page.picking_changed)
        # Pick and Record sit at the end of the navigation bar: a second toolbar on the same row would take
        # the width the address field needs.
        window.url_bar.addSeparator()
        window.url_bar.addAction(self.inspector.pick_action)
        window.url_bar.addAction(self.steps.record_action)
        say = window.message_bar.show_message
        race.errorOccurred.connect(lambda text: say(text, "error"))
        race.notice.connect(lambda text: say(text, "info"))
        for worked in (race.entryAdded, race.stepRecorded):  # a check, an action or a recorded step went through
            worked.connect(window.message_bar.clear_problem)
        self.steps.notice.connect(lambda text: say(text, "info"))

    def _entry_added(self, entry: RaceEntry) -> None:
        verb = "observed" if entry.acted is None else entry.action
        self.window.docks.attention("observations", f"New in Observations: {verb} {entry.ref}, {outcome_text(entry)}.")

    def _recording_changed(self, on: bool) -> None:
        if on:
            self.window.docks.attention("steps", "Recording: each action becomes a step in Steps.")
