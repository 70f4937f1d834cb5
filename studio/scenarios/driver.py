"""The seam between the scenario loop and the browser it drives: what the loop does to a page (open the start URL,
observe, check a condition, act, save its signed-in state, a screenshot, a trace) as a ScenarioPage, and where pages
come from (ScenarioPages). LocalScenarioPages takes them from the runtime (`runtime.open_page`: a fresh context on
the least busy browser of its fleet, or on the live session's browser) and acts through the one action layer,
studio.race.driver.PageDriver; studio.scenarios.mcp_driver drives a remote MCP-Web server's tools instead
(`studio run --mcp-web URL`). The data calls of pre- and postconditions have their seam too: anything with DataTools'
`call(endpoint, params) -> dict`, used in an `async with`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from studio.browser.contexts import ContextOptions
from studio.browser.fleet import BrowserFleet, FleetMember
from studio.race.driver import PageDriver
from studio.scenarios.acting import PageActor
from studio.scenarios.observe import Observation, holds, observe
from studio.scenarios.planner import Action
from studio.scenarios.spec import Condition

if TYPE_CHECKING:
    from studio.runtime import EngineRuntime

Viewport = tuple[int, int]
GONE_WAIT_S = 2.0


class DataCalls(Protocol):
    async def call(self, endpoint: str, params: dict[str, Any]) -> dict[str, Any]: ...


DataSource = Callable[[], AbstractAsyncContextManager[DataCalls]]


class OpenPage(Protocol):
    """What hands out pages: `runtime.open_page` (a fresh context as a PageDriver, not on the `exclude`d browsers)."""

    async def __call__(self, options: ContextOptions | None = None, *,
                       exclude: Iterable[FleetMember] = ()) -> PageDriver: ...


class ScenarioPage(Protocol):
    """One scenario's page: a fresh browser context, closed with close()."""

    where: str  # where its browser runs (an endpoint, a browser's path, an MCP-Web server), for the records
    member: FleetMember | None  # the fleet's browser it was placed on (None: not the fleet's)

    @property
    def url(self) -> str: ...

    @property
    def closed(self) -> bool: ...

    async def went_away(self) -> bool:
        """Whether its browser went away while it was open (a server that stopped, a crash)."""

    async def goto(self, url: str) -> None: ...

    async def observe(self) -> Observation: ...

    async def holds(self, observation: Observation, condition: Condition) -> bool: ...

    async def act(self, observation: Observation, action: Action) -> dict[str, Any] | None:
        """Do the action; None when done, else what stood in the way (the step's `blocked` field); one that cannot
        be done does nothing else (the loop's stagnation signals show it)."""

    async def save_state(self, path: Path) -> Path:
        """Save the signed-in state (cookies, storage) named after `path`'s stem; where it was written."""

    async def screenshot(self, path: Path) -> None: ...

    async def start_trace(self) -> bool:
        """Record a Playwright trace of the page's context from now on; False when this page cannot."""

    async def stop_trace(self, path: Path | None) -> None: ...

    async def html(self) -> str | None:
        """The document's HTML (None when this page cannot say)."""

    async def close(self) -> None: ...


class ScenarioPages(Protocol):
    async def open(self, viewport: Viewport, state: Path | None,
                   exclude: Iterable[FleetMember] = ()) -> ScenarioPage:
        """A page in a fresh browser context (with a state save_state wrote, when given), not on `exclude`."""

    def can_move(self, member: FleetMember | None) -> bool:
        """Whether a page lost with `member`'s browser can be opened again on another browser."""


class LocalScenarioPage:
    """A page the runtime handed out, driven through the one action layer (PageDriver, with its race preflight)."""

    def __init__(self, driver: PageDriver) -> None:
        self.driver = driver
        self.actor = PageActor(driver)
        self.where = driver.where
        self.member = driver.member
        self._disconnects = driver.member.disconnects if driver.member is not None else 0

    @property
    def url(self) -> str:
        return self.driver.url

    @property
    def closed(self) -> bool:
        return self.driver.closed

    async def went_away(self, wait_s: float = GONE_WAIT_S) -> bool:
        """Whether its browser went away while it was open. A page closed under the run waits a moment for that to
        be told: the browser's disconnection comes after the page's own errors."""
        deadline = time.monotonic() + wait_s
        while not self._gone() and self.member is not None and self.closed and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return self._gone()

    def _gone(self) -> bool:
        return self.member is not None and self.member.disconnects > self._disconnects

    async def goto(self, url: str) -> None:
        await self.driver.navigate(url, wait_until="load")

    async def observe(self) -> Observation:
        return await observe(self.driver)

    async def holds(self, observation: Observation, condition: Condition) -> bool:
        return await holds(self.driver, observation, condition)

    async def act(self, observation: Observation, action: Action) -> dict[str, Any] | None:
        return await self.actor.act(action)

    async def save_state(self, path: Path) -> Path:
        return await self.driver.save_state(path)

    async def screenshot(self, path: Path) -> None:
        await self.driver.screenshot(path=path)

    async def start_trace(self) -> bool:
        await self.driver.start_trace()
        return True

    async def stop_trace(self, path: Path | None) -> None:
        await self.driver.stop_trace(path)

    async def html(self) -> str | None:
        return await self.driver.content() or None

    async def close(self) -> None:
        await self.driver.close()


class LocalScenarioPages:
    """Pages from `open_page`, each in its own context; with the runtime's `fleet`, a page lost with its browser can
    be opened again on another one."""

    def __init__(self, open_page: OpenPage, fleet: BrowserFleet | None = None) -> None:
        self.open_page = open_page
        self.fleet = fleet

    @classmethod
    def on(cls, runtime: EngineRuntime, in_session: bool = False) -> LocalScenarioPages:
        """Pages of `runtime`: on its fleet, or with `in_session` on the live session's browser (the tester watches)."""
        if not in_session:
            return cls(runtime.open_page, runtime.fleet)

        async def session_page(options: ContextOptions | None = None, *,
                               exclude: Iterable[FleetMember] = ()) -> PageDriver:
            return await runtime.open_page(options, in_session=True)

        return cls(session_page)

    async def open(self, viewport: Viewport, state: Path | None,
                   exclude: Iterable[FleetMember] = ()) -> LocalScenarioPage:
        driver = await self.open_page(ContextOptions(viewport=viewport, storage_state=state), exclude=exclude)
        return LocalScenarioPage(driver)

    def can_move(self, member: FleetMember | None) -> bool:
        return self.fleet is not None and member is not None and any(m is not member for m in self.fleet.alive)

    async def start(self) -> list[str]:
        """Start the fleet's browsers before a run (BrowserError when none can be); a sentence for each left out."""
        if self.fleet is None:
            return []
        left_out = await self.fleet.start()
        return [f"{m.lost} The scenarios run on the other browsers." for m in left_out]
