"""One page of race-check edge cases ("Lumen Boards" workspace overview); no faults.

Every element carries a `data-testid`:
- `hidden-self`: a button that is itself `display:none` ("Export CSV").
- `hidden-ancestor`: a button inside a `display:none` ancestor (`collapsed-panel`; "Advanced options").
- `invisible`: a button with `visibility:hidden` ("Undo").
- `anchor-button`: an `<a>` WITHOUT href used as a button ("Add a note"); each click increments
  `anchor-count` ("Notes added: N").
- `rotated-link`: a link inside `rotated-container`, CSS `transform: rotate(20deg)`; clickable by Playwright;
  a click sets `rotated-status` to "Badge claimed" (and the hash to #badge).
- `normal-button`: a plain button ("Save preferences"); clicks update `normal-count` ("Saved N time(s)").
- `covered-button`: "Mark all as read" in the activity card, covered by a `position:fixed` loading overlay
  (`overlay`) that starts fading at 1.0 s and is removed at 1.25 s; a click sets `covered-count` to "Unread: 0".
- `rerendered-button`: "Sync now", NOT covered; when the overlay is removed it is replaced by a fresh node with the
  same text and test id (a handle taken before goes stale); clicks on either node update `rerendered-count`
  ("Synced N time(s)").
"""

from __future__ import annotations

from aiohttp import web

from tests.apps.base import FaultyApp, error_response

FAULT_DESCRIPTIONS: dict[str, str] = {}
FAULTS: tuple[str, ...] = tuple(FAULT_DESCRIPTIONS)
OVERLAY_FADES_AT_S = 1.0
OVERLAY_GONE_AT_S = 1.25


class HazardsApp(FaultyApp):
    """`with HazardsApp() as app: page.goto(app.entry_url)` (the page is `/`)."""

    FAULTS = FAULTS
    NAME = "hazards-app"
    STATIC_DIR = "hazards"

    def build(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.static_route("index.html", "text/html"))

        async def not_found(request: web.Request) -> web.Response:
            return error_response(404)

        app.router.add_route("*", "/{tail:.*}", not_found)
        return app
