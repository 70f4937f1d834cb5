"""The data server under /_data/: user factory, programmatic login, an admin's impersonation of a user, reset, flags,
clock and config knobs."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from pydantic import ValidationError

from studio.demo.auth import impersonation
from studio.demo.auth_routes import BAD_CODE, check_password
from studio.demo.config import DemoConfig
from studio.demo.flags import FlagError
from studio.demo.http_support import ApiError, read_json, require_str, state_of
from studio.demo.sign_in_help import current_code
from studio.demo.state import RESET_SCOPES, DuplicateEmail

routes = web.RouteTableDef()

PLANS = ("free", "plus", "premium")
ROLES = ("viewer", "admin")


def _choice(body: dict[str, Any], key: str, allowed: tuple[str, ...], default: str) -> str:
    value = body.get(key, default)
    if value not in allowed:
        raise ApiError(400, f"'{key}' must be one of: {', '.join(allowed)}.")
    return value


@routes.get("/_data/health")
async def health(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


@routes.post("/_data/users")
async def create_user(request: web.Request) -> web.Response:
    body = await read_json(request)
    plan = _choice(body, "plan", PLANS, "plus")
    role = _choice(body, "role", ROLES, "viewer")
    requires_2fa = body.get("requires2FA", False)
    if not isinstance(requires_2fa, bool):
        raise ApiError(400, "'requires2FA' must be true or false.")
    email = body.get("email")
    if email is not None and (not isinstance(email, str) or "@" not in email):
        raise ApiError(400, "'email' must be an email address such as someone@example.com.")
    password = body.get("password")
    if password is not None and (not isinstance(password, str) or not password):
        raise ApiError(400, "'password' must be a non-empty string.")
    try:
        user = state_of(request).create_user(plan, requires_2fa, role, email, password)
    except DuplicateEmail as exc:
        raise ApiError(409, str(exc)) from None
    return web.json_response(user.as_json(), status=201)


@routes.get("/_data/users/{key}")
async def get_user(request: web.Request) -> web.Response:
    user = state_of(request).find_user(request.match_info["key"])
    if user is None:
        raise ApiError(404, f"No user with id or email {request.match_info['key']!r}.")
    return web.json_response(user.as_json())


@routes.get("/_data/users/{key}/otp")
async def get_user_code(request: web.Request) -> web.Response:
    """The current one-time code of a two-factor account, for signing in by hand (what an authenticator shows)."""
    state = state_of(request)
    user = state.find_user(request.match_info["key"])
    if user is None:
        raise ApiError(404, f"No user with id or email {request.match_info['key']!r}.")
    if not user.otp_secret:
        raise ApiError(409, f"{user.email} signs in without a one-time code.")
    code, valid_s = current_code(state, user)
    return web.json_response({"email": user.email, "otp": code, "validForS": valid_s})


@routes.post("/_data/login")
async def data_login(request: web.Request) -> web.Response:
    state = state_of(request)
    body = await read_json(request)
    email = require_str(body, "email", "Send the user's 'email'.")
    password = require_str(body, "password", "Send the user's 'password'.")
    user = check_password(state, email, password)
    if user.requires_2fa:
        otp = body.get("otp")
        if not otp:
            raise ApiError(400, "This user has two-factor authentication; send the current TOTP code as 'otp'.")
        if not state.check_otp(user, str(otp)):
            raise ApiError(401, BAD_CODE)
    session = state.open_session(user)
    return web.json_response({"token": session.token, "session": state.session_json(session)})


@routes.post("/_data/impersonate")
async def impersonate(request: web.Request) -> web.Response:
    """Seed 004's auth.impersonate: a token for the user {"userId"} (an id or email), issued by the app's admin
    account, as POST /api/admin/impersonate issues it to a signed-in admin."""
    state = state_of(request)
    body = await read_json(request, allow_empty=False)
    admin = next((user for user in state.users.values() if user.role == "admin"), None)
    if admin is None:
        raise ApiError(409, "The app has no admin account to impersonate with; data.reset brings the built-in one "
                            "back.")
    return web.json_response(impersonation(state, admin, body.get("userId")))


@routes.post("/_data/reset")
async def reset(request: web.Request) -> web.Response:
    body = await read_json(request)
    scope = body.get("scope") or "all"
    if scope not in RESET_SCOPES:
        raise ApiError(400, f"'scope' must be one of: {', '.join(RESET_SCOPES)}.")
    state_of(request).reset(scope)
    return web.json_response({"ok": True, "tenant": body.get("tenant"), "scope": scope})


@routes.get("/_data/flags")
async def get_flags(request: web.Request) -> web.Response:
    state = state_of(request)
    return web.json_response({"flags": state.flags, "userFlags": state.user_flags})


@routes.post("/_data/flags")
async def set_flag(request: web.Request) -> web.Response:
    state = state_of(request)
    body = await read_json(request, allow_empty=False)
    flag = require_str(body, "flag", "Send the 'flag' name and its 'value'.")
    if "value" not in body:
        raise ApiError(400, "Send the 'value' to set the flag to.")
    user_id = body.get("userId")
    if user_id is not None:
        user = state.find_user(str(user_id))
        if user is None:
            raise ApiError(404, f"No user with id or email {user_id!r}.")
        user_id = user.user_id
    try:
        state.set_flag(flag, body["value"], user_id)
    except FlagError as exc:
        raise ApiError(400, str(exc)) from None
    return web.json_response({"ok": True, "flags": state.flags_for(user_id)})


@routes.post("/_data/clock")
async def set_clock(request: web.Request) -> web.Response:
    clock = state_of(request).clock
    body = await read_json(request, allow_empty=False)
    if "timestamp" not in body and "advanceMs" not in body:
        raise ApiError(400, "Send 'timestamp' (ms since the epoch, or null to unfreeze) and/or 'advanceMs'.")
    timestamp, advance = body.get("timestamp"), body.get("advanceMs")
    for key, value in (("timestamp", timestamp), ("advanceMs", advance)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ApiError(400, f"'{key}' must be a whole number of milliseconds.")
    if "timestamp" in body:
        clock.freeze(None if timestamp is None else int(timestamp))
    if advance is not None:
        clock.advance(int(advance))
    return web.json_response({"ok": True, "now": clock.now_ms(), "frozen": clock.frozen_ms is not None})


@routes.get("/_data/config")
async def get_config(request: web.Request) -> web.Response:
    return web.json_response({"config": state_of(request).config.model_dump(mode="json")})


@routes.post("/_data/config")
async def set_config(request: web.Request) -> web.Response:
    state = state_of(request)
    body = await read_json(request)
    try:
        state.config = DemoConfig.model_validate({**state.config.model_dump(), **body})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors())
        raise ApiError(400, f"That config is not valid ({problems}).") from None
    return web.json_response({"ok": True, "config": state.config.model_dump(mode="json")})
