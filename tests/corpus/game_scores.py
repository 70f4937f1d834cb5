"""The game evaluator's scores on third-party games: `studio game URL --no-model --json` on each game of the corpus,
healthy and with each planted fault, one run at a time, as a user runs it.

    python -m tests.corpus.game_scores --json [--apps 2048,tetris,breakout] [--faults healthy,logic_missing]
        [--max-seconds 150] [--work DIR] [--out FILE]

Per run: the app, the fault ("healthy" for none), the command's exit code, the overall score and the five metric
scores, the verdict and the message, each phase's status, the controls the evaluator found, and the seconds taken.
It only measures: what the scores should be is the evaluator's to meet. 2048 is measured with one more fault than its
catalog entry plants: `logic_missing`, its script (GAME_JS) taken out of the built site."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

from tests.corpus.apps import CorpusApp, MissingFiles
from tests.corpus.catalog import APPS
from tests.corpus.catalog.widgets import GAME_JS
from tests.corpus.sites import CorpusSites
from tests.corpus.studio_run import last_json, studio

GAMES = ("2048", "tetris", "breakout")
HEALTHY = "healthy"
METRICS = ("load", "visual", "controls", "playability", "technical")
# Faults measured here beyond an app's catalog entry (which stays as the other corpus tables use it).
EXTRA_FAULTS = {"2048": (MissingFiles("logic_missing", "the game's script is not served (404): no board at all",
                                      files=(GAME_JS,)),)}
MARGIN_S = 180  # beyond --max-seconds before a run is taken as hung (browser start, scoring, writing the project)


def game_app(name: str) -> CorpusApp:
    """The corpus app with the faults measured here (its catalog faults, then any extra ones)."""
    app = APPS[name]
    extra = tuple(fault for fault in EXTRA_FAULTS.get(name, ()) if fault.name not in {f.name for f in app.faults})
    return dataclasses.replace(app, faults=app.faults + extra) if extra else app


def score_run(app: CorpusApp, fault: str | None, sites: CorpusSites, work: Path, max_seconds: float) -> dict:
    """One `studio game` run on the app's site (healthy when `fault` is None), as one row of the table."""
    url = sites.serve(app, fault).url(app.entry)
    project = work / app.name / f"{fault or HEALTHY}.studio"
    project.parent.mkdir(parents=True, exist_ok=True)
    project.unlink(missing_ok=True)
    started = time.monotonic()
    try:
        done = studio("game", url, "--project", project, "--no-model", "--json", "--quiet",
                      "--max-seconds", f"{max_seconds:g}", timeout=max_seconds + MARGIN_S)
        exit_code, stdout, stderr = done.returncode, done.stdout, done.stderr
    except Exception as error:  # noqa: BLE001 - a hung or failed run is a row too, not the end of the table
        exit_code, stdout, stderr = None, "", f"{type(error).__name__}: {error}"
    seconds = round(time.monotonic() - started, 1)
    return row(app.name, fault, exit_code, last_json(stdout), stderr, seconds, url)


def row(app: str, fault: str | None, exit_code: int | None, result: dict, stderr: str, seconds: float,
        url: str = "") -> dict:
    """The table's row from what `studio game --json` printed (any part of it may be missing)."""
    phase1 = result.get("phase1") or {}
    phase2 = result.get("phase2") or {}
    phase3 = result.get("phase3") or {}
    phase4 = result.get("phase4") or {}
    metrics = {m.get("name"): m for m in phase4.get("metrics") or [] if isinstance(m, dict)}
    controls = phase2.get("controls") or {}
    return {
        "app": app, "fault": fault or HEALTHY, "exit": exit_code,
        "overall": phase4.get("overallScore") if phase4 else None,
        "weighted": result.get("weightedScore"),
        "metrics": {name: (metrics[name].get("score") if name in metrics else None) for name in METRICS},
        "verdict": result.get("verdict", ""), "message": result.get("message", ""), "status": result.get("status"),
        "phases": {key: value.get("status") for key, value in (result.get("phaseDurations") or {}).items()},
        "controls": [_control(key, value) for key, value in controls.items()],
        "hypothesis": phase2.get("hypothesis", ""),
        "load_errors": list(phase1.get("errors") or [])[:5],
        "actions": phase3.get("actionsTaken"), "screenshots": phase3.get("screenshotCount"),
        "justifications": {name: metrics[name].get("justification", "") for name in METRICS if name in metrics},
        "seconds": seconds, "url": url,
        "stderr_tail": "" if result else "\n".join(stderr.strip().splitlines()[-8:]),
    }


