"""Sign-in: the login page, password and TOTP verification, refresh, sign-out, `who am I`, and an admin's
impersonation of a user."""

from __future__ import annotations

import asyncio

from aiohttp import web

from studio.demo.auth import (
    clear_session_cookie,
    impersonation,
    request_token,
    require_api_user,
    safe_next,
    set_session_cookie,
    visitor,
)
from studio.demo.http_support import ApiError, read_json, require_str, state_of
from studio.demo.sign_in_help import sign_in_help
from studio.demo.state import DemoState, User
from studio.demo.templating import render

routes = web.RouteTableDef()

BAD_CREDENTIALS = "Invalid email or password."
BAD_CODE = "That code is not valid. Check your authenticator app and try again."
EXPIRED_CHALLENGE = "This sign-in attempt has expired. Enter your email and password again."


def check_password(state: DemoState, email: str, password: str) -> User:
    user = state.find_user(email)
    if user is None or user.password != password:
        raise ApiError(401, BAD_CREDENTIALS)
    return user


def session_response(state: DemoState, user: User) -> web.Response:
    session = state.open_session(user)
    response = web.json_response({"status": "ok", "session": state.session_json(session)})
    set_session_cookie(response, session)
    return response


def login_page_response(
    request: web.Request, target: str, *, error: str = "", step: str = "password", challenge_id: str = "",
    email: str = "", expired: bool = False,
) -> web.Response:
    return render(request, "login.html", title="Sign in", next_path=target, expired=expired, error=error,
                  step=step, challenge_id=challenge_id, email=email, demo_account=sign_in_help(state_of(request)))


async def _slow_identity_provider(request: web.Request) -> None:
    delay_ms = state_of(request).config.sign_in_latency_ms
    if delay_ms:
        await asyncio.sleep(delay_ms / 1000)


@routes.get("/login")
async def login_page(request: web.Request) -> web.Response:
    target = safe_next(request.query.get("next"))
    if visitor(request).user is not None:
        raise web.HTTPFound(target)
    return login_page_response(request, target, expired=request.query.get("expired") == "1")


@routes.post("/login")
async def login_form_post(request: web.Request) -> web.Response:
    await _slow_identity_provider(request)
    """The no-script path of the login page: the same checks as /api/login, answered with pages and redirects."""
    state = state_of(request)
    form = await request.post()
    target = safe_next(str(form.get("next") or ""))
    challenge_id = str(form.get("challengeId") or "")
    if challenge_id:
        user = state.challenge_user(challenge_id)
        if user is None:
            return login_page_response(request, target, error=EXPIRED_CHALLENGE)
        if not state.check_otp(user, str(form.get("otp") or "")):
            return login_page_response(request, target, error=BAD_CODE, step="otp", challenge_id=challenge_id,
                                       email=user.email)
        del state.challenges[challenge_id]
        return signed_in_redirect(state, user, target)
    email = str(form.get("email") or "").strip()
    password = str(form.get("password") or "")
    if not email or not password:
        missing = "Enter your email address." if not email else "Enter your password."
        return login_page_response(request, target, error=missing, email=email)
    user = state.find_user(email)
    if user is None or user.password != password:
        return login_page_response(request, target, error=BAD_CREDENTIALS, email=email)
    if user.requires_2fa:
        return login_page_response(request, target, step="otp", challenge_id=state.open_challenge(user), email=email)
    return signed_in_redirect(state, user, target)


def signed_in_redirect(state: DemoState, user: User, target: str) -> web.Response:
    response = web.Response(status=303, headers={"Location": target})
    set_session_cookie(response, state.open_session(user))
    return response


@routes.post("/api/login")
async def api_login(request: web.Request) -> web.Response:
    await _slow_identity_provider(request)
    state = state_of(request)
    body = await read_json(request)
    email = require_str(body, "email", "Enter your email address.")
    password = body.get("password")
    if not isinstance(password, str) or not password:
        raise ApiError(400, "Enter your password.")
    user = check_password(state, email, password)
    if user.requires_2fa:
        return web.json_response({"status": "2fa_required", "challengeId": state.open_challenge(user)})
    return session_response(state, user)


@routes.post("/api/verify-2fa")
async def api_verify_2fa(request: web.Request) -> web.Response:
    await _slow_identity_provider(request)
    state = state_of(request)
    body = await read_json(request)
    challenge_id = require_str(body, "challengeId", "The sign-in attempt is missing; start again with your password.")
    code = require_str(body, "code", "Enter the 6-digit code from your authenticator app.")
    user = state.challenge_user(challenge_id)
    if user is None:
        raise ApiError(401, EXPIRED_CHALLENGE)
    if not state.check_otp(user, code):
        raise ApiError(401, BAD_CODE)
    del state.challenges[challenge_id]
    return session_response(state, user)


@routes.post("/api/refresh")
async def api_refresh(request: web.Request) -> web.Response:
    state = state_of(request)
    body = await read_json(request)
    refresh_token = require_str(body, "refreshToken", "Send the refreshToken of your session.")
    session = state.refresh_session(refresh_token)
    if session is None:
        raise ApiError(401, "That refresh token is not valid. Sign in again.")
    response = web.json_response({"status": "ok", "session": state.session_json(session)})
    set_session_cookie(response, session)
    return response


@routes.post("/api/logout")
async def api_logout(request: web.Request) -> web.Response:
    state_of(request).close_session(request_token(request))
    response = web.json_response({"ok": True})
    clear_session_cookie(response)
    return response


@routes.post("/logout")
async def logout_form(request: web.Request) -> web.Response:
    """The header's Sign out button is a plain form, so signing out works even before scripts load."""
    state_of(request).close_session(request_token(request))
    response = web.Response(status=303, headers={"Location": "/login"})
    clear_session_cookie(response)
    return response


@routes.get("/api/me")
async def api_me(request: web.Request) -> web.Response:
    user = require_api_user(request)
    session = visitor(request).session
    assert session is not None
    return web.json_response({"user": user.summary(), "expiresAt": session.expires_ms})


@routes.post("/api/admin/impersonate")
async def api_impersonate(request: web.Request) -> web.Response:
    """A signed-in admin gets a token for another user ({"userId"}): {token, session, impersonatedBy}."""
    admin = require_api_user(request, "Sign in as an admin to impersonate a user.")
    body = await read_json(request)
    return web.json_response(impersonation(state_of(request), admin, body.get("userId")))
