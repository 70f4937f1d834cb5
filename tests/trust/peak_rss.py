"""`python -m tests.trust.peak_rss ARGS` runs `studio ARGS` and, as it exits, writes its peak resident memory (VmHWM,
KiB) to the file named by STUDIO_PEAK_FILE. VmHWM counts this program alone: getrusage's and wait4's figures keep
the forking test process's memory from before the exec (400 MB under pytest)."""

from __future__ import annotations

import atexit
import os
import runpy
import sys


def _write_peak() -> None:
    with open("/proc/self/status", encoding="ascii", errors="replace") as status:
        peak = next((line.split()[1] for line in status if line.startswith("VmHWM:")), "0")
    with open(os.environ["STUDIO_PEAK_FILE"], "w", encoding="ascii") as out:
        out.write(peak)


if __name__ == "__main__":
    atexit.register(_write_peak)
    sys.argv = ["studio", *sys.argv[1:]]
    runpy.run_module("studio", run_name="__main__", alter_sys=True)
