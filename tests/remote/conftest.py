"""A real Playwright browser server on loopback (`playwright run-server --unsafe`), for the remote-browser tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class BrowserServer:
    url: str  # ws://127.0.0.1:PORT/
    pid: int


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


@pytest.fixture(scope="session")
def browser_server(browser_info):
    """A Playwright browser server on a free port; it launches this machine's Chromium for each client."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "playwright", "run-server", "--host", "127.0.0.1",
                                "--port", str(port), "--unsafe"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, process)
        yield BrowserServer(f"ws://127.0.0.1:{port}/", process.pid)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
