"""Real Playwright browser servers on loopback (`playwright run-server --unsafe`), for the remote-browser tests.

`python -m playwright run-server` is a small Python process that starts the Node server below it; each server gets a
process group of its own, so that stopping it (or killing it mid-run) takes the whole server down at once."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class BrowserServer:
    url: str  # ws://127.0.0.1:PORT/
    pid: int  # the `python -m playwright run-server` process, leader of the server's process group

    def kill(self) -> None:
        """SIGKILL the whole server at once (the Node server below the wrapper too), as a crash would."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the browser server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the browser server did not listen on port {port} in {seconds:g} s")


@contextmanager
def running_server() -> Iterator[BrowserServer]:
    """A Playwright browser server on a free port (it launches this machine's Chromium, which the studio names in
    its launch options), stopped with its process group."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "playwright", "run-server", "--host", "127.0.0.1",
                                "--port", str(port), "--unsafe"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        wait_for_port(port, process)
        yield BrowserServer(f"ws://127.0.0.1:{port}/", process.pid)
    finally:
        try:  # asked first, then killed: Node may outlive the Python wrapper that started it
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


@pytest.fixture(scope="session")
def browser_server(browser_info):
    """A Playwright browser server on a free port, for the whole test session."""
    with running_server() as server:
        yield server


@pytest.fixture
def two_browser_servers(browser_info):
    """Two browser servers of this test's own (a test may kill one)."""
    with running_server() as first, running_server() as second:
        yield first, second
