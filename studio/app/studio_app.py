"""StudioServices: the GUI's composition root — one engine runtime, the services on it, and their shutdown order."""

from __future__ import annotations

from studio.app.browser_service import BrowserService
from studio.app.case_service import CaseService
from studio.app.game_service import GameService
from studio.app.playground_service import PlaygroundService
from studio.app.project_service import ProjectService
from studio.app.pilot_service import PilotService
from studio.app.race_service import RaceService
from studio.app.scenario_service import ScenarioService
from studio.app.settings_service import SettingsService
from studio.runtime import EngineRuntime
from studio.settings import StudioSettings


class StudioServices:
    """Builds the services that share one EngineRuntime (bus, project, browser, model, budgets, job runner); the
    window is built on top of these by studio.ui."""

    def __init__(self, settings: StudioSettings) -> None:
        self.settings = SettingsService(settings)
        self.runtime = EngineRuntime(settings)
        self.settings.changed.connect(self._settings_changed)
        self.bus = self.runtime.bus
        # The project service attaches the project (and its recorder) to the runtime before any widget subscribes,
        # so a record exists before any widget reacts to an event.
        self.project = ProjectService(self.runtime, self.settings)
        self.browser = BrowserService(self.runtime)
        self.race = RaceService(self.browser, self.project)
        self.playground = PlaygroundService(self.browser, self.project)
        self.cases = CaseService(self.project)
        self.games = GameService(self.browser, self.project)
        self.scenarios = ScenarioService(self.browser, self.project)
        self.pilot = PilotService(self.browser, self.project, self.race)

    def _settings_changed(self, settings: StudioSettings) -> None:
        self.runtime.settings = settings  # the next session, job budget and model follow them

    async def shutdown(self) -> None:
        """Stop jobs, close the browser (frames must stop before the loop ends), then the project file."""
        await self.playground.shutdown()
        await self.games.shutdown()
        await self.scenarios.shutdown()
        await self.pilot.shutdown()
        await self.race.shutdown()
        await self.browser.shutdown()
        await self.runtime.aclose()
        self.project.shutdown()
