"""A goal scenario's MCP servers spoken to with the SDK's own client over streamable HTTP (`studio run --mcp-data URL`,
`--mcp-web URL`): one connection per scenario, a tool's JSON answer as a dict, and every failure — a server that
cannot be reached, a tool that answered with an error, a connection that broke — as a DataToolError whose one line
says which server, what happened and what to do."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Self
from urllib.parse import urlsplit, urlunsplit

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import TextContent

from studio.scenarios.data_tools import DataToolError

CALL_TIMEOUT_S = 60.0
# What a broken connection or an unreachable server raises through the SDK (anyio task groups wrap them).
TRANSPORT_ERRORS = (OSError, TimeoutError, httpx2.HTTPError, MCPError, ExceptionGroup)
# The token of a server started with `studio mcp --http … --token` (studio.mcp.http_auth, a layer above, serves it).
TOKEN_ENV = "STUDIO_MCP_TOKEN"


class McpToolError(DataToolError):
    """An MCP server could not be used, or a tool answered with an error."""


def mcp_endpoint(url: str) -> str:
    """The streamable HTTP endpoint of a server given by its base URL (http://HOST:PORT → http://HOST:PORT/mcp)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise McpToolError(f"{url!r} is not an http:// address of an MCP server (such as http://127.0.0.1:7002).")
    path = parts.path if parts.path not in ("", "/") else "/mcp"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def bearer_header() -> dict[str, str] | None:
    """`Authorization: Bearer $STUDIO_MCP_TOKEN` for a server started with `studio mcp --http … --token`, if set."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    return {"Authorization": f"Bearer {token}"} if token else None


def cause(error: BaseException) -> str:
    """The innermost error of an exception group, as a short phrase."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class McpTools:
    """`async with McpTools(url, "MCP-Data", "studio mcp --data-tools …") as tools: await tools.tool(name, args)`."""

    def __init__(self, url: str, role: str, start: str) -> None:
        self.url, self.role, self.start = mcp_endpoint(url), role, start
        self.names: set[str] = set()  # the tools the server offers
        self._client: Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._error: BaseException | None = None

    def _unreachable(self, error: BaseException) -> McpToolError:
        if "Authorization: Bearer" in cause(error):  # --token's 401 answer: no token was sent, or another one
            return McpToolError(f"The {self.role} server at {self.url} wants its token: set {TOKEN_ENV} to the "
                                f"token it printed at its start (or was started with).")
        return McpToolError(f"The {self.role} server at {self.url} could not be reached ({cause(error)}). Start it "
                            f"with `{self.start}` and give its address.")

    async def __aenter__(self) -> Self:
        # One task owns the SDK client's `async with` (anyio scopes must be left by the task that entered them, in
        # reverse order), so a scenario's MCP-Data and MCP-Web connections can close in any order.
        ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._own(ready))
        await ready.wait()
        if self._client is None:
            await self._task
            raise self._unreachable(self._error or ConnectionError("no answer"))
        return self

    async def _own(self, ready: asyncio.Event) -> None:
        try:
            async with (create_mcp_http_client(headers=bearer_header()) as http,
                        Client(streamable_http_client(self.url, http_client=http)) as client):
                self.names = {tool.name for tool in (await client.list_tools()).tools}
                self._client = client
                ready.set()
                await self._stop.wait()
        except TRANSPORT_ERRORS as error:
            self._error = error  # unreachable, or the connection broke
        finally:
            self._client = None
            ready.set()

    async def __aexit__(self, *exc: object) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task

    def need(self, names: set[str] | tuple[str, ...]) -> None:
        missing = sorted(set(names) - self.names)
        if missing:
            raise McpToolError(f"The server at {self.url} is not an {self.role} server: it has no {', '.join(missing)} "
                               f"tool. Start one with `{self.start}`.")

    async def tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call a tool; its JSON answer, or McpToolError with the tool's own message."""
        if self._client is None:
            raise McpToolError(f"The {self.role} client is used outside its `async with`.")
        try:
            result = await asyncio.wait_for(self._client.call_tool(name, arguments), CALL_TIMEOUT_S)
        except TRANSPORT_ERRORS as error:
            raise McpToolError(f"{name} on the {self.role} server at {self.url} failed ({cause(error)}).") from None
        text = next((part.text for part in result.content if isinstance(part, TextContent)), "")
        try:
            value = json.loads(text) if text else (result.structured_content or {})
        except ValueError:
            value = {"error": {"message": text[:200]}}
        if result.is_error or (isinstance(value, dict) and "error" in value and len(value) == 1):
            said = value.get("error") if isinstance(value, dict) else None
            message = said.get("message") if isinstance(said, dict) else said or text[:200]
            raise McpToolError(f"{name} failed on the {self.role} server: {message}")
        return value if isinstance(value, dict) else {"result": value}


DATA_TOOLS = ("data.user.create", "data.user.get", "data.user.login", "data.reset")


class McpDataTools(McpTools):
    """DataTools' shape (`call(endpoint, params) -> dict`) over a remote MCP-Data server (`--mcp-data URL`)."""

    def __init__(self, url: str) -> None:
        super().__init__(url, "MCP-Data", "studio mcp --data-tools --app-url APP_URL --http 127.0.0.1:7002")
        self.calls: list[str] = []

    async def __aenter__(self) -> Self:
        await super().__aenter__()
        try:
            self.need(DATA_TOOLS)
        except McpToolError:
            await self.__aexit__()
            raise
        return self

    async def call(self, endpoint: str, params: dict[str, Any]) -> dict[str, Any]:
        if endpoint not in self.names:
            raise McpToolError(f"{endpoint} is not a tool of the MCP-Data server at {self.url}; it has "
                               f"{', '.join(sorted(n for n in self.names if n.startswith(('data.', 'auth.'))))}.")
        self.calls.append(endpoint)
        # The seed's arguments at the top level; a null (data.clock.freeze's unfreeze) goes in `params`, which the
        # studio's MCP-Data server reads, since a null at the top level reads as not given.
        arguments = {key: value for key, value in params.items() if value is not None}
        nulls = {key: value for key, value in params.items() if value is None}
        return await self.tool(endpoint, {**arguments, "params": nulls} if nulls else arguments)
