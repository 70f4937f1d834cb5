"""The seam between the scenario loop and the browser it drives: what the loop does to a page (open the start URL,
observe, check a condition, act, save its signed-in state, a screenshot) as a PageDriver, and where pages come from
(Drivers). LocalDrivers is a Playwright browser in this process; studio.scenarios.mcp_driver drives a remote
MCP-Web server's tools instead (`studio run --mcp-web URL`). The data calls of pre- and postconditions have their
seam too: anything with DataTools' `call(endpoint, params) -> dict`, used in an `async with`."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from playwright.async_api import Browser, BrowserContext, Page

from studio.scenarios.acting import PageActor
from studio.scenarios.observe import Observation, holds, observe
from studio.scenarios.planner import Action
from studio.scenarios.spec import Condition


class DataCalls(Protocol):
    async def call(self, endpoint: str, params: dict[str, Any]) -> dict[str, Any]: ...


DataSource = Callable[[], AbstractAsyncContextManager[DataCalls]]


class PageDriver(Protocol):
    """One scenario's page: a fresh browser context, closed with close()."""

    @property
    def url(self) -> str: ...

    async def goto(self, url: str) -> None: ...

    async def observe(self) -> Observation: ...

    async def holds(self, observation: Observation, condition: Condition) -> bool: ...

    async def act(self, observation: Observation, action: Action) -> dict[str, Any] | None:
        """Do the action; None when done, else what stood in the way (the step's `blocked` field); one that cannot
        be done does nothing else (the loop's stagnation signals show it)."""

    async def save_state(self, path: Path) -> Path:
        """Save the signed-in state (cookies, storage) named after `path`'s stem; where it was written."""

    async def screenshot(self, path: Path) -> None: ...

    async def close(self) -> None: ...


class Drivers(Protocol):
    async def open(self, viewport: dict[str, int], state: Path | None) -> PageDriver:
        """A page in a fresh browser context (with a state save_state wrote, when given)."""


class LocalDriver:
    """A page of a local Playwright browser; clicks and checks go through the race preflight (PageActor)."""

    def __init__(self, context: BrowserContext, page: Page) -> None:
        self.context, self.page = context, page
        self.actor = PageActor(page)

    @property
    def url(self) -> str:
        return self.page.url

    async def goto(self, url: str) -> None:
        await self.page.goto(url, wait_until="load")

    async def observe(self) -> Observation:
        return await observe(self.page)

    async def holds(self, observation: Observation, condition: Condition) -> bool:
        return await holds(self.page, observation, condition)

    async def act(self, observation: Observation, action: Action) -> dict[str, Any] | None:
        return await self.actor.act(action)

    async def save_state(self, path: Path) -> Path:
        await self.context.storage_state(path=str(path))
        return path

    async def screenshot(self, path: Path) -> None:
        await self.page.screenshot(path=str(path))

    async def close(self) -> None:
        await self.context.close()


class LocalDrivers:
    """Pages of one local Browser, each in its own context."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser

    async def open(self, viewport: dict[str, int], state: Path | None) -> LocalDriver:
        context = await self.browser.new_context(viewport=viewport,  # type: ignore[arg-type]
                                                 storage_state=str(state) if state else None)
        return LocalDriver(context, await context.new_page())
