"""Run `studio` as a tester would, in a subprocess, and measure its peak resident memory, so a walk-through can bound
what a hostile input costs the machine. Two figures: wait4's (the process, or the largest of the children it waited
for — exact for a command that starts none) and the studio process's own (the kernel's VmHWM, read every 50 ms while
it runs), for a command that starts Playwright's driver, whose figure a loaded machine swells."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str
    peak_rss_mb: float  # wait4's ru_maxrss
    own_peak_rss_mb: float  # the studio process's VmHWM, last read before it exited


class MeasuredStudio:
    """`studio ARGS` started now; `finish()` waits for it (or kills it past its time) and reads its peak RSS."""

    def __init__(self, *args: object, logs: Path, env: dict[str, str] | None = None) -> None:
        logs.mkdir(parents=True, exist_ok=True)
        self._out, self._err = logs / "stdout.txt", logs / "stderr.txt"
        with self._out.open("wb") as out, self._err.open("wb") as err:
            self.process = subprocess.Popen([sys.executable, "-m", "studio", *map(str, args)], stdout=out,
                                            stderr=err, stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})

    def finish(self, timeout_s: float = 120) -> Finished:
        deadline = time.monotonic() + timeout_s
        peak_kib = 0
        while True:
            peak_kib = max(peak_kib, _high_water_kib(self.process.pid))
            pid, status, usage = os.wait4(self.process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                self.process.kill()
                pid, status, usage = os.wait4(self.process.pid, 0)
                raise AssertionError(f"studio ran past {timeout_s} s: {self._err.read_text()[-2000:]}")
            time.sleep(0.05)
        self.process.returncode = os.waitstatus_to_exitcode(status)  # Popen must not wait for it again
        return Finished(self.process.returncode, self._out.read_text(errors="replace"),
                        self._err.read_text(errors="replace"), usage.ru_maxrss / 1024, peak_kib / 1024)


def _high_water_kib(pid: int) -> int:
    """The process's peak resident set so far (VmHWM, KiB); 0 once it has exited."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def run_measured(*args: object, logs: Path, timeout_s: float = 120) -> Finished:
    return MeasuredStudio(*args, logs=logs).finish(timeout_s)


def one_sentence(stderr: str) -> str:
    """The refusal a command printed: one line, no traceback."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert "Traceback" not in stderr, stderr[-3000:]
    assert len(lines) == 1, stderr[-3000:]
    return lines[0]
