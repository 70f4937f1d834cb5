"""`studio bench soak --minutes N`: the studio window (offscreen) on a chatty single-page app, recording into a
temporary project, for N minutes: how late the event loop runs, how the memory of the studio, of Chromium and of the
Playwright driver moves, and how large the project file grows."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Self

from PySide6.QtCore import QObject, Qt, QTimer

LAG_INTERVAL_MS = 100
TARGETS = {"loop_lag_p99_ms": 50.0, "loop_lag_max_ms": 200.0, "studio_growth_pct": 10.0}
WARMUP_S = 300.0  # memory growth is judged after the first five minutes (the views fill up meanwhile)


class LoopLag(QObject):
    """A timer every 100 ms that notes how late it fires: whatever held the UI thread shows up as lateness."""

    def __init__(self, interval_ms: int = LAG_INTERVAL_MS) -> None:
        super().__init__()
        self.interval_s = interval_ms / 1000
        self.samples: list[float] = []
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)
        self._last = 0.0

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.samples.append(max(0.0, (now - self._last - self.interval_s) * 1000))
        self._last = now

    def summary(self) -> dict[str, float | int]:
        ordered = sorted(self.samples) or [0.0]

        def share(fraction: float) -> float:
            return round(ordered[min(len(ordered) - 1, int(len(ordered) * fraction))], 1)

        return {"p50": share(0.5), "p99": share(0.99), "max": round(ordered[-1], 1), "samples": len(self.samples),
                "interval_ms": round(self.interval_s * 1000)}


# -- memory from /proc (Linux) -------------------------------------------------------------------------------------

def _field_kb(path: str, name: str) -> int:
    try:
        with open(path, encoding="ascii", errors="replace") as lines:
            for line in lines:
                if line.startswith(name):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process we may read."""
    found: dict[int, tuple[int, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as raw:
                command = raw.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        found[int(entry)] = (parent, command)
    return found


def _descendants(root: int, table: dict[int, tuple[int, str]]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, stack = set(), [root]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_sample(page_server: int | None) -> dict[str, float]:
    """RSS in MB of this process, of the Playwright driver, and of Chromium (the sum of its processes, and their
    proportional share, which counts memory they share once)."""
    table = _processes()
    ours = _descendants(os.getpid(), table)
    if page_server:
        ours -= {page_server} | _descendants(page_server, table)
    drivers = {pid for pid in ours if "run-driver" in table[pid][1]}
    browser = {pid for pid in ours - drivers if "chrom" in table[pid][1].lower()}

    def total(pids: set[int], field: str, kind: str = "status") -> float:
        return round(sum(_field_kb(f"/proc/{pid}/{kind}", field) for pid in pids) / 1024, 1)

    return {"studio": total({os.getpid()}, "VmRSS:"), "studio_cpu_s": round(_cpu_seconds(os.getpid()), 1),
            "chromium": total(browser, "VmRSS:"),
            "chromium_pss": total(browser, "Pss:", "smaps_rollup"), "driver": total(drivers, "VmRSS:"),
            "chromium_processes": len(browser)}


# -- the run -------------------------------------------------------------------------------------------------------

class ChattyPageProcess:
    """The chatty app in a child process (stdin open until we are done)."""

    def __enter__(self) -> Self:
        self.process = subprocess.Popen([sys.executable, "-m", "studio.demo.chatty_page"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.__exit__()
            raise SystemExit("the chatty page could not be served")
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _sample_every(seconds: float) -> float:
    return 60.0 if seconds >= 600 else max(5.0, seconds / 8)


async def measure_soak(minutes: float) -> dict:
    from studio.app.studio_app import StudioServices
    from studio.settings import StudioSettings
    from studio.ui.main_window import build_window

    folder = Path(tempfile.mkdtemp(prefix="studio-soak-"))
    os.environ["STUDIO_CONFIG_DIR"] = str(folder / "config")  # the run's recent files stay out of the tester's
    duration = minutes * 60
    with ChattyPageProcess() as page:
        services = StudioServices(StudioSettings())
        window = build_window(services)
        window.closed = asyncio.get_running_loop().create_future()
        if not services.project.new_project(folder / "soak.studio"):
            raise SystemExit(f"could not create the project in {folder}")
        window.resize(1500, 950)
        window.show()
        try:
            session = await services.browser.start(services.runtime.session_options(viewport=(1280, 720)), page.url)
            if session is None:
                raise SystemExit("could not start the browser; run `studio doctor`")
            lag = LoopLag()
            lag.start()
            memory, started, next_sample = [], time.monotonic(), 0.0
            every = _sample_every(duration)
            while (elapsed := time.monotonic() - started) < duration:
                if elapsed >= next_sample:
                    # /proc is read on a worker thread: Chromium's smaps take tens of ms that are not the studio's.
                    sample = await asyncio.to_thread(memory_sample, page.process.pid)
                    memory.append({"minute": round(elapsed / 60, 2), **sample})
                    next_sample += every
                await asyncio.sleep(0.25)
            sample = await asyncio.to_thread(memory_sample, page.process.pid)
            memory.append({"minute": round((time.monotonic() - started) / 60, 2), **sample})
            lag.stop()
            result = _report(minutes, lag, memory, services, window)
        finally:
            window.close()
            await services.shutdown()
    return result


def _report(minutes: float, lag: LoopLag, memory: list[dict], services, window) -> dict:
    project = services.project.project
    console, network, navigations = project.db.execute(
        "SELECT (SELECT count(*) FROM console_events), (SELECT count(*) FROM network_events),"
        " (SELECT count(*) FROM navigations)").fetchone()
    size = sum(path.stat().st_size for path in (project.path, project.path.with_name(project.path.name + "-wal"))
               if path.exists())
    warmup = min(WARMUP_S, minutes * 60 * 0.4)
    baseline = next((row for row in memory if row["minute"] * 60 >= warmup), memory[-1])
    growth = (memory[-1]["studio"] - baseline["studio"]) / baseline["studio"] * 100 if baseline["studio"] else 0.0
    loop = lag.summary()
    seconds = memory[-1]["minute"] * 60 or 1
    cpu = (memory[-1]["studio_cpu_s"] - memory[0]["studio_cpu_s"]) / max(1.0, seconds - memory[0]["minute"] * 60)
    return {
        "benchmark": "soak",
        "minutes": minutes,
        "page": {"console_per_s": 80, "fetches_per_s": 50, "single_page_app": True},
        "events_recorded": {"console": console, "network": network, "navigations": navigations},
        "events_per_s": round((console + network + navigations) / seconds, 1),
        "loop_lag_ms": loop,
        "studio_cpu_percent_of_a_core": round(cpu * 100),
        "machine_load_average": round(os.getloadavg()[0], 1),
        "ui_work_ms": {"project_tree_refresh_slowest": round(getattr(window.project_tree, "slowest_refresh_ms", -1), 1),
                       "events_insert_slowest": round(getattr(window.events.model, "slowest_flush_ms", -1), 1)},
        "events_dock": {"rows": window.events.model.rowCount(),
                        "older_not_shown": getattr(window.events.model, "older", None)},
        "memory_mb": memory,
        "studio_growth_pct": round(growth, 1),
        "growth_measured_from_minute": baseline["minute"],
        "project_mb": round(size / 2**20, 1),
        "targets": {"loop_lag_p99_ms": "< 50", "loop_lag_max_ms": "< 200",
                    "studio_growth_pct": "< 10 after the first 5 minutes"},
        "met": {"loop_lag_p99": loop["p99"] < TARGETS["loop_lag_p99_ms"],
                "loop_lag_max": loop["max"] < TARGETS["loop_lag_max_ms"],
                "studio_growth": growth < TARGETS["studio_growth_pct"]},
    }
