"""The `studio mcp` server: the browser tools on the SDK's MCPServer, over stdio, with a clean shutdown.

When the client closes our stdin, or the process gets SIGTERM/SIGINT, the browser and the project file are closed
before the process exits, so no Chromium outlives the connection.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from mcp.server.mcpserver import MCPServer

from studio import __version__
from studio.mcp.schema_errors import TypedSchemaErrors
from studio.mcp.tools import INSTRUCTIONS, BrowserTools
from studio.runtime import EngineRuntime
from studio.settings import load_settings
from studio.store.errors import ProjectError
from studio.toolbelt import BrowserContexts, ProjectRecording

log = logging.getLogger(__name__)

SERVER_NAME = "preflight-studio"
_CLOSE_TIMEOUT_S = 15.0


def build_server(contexts: BrowserContexts) -> MCPServer:
    """An MCPServer with the browser tools; its lifespan closes `contexts` when the connection ends."""

    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[dict]:
        try:
            yield {}
        finally:
            # Shielded: the connection may be ending because of a cancellation, and the browser must close anyway.
            with anyio.CancelScope(shield=True), anyio.move_on_after(_CLOSE_TIMEOUT_S):
                await contexts.close()
            log.info("Closed the browser contexts.")

    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, version=__version__, lifespan=lifespan,
                       log_level="WARNING")
    BrowserTools(contexts).register(server)
    server.middleware.append(TypedSchemaErrors(server))
    return server


async def _serve(server: MCPServer, contexts: BrowserContexts) -> None:
    async with anyio.create_task_group() as group:

        async def stop_on_signal() -> None:
            with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                async for received in signals:
                    log.info("Received %s; closing the browser.", signal.Signals(received).name)
                    # The SDK reads stdin in a worker thread that cancellation cannot interrupt, so unwinding the
                    # server would hang until stdin closes. Close the browser, then die by the signal as usual.
                    with anyio.CancelScope(shield=True), anyio.move_on_after(_CLOSE_TIMEOUT_S):
                        await contexts.close()
                    signal.signal(received, signal.SIG_DFL)
                    os.kill(os.getpid(), received)
                    return

        group.start_soon(stop_on_signal)
        await server.run_stdio_async()
        group.cancel_scope.cancel()


def serve(headed: bool = False, project: Path | None = None, endpoint: str | None = None,
          allow_file_urls: bool = False) -> int:
    """Serve MCP over stdio until the client disconnects; returns the exit status."""
    recording = None
    if project is not None:
        try:
            recording = ProjectRecording.open(project)
        except ProjectError as error:
            print(f"{error}", file=sys.stderr)
            return 2
    # The runtime brings the settings (browser path, endpoint); the recording writes the agent's steps itself.
    runtime = EngineRuntime(load_settings(), record=False, headless=not headed,
                            browser_endpoints=[endpoint] if endpoint else None)
    contexts = BrowserContexts(runtime.fleet, recording=recording, allow_file_urls=allow_file_urls, owns_fleet=True)
    anyio.run(_serve, build_server(contexts), contexts)
    return 0
