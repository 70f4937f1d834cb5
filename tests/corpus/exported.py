"""Running an exported pytest-playwright project as its user would, against one site of the corpus, and reading what
each test did from its JUnit report (passed, failed, skipped)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

from studio.browser.discovery import find_browser

RUN_TIMEOUT = 900


@dataclass
class ExportedRun:
    """The exported tests' results on one site: test id -> passed / failed / skipped."""

    exit_code: int
    results: dict[str, str] = field(default_factory=dict)
    output_tail: str = ""

    def ids(self, outcome: str) -> set[str]:
        return {test for test, said in self.results.items() if said == outcome}


def run_exported(folder: Path, base_url: str, report: Path, first_failure: bool = False) -> ExportedRun:
    """`pytest` in the exported folder pointed at `base_url`, on the worker's browser server when PLAYWRIGHT_SERVERS
    is set, else on a Chromium launched per run; `first_failure` stops at the first failing test."""
    env = {**os.environ, "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": find_browser().path}
    for name in ("BASE_URL", "PYTEST_ADDOPTS"):
        env.pop(name, None)
    # Our own dev plugins (Qt, asyncio, xdist's defaults) are installed in this venv but not where a user runs it.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(folder), "-q", "-p", "no:cacheprovider", "-p", "no:pytest-qt",
         "-p", "no:asyncio", "-p", "no:anyio", "--base-url", base_url, f"--junitxml={report}",
         *(["-x"] if first_failure else [])],
        check=False, cwd=folder, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
    return ExportedRun(done.returncode, _results(report), tail)


def _results(report: Path) -> dict[str, str]:
    if not report.exists():
        return {}
    results: dict[str, str] = {}
    for case in ElementTree.parse(report).iter("testcase"):
        test = f"{case.get('classname')}::{case.get('name')}"
        failure = case.find("failure")
        if failure is not None and (failure.get("message") or "").startswith("[XPASS(strict)]"):
            # A suspected defect's case (strict xfail) that passed: the defect is not there. It checks the expected
            # behaviour, so this is neither a false alarm nor a bug taken for expected behaviour.
            results[test] = "defect_gone"
        elif failure is not None or case.find("error") is not None:
            results[test] = "failed"
        elif case.find("skipped") is not None:
            results[test] = "skipped"
        else:
            results[test] = "passed"
    return results
