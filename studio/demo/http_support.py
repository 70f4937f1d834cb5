"""Plumbing shared by every route module: where the state lives, JSON bodies, and JSON errors as sentences."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from studio.demo.state import DemoState

STATE_KEY = web.AppKey("demo_state", DemoState)
CART_COOKIE = "demo_cart"


class ApiError(Exception):
    """An API failure the client should see as `{"error": message}` with `status`."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra

    def response(self) -> web.Response:
        return web.json_response({"error": self.message, **self.extra}, status=self.status)


def state_of(request: web.Request) -> DemoState:
    return request.app[STATE_KEY]


async def read_json(request: web.Request, *, allow_empty: bool = True) -> dict[str, Any]:
    """The request's JSON object body; a malformed or non-object body is a 400 with a sentence."""
    raw = await request.read()
    if not raw.strip():
        if allow_empty:
            return {}
        raise ApiError(400, "The request body is empty; send a JSON object.")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "The request body is not valid JSON; send a JSON object.") from None
    if not isinstance(body, dict):
        raise ApiError(400, "The request body must be a JSON object.")
    return body


def require_str(body: dict[str, Any], key: str, message: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, message)
    return value.strip()


def is_api_path(path: str) -> bool:
    return path.startswith("/api/") or path.startswith("/_data/") or path in ("/api", "/_data")
