"""A small web app shaped unlike the demo, for checking that preflight heuristics are not demo-specific.

"Northwind Ops": no login; a role badge in the account menu ("Support agent"); a money transfer form whose Amount
field is inputmode=numeric with a Send button (not a login); feature flags only in a window global (an SDK-style
bootstrap); an admin area at /manage/users that answers 403 and whose link is in the page but hidden; a Reports link
that answers 404; a workspace switcher (a select) with two workspaces; a page whose connection drops. Knobs change
it between jobs, as a deploy would: hide the Team link while /team still answers 200.
"""

from __future__ import annotations

import html
from typing import Any

from aiohttp import web

from tests.app_thread import AppThread

WORKSPACES = ("Acme Corp", "Globex")
FLAGS_SCRIPT = ('<script>window.__FEATURE_FLAGS__ = {"instant_transfers": true, "legacy_export": false, '
                '"checkout_variant": "b"};</script>')


class FixtureApp:
    """The app on 127.0.0.1 (free port) in a daemon thread; `knobs` change what it serves."""

    def __init__(self) -> None:
        # team_fields: (label, input type, required) of the Invite form on /team
        self.knobs: dict[str, Any] = {"hide_team_link": False,
                                      "team_fields": [("Name", "text", True), ("Email", "email", True)]}
        self.base_url = ""
        self.posts: list[str] = []  # every POST the app received (preflight must never submit a form)
        self._served: AppThread

    # -- pages -------------------------------------------------------------------------------------------------

    def page(self, request: web.Request, title: str, body: str, status: int = 200) -> web.Response:
        workspace = request.cookies.get("ws", WORKSPACES[0])
        options = "".join(f"<option{' selected' if w == workspace else ''}>{html.escape(w)}</option>"
                          for w in WORKSPACES)
        links = [("/", "Home"), ("/transfers", "Transfers"), ("/reports", "Reports")]
        if not self.knobs["hide_team_link"]:
            links.append(("/team", "Team"))
        nav = "".join(f'<li><a href="{href}">{name}</a></li>' for href, name in links)
        return web.Response(status=status, content_type="text/html", text=f"""<!doctype html>
<html><head><title>{title} · Northwind Ops</title>{FLAGS_SCRIPT}</head><body>
<header>
  <nav aria-label="Main"><ul>{nav}<li><a href="/manage/users" hidden>Manage users</a></li></ul></nav>
  <div class="account-menu">
    <span class="user-name">pat@example.com</span> <span class="user-role">Support agent</span>
    <form method="post" action="/workspace"><label for="ws">Workspace</label>
      <select id="ws" name="ws" onchange="this.form.submit()">{options}</select></form>
  </div>
</header>
<main><h1>{title}</h1>{body}</main></body></html>""")

    async def home(self, request: web.Request) -> web.Response:
        workspace = request.cookies.get("ws", WORKSPACES[0])
        return self.page(request, "Overview", f"<p>Open tickets in {html.escape(workspace)}: 4</p>"
                         '<a href="/transfers">New transfer</a>')

    async def transfers(self, request: web.Request) -> web.Response:
        return self.page(request, "Transfers", """
<form method="post" action="/transfers" aria-label="Send money">
  <label for="recipient">Recipient</label><input id="recipient" name="recipient" required>
  <label for="amount">Amount</label><input id="amount" name="amount" inputmode="numeric" required>
  <button type="submit">Send</button>
</form>""")

    async def team(self, request: web.Request) -> web.Response:
        fields = "".join(f'<label for="f{i}">{name}</label><input id="f{i}" name="f{i}" type="{kind}"'
                         f'{" required" if required else ""}>'
                         for i, (name, kind, required) in enumerate(self.knobs["team_fields"]))
        return self.page(request, "Team", f'<form aria-label="Invite">{fields}<button type="submit">Invite</button>'
                         "</form>")

    async def manage_users(self, request: web.Request) -> web.Response:
        return self.page(request, "Access denied", "<p>You don't have permission to manage users.</p>", status=403)

    async def broken(self, request: web.Request) -> web.StreamResponse:
        request.transport.close()  # the connection drops: the browser gets no answer at all
        raise ConnectionResetError("dropped")

    async def switch_workspace(self, request: web.Request) -> web.Response:
        form = await request.post()
        response = web.HTTPSeeOther(request.headers.get("Referer") or "/")
        response.set_cookie("ws", str(form.get("ws", WORKSPACES[0])))
        raise response

    async def record_post(self, request: web.Request) -> web.Response:
        self.posts.append(request.path)
        return self.page(request, "Sent", "<p>Done.</p>")

    async def not_found(self, request: web.Request) -> web.Response:
        return self.page(request, "Page not found", "<p>There is nothing here.</p>", status=404)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.home)
        app.router.add_get("/transfers", self.transfers)
        app.router.add_post("/transfers", self.record_post)
        app.router.add_get("/team", self.team)
        app.router.add_get("/manage/users", self.manage_users)
        app.router.add_get("/broken", self.broken)
        app.router.add_post("/workspace", self.switch_workspace)
        app.router.add_get("/{tail:.*}", self.not_found)
        return app

    # -- serving -----------------------------------------------------------------------------------------------

    def __enter__(self) -> FixtureApp:
        self._served = AppThread(self.app()).__enter__()
        self.base_url = self._served.urls[0]
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._served.__exit__(*exc_info)
