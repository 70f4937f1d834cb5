"""`studio bench preflight`: a full preflight of the demo app with no model, timed, as JSON.

Each run is cold: a new project file and a new browser (so no cached site map and no signed-in session), and the
login question answered with a demo user. Two scopes are timed: the request "create test cases for the disputes
wizard" (one area validated, its wizard walked) and the whole app (a New Suite preflight: every module of the
top navigation opened and surveyed). Wall
seconds run from the job's start to its completion, including the pause for the login; steps are the browser
steps charged to the preflight's budgets (the paused part and the resumed part together).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from studio.demo.server import DemoServerThread
from studio.models.context import Answer, JobKind, JobRecord
from studio.preflight.access import EMAIL, PASSWORD
from studio.preflight.job import PREFLIGHT_BUDGET, Preflight
from studio.runtime import EngineRuntime
from studio.settings import StudioSettings
from studio.store.project import ProjectFile

REQUEST = "create test cases for the disputes wizard"
TARGETS = {"median_seconds": 30, "median_steps": 40}


async def _one_run(demo: DemoServerThread, user: dict, path: Path, request: str = REQUEST,
                   kind: JobKind = "preflight") -> dict:
    with ProjectFile.create(path) as project:
        runtime = EngineRuntime(StudioSettings(), project)  # default settings: the bench measures the defaults
        launched = time.perf_counter()
        session = await runtime.start_browser()
        try:
            launch_seconds = time.perf_counter() - launched
            preflight = Preflight(session, project)
            started = time.perf_counter()
            job = await preflight.start(demo.base_url, request=request, kind=kind)
            steps, asked = _steps(preflight), [q.key for q in job.pending]
            while job.status == "paused" and {q.key for q in job.pending} <= {EMAIL, PASSWORD}:
                job = await preflight.resume(job, [Answer(key=EMAIL, value=user["email"]),
                                                   Answer(key=PASSWORD, value=user["password"])])
                steps += _steps(preflight)
                asked += [q.key for q in job.pending]
            seconds = time.perf_counter() - started
        finally:
            await runtime.aclose()
    return _row(job, seconds, launch_seconds, steps, asked)


def _steps(preflight: Preflight) -> int:
    return preflight.last_run.budget.steps if preflight.last_run else 0


def _row(job: JobRecord, seconds: float, launch_seconds: float, steps: int, asked: list[str]) -> dict:
    context = job.context
    best = max(context.candidate_entry_points, key=lambda point: point.confidence, default=None)
    return {
        "status": job.status,
        "wall_seconds": round(seconds, 2),
        "browser_start_seconds": round(launch_seconds, 2),
        "steps": steps,
        "pages_visited": len(context.evidence.visited_urls),
        "questions_asked": len(asked),
        "question_keys": asked,
        "entry_point": best.model_dump(mode="json") if best else None,
        "entry_point_confidence": context.confidence.entry_points,
        "confidence": context.confidence.model_dump(mode="json"),
        "resolved_base_url": context.resolved_base_url,
    }


async def measure_preflight(runs: int = 3) -> dict:
    with DemoServerThread() as demo, tempfile.TemporaryDirectory(prefix="studio-bench-") as folder:
        user = demo.create_user()
        rows = [await _one_run(demo, user, Path(folder) / f"run{n}.studio") for n in range(runs)]
        whole = [await _one_run(demo, user, Path(folder) / f"app{n}.studio", request="", kind="new_testsuite")
                 for n in range(runs)]
    area, app = _medians(rows), _medians(whole)
    return {
        "benchmark": "preflight",
        "app": "embedded demo app (default seed), no model (offline heuristics)",
        "request": REQUEST,
        "runs": rows,
        **area,
        "step_budget_per_run": PREFLIGHT_BUDGET.max_steps,
        "whole_app": {"request": "(none: a New Suite preflight surveys every module)", "runs": whole, **app},
        "all_completed": all(row["status"] == "completed" for row in rows + whole),
        "targets": {"median_seconds": f"< {TARGETS['median_seconds']}", "median_steps": f"< {TARGETS['median_steps']}"},
        "targets_met": all(scope[f"median_{what}"] < TARGETS[f"median_{what}"]
                           for scope in (area, app) for what in ("seconds", "steps")),
    }


def _medians(rows: list[dict]) -> dict:
    return {
        "median_seconds": round(statistics.median(row["wall_seconds"] for row in rows), 2),
        "median_steps": statistics.median(row["steps"] for row in rows),
        "median_pages_visited": statistics.median(row["pages_visited"] for row in rows),
    }


def main(target: str = "preflight", seconds: float = 5.0, json_only: bool = False, runs: int = 3) -> int:
    result = asyncio.run(measure_preflight(runs))
    print(json.dumps(result, indent=None if json_only else 2))
    return 0 if result["all_completed"] else 1
