"""A loopback static server for one site of the corpus (an app, healthy or with a fault planted), on a free port, in
a daemon thread; an optional stub API answers under /api/ (for apps that call a server, e.g. swagger-ui's Try it
out). Every response is `Cache-Control: no-store`, so a reload gets what the site holds now."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Self

# (method, path with query, body) -> (status, JSON-able body)
StubApi = Callable[[str, str, bytes], tuple[int, object]]


class _Handler(SimpleHTTPRequestHandler):
    api: StubApi | None = None

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _api(self) -> bool:
        if self.api is None or not self.path.startswith("/api/"):
            return False
        length = int(self.headers.get("Content-Length") or 0)
        status, body = self.api(self.command, self.path, self.rfile.read(length) if length else b"")
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        return True

    def do_GET(self) -> None:
        if not self._api():
            super().do_GET()

    def do_HEAD(self) -> None:
        if not self._api():
            super().do_HEAD()

    def do_POST(self) -> None:
        if not self._api():
            self.send_error(405)

    do_PUT = do_DELETE = do_PATCH = do_POST


class SiteServer:
    """Serves `root` at http://127.0.0.1:PORT/ while open (`with SiteServer(root) as site: site.url`)."""

    def __init__(self, root: Path, api: StubApi | None = None) -> None:
        self.root = root
        handler = type("SiteHandler", (_Handler,), {"api": staticmethod(api) if api else None})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name=f"corpus {root.name}", daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str = "/") -> str:
        return self.origin + "/" + path.lstrip("/")

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
