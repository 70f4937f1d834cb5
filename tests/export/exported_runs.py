"""Running an exported test as its user runs it (pytest-playwright in a subprocess), against a fixture app that is
healthy or has one seeded fault switched on; one app instance per run, so runs go in parallel."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.apps.base import FaultyApp

PARALLEL = 4  # the runs mostly wait (a failing check waits out its timeout), so more than the CPUs


async def run_exported(folder: Path, base_url: str, browser_path: str, first_failure: bool = False) -> tuple[int, str]:
    """`pytest` in the exported folder, as its README says, pointed at `base_url`; `first_failure` stops at the
    first failing test (a fault is caught once one test fails)."""
    env = {**os.environ, "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": browser_path}
    for name in ("BASE_URL", "PYTEST_ADDOPTS"):
        env.pop(name, None)
    # Our own dev plugins (Qt, asyncio) are installed in this venv but not where a user runs the export.
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pytest", str(folder), "-q", "-p", "no:cacheprovider", "-p", "no:pytest-qt",
        "-p", "no:asyncio", "-p", "no:anyio", "--base-url", base_url, *(["-x"] if first_failure else []),
        cwd=folder, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(process.communicate(), 480)
    return process.returncode or 0, out.decode(errors="replace")


async def kill_matrix(app_type: type[FaultyApp], folder: Path, browser_path: str,
                      healthy: FaultyApp, faults: tuple[str, ...] | None = None, parallel: int = PARALLEL,
                      ) -> dict[str | None, tuple[int, str]]:
    """The exported tests' exit code (and output) on the healthy app (key None) and with each fault alone (all the
    app's faults, or `faults`)."""
    gate = asyncio.Semaphore(parallel)

    async def one(fault: str | None) -> tuple[int, str]:
        async with gate:
            if fault is None:
                return await run_exported(folder, healthy.base_url, browser_path)
            with app_type(faults={fault}) as faulty:
                return await run_exported(folder, faulty.base_url, browser_path, first_failure=True)

    runs: list[str | None] = [None, *(app_type.FAULTS if faults is None else faults)]
    return dict(zip(runs, await asyncio.gather(*(one(fault) for fault in runs))))
