"""Who is asking: session cookies and bearer tokens, page redirects to sign-in, the 401s of the API, and an admin's
impersonation of a user (a session for that user, issued by the admin)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from aiohttp import web

from studio.demo.http_support import ApiError, state_of
from studio.demo.state import DemoState, Session, User

SESSION_COOKIE = "demo_session"


@dataclass(frozen=True)
class Visitor:
    """The session behind a request: `user` is set only while the session is live."""

    session: Session | None
    user: User | None
    expired: bool

    @property
    def is_admin(self) -> bool:
        return self.user is not None and self.user.role == "admin"


def request_token(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(SESSION_COOKIE)


def visitor(request: web.Request) -> Visitor:
    state = state_of(request)
    session, expired = state.lookup_session(request_token(request))
    if session is None:
        return Visitor(None, None, False)
    return Visitor(session, None if expired else state.users[session.user_id], expired)


def safe_next(value: str | None, default: str = "/dashboard") -> str:
    """Only same-origin relative paths may be a post-login destination, so `next` cannot send users away."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return default
    if any(ord(ch) < 32 for ch in value) or value.startswith("/login"):
        return default
    return value


def require_page_user(request: web.Request) -> User:
    """The signed-in user, or a 302 to the sign-in page that remembers where the visitor was going."""
    who = visitor(request)
    if who.user is not None:
        return who.user
    target = quote(request.path_qs, safe="/")
    expired = "expired=1&" if who.expired else ""
    raise web.HTTPFound(f"/login?{expired}next={target}")


def require_api_user(request: web.Request, message: str = "Sign in to continue.") -> User:
    who = visitor(request)
    if who.user is not None:
        return who.user
    if who.expired:
        raise ApiError(401, "Your session has expired. Please sign in again.")
    raise ApiError(401, message)


def set_session_cookie(response: web.StreamResponse, session: Session) -> None:
    response.set_cookie(SESSION_COOKIE, session.token, httponly=True, samesite="Lax", path="/")


def clear_session_cookie(response: web.StreamResponse) -> None:
    response.del_cookie(SESSION_COOKIE, path="/")


def impersonation(state: DemoState, admin: User, user_key: object) -> dict[str, Any]:
    """A session for the user `user_key` (an id or email) issued by `admin`, without the user's password or one-time
    code: {token, session, impersonatedBy}. The token works as a bearer token and as the session cookie."""
    if admin.role != "admin":
        raise ApiError(403, f"{admin.email} is not an admin; only an admin can impersonate a user.")
    if not isinstance(user_key, str) or not user_key.strip():
        raise ApiError(400, "Send the 'userId' of the user to impersonate.")
    user = state.find_user(user_key)
    if user is None:
        raise ApiError(404, f"No user with id or email {user_key!r}.")
    session = state.open_session(user)
    return {"token": session.token, "session": state.session_json(session),
            "impersonatedBy": {"userId": admin.user_id, "email": admin.email}}
