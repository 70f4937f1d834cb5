"""StudioApp: the GUI's composition root — one event bus, the services, and their shutdown order."""

from __future__ import annotations

from studio.app.browser_service import BrowserService
from studio.app.case_service import CaseService
from studio.app.playground_service import PlaygroundService
from studio.app.project_service import ProjectService
from studio.app.race_service import RaceService
from studio.events import EventBus
from studio.settings import StudioSettings


class StudioServices:
    """Builds the services that share one EventBus; the window is built on top of these by studio.ui."""

    def __init__(self, settings: StudioSettings) -> None:
        self.settings = settings
        self.bus = EventBus()
        # The project recorder subscribes first so a record exists before any widget reacts to an event.
        self.project = ProjectService(self.bus, settings)
        self.browser = BrowserService(self.bus)
        self.race = RaceService(self.browser, self.project)
        self.playground = PlaygroundService(self.browser, self.project, settings)
        self.cases = CaseService(self.project)

    async def shutdown(self) -> None:
        """Close the browser first (frames must stop before the loop ends), then the project file."""
        await self.playground.shutdown()
        await self.race.shutdown()
        await self.browser.shutdown()
        self.project.shutdown()
