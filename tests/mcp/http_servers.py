"""`studio [-v] mcp --web-tools | --data-tools … --http 127.0.0.1:PORT` as a subprocess, ready once GET /health
answers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Self

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class HttpToolServer:
    """`with HttpToolServer("mcp", "--data-tools", "--app-url", url, log=path) as server:` — server.url is its base
    URL, server.health its /health answer (without a token: a server started with `--token` gives only the seed's
    {ok, contexts}), server.log its stderr."""

    def __init__(self, *args: str, log: Path, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args, self.log, self.env = args, log, dict(os.environ) if env is None else env
        self.process: subprocess.Popen | None = None
        self.health: dict = {}

    def __enter__(self) -> Self:
        self.process = subprocess.Popen([sys.executable, "-m", "studio", *self.args, "--http",
                                         f"127.0.0.1:{self.port}"], cwd=ROOT, env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=self.log.open("w"))
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=2) as answer:
                    self.health = json.loads(answer.read())
                    return self
            except OSError:
                assert self.process.poll() is None, self.log.read_text()
                assert time.monotonic() < deadline, self.log.read_text()
                time.sleep(0.2)

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
