"""Run `studio` as a tester would, in a subprocess, and measure its peak resident memory, so a walk-through can bound
what a hostile input costs the machine: the studio process's own VmHWM, which it writes as it exits (peak_rss.py).
wait4's and getrusage's figures are no use here: they keep the forking pytest worker's memory from before the exec,
and take in Playwright's driver."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str
    peak_rss_mb: float  # the studio process's VmHWM as it exited


class MeasuredStudio:
    """`studio ARGS` started now; `finish()` waits for it (or kills it past its time) and reads its peak RSS."""

    def __init__(self, *args: object, logs: Path, env: dict[str, str] | None = None) -> None:
        logs.mkdir(parents=True, exist_ok=True)
        self._out, self._err = logs / "stdout.txt", logs / "stderr.txt"
        with self._out.open("wb") as out, self._err.open("wb") as err:
            self._peak = logs / "peak-kib.txt"
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tests.trust.peak_rss", *map(str, args)], stdout=out, stderr=err,
                stdin=subprocess.DEVNULL, env={**os.environ, **(env or {}), "STUDIO_PEAK_FILE": str(self._peak)})

    def finish(self, timeout_s: float = 120) -> Finished:
        try:
            self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"studio ran past {timeout_s} s: {self._err.read_text()[-2000:]}") from None
        return Finished(self.process.returncode, self._out.read_text(errors="replace"),
                        self._err.read_text(errors="replace"), int(self._peak.read_text()) / 1024)


def run_measured(*args: object, logs: Path, timeout_s: float = 120) -> Finished:
    return MeasuredStudio(*args, logs=logs).finish(timeout_s)


def one_sentence(stderr: str) -> str:
    """The refusal a command printed: one line, no traceback."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert "Traceback" not in stderr, stderr[-3000:]
    assert len(lines) == 1, stderr[-3000:]
    return lines[0]
