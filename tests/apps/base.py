"""What every fixture app in tests/apps shares: a thread-safe fault switch, serving from a daemon thread, and the
server-side templating that turns a fault set into the HTML/JS a page gets.

Static files under tests/apps/static/<app>/ are templated line by line. A directive line
    //#if some_fault        (or <!--#if some_fault-->, /*#if some_fault*/; `!some_fault` negates)
    //#else
    //#endif
keeps one branch and is itself dropped, so a served file never names a fault. `{{name}}` placeholders are replaced
with the values passed to `render`. Responses are sent with `Cache-Control: no-store`, so a fault switched between
two page loads is what the second load gets.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Self

from aiohttp import web

from tests.app_thread import AppThread

STATIC = Path(__file__).parent / "static"
NO_STORE = {"Cache-Control": "no-store"}
DIRECTIVE = re.compile(r"^\s*(?://|<!--|/\*)#(if|else|endif)\b\s*(!?[A-Za-z0-9_]+)?\s*(?:-->|\*/)?\s*$")
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def render(text: str, faults: frozenset[str], **values: object) -> str:
    """`text` with its fault directives resolved for `faults` and its `{{name}}` placeholders filled."""
    out: list[str] = []
    stack: list[bool] = []  # for each open #if: is the branch we are in kept?
    for line in text.splitlines(keepends=True):
        match = DIRECTIVE.match(line)
        if not match:
            if all(stack):
                out.append(line)
            continue
        kind, name = match.group(1), match.group(2)
        if kind == "if":
            if not name:
                raise ValueError(f"#if without a fault name: {line!r}")
            stack.append((name.lstrip("!") in faults) != name.startswith("!"))
        elif kind == "else":
            stack.append(not stack.pop())
        else:
            stack.pop()
    if stack:
        raise ValueError("unterminated #if")

    def fill(match: re.Match[str]) -> str:
        return str(values[match.group(1)])

    return PLACEHOLDER.sub(fill, "".join(out))


class FaultyApp:
    """Base for the fixture apps: `faults` is the set switched on now; subclasses build the aiohttp app."""

    FAULTS: tuple[str, ...] = ()
    NAME = "fixture-app"
    STATIC_DIR = ""  # the folder under tests/apps/static holding this app's templated files

    def __init__(self, faults: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._faults: frozenset[str] = frozenset()
        self.set_faults(faults)
        self.base_url = ""  # http://127.0.0.1:PORT once served
        self._served: AppThread | None = None

    # -- faults --------------------------------------------------------------------------------------------

    def set_faults(self, faults: Iterable[str]) -> None:
        """Switch exactly these faults on (and every other off); takes effect from the next request."""
        wanted = frozenset(faults)
        unknown = wanted - set(self.FAULTS)
        if unknown:
            raise ValueError(f"unknown faults for {type(self).__name__}: {sorted(unknown)}; known: {self.FAULTS}")
        with self._lock:
            self._faults = wanted

    @property
    def faults(self) -> frozenset[str]:
        with self._lock:
            return self._faults

    def has(self, fault: str) -> bool:
        assert fault in self.FAULTS, fault
        return fault in self.faults

    # -- serving helpers -----------------------------------------------------------------------------------

    def template(self, name: str, **values: object) -> str:
        return render((STATIC / self.STATIC_DIR / name).read_text(encoding="utf-8"), self.faults, **values)

    def static_response(self, name: str, content_type: str, **values: object) -> web.Response:
        return web.Response(text=self.template(name, **values), content_type=content_type, headers=NO_STORE)

    def static_route(self, name: str, content_type: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handler(request: web.Request) -> web.Response:
            return self.static_response(name, content_type)

        return handler

    def build(self) -> web.Application:
        raise NotImplementedError

    @property
    def entry_url(self) -> str:
        """The URL a tester would give the studio."""
        return self.base_url + "/"

    def __enter__(self) -> Self:
        self._served = AppThread(self.build(), name=self.NAME).__enter__()
        self.base_url = self._served.urls[0]
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._served is not None:
            self._served.__exit__(*exc_info)
            self._served = None


def error_response(status: int = 404) -> web.Response:
    """The error page Python's http.server sends (titled "Error response")."""
    reasons = {404: ("File not found", "Nothing matches the given URI"),
               405: ("Method Not Allowed", "Specified method is invalid for this resource")}
    message, explanation = reasons.get(status, ("Error", "Something went wrong"))
    return web.Response(status=status, content_type="text/html", headers=NO_STORE, text=f"""<!DOCTYPE HTML>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <title>Error response</title>
    </head>
    <body>
        <h1>Error response</h1>
        <p>Error code: {status}</p>
        <p>Message: {message}.</p>
        <p>Error code explanation: {status} - {explanation}.</p>
    </body>
</html>
""")
