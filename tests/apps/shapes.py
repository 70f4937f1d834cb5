"""Small single-page apps of everyday shapes, as plain HTML and JavaScript under tests/apps/static/<shape>/, each served
on its own loopback origin (its own storage): a seat-booking page, a product filter, icon-only buttons with a modal
menu, a to-do list of hand-written web components (open shadow roots), a keyboard-only word game, a registration form
with client-side validation, an expense tracker, a page with a same-origin frame and a drag-to-sort list. They are written the way such
apps are found in the wild (event delegation, labels without `for`, lists hidden while empty), not for the studio."""

from __future__ import annotations

from pathlib import Path
from typing import Self

from aiohttp import web

from tests.app_thread import AppThread

STATIC = Path(__file__).parent / "static"
SHAPES = ("seat-booking", "product-filter", "icon-buttons", "todo-wc", "word-game", "registration", "expense-tracker",
          "embedded-widget", "drag-list")
_TYPES = {".html": "text/html", ".js": "application/javascript", ".css": "text/css"}


def _app(shape: str) -> web.Application:
    folder = STATIC / shape

    async def serve(request: web.Request) -> web.Response:
        name = request.match_info.get("name") or "index.html"
        path = (folder / name).resolve()
        if path.parent != folder.resolve() or not path.is_file():
            return web.Response(status=404, text="Not found")
        return web.Response(body=path.read_bytes(), content_type=_TYPES.get(path.suffix, "application/octet-stream"),
                            headers={"Cache-Control": "no-store"})

    app = web.Application()
    app.router.add_get("/", serve)
    app.router.add_get("/{name}", serve)
    return app


class ShapeApps:
    """`with ShapeApps() as shapes: page.goto(shapes.url("seat-booking"))`: every shape on its own port."""

    def __init__(self, shapes: tuple[str, ...] = SHAPES) -> None:
        self.shapes = shapes
        self._served: AppThread | None = None
        self._urls: dict[str, str] = {}

    def url(self, shape: str) -> str:
        return self._urls[shape] + "/"

    def __enter__(self) -> Self:
        self._served = AppThread(*(_app(shape) for shape in self.shapes), name="shape-apps").__enter__()
        self._urls = dict(zip(self.shapes, self._served.urls, strict=True))
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._served is not None:
            self._served.__exit__(*exc_info)
            self._served = None
