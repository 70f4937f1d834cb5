"""A small server-rendered, multi-page library catalogue ("Shelfmark"), with seeded faults.

Shape: no login, no client framework, plain forms and redirects. `/` redirects to `/items`, the list: a table
(Title, Author, Shelf, Copies) sorted by title, a search box (GET `q`, matches title or author) and pagination
(5 rows a page, `?page=N`, "Page 1 of 3" with Previous/Next links) over 12 seeded books. `/items/<id>` is a detail
page with an Edit link and a Delete button that opens a `<dialog>` (Cancel / Delete; no window.confirm).
`/items/new` and `/items/<id>/edit` are forms (Title required; Copies a whole number ≥ 0); invalid input re-renders
the form (HTTP 200, as classic server-rendered apps do) with an error summary and an error message next to each field, linked by `aria-describedby`
and `aria-invalid`. After a save or a delete the next page shows a toast (`role="status"`), carried in a cookie.
`/admin`, `/manage`, `/settings/users` and every unknown path answer 404 with Python http.server's
"Error response" page; nothing links to them.

Faults change what the server does or renders; the pages never name them.
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from math import ceil
from urllib.parse import quote, unquote, urlencode

from aiohttp import web

from tests.apps.base import NO_STORE, FaultyApp, error_response

FAULT_DESCRIPTIONS: dict[str, str] = {
    "validation_missing": "An empty title is accepted: the item is saved without one.",
    "save_drops_field": "The number of copies is not saved (read from a form field that does not exist).",
    "search_broken": "Searching ignores the query and lists every item.",
    "delete_noop": "Deleting says it worked, but the item stays in the catalogue.",
    "toast_missing": "No confirmation toast appears after a save or a delete.",
    "pagination_off_by_one": "Page N shows the rows of page N+1: the first five items are never listed.",
}
FAULTS: tuple[str, ...] = tuple(FAULT_DESCRIPTIONS)

PAGE_SIZE = 5
SEED_ITEMS = (
    ("A Wizard of Earthsea", "Ursula K. Le Guin", "F LEG", 3),
    ("Beloved", "Toni Morrison", "F MOR", 2),
    ("Cosmos", "Carl Sagan", "520 SAG", 1),
    ("Dune", "Frank Herbert", "F HER", 4),
    ("Educated", "Tara Westover", "B WES", 2),
    ("Frankenstein", "Mary Shelley", "F SHE", 5),
    ("Gödel, Escher, Bach", "Douglas Hofstadter", "510 HOF", 1),
    ("Hidden Figures", "Margot Lee Shetterly", "510.92 SHE", 2),
    ("Invisible Cities", "Italo Calvino", "F CAL", 1),
    ("Jane Eyre", "Charlotte Brontë", "F BRO", 3),
    ("Kindred", "Octavia E. Butler", "F BUT", 2),
    ("Leaves of Grass", "Walt Whitman", "811 WHI", 0),
)
FIELDS = (("title", "Title", "The title as printed on the title page."),
          ("author", "Author", ""),
          ("shelf", "Shelf mark", "For example F LEG or 520 SAG."),
          ("quantity", "Copies", "How many copies the branch holds (0 or more)."))


@dataclass(frozen=True)
class Item:
    id: int
    title: str
    author: str
    shelf: str
    quantity: int


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


class RecordsApp(FaultyApp):
    """`with RecordsApp() as app: page.goto(app.entry_url)`; `app.reset()` restores the 12 seeded books."""

    FAULTS = FAULTS
    NAME = "records-app"
    STATIC_DIR = "records"

    def __init__(self, faults: Iterable[str] = ()) -> None:
        super().__init__(faults)
        self._data_lock = threading.Lock()
        self.items: dict[int, Item] = {}
        self._next_id = 1
        self.reset()

    @property
    def entry_url(self) -> str:
        return self.base_url + "/items"

    def reset(self) -> None:
        """Back to the seeded catalogue (faults are left as they are)."""
        with self._data_lock:
            self.items = {i: Item(i, *row) for i, row in enumerate(SEED_ITEMS, start=1)}
            self._next_id = len(SEED_ITEMS) + 1

    def find(self, title: str) -> Item | None:
        with self._data_lock:
            return next((item for item in self.items.values() if item.title == title), None)

    # -- rendering -------------------------------------------------------------------------------------------

    def page(self, request: web.Request, title: str, body: str, status: int = 200, nav: str = "") -> web.Response:
        flash = unquote(request.cookies.get("flash", ""))
        toast = ""
        if flash and not self.has("toast_missing"):
            toast = (f'<div class="toast" role="status"><span>{esc(flash)}</span>'
                     '<button type="button" class="dismiss" aria-label="Dismiss" onclick="this.parentElement.remove()">'
                     "</button>"
                     "</div>")
        links = [("/items", "Catalogue", "list"), ("/items/new", "New item", "new")]
        current = ' aria-current="page"'
        nav_html = "".join(f'<li><a href="{href}"{current if key == nav else ""}>{name}</a></li>'
                           for href, name, key in links)
        response = web.Response(status=status, content_type="text/html", headers=NO_STORE, text=f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{esc(title)} · Shelfmark</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/site.css">
</head>
<body>
  <header class="site-header"><div class="inner">
    <a class="brand" href="/items">Shelfmark <span>Riverside Branch</span></a>
    <nav aria-label="Main"><ul>{nav_html}</ul></nav>
  </div></header>
  <main>
    {toast}
    {body}
  </main>
  <footer class="site-footer">Riverside Branch Library · staff catalogue</footer>
</body>
</html>""")
        if flash:
            response.del_cookie("flash", path="/")
        return response

    def redirect(self, location: str, flash: str) -> web.HTTPSeeOther:
        response = web.HTTPSeeOther(location)
        response.set_cookie("flash", quote(flash), path="/", httponly=True, samesite="Lax")
        return response

    def item_or_404(self, request: web.Request) -> Item:
        with self._data_lock:
            item = self.items.get(int(request.match_info["id"]))
        if item is None:
            raise web.HTTPNotFound(text=error_response(404).text, content_type="text/html")
        return item

    def form(self, action: str, values: dict[str, str], errors: dict[str, str], submit: str, cancel: str) -> str:
        summary = ""
        if errors:
            entries = "".join(f'<li><a href="#{name}">{esc(message)}</a></li>' for name, message in errors.items())
            summary = (f'<div class="error-summary" role="alert" aria-labelledby="error-summary-title">'
                       f'<h2 id="error-summary-title">There is a problem</h2><ul>{entries}</ul></div>')
        fields = []
        for name, label, hint in FIELDS:
            described = []
            hint_html = error_html = ""
            if hint:
                hint_html = f'<p class="hint" id="{name}-hint">{esc(hint)}</p>'
                described.append(f"{name}-hint")
            if name in errors:
                error_html = f'<p class="field-error" id="{name}-error">{esc(errors[name])}</p>'
                described.append(f"{name}-error")
            attrs = f' aria-describedby="{" ".join(described)}"' if described else ""
            if name in errors:
                attrs += ' aria-invalid="true"'
            if name == "title":
                attrs += ' aria-required="true"'
            if name == "quantity":
                attrs += ' inputmode="numeric"'
            fields.append(f'<div class="field"><label for="{name}">{label}</label>{hint_html}{error_html}'
                          f'<input id="{name}" name="{name}" value="{esc(values.get(name, ""))}"{attrs}></div>')
        return (f'{summary}<form class="item-form" method="post" action="{action}" novalidate>{"".join(fields)}'
                f'<div class="actions"><button type="submit">{submit}</button>'
                f'<a class="button secondary" href="{cancel}">Cancel</a></div></form>')

    # -- handlers --------------------------------------------------------------------------------------------

    async def home(self, request: web.Request) -> web.Response:
        raise web.HTTPFound("/items")

    async def list_items(self, request: web.Request) -> web.Response:
        query = request.query.get("q", "").strip()
        try:
            page_no = max(1, int(request.query.get("page", "1")))
        except ValueError:
            page_no = 1
        with self._data_lock:
            items = sorted(self.items.values(), key=lambda item: (item.title.casefold(), item.id))
        if query and not self.has("search_broken"):
            needle = query.casefold()
            items = [i for i in items if needle in i.title.casefold() or needle in i.author.casefold()]
        pages = max(1, ceil(len(items) / PAGE_SIZE))
        page_no = min(page_no, pages)
        start = page_no * PAGE_SIZE if self.has("pagination_off_by_one") else (page_no - 1) * PAGE_SIZE
        rows = "".join(f'<tr><td><a href="/items/{i.id}">{esc(i.title)}</a></td><td>{esc(i.author)}</td>'
                       f'<td>{esc(i.shelf)}</td><td class="num">{i.quantity}</td></tr>'
                       for i in items[start:start + PAGE_SIZE])
        if rows:
            table = ('<table><caption class="count">{}</caption><thead><tr><th scope="col">Title</th>'
                     '<th scope="col">Author</th><th scope="col">Shelf</th><th scope="col" class="num">Copies</th>'
                     '</tr></thead><tbody>{}</tbody></table>').format(
                         f"{len(items)} item{'s' if len(items) != 1 else ''}", rows)
        else:
            table = '<p class="empty">No items match your search.</p>'

        def link(number: int, text: str, rel: str) -> str:
            params = {"q": query} if query else {}
            params["page"] = str(number)
            return f'<a href="/items?{urlencode(params)}" rel="{rel}">{text}</a>'

        prev = link(page_no - 1, "Previous", "prev") if page_no > 1 else '<span class="disabled">Previous</span>'
        nxt = link(page_no + 1, "Next", "next") if page_no < pages else '<span class="disabled">Next</span>'
        body = f"""<h1>Catalogue</h1>
<div class="toolbar">
  <form class="search" role="search" method="get" action="/items">
    <label for="q">Search</label>
    <input id="q" name="q" type="search" value="{esc(query)}" placeholder="Title or author">
    <button type="submit" class="secondary">Search</button>
  </form>
  <a class="button" href="/items/new">New item</a>
</div>
{table}
<nav class="pagination" aria-label="Pagination">{prev}<span>Page {page_no} of {pages}</span>{nxt}</nav>"""
        return self.page(request, "Catalogue", body, nav="list")

    async def show_item(self, request: web.Request) -> web.Response:
        item = self.item_or_404(request)
        body = f"""<p><a href="/items">← Back to the catalogue</a></p>
<h1>{esc(item.title)}</h1>
<dl class="details">
  <dt>Author</dt><dd>{esc(item.author) or "—"}</dd>
  <dt>Shelf mark</dt><dd>{esc(item.shelf) or "—"}</dd>
  <dt>Copies</dt><dd data-field="quantity">{item.quantity}</dd>
</dl>
<div class="detail-actions">
  <a class="button" href="/items/{item.id}/edit">Edit</a>
  <button type="button" class="danger" id="delete-item">Delete</button>
</div>
<dialog id="confirm-delete" aria-labelledby="confirm-delete-title">
  <form method="post" action="/items/{item.id}/delete">
    <h2 id="confirm-delete-title">Delete this item?</h2>
    <p>“{esc(item.title)}” will be removed from the catalogue. This cannot be undone.</p>
    <div class="actions">
      <button type="submit" class="secondary" formmethod="dialog" value="cancel">Cancel</button>
      <button type="submit" class="danger">Delete</button>
    </div>
  </form>
</dialog>
<script>
document.getElementById('delete-item').addEventListener('click', function () {{
  document.getElementById('confirm-delete').showModal();
}});
</script>"""
        return self.page(request, item.title, body)

    def validate(self, form: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
        values = {name: form.get(name, "").strip() for name, _, _ in FIELDS}
        errors: dict[str, str] = {}
        if not values["title"] and not self.has("validation_missing"):
            errors["title"] = "Enter a title."
        if not re.fullmatch(r"\d{1,6}", values["quantity"]):
            errors["quantity"] = "Copies must be a whole number, 0 or more."
        return values, errors

    async def new_item(self, request: web.Request) -> web.Response:
        body = "<h1>New item</h1>" + self.form("/items", {"quantity": "1"}, {}, "Add item", "/items")
        return self.page(request, "New item", body, nav="new")

    async def create_item(self, request: web.Request) -> web.Response:
        form = {k: str(v) for k, v in (await request.post()).items()}
        values, errors = self.validate(form)
        if errors:
            body = "<h1>New item</h1>" + self.form("/items", values, errors, "Add item", "/items")
            return self.page(request, "New item", body, nav="new")
        quantity = int(form.get("qty", "0") or 0) if self.has("save_drops_field") else int(values["quantity"])
        with self._data_lock:
            item = Item(self._next_id, values["title"], values["author"], values["shelf"], quantity)
            self.items[item.id] = item
            self._next_id += 1
        raise self.redirect(f"/items/{item.id}", f"Added “{item.title}” to the catalogue.")

    async def edit_item(self, request: web.Request) -> web.Response:
        item = self.item_or_404(request)
        values = {"title": item.title, "author": item.author, "shelf": item.shelf, "quantity": str(item.quantity)}
        body = f"<h1>Edit “{esc(item.title)}”</h1>" + self.form(f"/items/{item.id}/edit", values, {}, "Save changes",
                                                                 f"/items/{item.id}")
        return self.page(request, f"Edit {item.title}", body)

    async def update_item(self, request: web.Request) -> web.Response:
        item = self.item_or_404(request)
        form = {k: str(v) for k, v in (await request.post()).items()}
        values, errors = self.validate(form)
        if errors:
            body = f"<h1>Edit “{esc(item.title)}”</h1>" + self.form(f"/items/{item.id}/edit", values, errors,
                                                                     "Save changes", f"/items/{item.id}")
            return self.page(request, f"Edit {item.title}", body)
        quantity = int(form.get("qty", item.quantity)) if self.has("save_drops_field") else int(values["quantity"])
        updated = replace(item, title=values["title"], author=values["author"], shelf=values["shelf"],
                          quantity=quantity)
        with self._data_lock:
            self.items[item.id] = updated
        raise self.redirect(f"/items/{item.id}", f"Saved changes to “{updated.title}”.")

    async def delete_item(self, request: web.Request) -> web.Response:
        item = self.item_or_404(request)
        if not self.has("delete_noop"):
            with self._data_lock:
                self.items.pop(item.id, None)
        raise self.redirect("/items", f"Deleted “{item.title}”.")

    def build(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.home)
        app.router.add_get("/items", self.list_items)
        app.router.add_post("/items", self.create_item)
        app.router.add_get("/items/new", self.new_item)
        app.router.add_get(r"/items/{id:\d+}", self.show_item)
        app.router.add_get(r"/items/{id:\d+}/edit", self.edit_item)
        app.router.add_post(r"/items/{id:\d+}/edit", self.update_item)
        app.router.add_post(r"/items/{id:\d+}/delete", self.delete_item)
        app.router.add_get("/static/site.css", self.static_route("site.css", "text/css"))

        async def not_found(request: web.Request) -> web.Response:
            return error_response(404)

        app.router.add_route("*", "/{tail:.*}", not_found)
        return app
