"""`studio bench live-view|startup|soak`: measured numbers for the live view and the window, printed as JSON."""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QPoint

from studio.app.browser_service import BrowserService
from studio.models.browser import SessionOptions
from studio.models.events import ConsoleEvent
from studio.runtime import EngineRuntime
from studio.settings import StudioSettings
from studio.ui.launcher import _display_problem, run_in_qt
from studio.ui.live_view import LiveView
from studio.ui.synthetic_input import mouse_click, mouse_move

# A page that never stops moving (what a game or a loading animation does), with a full-page click target.
ANIMATED_PAGE = """<!doctype html><title>bench</title>
<style>
 html,body{margin:0;height:100%;overflow:hidden;font:16px sans-serif}
 body{background:linear-gradient(90deg,#1e3c72,#2a5298,#1e3c72);background-size:400% 100%;animation:slide 2s linear infinite}
 @keyframes slide{from{background-position:0 0}to{background-position:400% 0}}
 @keyframes spin{to{transform:rotate(360deg)}}
 .box{position:absolute;width:120px;height:120px;background:#fdd663;animation:spin 1s linear infinite}
 #target{position:absolute;inset:0}
</style>
<div class=box style="left:100px;top:100px"></div><div class=box style="left:600px;top:300px"></div>
<div class=box style="left:1000px;top:500px"></div><div id=target></div>
<script>
 let n = 0;
 document.getElementById('target').addEventListener('mousedown', () => {
   n += 1; document.title = 'clicked ' + n; console.log('bench-click ' + n);
 });
</script>"""


def _page_url() -> str:
    folder = Path(tempfile.mkdtemp(prefix="studio-bench-"))
    page = folder / "animated.html"
    page.write_text(ANIMATED_PAGE, encoding="utf-8")
    return page.as_uri()


async def measure_live_view(seconds: float, clicks: int = 30) -> dict:
    runtime = EngineRuntime(StudioSettings())
    bus = runtime.bus
    service = BrowserService(runtime)
    view = LiveView(service)
    view.resize(1280, 720)  # 1:1 with the page: every painted frame is a full 1280x720 image
    view.show()
    clicked_at: dict[int, float] = {}
    reacted_at: dict[int, float] = {}

    def on_console(event) -> None:
        if isinstance(event, ConsoleEvent) and event.text.startswith("bench-click "):
            reacted_at[int(event.text.split()[1])] = time.perf_counter()

    bus.subscribe(on_console, ConsoleEvent)
    options = SessionOptions(viewport=(1280, 720))
    session = await service.start(options)
    if session is None:
        raise SystemExit("could not start the browser; run `studio doctor`")
    await session.goto(_page_url())
    await asyncio.sleep(1.0)  # warm-up: the first frames of a new page are not the steady state
    shown0, received0, started = view.frames_shown, service.frames_received, time.perf_counter()
    # A frame received before the window opened and not painted yet is painted inside it: not ours to count.
    pending = service.latest_frame is not None and service.latest_frame is not view._decoded
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    painted, received = view.frames_shown - shown0 - int(pending), service.frames_received - received0

    for number in range(1, clicks + 1):
        point = QPoint(200 + (number * 37) % 800, 200 + (number * 53) % 300)
        # As with a real mouse, the pointer travels to the target and rests there before the press.
        mouse_move(view, point)
        await asyncio.sleep(0.1)
        clicked_at[number] = time.perf_counter()
        mouse_click(view, point)
        deadline = time.perf_counter() + 2.0
        while number not in reacted_at and time.perf_counter() < deadline:
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.05)
    latencies = [(reacted_at[n] - clicked_at[n]) * 1000 for n in clicked_at if n in reacted_at]
    await service.shutdown()
    await runtime.aclose()
    view.close()
    return {
        "benchmark": "live-view",
        "viewport": [1280, 720],
        "widget": [view.width(), view.height()],
        "seconds": round(elapsed, 2),
        "frames_received": received,
        "frames_painted": painted,  # distinct frames on screen; the rest were superseded before a paint
        "frames_dropped": received - painted,
        "painted_fps": round(painted / elapsed, 1),
        "received_fps": round(received / elapsed, 1),
        "clicks": clicks,
        "clicks_reached_page": len(latencies),
        "click_to_page_ms_median": round(statistics.median(latencies), 1) if latencies else None,
        "click_to_page_ms_p90": round(sorted(latencies)[int(len(latencies) * 0.9) - 1], 1) if latencies else None,
        "targets": {"painted_fps": ">= 25", "click_to_page_ms_median": "< 100"},
    }


def measure_startup(runs: int = 3) -> dict:
    """Seconds from launching `studio gui` as a new process to its first painted frame of a page."""
    url = _page_url()
    times = []
    for _ in range(runs):
        env = dict(os.environ, STUDIO_REPORT_FIRST_FRAME="1")
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        with tempfile.TemporaryDirectory() as folder:
            shot = Path(folder) / "window.png"
            started = time.time()
            done = subprocess.run(
                [sys.executable, "-m", "studio", "gui", "--allow-file-urls", "--url", url, "--screenshot", str(shot),
                 "--project", str(Path(folder) / "bench.studio")],
                capture_output=True, text=True, env=env, timeout=120,
            )
        stamps = [float(line.split()[1]) for line in done.stdout.splitlines() if line.startswith("first-frame ")]
        if done.returncode != 0 or not stamps:
            raise SystemExit(f"studio gui failed: {done.stderr.strip()[-500:]}")
        times.append(stamps[0] - started)
    return {
        "benchmark": "startup",
        "runs": runs,
        "seconds_to_first_painted_frame": [round(t, 2) for t in times],
        "median_s": round(statistics.median(times), 2),
        "target": "< 4 s",
    }


def main(target: str, seconds: float = 5.0, json_only: bool = False, runs: int = 3,
         minutes: float | None = None) -> int:
    if minutes is not None and target != "soak":
        print(f"--minutes does not apply to `studio bench {target}`.", file=sys.stderr)
        return 2
    if target == "startup":
        result = measure_startup(runs)
    else:
        problem = _display_problem(offscreen_ok=True)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        if target == "soak":
            from studio.ui.soak_bench import measure_soak

            if minutes is not None and minutes <= 0:
                print("--minutes must be more than 0 (e.g. 0.5 for a quick run).", file=sys.stderr)
                return 2
            result = run_in_qt(lambda: measure_soak(minutes if minutes is not None else 30.0))
        else:
            result = run_in_qt(lambda: measure_live_view(seconds))
    print(json.dumps(result, indent=None if json_only else 2))
    return 0
