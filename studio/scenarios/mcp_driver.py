"""`studio run --mcp-web URL`: the scenario loop's pages on a remote MCP-Web server (`studio mcp --web-tools`), through
its tools by seed 004's names — ui.navigate (fresh=true at a scenario's start), ui.observe, ui.wait for a condition
the observation cannot answer (an element's visibility), ui.act.click / type / check, session.save / session.load,
ui.capture.screenshot. The server has one browser context, so its scenarios run one at a time.

Its nodes carry the seed's six roles; the planner wants the precise ones (a combobox to choose in, a radio to check),
so a node's `ariaRole` (the studio's servers send it) is its role here, and a server that sends only the six is read as
it is. A choice in a select is ui.act.type with the option's label (the seed has no select tool)."""

from __future__ import annotations

import base64
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from studio.browser.fleet import FleetMember
from studio.scenarios.mcp_client import McpToolError, McpTools
from studio.scenarios.observe import Observation, holds_in, precise_roles
from studio.scenarios.planner import Action
from studio.scenarios.spec import Condition

WEB_TOOLS = ("ui.navigate", "ui.observe", "ui.wait", "ui.act.click", "ui.act.type", "ui.act.check", "session.save",
             "session.load")
START = "studio mcp --web-tools --app-url APP_URL --http 127.0.0.1:7001"


def web_tools(url: str) -> McpTools:
    return McpTools(url, "MCP-Web", START)


class McpScenarioPage:
    """One scenario's page on the MCP-Web server; the connection is closed with close(). The server's browser is its
    own: no trace, no HTML, no browser of the studio's fleet to lose."""

    member: FleetMember | None = None

    def __init__(self, tools: McpTools, fresh: bool, where: str) -> None:
        self.tools, self._fresh, self._url, self.where = tools, fresh, "about:blank", where

    @property
    def url(self) -> str:
        return self._url

    async def went_away(self) -> bool:
        return False

    @property
    def closed(self) -> bool:
        return False

    def _at(self, answer: dict) -> None:
        self._url = str(answer.get("currentUrl") or answer.get("url") or self._url)

    async def goto(self, url: str) -> None:
        self._at(await self.tools.tool("ui.navigate", {"url": url, **({"fresh": True} if self._fresh else {})}))
        self._fresh = False

    async def observe(self) -> Observation:
        observation = Observation.model_validate(precise_roles(await self.tools.tool("ui.observe", {})))
        self._url = observation.url
        return observation

    async def holds(self, observation: Observation, condition: Condition) -> bool:
        seen = holds_in(observation, condition)
        if seen is not None:
            return seen
        waited = await self.tools.tool("ui.wait", {"condition": condition.model_dump(exclude_none=True),
                                                   "timeout": 1})  # checked once
        return bool(waited.get("ok"))

    async def act(self, observation: Observation, action: Action) -> dict[str, Any] | None:
        node = str(action.params.get("nodeId"))
        calls: dict[str, dict[str, Any]] = {"ui.act.click": {"nodeId": node},
            "ui.act.type": {"nodeId": node, "text": str(action.params.get("text", "")), "clear": True,
                            "submit": bool(action.params.get("submit"))},
            "ui.act.check": {"nodeId": node, "checked": bool(action.params.get("checked", True))},
            "ui.navigate": {"url": urljoin(self._url, str(action.params.get("url")))},
            # The seed has no select tool: its textbox (ariaRole combobox) takes the option's label by ui.act.type.
            "ui.act.select": {"nodeId": node, "text": str(action.params.get("option", "")), "clear": True}}
        tool = {"ui.act.select": "ui.act.type"}.get(action.type, action.type)
        if action.type not in calls:  # the MCP-Web server has no such tool: a step that did nothing
            return {"reason": f"the MCP-Web server has no {action.type} tool", "facts": []}
        try:
            self._at(await self.tools.tool(tool, calls[action.type]))
        except McpToolError as error:  # stagnation shows it, and the planner tries something else
            return {"reason": str(error).splitlines()[0], "facts": []}
        return None

    async def save_state(self, path: Path) -> Path:
        saved = await self.tools.tool("session.save", {"name": path.stem})
        return Path(str(saved.get("path") or path))

    async def screenshot(self, path: Path) -> None:
        shot = await self.tools.tool("ui.capture.screenshot", {})
        path.write_bytes(base64.b64decode(str(shot["base64"])))

    async def start_trace(self) -> bool:
        return False

    async def stop_trace(self, path: Path | None) -> None:
        return None

    async def html(self) -> str | None:
        return None

    async def close(self) -> None:
        await self.tools.__aexit__()


class McpScenarioPages:
    """Pages on the MCP-Web server at `url`: a connection per scenario, each starting a fresh browser context."""

    def __init__(self, url: str) -> None:
        self.url = url

    def can_move(self, member: FleetMember | None) -> bool:
        return False

    async def check(self) -> None:
        """Raise McpToolError (one line: which server, what to start) unless an MCP-Web server answers at url."""
        async with web_tools(self.url) as tools:
            tools.need(WEB_TOOLS)

    async def open(self, viewport: tuple[int, int], state: Path | None,
                   exclude: Iterable[FleetMember] = ()) -> McpScenarioPage:
        tools = await web_tools(self.url).__aenter__()
        try:
            if state is not None:  # a state session.save wrote on the server, by its name
                await tools.tool("session.load", {"stateId": state.stem})
            return McpScenarioPage(tools, fresh=state is None, where=self.url)
        except McpToolError:
            await tools.__aexit__()
            raise