def measure(names: list[str], faults: set[str] | None, max_seconds: float, work: Path | None = None) -> dict:
    unknown = [name for name in names if name not in APPS]
    if unknown:
        raise SystemExit(f"No corpus app {', '.join(unknown)}; the games are {', '.join(GAMES)}.")
    folder = work or Path(tempfile.mkdtemp(prefix="game-scores-"))
    rows = []
    with CorpusSites(folder / "corpus") as sites:
        for name in names:
            app = game_app(name)
            for fault in (None, *(f.name for f in app.faults)):
                if faults is not None and (fault or HEALTHY) not in faults:
                    continue
                print(f"studio game on {name} ({fault or HEALTHY}) ...", file=sys.stderr, flush=True)
                rows.append(score_run(app, fault, sites, folder / "runs", max_seconds))
                print("  " + _line(rows[-1]), file=sys.stderr, flush=True)
    return {"max_seconds": max_seconds, "runs": rows, "work": str(folder)}


def table(rows: list[dict]) -> str:
    head = ["app", "fault", "exit", "overall", *METRICS, "phases", "s", "verdict / message"]
    lines = [head]
    for r in rows:
        phases = "".join((status or "?")[0] for status in r["phases"].values()) or "-"
        said = r["verdict"] or r["message"] or r["stderr_tail"].replace("\n", " ")
        lines.append([r["app"], r["fault"], str(r["exit"]), _num(r["overall"]),
                      *(_num(r["metrics"][m]) for m in METRICS), phases, f"{r['seconds']:.0f}", said[:90]])
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in lines]
    text.insert(1, "  ".join("-" * width for width in widths))
    text.append("phases: one letter per phase (p passed, f failed, s skipped)")
    return "\n".join(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.corpus.game_scores", description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", default=",".join(GAMES), help=f"games to score (default: {', '.join(GAMES)})")
    parser.add_argument("--faults", help="only these variants, by name ('healthy' for the healthy site)")
    parser.add_argument("--max-seconds", type=float, default=150.0, help="studio game's budget per run (default 150)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON (the table goes to stderr)")
    parser.add_argument("--out", type=Path, help="also write the JSON to this file")
    parser.add_argument("--work", type=Path, help="keep the sites and the runs' projects in this folder")
    args = parser.parse_args(argv)
    faults = {name.strip() for name in args.faults.split(",") if name.strip()} if args.faults else None
    result = measure([name.strip() for name in args.apps.split(",") if name.strip()], faults, args.max_seconds,
                     args.work)
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))
    if args.json:
        print(json.dumps(result, indent=2))
        print(table(result["runs"]), file=sys.stderr)
    else:
        print(table(result["runs"]))
    return 0


def _control(key: str, value: object) -> str:
    if not isinstance(value, dict):
        return key
    said = ": ".join(str(value[k]) for k in ("type", "description") if value.get(k))
    return f"{key} ({said})" if said else key


def _num(value: object) -> str:
    return "-" if value is None else str(value)


def _line(r: dict) -> str:
    metrics = " ".join(f"{m}={_num(r['metrics'][m])}" for m in METRICS)
    return (f"exit {r['exit']}, overall {_num(r['overall'])} ({metrics}), {r['seconds']:.0f} s"
            + (f": {r['verdict'] or r['message']}" if r["verdict"] or r["message"] else ""))


if __name__ == "__main__":
    sys.exit(main())
