"""Seed 004's MCP-Data endpoints as MCP tools: data.user.create / login / get, data.reset, data.flags.set,
data.clock.freeze and auth.impersonate, over the app's data server (studio.scenarios.data_tools). No browser: the
data server (`studio mcp --data-tools`) needs only the app's URL.

Each tool takes the seed's parameters at the top level (`data.user.create {"plan": "premium", "requires2FA": true}`),
or — the studio's earlier form, still accepted — the same names in one `params` object; a top-level value wins. A
name a tool does not take is refused with a sentence naming it, at the top level (studio.mcp.schema_errors) and in
`params` alike (studio.scenarios.data_tools.ARGUMENTS)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from studio.mcp.tool_replies import ACT, READ, failure, reply
from studio.scenarios.data_tools import DataToolError, DataTools

log = logging.getLogger(__name__)

Params = Annotated[dict[str, Any] | None, Field(description="The same parameters as one object (the studio's "
                                                            "earlier form); a top-level value wins over it")]
UserId = Annotated[str | None, Field(description="The user's userId (from data.user.create)")]
Email = Annotated[str | None, Field(description="The user's email address")]
DESCRIPTIONS = {
    "data.user.create": "Generate a unique test user. Returns {userId, email, password, otpSecret} (plus plan, "
                        "role, requires2FA, createdAt, displayName).",
    "data.user.login": "Sign a user in programmatically (otp: the current TOTP code of a 2FA user). Returns "
                       "{token, session}.",
    "data.user.get": "A user by userId or email. Returns {user}.",
    "data.reset": "Clear the test data of a tenant (scope: all by default). Returns {ok}.",
    "data.flags.set": "Set a feature flag, for everyone or for one userId. Returns {ok} (plus the flags).",
    "data.clock.freeze": "Freeze the app's clock at timestamp (ms since the epoch; params {timestamp: null} "
                         "unfreezes it). Returns {ok}.",
    "auth.impersonate": "An admin-issued token for a user, without their password or one-time code: send it as "
                        "`Authorization: Bearer <token>` or as the app's session cookie. Returns {token} (plus "
                        "session and impersonatedBy).",
}


class DataServerTools:
    """The data.* and auth.* tools on the app's data server at `data_url`."""

    contexts = 0  # no browser contexts (GET /health)

    def __init__(self, data_url: str) -> None:
        self.data = DataTools(data_url)
        self._open = False

    def register(self, server: MCPServer) -> None:
        tools: dict[str, Callable[..., Awaitable[CallToolResult]]] = {
            "data.user.create": self.user_create, "data.user.login": self.user_login, "data.user.get": self.user_get,
            "data.reset": self.reset, "data.flags.set": self.flags_set, "data.clock.freeze": self.clock_freeze,
            "auth.impersonate": self.impersonate}
        for endpoint, fn in tools.items():
            hints = READ if endpoint == "data.user.get" else ACT
            server.add_tool(fn, name=endpoint, annotations=hints, structured_output=False,
                            description=f"MCP-Data {endpoint}: {DESCRIPTIONS[endpoint]}")

    async def close(self) -> None:
        if self._open:
            self._open = False
            await self.data.__aexit__()

    async def _call(self, endpoint: str, params: dict[str, Any] | None, given: dict[str, Any]) -> CallToolResult:
        """Call `endpoint` with `params` overlaid by the top-level arguments that were given (not None)."""
        if params is not None and not isinstance(params, dict):
            return failure("bad_input", f"{endpoint}'s params must be an object of its parameters.")
        arguments = {**(params or {}), **{key: value for key, value in given.items() if value is not None}}
        if not self._open:
            await self.data.__aenter__()
            self._open = True
        try:
            answer = await self.data.call(endpoint, arguments)
        except DataToolError as error:
            log.info("%s failed: %s", endpoint, error)
            return failure("data", str(error))
        log.info("%s answered", endpoint)  # `studio -v mcp --data-tools` lists the calls
        return reply(answer)

    async def user_create(self, plan: Annotated[Literal["free", "plus", "premium"] | None, Field(
                              description="The user's plan (default plus)")] = None,
                          requires2FA: Annotated[bool | None, Field(
                              description="Give the user a TOTP secret for two-factor sign-in (default false)")]
                          = None,
                          email: Email = None,
                          password: Annotated[str | None, Field(description="Default: a generated one")] = None,
                          role: Annotated[Literal["viewer", "admin"] | None, Field(
                              description="The demo's role (default viewer)")] = None,
                          params: Params = None) -> CallToolResult:
        return await self._call("data.user.create", params, {"plan": plan, "requires2FA": requires2FA,
                                                             "email": email, "password": password, "role": role})

    async def user_login(self, email: Email = None, password: str | None = None,
                         otp: Annotated[str | int | None, Field(description="The current TOTP code")] = None,
                         params: Params = None) -> CallToolResult:
        return await self._call("data.user.login", params, {"email": email, "password": password,
                                                            "otp": None if otp is None else str(otp)})

    async def user_get(self, userId: UserId = None, email: Email = None,
                       params: Params = None) -> CallToolResult:
        return await self._call("data.user.get", params, {"userId": userId, "email": email})

    async def reset(self, tenant: Annotated[str | None, Field(description="The tenant, e.g. 'qa'")] = None,
                    scope: Annotated[str | None, Field(description="What to clear (default all)")] = None,
                    params: Params = None) -> CallToolResult:
        return await self._call("data.reset", params, {"tenant": tenant, "scope": scope})

    async def flags_set(self, flag: Annotated[str | None, Field(description="The flag's name")] = None,
                        value: Annotated[Any, Field(description="Its value (true, false, a variant)")] = None,
                        userId: UserId = None, params: Params = None) -> CallToolResult:
        return await self._call("data.flags.set", params, {"flag": flag, "value": value, "userId": userId})

    async def clock_freeze(self, timestamp: Annotated[int | None, Field(
                               description="Milliseconds since the epoch")] = None,
                           params: Params = None) -> CallToolResult:
        return await self._call("data.clock.freeze", params, {"timestamp": timestamp})

    async def impersonate(self, userId: UserId = None, params: Params = None) -> CallToolResult:
        return await self._call("auth.impersonate", params, {"userId": userId})
