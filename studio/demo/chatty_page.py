"""A chatty single-page app for `studio bench soak`: about 80 console messages and 50 fetches a second, a list it
re-renders from every answer, and a client-side route change every few seconds, as a busy web app does all day.

Served by the standard library in its own process (`python -m studio.demo.chatty_page`), so that serving it costs
the studio's process nothing."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

CONSOLE_PER_SECOND = 80
FETCHES_PER_SECOND = 50

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Chatty app</title>
<style>
 body{margin:0;font:14px system-ui,sans-serif;color:#223}
 header{display:flex;gap:16px;align-items:center;background:#234;color:#fff;padding:8px 16px}
 header a{color:#cde}
 main{padding:8px 16px} ul{columns:3;margin:0;padding-left:18px} li{padding:1px 0}
 .hot{color:#b33}
</style></head><body>
<header><strong>Chatty app</strong><nav><a href="#/inbox">Inbox</a> · <a href="#/feed">Feed</a> ·
 <a href="#/stats">Stats</a></nav><span id="clock"></span><span id="counts"></span></header>
<main><h2 id="route">Inbox</h2><ul id="items"></ul></main>
<script>
 const query = new URLSearchParams(location.search);
 const consoleRate = Number(query.get('console') || %(console)d);
 const fetchRate = Number(query.get('fetches') || %(fetches)d);
 const routes = ['#/inbox', '#/feed', '#/stats'];
 let logged = 0, fetched = 0, answered = 0, consoleDue = 0, fetchDue = 0, route = 0;
 const list = document.getElementById('items');
 function render(items) {
   const rows = items.map(item => {
     const li = document.createElement('li');
     li.textContent = item.title + ' · ' + item.score;
     if (item.score > 90) li.className = 'hot';
     return li;
   });
   list.replaceChildren(...rows);
   document.getElementById('counts').textContent = logged + ' logs, ' + answered + ' answers';
 }
 setInterval(() => {
   consoleDue += consoleRate / 20;
   for (; consoleDue >= 1; consoleDue -= 1) {
     logged += 1;
     if (logged %% 50 === 0) console.error('sync failed for item', logged);
     else if (logged %% 17 === 0) console.warn('slow render', logged, 'ms');
     else console.log('tick', logged, {route: location.hash, items: list.children.length});
   }
   fetchDue += fetchRate / 20;
   for (; fetchDue >= 1; fetchDue -= 1) {
     fetched += 1;
     fetch('/api/items?n=' + fetched).then(r => r.ok ? r.json() : []).then(items => {
       answered += 1;
       if (items.length) render(items);
     }).catch(() => {});
   }
   document.getElementById('clock').textContent = new Date().toLocaleTimeString();
 }, 50);
 setInterval(() => {
   route = (route + 1) %% routes.length;
   location.hash = routes[route];
   document.getElementById('route').textContent = routes[route].slice(2);
 }, 5000);
</script></body></html>
"""


def page_html(console_per_second: int = CONSOLE_PER_SECOND, fetches_per_second: int = FETCHES_PER_SECOND) -> str:
    return PAGE % {"console": console_per_second, "fetches": fetches_per_second}


def items(number: int) -> list[dict[str, object]]:
    """The answer to fetch number `number`: 30 items whose scores move with it."""
    return [{"id": i, "title": f"Item {i}", "score": (number * 7 + i * 13) % 100} for i in range(30)]


class ChattyHandler(BaseHTTPRequestHandler):
    """GET / is the app; GET /api/items?n=N answers JSON (every 33rd a 500, every 47th a 404, as real back ends do)."""

    def do_GET(self) -> None:
        url = urlparse(self.path)
        if url.path in ("/", "/index.html"):
            self._send(200, "text/html; charset=utf-8", page_html().encode())
            return
        if url.path == "/api/items":
            number = int((parse_qs(url.query).get("n") or ["0"])[0] or 0)
            if number and number % 33 == 0:
                self._send(500, "application/json", b'{"error": "busy"}')
            elif number and number % 47 == 0:
                self._send(404, "application/json", b'{"error": "gone"}')
            else:
                self._send(200, "application/json", json.dumps(items(number)).encode())
            return
        self._send(404, "text/plain", b"not found")

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # 50 requests a second would flood the terminal


def serve(port: int = 0) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 (`port` 0: a free one), serving from a daemon thread."""
    server = ThreadingHTTPServer(("127.0.0.1", port), ChattyHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="chatty-page", daemon=True).start()
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the chatty single-page app until stdin closes.")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    server = serve(args.port)
    print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
    sys.stdin.read()  # the parent closes our stdin (or dies) when it is done
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
