"""Browser contexts as the engine opens them: one function with the options every capability asks for (a viewport, a
signed-in state, cookies carried over, timeouts, and a guard that keeps writes from reaching the app's server).

Only studio/browser makes contexts; the runtime hands them out as pages an agent drives (studio.race.PageDriver).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Route

from studio.browser.errors import BrowserError, first_line

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_VIEWPORT = (1280, 720)


@dataclass
class WriteGuard:
    """Stops requests that would write (POST, PUT, PATCH, DELETE) before they leave the browser and lists them; with
    `allow`, lets them through and lists them too (the tester allowed the app's forms to be sent)."""

    allow: bool = False
    blocked: list[str] = field(default_factory=list)  # "POST http://…", stopped
    written: list[str] = field(default_factory=list)  # "POST http://…", let through

    async def route(self, route: Route) -> None:
        request = route.request
        if request.method not in WRITES:
            await route.continue_()
        elif self.allow:
            self.written.append(f"{request.method} {request.url}")
            await route.continue_()
        else:
            self.blocked.append(f"{request.method} {request.url}")
            await route.abort("blockedbyclient")


@dataclass
class ContextOptions:
    """What a new context starts with."""

    viewport: tuple[int, int] = DEFAULT_VIEWPORT
    storage_state: str | Path | None = None  # a Playwright storageState file (signed in)
    cookies: list[dict[str, Any]] | None = None  # cookies carried over from another context
    user_agent: str | None = None
    default_timeout_ms: float | None = None
    navigation_timeout_ms: float | None = None
    writes: WriteGuard | None = None
    init_scripts: tuple[str, ...] = ()  # run in every document before its own scripts


async def new_context(browser: Browser, options: ContextOptions | None = None) -> BrowserContext:
    """A fresh context on `browser` as `options` say; raises BrowserError when the browser cannot make one."""
    options = options or ContextOptions()
    width, height = options.viewport
    kwargs: dict[str, Any] = {"viewport": {"width": width, "height": height}}
    if options.storage_state is not None:
        kwargs["storage_state"] = str(options.storage_state)
    if options.user_agent:
        kwargs["user_agent"] = options.user_agent
    try:
        context = await browser.new_context(**kwargs)
    except Exception as error:  # a gone browser, an unreadable storage state
        raise BrowserError(f"The browser could not open a new context: {first_line(error)}.") from error
    if options.default_timeout_ms is not None:
        context.set_default_timeout(options.default_timeout_ms)
    if options.navigation_timeout_ms is not None:
        context.set_default_navigation_timeout(options.navigation_timeout_ms)
    if options.cookies:
        await context.add_cookies(options.cookies)  # type: ignore[arg-type]
    if options.writes is not None:
        await context.route("**/*", options.writes.route)
    for script in options.init_scripts:
        await context.add_init_script(script)
    return context
