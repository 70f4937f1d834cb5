"""`studio mcp` as an agent's host runs it: a real subprocess, spoken to by the SDK's own stdio client."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[2]


def process_table() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, state, command name) for every live process, read from /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # exited while we looked
        # The command name is in parentheses and may contain spaces; the fields after it are plain.
        name = stat[stat.index("(") + 1: stat.rindex(")")]
        state, ppid = stat[stat.rindex(")") + 2:].split()[:2]
        table[int(entry.name)] = (int(ppid), state, name)
    return table


def descendants(pid: int) -> dict[int, str]:
    """Every live (non-zombie) process below `pid`: pid -> command name."""
    table = process_table()
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, state, name) in table.items():
            if ppid == parent and child not in found and state != "Z":
                found[child] = name
                frontier.append(child)
    return found


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the probe is closed


def alive(pid: int) -> bool:
    entry = process_table().get(pid)
    return entry is not None and entry[1] != "Z"


class McpServer:
    """A `studio mcp` process and an SDK Client connected to it over stdio.

    One background task owns the client's `async with` (anyio scopes must be left by the task that entered
    them); tests call tools from their own tasks.
    """

    def __init__(self, *args: str, log_path: Path, env: dict[str, str] | None = None) -> None:
        self.args = args
        self.env = dict(os.environ) if env is None else env
        self.log_path = log_path
        self.client: Client | None = None
        self.pid: int | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task | None = None

    async def start(self) -> McpServer:
        before = set(process_table())
        self._task = asyncio.create_task(self._own())
        await asyncio.wait_for(self._ready.wait(), 60)
        if self.client is None:
            await self._task  # raise the start-up failure
        mine = os.getpid()
        self.pid = next(pid for pid, (ppid, _state, _name) in process_table().items()
                        if ppid == mine and pid not in before)
        return self

    async def _own(self) -> None:
        params = StdioServerParameters(command=sys.executable, args=["-m", "studio", "mcp", *self.args],
                                       env=self.env, cwd=str(ROOT))
        with self.log_path.open("w") as errlog:
            try:
                async with Client(stdio_client(params, errlog=errlog)) as client:
                    self.client = client
                    self._ready.set()
                    await self._stop.wait()
            finally:
                self._ready.set()

    async def call(self, tool: str, **arguments: Any) -> Any:
        """Call a tool and return its JSON answer (an object or a list)."""
        assert self.client is not None
        result = await asyncio.wait_for(self.client.call_tool(tool, arguments), 60)
        payload = json.loads(result.content[0].text)
        assert result.is_error == (isinstance(payload, dict) and "error" in payload), payload
        return payload

    async def stop(self) -> float:
        """Close the client (the server's stdin); returns the seconds until the server process was gone."""
        started = time.monotonic()
        self._stop.set()
        if self._task is not None:
            await asyncio.wait_for(self._task, 30)
        return time.monotonic() - started

    def log(self) -> str:
        return self.log_path.read_text()


@pytest.fixture(scope="module")
async def mcp(tmp_path_factory):
    """One `studio mcp` server for the whole test module."""
    server = await McpServer(log_path=tmp_path_factory.mktemp("mcp") / "server.log").start()
    yield server
    await server.stop()


class StaticPages:
    """Small HTML pages served on a free loopback port, for facts the demo app has no page for."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        self.base_url = ""
        self._runner: web.AppRunner | None = None

    def url(self, path: str, html: str) -> str:
        """Serve `html` at `path` and return its URL."""
        self.pages[path] = html
        return self.base_url + path

    async def _page(self, request: web.Request) -> web.Response:
        html = self.pages.get(request.path)
        if html is None:
            return web.Response(status=404, text="not found")
        return web.Response(text=html, content_type="text/html")

    async def start(self) -> StaticPages:
        app = web.Application()
        app.router.add_get("/{tail:.*}", self._page)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


@pytest.fixture(scope="module")
async def static_pages():
    pages = await StaticPages().start()
    yield pages
    await pages.stop()
