"""A single-page to-do list ("Errands"), TodoMVC-shaped but written from scratch, with seeded faults.

Shape: ONE URL (`/`) with hash routes `#/`, `#/active`, `#/completed`. The `<header>` holds the new-item input
(`input.new-todo`, placeholder "What needs to be done?", Enter adds the trimmed text, empty is ignored) and the
"Mark all as complete" toggle: an invisible 1×1 `input#toggle-all.toggle-all` with a visible
`<label for="toggle-all">`. `<main>` holds only `ul.todo-list` and, as in TodoMVC's
apps, is hidden while the list is empty; each `<li>` has `input.toggle` (checkbox) with a
SIBLING `<label>` (no `for`, not wrapping) and a text-less `button.destroy` (aria-label "Delete") that is
`display:none` until the row is hovered. Double-clicking a label opens `input.edit` (Enter and blur save, Escape
cancels, empty text deletes). The `<footer>` (hidden while the list is empty) has `span.todo-count`
("<strong>2</strong> items left", "1 item left"), the filter links (the current one has class `selected`) and a
"Clear completed" button shown only while something is completed. Items persist in localStorage.

Faults are served as different JavaScript (tests/apps/static/list/app.js); the page never names them.
"""

from __future__ import annotations

from aiohttp import web

from tests.apps.base import FaultyApp, error_response

FAULT_DESCRIPTIONS: dict[str, str] = {
    "toggle_noop": "Checking an item's checkbox does not mark it completed (the new state is never stored).",
    "delete_noop": "The destroy (×) button does nothing (ids are compared as numbers).",
    "counter_wrong": "The 'items left' counter counts every item, not only the active ones.",
    "clear_completed_noop": "'Clear completed' removes nothing (filters on a property that does not exist).",
    "no_persist": "Items are saved under a different key than they are loaded from: a reload loses them.",
    "filter_broken": "The Active filter (#/active) shows every item, completed ones included.",
    "edit_not_saved": "Pressing Enter in the inline editor restores the old text instead of saving.",
    "add_on_enter_broken": "Enter in the new-item input adds nothing (the handler waits for a 'Return' key).",
    "toggle_all_broken": "'Mark all as complete' changes nothing (its checked state is read inverted).",
}
FAULTS: tuple[str, ...] = tuple(FAULT_DESCRIPTIONS)


class ListApp(FaultyApp):
    """`with ListApp(faults={"delete_noop"}) as app: page.goto(app.base_url + "/")`."""

    FAULTS = FAULTS
    NAME = "list-app"
    STATIC_DIR = "list"

    def build(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.static_route("index.html", "text/html"))
        app.router.add_get("/app.js", self.static_route("app.js", "application/javascript"))
        app.router.add_get("/app.css", self.static_route("app.css", "text/css"))

        async def not_found(request: web.Request) -> web.Response:
            return error_response(404)

        app.router.add_route("*", "/{tail:.*}", not_found)
        return app
