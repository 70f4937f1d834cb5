"""Serving fixture apps (aiohttp) on free loopback ports from a daemon thread, for tests that drive them from a
browser or a subprocess. One thread can serve several apps: each gets its own port, i.e. its own origin."""

from __future__ import annotations

import asyncio
import threading

from aiohttp import web


class AppThread:
    """`with AppThread(app_a, app_b) as served: served.urls` -> ["http://127.0.0.1:PORT", ...]."""

    def __init__(self, *apps: web.Application, name: str = "fixture-app") -> None:
        self.apps = apps
        self.name = name
        self.urls: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> AppThread:
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,), name=self.name, daemon=True)
        self._thread.start()
        if not ready.wait(30):
            raise RuntimeError(f"The {self.name} did not start within 30 seconds.")
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)

    def _serve(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        runners = [web.AppRunner(app, access_log=None, shutdown_timeout=0.5) for app in self.apps]
        for runner in runners:
            loop.run_until_complete(runner.setup())
            loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", 0).start())
            self.urls.append(f"http://127.0.0.1:{runner.addresses[0][1]}")
        self._loop = loop
        ready.set()
        try:
            loop.run_forever()
        finally:
            pending = asyncio.all_tasks(loop)  # requests still waiting (e.g. for a client that was killed)
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.wait(pending))
            for runner in runners:
                loop.run_until_complete(runner.cleanup())
            loop.close()
