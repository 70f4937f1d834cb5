"""MCP-Data's endpoints (seed 004) over the app's data server (the embedded demo's `/_data/…`): a unique test user
with its password and TOTP secret, a programmatic login, a user by id or email, a reset, feature flags and a frozen
clock, and an admin's impersonation token for a user. Preconditions and postconditions call them by the seed's names
with the seed's parameters (ARGUMENTS); a parameter an endpoint does not take is refused with a sentence, never
dropped. Results are plain JSON for `store_as`."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Self
from urllib.parse import quote, urljoin

import aiohttp

DataCall = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]

# The parameters each endpoint takes: the seed's, then the demo's extras (a user's password and role).
ARGUMENTS: dict[str, tuple[str, ...]] = {
    "data.user.create": ("plan", "requires2FA", "email", "password", "role"),
    "data.user.login": ("email", "password", "otp"),
    "data.user.get": ("userId", "email"),
    "data.reset": ("tenant", "scope"),
    "data.flags.set": ("flag", "value", "userId"),
    "data.clock.freeze": ("timestamp",),
    "auth.impersonate": ("userId",),
}


def unknown_arguments(endpoint: str, given: Iterable[str], takes: Iterable[str]) -> str | None:
    """The sentence refusing the names in `given` that are not in `takes` ("data.user.create does not take
    'colour'; it takes plan, requires2FA, …"), or None when every name is known."""
    known = tuple(takes)
    unknown = [name for name in given if name not in known]
    if not unknown:
        return None
    names = " or ".join(repr(name) for name in unknown)
    return (f"{endpoint} does not take {names}; it takes " + (", ".join(known) if known else "no arguments")
            + ".")


class DataToolError(Exception):
    """A data call that failed; str() says which endpoint, what the server said, and what to do."""


class DataTools:
    """`async with DataTools(base_url) as data: user = await data.call("data.user.create", {...})`."""

    def __init__(self, base_url: str, timeout_s: float = 10.0) -> None:
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._http: aiohttp.ClientSession | None = None
        self.timings: list[tuple[str, float]] = []  # (endpoint, seconds) of every call, for the benchmark
        self._endpoints: dict[str, DataCall] = {
            "data.user.create": self.user_create, "data.user.get": self.user_get, "data.user.login": self.user_login,
            "data.reset": self.reset, "data.flags.set": self.flags_set, "data.clock.freeze": self.clock_freeze,
            "auth.impersonate": self.impersonate,
        }

    async def __aenter__(self) -> Self:
        self._http = aiohttp.ClientSession(timeout=self._timeout)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    @property
    def endpoints(self) -> tuple[str, ...]:
        return tuple(self._endpoints)

    async def call(self, endpoint: str, params: dict[str, Any]) -> dict[str, Any]:
        handler = self._endpoints.get(endpoint)
        if handler is None:
            raise DataToolError(f"{endpoint} is not a data endpoint; they are {', '.join(self._endpoints)}.")
        refusal = unknown_arguments(endpoint, params, ARGUMENTS[endpoint])
        if refusal is not None:
            raise DataToolError(refusal)
        started = time.perf_counter()
        try:
            return await handler(dict(params))
        finally:
            self.timings.append((endpoint, time.perf_counter() - started))

    async def _request(self, endpoint: str, method: str, path: str, body: dict[str, Any] | None = None
                       ) -> dict[str, Any]:
        if self._http is None:
            raise DataToolError("The data tools are used outside their `async with`.")
        url = urljoin(self.base_url, path)
        try:
            async with self._http.request(method, url, json=body) as response:
                try:
                    data = await response.json(content_type=None)
                except ValueError:
                    data = {"error": (await response.text())[:200]}
                if response.status >= 400:
                    said = data.get("error") if isinstance(data, dict) else None
                    raise DataToolError(f"{endpoint} failed: the data server answered {response.status}"
                                        + (f" ({said})" if said else "") + ".")
                return data if isinstance(data, dict) else {"result": data}
        except aiohttp.ClientError as error:
            raise DataToolError(f"{endpoint} could not reach the data server at {url} ({error}). Is the app "
                                "running, and does it serve the data endpoints?") from None
        except TimeoutError:
            raise DataToolError(f"{endpoint} got no answer from {url} in time.") from None

    # -- the endpoints -------------------------------------------------------------------------------

    async def user_create(self, params: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {key: params[key] for key in ("plan", "requires2FA", "email", "password", "role")
                                if key in params}
        return await self._request("data.user.create", "POST", "_data/users", body)

    async def user_get(self, params: dict[str, Any]) -> dict[str, Any]:
        key = params.get("userId") or params.get("email")
        if not key:
            raise DataToolError("data.user.get needs 'userId' or 'email'.")
        return {"user": await self._request("data.user.get", "GET", f"_data/users/{quote(str(key))}")}

    async def user_login(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._request("data.user.login", "POST", "_data/login", params)

    async def reset(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._request("data.reset", "POST", "_data/reset", params)

    async def flags_set(self, params: dict[str, Any]) -> dict[str, Any]:
        return await self._request("data.flags.set", "POST", "_data/flags", params)

    async def clock_freeze(self, params: dict[str, Any]) -> dict[str, Any]:
        if "timestamp" not in params:
            raise DataToolError("data.clock.freeze needs 'timestamp' (ms since the epoch, or null to unfreeze).")
        return await self._request("data.clock.freeze", "POST", "_data/clock", {"timestamp": params["timestamp"]})

    async def impersonate(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("userId"):
            raise DataToolError("auth.impersonate needs 'userId' (from data.user.create).")
        return await self._request("auth.impersonate", "POST", "_data/impersonate", {"userId": params["userId"]})
