"""`studio bench game`: each phase's wall time on the demo's games, and how long a screenshot takes, against seed
002's budgets (Phase 1 < 30 s, Phase 2 < 45 s, Phase 3 1–5 min, Phase 4 < 60 s; a screenshot < 200 ms).

Each game is evaluated cold (a new project file, a new browser) with the seed's exploration window and no model.
Screenshot latency is measured twice: the evidence screenshots the runs took, and a series of captures of the
running Comet Dash page (the full 1280×720 viewport, and the small analysis frames of the play surface).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from studio.demo.server import DemoServerThread
from studio.game.evaluation import GameEvaluation
from studio.game.eyes import Camera
from studio.game.run_context import GameOptions
from studio.models.game import PHASE_TIMEOUTS_S, Rect
from studio.runtime import EngineRuntime
from studio.runtime.live import LivePage
from studio.settings import StudioSettings
from studio.store.project import ProjectFile

GAMES = {"comet (keyboard, starts at once)": "/arcade/comet?seed=1",
         "lantern (needs a Play click)": "/arcade/lantern?seed=1"}
SCREENSHOT_TARGET_MS = 200.0
CAPTURES = 30


async def _evaluate(url: str, path: Path, options: GameOptions) -> tuple[dict, list[float]]:
    with ProjectFile.create(path) as project:
        runtime = EngineRuntime(StudioSettings(), project)
        async with runtime:
            await runtime.start_browser(headless=True)
            evaluation = await GameEvaluation.on(runtime, url, options=options)
            started = time.perf_counter()
            run = await runtime.jobs.run(evaluation)
            seconds = time.perf_counter() - started
            latencies = list(evaluation.ctx.camera.latencies_ms) if evaluation.ctx else []
    assert run is not None
    phases = {p.phase: p.seconds for p in run.phases}
    return {"url": url, "status": run.status, "wall_seconds": round(seconds, 2), "phase_seconds": phases,
            "overall_score": run.overall_score, "actions": run.phase3.actionsTaken if run.phase3 else 0,
            "screenshots": run.evidence.screenshots,
            "within_budgets": _within(phases, options)}, latencies


def _within(phases: dict[str, float | None], options: GameOptions) -> bool:
    limits = dict(PHASE_TIMEOUTS_S, phase3=options.max_explore_s + 60)
    return all(seconds is not None and seconds < limits[key] for key, seconds in phases.items())


async def _captures(url: str) -> dict:
    runtime = EngineRuntime(StudioSettings())
    async with runtime:
        session = await runtime.start_browser(headless=True)
        await session.goto(url)
        await asyncio.sleep(1.0)
        live = LivePage(session)
        camera = Camera(live)
        for _ in range(CAPTURES):
            await camera.screenshot()
        box = Rect(**await live.driver.evaluate(
            "() => { const r = document.querySelector('canvas').getBoundingClientRect();"
            " return {x: r.x, y: r.y, width: r.width, height: r.height}; }"))
        frames = []
        for _ in range(CAPTURES):
            started = time.perf_counter()
            await camera.frame(box)
            frames.append((time.perf_counter() - started) * 1000)
    return {"screenshot": _stats(camera.latencies_ms), "analysis_frame": _stats(frames)}


def _stats(values: list[float]) -> dict:
    if not values:
        return {"samples": 0}
    ordered = sorted(values)
    return {"samples": len(values), "median_ms": round(statistics.median(ordered), 1),
            "p90_ms": round(ordered[max(0, int(len(ordered) * 0.9) - 1)], 1), "max_ms": round(ordered[-1], 1)}


async def measure_game(runs: int = 1) -> dict:
    options = GameOptions(seed=1, use_model=False)
    rows: dict[str, list[dict]] = {}
    shots: list[float] = []
    with DemoServerThread() as demo, tempfile.TemporaryDirectory(prefix="studio-bench-game-") as folder:
        for name, path in GAMES.items():
            rows[name] = []
            for number in range(runs):
                row, latencies = await _evaluate(demo.base_url + path, Path(folder) / f"{len(shots)}-{number}.studio",
                                                 options)
                rows[name].append(row)
                shots += latencies
        captures = await _captures(demo.base_url + GAMES["comet (keyboard, starts at once)"])
    evidence = _stats(shots)
    return {
        "benchmark": "game",
        "app": "the embedded demo's arcade, no model (built-in explorer and rubric), seed exploration window "
               f"({options.min_explore_s:g}–{options.max_explore_s:g} s, stop after {options.no_progress_s:g} s "
               "without progress)",
        "games": rows,
        "phase_budgets_s": {"phase1": PHASE_TIMEOUTS_S["phase1"], "phase2": PHASE_TIMEOUTS_S["phase2"],
                            "phase3": "60–300 (adaptive)", "phase4": PHASE_TIMEOUTS_S["phase4"]},
        "screenshot_latency": {"evidence_screenshots_in_runs": evidence, **captures,
                               "target_ms": f"< {SCREENSHOT_TARGET_MS:g}"},
        "targets_met": {
            "phases_within_budgets": all(row["within_budgets"] for game in rows.values() for row in game),
            "screenshot_under_200ms": bool(evidence.get("median_ms", 1e9) < SCREENSHOT_TARGET_MS
                                           and captures["screenshot"].get("median_ms", 1e9) < SCREENSHOT_TARGET_MS),
        },
    }


def main(target: str = "game", seconds: float = 5.0, json_only: bool = False, runs: int = 1) -> int:
    result = asyncio.run(measure_game(runs))
    print(json.dumps(result, indent=None if json_only else 2))
    return 0 if all(result["targets_met"].values()) else 1
