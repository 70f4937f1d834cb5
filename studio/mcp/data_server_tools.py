"""Seed 004's MCP-Data endpoints as MCP tools: data.user.create / login / get, data.reset, data.flags.set,
data.clock.freeze and auth.impersonate, over the app's data server (studio.scenarios.data_tools). No browser: the
data server (`studio mcp --data-tools`) needs only the app's URL."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from studio.mcp.tool_replies import ACT, failure, reply
from studio.scenarios.data_tools import DataToolError, DataTools

log = logging.getLogger(__name__)


class DataServerTools:
    """The data.* and auth.* tools on the app's data server at `data_url`."""

    def __init__(self, data_url: str) -> None:
        self.data = DataTools(data_url)
        self._open = False

    def register(self, server: MCPServer) -> None:
        for endpoint in self.data.endpoints:
            server.add_tool(self._tool(endpoint), name=endpoint, annotations=ACT, structured_output=False,
                            description=f"MCP-Data {endpoint} on the app's data server (seed 004's parameters, as "
                                        "an object in `params`); returns the data server's JSON.")

    async def close(self) -> None:
        if self._open:
            self._open = False
            await self.data.__aexit__()

    def _tool(self, endpoint: str) -> Any:
        async def call(params: Annotated[dict[str, Any], Field(description="The endpoint's parameters")] | None = None
                       ) -> CallToolResult:
            if not self._open:
                await self.data.__aenter__()
                self._open = True
            try:
                answer = await self.data.call(endpoint, params or {})
            except DataToolError as error:
                log.info("%s failed: %s", endpoint, error)
                return failure("data", str(error))
            log.info("%s answered", endpoint)  # `studio -v mcp --data-tools` lists the calls
            return reply(answer)
        return call
