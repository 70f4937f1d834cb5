"""Who is asking: session cookies and bearer tokens, page redirects to sign-in, and the 401s of the API."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from aiohttp import web

from studio.demo.http_support import ApiError, state_of
from studio.demo.state import Session, User

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
