"""Renders the demo app's Jinja2 pages with the shared header: nav, signed-in user, cart badge and flags."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from aiohttp import web
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from studio.demo.auth import visitor
from studio.demo.http_support import CART_COOKIE, state_of
from studio.resources import resource_path


@dataclass(frozen=True)
class NavLink:
    """A link of the shared header navigation."""

    testid: str
    label: str
    href: str


def long_date(value: datetime | int) -> str:
    if isinstance(value, int):
        value = datetime.fromtimestamp(value / 1000, tz=timezone.utc)
    return f"{value:%B} {value.day}, {value.year}"


def short_date(value: datetime | int) -> str:
    if isinstance(value, int):
        value = datetime.fromtimestamp(value / 1000, tz=timezone.utc)
    return f"{value:%b} {value.day}, {value.year}"


def money(cents: int | float) -> str:
    return f"${cents / 100:,.2f}"


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(resource_path("demo", "templates"))),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(long_date=long_date, short_date=short_date, money=money)
    return env


def alerts_location(flags: dict[str, Any]) -> tuple[str, str]:
    """Where the alert centre lives and what it is called under the `alerts_route` flag."""
    if flags["alerts_route"] == "default":
        return "/alerts", "Alerts"
    return "/notifications", "Notifications"


def page_context(request: web.Request) -> dict[str, Any]:
    """What every page's header and footer need."""
    state = state_of(request)
    who = visitor(request)
    user = who.user
    flags = state.flags_for(user.user_id if user else None)
    alerts_path, alerts_label = alerts_location(flags)
    nav = [
        NavLink("nav-dashboard", "Dashboard", "/dashboard"),
        NavLink("nav-credit-report", "Credit Report", "/credit-report"),
        NavLink("nav-disputes", "Disputes", "/disputes"),
        NavLink("nav-alerts", alerts_label, alerts_path),
        NavLink("nav-offers", "Offers", "/offers"),
        NavLink("nav-help", "Help", "/help"),
        NavLink("nav-products", "Products", "/products"),
        NavLink("nav-game", "Game", "/game"),
        NavLink("nav-profile", "Profile", "/profile"),
    ]
    if who.is_admin:
        nav.append(NavLink("nav-admin", "Admin", "/admin"))
    cart = state.cart(request.cookies.get(CART_COOKIE))
    return {
        "path": request.path,
        "user": user,
        "is_admin": who.is_admin,
        "flags": flags,
        "nav": nav,
        "alerts_path": alerts_path,
        "alerts_label": alerts_label,
        "cart_count": sum(cart.values()),
        "now": state.clock.now(),
    }


def render(request: web.Request, template: str, *, status: int = 200, **context: Any) -> web.Response:
    html = environment().get_template(template).render(**page_context(request), **context)
    response = web.Response(text=html, status=status, content_type="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


def not_found_page(request: web.Request) -> web.Response:
    return render(request, "error.html", status=404, title="Page not found",
                  heading="Page not found",
                  message="We couldn't find the page you were looking for. It may have moved or no longer exists.")
