"""Serves the demo app: on the caller's asyncio loop (DemoServer), on a background thread (DemoServerThread), or
from the command line (serve_forever)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from aiohttp import web

from studio.demo import arcade_routes, auth_routes, data_routes, fintech_routes, game_routes, shop_routes
from studio.demo.config import DemoConfig
from studio.demo.http_support import STATE_KEY, ApiError, is_api_path
from studio.demo.sign_in_help import add_two_factor_account, sign_in_lines
from studio.demo.state import DemoState
from studio.demo.templating import not_found_page
from studio.resources import resource_path

__all__ = ["DemoConfig", "DemoServer", "DemoServerThread", "DemoState", "create_app", "serve_forever"]

log = logging.getLogger(__name__)
T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def error_responses(request: web.Request, handler: Handler) -> web.StreamResponse:
    """API failures become JSON sentences; unknown pages get the friendly 404 page."""
    try:
        return await handler(request)
    except ApiError as exc:
        return exc.response()
    except web.HTTPNotFound:
        if is_api_path(request.path):
            return web.json_response({"error": f"There is no endpoint at {request.path}."}, status=404)
        return not_found_page(request)
    except web.HTTPMethodNotAllowed as exc:
        if is_api_path(request.path):
            allowed = ", ".join(sorted(exc.allowed_methods))
            return web.json_response(
                {"error": f"{request.method} is not supported at {request.path}; use {allowed}."}, status=405
            )
        raise
    except web.HTTPException:
        raise
    except Exception:
        if not is_api_path(request.path):
            raise
        log.exception("demo app failed on %s %s", request.method, request.path)
        return web.json_response({"error": "Something went wrong on the demo server; see its log."}, status=500)


async def favicon(request: web.Request) -> web.FileResponse:
    return web.FileResponse(resource_path("demo", "static", "favicon.svg"), headers={"Content-Type": "image/svg+xml"})


def create_app(state: DemoState) -> web.Application:
    # Uploads are size-checked by the handler (413 with a sentence), so the framework limit sits above 2 MB.
    app = web.Application(middlewares=[error_responses], client_max_size=8 * 1024 * 1024)
    app[STATE_KEY] = state
    for module in (auth_routes, data_routes, fintech_routes, shop_routes, game_routes, arcade_routes):
        app.add_routes(module.routes)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_static("/static", resource_path("demo", "static"))
    return app


class DemoServer:
    """The demo app bound to `host:port` (0 picks a free port), running on the caller's event loop."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, config: DemoConfig | None = None) -> None:
        self.host = host
        self.port = port
        self.state = DemoState(config)
        self.base_url = ""
        self._runner: web.AppRunner | None = None

    async def start(self) -> str:
        """Bind and serve; returns the base URL such as http://127.0.0.1:43123."""
        runner = web.AppRunner(create_app(self.state), access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.base_url = f"http://{host}:{self.port}"
        return self.base_url

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()


class DemoServerThread:
    """A DemoServer on its own event loop in a daemon thread, for tests and synchronous callers.

    The server thread owns the state; every method here runs its work on that loop and waits for it.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, config: DemoConfig | None = None) -> None:
        self._server = DemoServer(host, port, config)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""

    @property
    def state(self) -> DemoState:
        return self._server.state

    def start(self) -> str:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                self.base_url = loop.run_until_complete(self._server.start())
            except BaseException as exc:  # reported to the starting thread
                failure.append(exc)
                ready.set()
                loop.close()
                return
            self._loop = loop
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._server.stop())
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

        self._thread = threading.Thread(target=run, name="demo-server", daemon=True)
        self._thread.start()
        if not ready.wait(30):
            raise RuntimeError("The demo server did not start within 30 seconds.")
        if failure:
            raise failure[0]
        return self.base_url

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        self._loop = None
        self._thread = None

    def __enter__(self) -> DemoServerThread:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self._loop is None:
            raise RuntimeError("The demo server is not running; call start() first.")

        async def on_loop() -> T:
            return fn(*args, **kwargs)

        return asyncio.run_coroutine_threadsafe(on_loop(), self._loop).result(timeout=30)

    def reset(self) -> None:
        """Same as POST /_data/reset with scope "all": state, flags, clock and config back to defaults."""
        self._call(self.state.reset, "all")

    def configure(self, **knobs: Any) -> None:
        """Change DemoConfig fields, e.g. configure(seed=7, hydration_ms=(0, 0)); invalid values raise."""

        def apply() -> None:
            self.state.config = DemoConfig.model_validate({**self.state.config.model_dump(), **knobs})

        self._call(apply)

    def create_user(
        self, plan: str = "plus", requires_2fa: bool = False, role: str = "viewer", email: str | None = None
    ) -> dict[str, Any]:
        """Same as POST /_data/users; returns the user with its password and otpSecret."""
        return self._call(lambda: self.state.create_user(plan, requires_2fa, role, email).as_json())

    def set_flag(self, flag: str, value: Any, user_id: str | None = None) -> None:
        self._call(self.state.set_flag, flag, value, user_id)


async def serve_forever(host: str, port: int, config: DemoConfig | None = None) -> None:
    """Serve the demo app until cancelled, printing its URL first (for `studio serve-demo`)."""
    server = DemoServer(host, port, config)
    url = await server.start()
    two_factor = add_two_factor_account(server.state)
    print("\n".join([f"Demo app running at {url} (press Ctrl+C to stop)", *sign_in_lines(url, two_factor)]),
          flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()
