"""Race preflight in the main window: the Observations, Steps and Element Inspector docks, the Pick and Record
toggles on the navigation bar, and the live view's input routed through the race service."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QScrollArea

from studio.app.race_service import RaceService
from studio.ui.inspector_dock import InspectorPanel
from studio.ui.observations_dock import ObservationsPanel
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
        # Scrollable, so the inspector's many fields never force the window taller than a laptop screen.
        inspector_area = QScrollArea(window)
        inspector_area.setWidget(self.inspector)
        inspector_area.setWidgetResizable(True)
        inspector_area.setFrameShape(QScrollArea.Shape.NoFrame)
        docks.add("inspector", "Element Inspector", inspector_area, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+5")
        # The wide bottom area holds the tables as tabs; each comes to the front when it has news.
        window.tabifyDockWidget(docks["events"], docks["observations"])
        window.tabifyDockWidget(docks["observations"], docks["steps"])
        window.resizeDocks([docks["inspector"]], [400], Qt.Orientation.Horizontal)
        window.resizeDocks([docks["observations"]], [260], Qt.Orientation.Vertical)
        docks["events"].raise_()
        race.entryAdded.connect(lambda _entry: docks["observations"].raise_())
        race.recordingChanged.connect(lambda on: docks["steps"].raise_() if on else None)
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
