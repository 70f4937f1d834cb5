"""`studio bench scale --json`: goal scenarios scaled out over Playwright's own browser servers, measured.

For each set of 1, 2 and 4 `playwright run-server` processes on loopback (each launches this machine's Chromium, the
path the studio passes in its launch options), the demo's five shipped scenarios run 20 times in all (each 4 times),
as `studio run --browser-endpoint … --parallel N` runs them with N the number of servers (no navigation crawl: it is
the same for every set): the wall time, the throughput (runs a minute), the pass rate and the runs each server
took (proving every server was used). Then, for comparison, one server with as many runs at a time as the biggest
set: whether it is the servers or the runs at once that bring the throughput on one machine. `--runs N` changes the
20, `--sizes 1,2` the sets.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from studio.demo.server import DemoServerThread
from studio.resources import demo_scenarios
from studio.runtime import EngineRuntime
from studio.scenarios.batch import BatchHooks, BatchOptions, load_all, run_batch, scenario_files
from studio.scenarios.driver import LocalScenarioPages
from studio.scenarios.spec import Scenario
from studio.settings import load_settings

SIZES = (1, 2, 4)
LISTEN_TIMEOUT_S = 30.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _listening(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + LISTEN_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"`playwright run-server` exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"`playwright run-server` did not listen on port {port} in {LISTEN_TIMEOUT_S:g} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a server and the Node process below it (its own process group): asked first, then killed, as Node may
    outlive the Python wrapper that started it."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)


@contextmanager
def browser_servers(count: int) -> Iterator[list[str]]:
    """`count` Playwright browser servers on loopback, their ws:// addresses; stopped when the block ends."""
    started: list[subprocess.Popen[bytes]] = []
    urls: list[str] = []
    try:
        for _ in range(count):
            port = _free_port()
            process = subprocess.Popen([sys.executable, "-m", "playwright", "run-server", "--host", "127.0.0.1",
                                        "--port", str(port), "--unsafe"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True)
            started.append(process)
            _listening(port, process)
            urls.append(f"ws://127.0.0.1:{port}/")
        yield urls
    finally:
        for process in started:
            _stop(process)


async def one_set(base: str, scenarios: list[Scenario], urls: list[str], repeat: int, out: Path,
                  parallel: int | None = None) -> dict[str, Any]:
    """The scenarios `repeat` times each on the servers at `urls`, `parallel` at a time (default: one a server)."""
    parallel = parallel or len(urls)
    async with EngineRuntime(load_settings(), record=False, headless=True, browser_endpoints=urls) as runtime:
        options = BatchOptions(base_url=base, out=out, parallel=parallel, repeat=repeat, crawl=False)
        started = time.perf_counter()
        batch = await run_batch(scenarios, options, lambda _line: None, BatchHooks(pages=LocalScenarioPages.on(runtime)))
        wall = time.perf_counter() - started
    where = Counter(result.browser for result in batch.results)
    return {"servers": len(urls), "parallel": parallel, "runs": len(batch.results), "wall_s": round(wall, 2),
            "runs_per_min": round(len(batch.results) / wall * 60, 1) if wall else None,
            "pass_rate": round(batch.pass_rate, 4), "runs_per_server": {url: where.get(url, 0) for url in urls},
            "every_server_used": all(where.get(url, 0) > 0 for url in urls),
            "retried": sum(result.retried_from is not None for result in batch.results)}


async def measure(runs: int = 20, sizes: tuple[int, ...] = SIZES) -> dict[str, Any]:
    demo = DemoServerThread()
    base = demo.start()
    out = Path(tempfile.mkdtemp(prefix="scale-bench-"))
    scenarios = load_all(scenario_files([str(demo_scenarios())]))
    repeat = max(1, math.ceil(runs / len(scenarios)))
    result: dict[str, Any] = {"base": "embedded demo", "planner": "deterministic (no model)", "crawl": False,
                              "scenarios": len(scenarios), "runs_each_set": repeat * len(scenarios),
                              "cores": os.cpu_count(), "sets": []}
    try:
        for count in sizes:
            with browser_servers(count) as urls:
                result["sets"].append(await one_set(base, scenarios, urls, repeat, out / f"servers-{count}"))
        if max(sizes) > 1:
            with browser_servers(1) as urls:
                result["one_server_same_parallel"] = await one_set(base, scenarios, urls, repeat, out / "one-server",
                                                                   parallel=max(sizes))
    finally:
        demo.stop()
    first = result["sets"][0]["runs_per_min"] if result["sets"] else None
    compared = [*result["sets"], result.get("one_server_same_parallel")]
    for measured in (m for m in compared if m is not None):
        measured["speedup"] = round(measured["runs_per_min"] / first, 2) if first and measured["runs_per_min"] else None
    result["all_passed"] = all(s["pass_rate"] == 1.0 and s["every_server_used"] for s in result["sets"])
    return result


def main(target: str = "scale", seconds: float = 5.0, json_only: bool = False, runs: int = 20,
         sizes: tuple[int, ...] = SIZES) -> int:
    result = asyncio.run(measure(runs, sizes))
    print(json.dumps(result, indent=None if json_only else 2))
    return 0 if result["all_passed"] else 1
