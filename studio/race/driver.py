"""PageDriver: one page as an agent or the tester drives it — race preflight on it, the action runner, an optional
step recorder, and one lock so that a click never interleaves with a snapshot or a recorded gesture.

Every front end that acts on a page (the GUI's race service, the MCP contexts, later the pilot, game and scenario
agents) goes through a driver: while it records, actions and navigations become steps; otherwise they just run.
The lock is the caller's to hold around a unit of work (`async with driver.lock:`); the methods do not take it,
so a recorded gesture can hold it across several of them.
"""

from __future__ import annotations

import asyncio

from playwright.async_api import Page

from studio.models.race import ActionName, ActionOutcome, Observation
from studio.models.recording import StepOrigin
from studio.race.actions import ActionRunner
from studio.race.page import RacePage
from studio.race.recorder import StepRecorder, StepSink
from studio.race.world import PAGE_TIMEOUT_S


class PageDriver:
    """The race engine on one page, with its runner, its recorder while recording, and its lock."""

    def __init__(self, page: Page, preflight: bool = True, first_ref: int = 1,
                 timeout_s: float = PAGE_TIMEOUT_S) -> None:
        self.page = page
        self.race = RacePage(page, preflight=preflight, first_ref=first_ref, timeout_s=timeout_s)
        self.runner = ActionRunner(self.race)
        self.recorder: StepRecorder | None = None
        self.lock = asyncio.Lock()

    @property
    def recording(self) -> bool:
        return self.recorder is not None

    def record(self, session_id: str, sink: StepSink, origin: StepOrigin, first_index: int = 0) -> StepRecorder:
        """Record from now on: every executed action and navigation becomes a RecordedStep in `sink`."""
        self.recorder = StepRecorder(self.race, self.runner, session_id, sink, origin=origin, first_index=first_index)
        return self.recorder

    def stop_recording(self) -> None:
        self.recorder = None

    async def navigate(self, url: str) -> int | None:
        """Open `url` (a navigate step while recording); the HTTP status, None for same-document navigations."""
        if self.recorder is not None:
            return await self.recorder.navigate(url)
        response = await self.page.goto(url)
        return response.status if response else None

    async def act(self, action: ActionName, ref: str, value: str | None = None,
                  key: str | None = None) -> ActionOutcome:
        """Run an action through the race preflight (and the recorder, while recording)."""
        if self.recorder is not None:
            return await self.recorder.act(action, ref, value=value, key=key)
        return await self.runner.run(action, ref, value=value, key=key)

    async def observe(self, ref: str) -> list[Observation]:
        """Every fact about the element, without acting."""
        return await self.race.observe(ref)
