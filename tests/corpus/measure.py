"""The corpus table: the studio run as a user runs it on third-party apps, its cases exported and run against each
app, healthy and with every planted fault.

    python -m tests.corpus.measure --json [--apps todomvc-vanillajs,gridjs] [--out FILE]

Per app: the behaviours listed, cases written, behaviours covered, checks per case, cases skipped, suspected defects
reported, exported tests passing on the healthy app, seeded faults caught of those planted, and New Suite's exit
code; with the issue's targets beside them (they are the engine's to meet; this only measures).

A fault is caught when an exported case that passes on the healthy app fails with the fault planted. A behaviour is
covered when a fault standing for it is caught, or (where none does) when a written case matches its structural
matcher. Where an app plants "data lost on reload", New Suite runs once more on that broken copy: the loss must be
reported as a finding (kind data_lost_on_reload) and never asserted (no case written there may fail on the healthy
app)."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from tests.corpus.apps import Behaviour, CorpusApp, checks_of
from tests.corpus.catalog import APPS
from tests.corpus.exported import ExportedRun, run_exported
from tests.corpus.sites import CorpusSites
from tests.corpus.studio_run import SuiteRun, export_python, new_suite

TARGETS = {"behaviours_covered": ">= 80 %", "false_alarms": "0", "faults_caught": ">= 90 %", "cases_skipped": "<= 10 %",
           "data_loss": "every one reported, never asserted", "exit": "never 0 with 0 cases"}


def measure_app(app: CorpusApp, sites: CorpusSites, work: Path, data_loss: bool = True,
                extra: tuple[str, ...] = (), max_faults: int | None = None) -> dict:
    healthy = sites.serve(app)
    folder = work / app.name
    folder.mkdir(parents=True, exist_ok=True)
    run = new_suite(healthy.url(app.entry), folder / "app.studio", extra)
    row = _suite_columns(app, run)
    exported = _export(run, folder / "exported")
    runs: dict[str | None, ExportedRun] = {}
    if exported is not None:
        runs[None] = run_exported(exported, healthy.origin, folder / "healthy.xml")
        # With no false alarm, any failure with the fault planted catches it: stop at the first.
        quick = not runs[None].ids("failed")
        for fault in app.faults[:max_faults]:
            runs[fault.name] = run_exported(exported, sites.serve(app, fault.name).origin, folder / f"{fault.name}.xml",
                                            first_failure=quick)
    row.update(_exported_columns(app, run, runs))
    row["faults_run"] = len(app.faults[:max_faults]) if runs else 0
    if data_loss:
        row["data_loss"] = [_data_loss(app, fault.name, sites, folder, extra) for fault in app.faults if fault.data_loss]
    return row


def _suite_columns(app: CorpusApp, run: SuiteRun) -> dict:
    checks = [checks_of(case) for case in run.cases]
    return {
        "app": app.name, "title": app.title, "behaviours_listed": len(app.behaviours), "cases_written": len(run.cases),
        "checks_per_case": round(sum(checks) / len(checks), 2) if checks else 0.0,
        "suspected_defects": len(run.findings), "finding_kinds": sorted({f.get("kind", "") for f in run.findings}),
        "new_suite_exit": run.exit_code, "new_suite_exits": run.exit_codes, "questions_answered": run.questions_answered,
        "new_suite_seconds": run.seconds, "faults_planted": len(app.faults),
        "summary": str((run.payload.get("output") or {}).get("summary", ""))[:300] if run.payload else "",
        "stderr_tail": run.stderr_tail if not run.cases else "",
    }


def _export(run: SuiteRun, out: Path) -> Path | None:
    if not run.cases:
        return None
    shutil.rmtree(out, ignore_errors=True)
    done = export_python(run.project, out)
    return out if done.returncode == 0 else None


def _exported_columns(app: CorpusApp, run: SuiteRun, runs: dict[str | None, ExportedRun]) -> dict:
    healthy = runs.get(None)
    passing = healthy.ids("passed") if healthy else set()
    caught = sorted(name for name, result in runs.items() if name is not None and passing & result.ids("failed"))
    covered = [b.name for b in app.behaviours if _covered(b, caught, run.cases)]
    tests = len(healthy.results) if healthy else 0
    return {
        "exported_tests": tests, "healthy_passed": len(passing),
        "false_alarms": len(healthy.ids("failed")) if healthy else 0,
        "cases_skipped": len(healthy.ids("skipped")) if healthy else 0,
        "behaviours_covered": len(covered), "covered": covered,
        "faults_caught": len(caught), "caught": caught,
        "healthy_tail": healthy.output_tail if healthy and healthy.ids("failed") else "",
    }


def _covered(behaviour: Behaviour, caught: list[str], cases: list[dict]) -> bool:
    if behaviour.faults:
        return bool(set(behaviour.faults) & set(caught))
    return behaviour.matcher is not None and any(behaviour.matcher.matches(case) for case in cases)


def _data_loss(app: CorpusApp, fault: str, sites: CorpusSites, folder: Path, extra: tuple[str, ...]) -> dict:
    """New Suite on the copy that loses its data on reload: reported as a finding, and never asserted."""
    broken = sites.serve(app, fault)
    run = new_suite(broken.url(app.entry), folder / f"{fault}.studio", extra)
    reported = any(finding.get("kind") == "data_lost_on_reload" for finding in run.findings)
    asserted = 0
    exported = _export(run, folder / f"exported-{fault}")
    if exported is not None:
        asserted = len(run_exported(exported, sites.serve(app).origin, folder / f"{fault}-on-healthy.xml").ids("failed"))
    return {"fault": fault, "cases_written": len(run.cases), "reported": reported, "asserted_cases": asserted,
            "new_suite_exit": run.exit_code}


def table(rows: list[dict]) -> str:
    """The rows as a plain-text table, the targets in the last line."""
    head = ["app", "behaviours", "cases", "covered", "checks/case", "skipped", "defects", "healthy pass",
            "false alarms", "faults caught", "data loss reported", "exit"]
    lines = [head]
    for row in rows:
        loss = row.get("data_loss") or []
        lines.append([
            row["app"], str(row["behaviours_listed"]), str(row["cases_written"]),
            f"{row['behaviours_covered']}/{row['behaviours_listed']}", f"{row['checks_per_case']:.1f}",
            f"{row['cases_skipped']}/{row['exported_tests']}", str(row["suspected_defects"]),
            f"{row['healthy_passed']}/{row['exported_tests']}", str(row["false_alarms"]),
            f"{row['faults_caught']}/{row['faults_planted']}",
            f"{sum(d['reported'] for d in loss)}/{len(loss)}" if loss else "-", str(row["new_suite_exit"])])
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in lines]
    text.insert(1, "  ".join("-" * width for width in widths))
    text.append("targets: " + "; ".join(f"{key} {value}" for key, value in TARGETS.items()))
    return "\n".join(text)


def totals(rows: list[dict]) -> dict:
    listed = sum(r["behaviours_listed"] for r in rows)
    planted = sum(r["faults_planted"] for r in rows)
    tests = sum(r["exported_tests"] for r in rows)
    loss = [d for r in rows for d in r.get("data_loss") or []]
    return {
        "apps": len(rows), "cases_written": sum(r["cases_written"] for r in rows),
        "behaviours_covered": f"{sum(r['behaviours_covered'] for r in rows)}/{listed}",
        "faults_caught": f"{sum(r['faults_caught'] for r in rows)}/{planted}",
        "false_alarms": sum(r["false_alarms"] for r in rows),
        "cases_skipped": f"{sum(r['cases_skipped'] for r in rows)}/{tests}",
        "data_loss_reported": f"{sum(d['reported'] for d in loss)}/{len(loss)}",
        "data_loss_asserted_cases": sum(d["asserted_cases"] for d in loss),
        "runs_exit_0_with_0_cases": sum(1 for r in rows if r["new_suite_exit"] == 0 and not r["cases_written"]),
    }


def measure(names: list[str], data_loss: bool = True, work: Path | None = None, max_seconds: float | None = None,
            max_faults: int | None = None) -> dict:
    unknown = [name for name in names if name not in APPS]
    if unknown:
        raise SystemExit(f"No corpus app {', '.join(unknown)}; known: {', '.join(APPS)}.")
    folder = work or Path(tempfile.mkdtemp(prefix="corpus-measure-"))
    extra = ("--max-seconds", str(max_seconds)) if max_seconds else ()
    with CorpusSites(folder / "corpus") as sites:
        rows = []
        for name in names:
            print(f"measuring {name} ...", file=sys.stderr, flush=True)
            rows.append(measure_app(APPS[name], sites, folder / "runs", data_loss=data_loss, extra=extra,
                                    max_faults=max_faults))
    return {"targets": TARGETS, "totals": totals(rows), "apps": rows, "work": str(folder)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.corpus.measure", description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", default=",".join(APPS), help=f"apps to measure (default all: {', '.join(APPS)})")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (the table goes to stderr)")
    parser.add_argument("--out", type=Path, help="also write the JSON to this file")
    parser.add_argument("--no-data-loss", action="store_true", help="skip the runs on the data-losing copies")
    parser.add_argument("--work", type=Path, help="keep projects, exports and reports in this folder")
    parser.add_argument("--max-seconds", type=float, help="New Suite's time budget per run (default: the settings')")
    parser.add_argument("--max-faults", type=int, help="run the exported tests on at most this many faulty copies "
                                                       "per app (default: all; a shortened run says so in faults_run)")
    args = parser.parse_args(argv)
    result = measure([name.strip() for name in args.apps.split(",") if name.strip()],
                     data_loss=not args.no_data_loss, work=args.work, max_seconds=args.max_seconds,
                     max_faults=args.max_faults)
    text = table(result["apps"])
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))
    if args.json:
        print(json.dumps(result, indent=2))
        print(text, file=sys.stderr)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
