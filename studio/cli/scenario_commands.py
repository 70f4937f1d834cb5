"""`studio validate FILES…` (exit 1 on any problem, each printed as FILE:LINE:COLUMN: sentence),
`studio scenario schema` (the JSON Schema of scenario files, for editors), `studio gate RESULTS.jsonl` (the
seed's threshold check, exit 1 on any violation), `studio report`, `studio summary` (summary.json of runs' logs)
and `studio clean`; `studio run` is in studio.cli.scenario_run."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from studio.cli.scenario_run import register_run
from studio.wording import plural

VALID, INVALID, BAD_INPUT = 0, 1, 2


def _validate(args: argparse.Namespace) -> int:
    from studio.scenarios.validation import check_scenario

    files: list[Path] = []
    for given in args.files:
        path = Path(given)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
        elif path.exists():
            files.append(path)
        else:
            print(f"error: {path} does not exist. Give scenario files (.yaml) or folders holding them.",
                  file=sys.stderr)
            return BAD_INPUT
    if not files:
        print("error: no scenario files (.yaml, .yml) were found there.", file=sys.stderr)
        return BAD_INPUT
    bad = 0
    for path in files:
        _scenario, problems = check_scenario(path)
        for problem in problems:
            print(problem)
        bad += bool(problems)
    total = len(files)
    print(f"{total - bad} of {plural(total, 'scenario file')} valid" + (f"; {bad} with problems." if bad else "."),
          file=sys.stderr)
    return INVALID if bad else VALID


def _schema(args: argparse.Namespace) -> int:
    from studio.scenarios.schema import scenario_schema

    print(json.dumps(scenario_schema(), indent=2, ensure_ascii=False))
    return VALID


def register(commands: argparse._SubParsersAction) -> None:
    validate = commands.add_parser(
        "validate", help="check goal scenario files (YAML) without running them",
        description="Check goal scenario files against the scenario schema (seed 004). Every problem is printed as "
                    "FILE:LINE:COLUMN: sentence. Exit 0: all valid; 1: some file has a problem; 2: nothing to check.")
    validate.add_argument("files", nargs="+", metavar="FILE", help="scenario files, or folders holding them")
    validate.set_defaults(handler=_validate)

    scenario = commands.add_parser("scenario", help="goal scenario tools (the schema for editors)")
    tools = scenario.add_subparsers(dest="tool", metavar="TOOL", required=True)
    schema = tools.add_parser("schema", help="print the JSON Schema of scenario files",
                              description="Print the JSON Schema of scenario files (point an editor's YAML "
                                          "support at it for completions and checks).")
    schema.set_defaults(handler=_schema)
    register_gate(commands)
    register_run(commands)
    register_report(commands)
    register_summary(commands)
    register_clean(commands)


def _gate(args: argparse.Namespace) -> int:
    from studio.scenarios.gate import PASSED, ResultsError, ThresholdError, Thresholds, check_thresholds, load_results

    try:  # an impossible threshold (--min-pass-rate 1.1) is refused before the results are read
        thresholds = Thresholds(
            min_pass_rate=args.min_pass_rate, max_median_steps=args.max_median_steps,
            max_p90_steps=args.max_p90_steps, max_cost_per_scenario=args.max_cost_per_scenario,
            min_optimality=args.min_optimality)
        results = load_results(Path(args.results))
    except (ThresholdError, ResultsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    failures = check_thresholds(results, thresholds)
    if failures:
        print("Threshold violations:\n" + "\n".join(failures), file=sys.stderr)
        return INVALID
    print(PASSED)
    return VALID


def register_gate(commands: argparse._SubParsersAction) -> None:
    from studio.scenarios.gate import Thresholds

    defaults = Thresholds()
    gate = commands.add_parser(
        "gate", help="check a run's results against thresholds (exit 1 on any violation)",
        description="Check the scenario results of a run (its results.jsonl) against thresholds, as a CI step. "
                    "Exit 0: all passed; 1: a threshold is violated (each printed); 2: the file cannot be used, or "
                    "a threshold is out of range.")
    gate.add_argument("results", metavar="RESULTS.jsonl")
    gate.add_argument("--min-pass-rate", type=float, default=defaults.min_pass_rate, metavar="R",
                      help=f"share of scenarios that must succeed (default {defaults.min_pass_rate})")
    gate.add_argument("--max-median-steps", type=float, default=defaults.max_median_steps, metavar="N",
                      help=f"default {defaults.max_median_steps:g}")
    gate.add_argument("--max-p90-steps", type=float, default=defaults.max_p90_steps, metavar="N",
                      help=f"default {defaults.max_p90_steps:g}")
    gate.add_argument("--max-cost-per-scenario", type=float, default=defaults.max_cost_per_scenario, metavar="USD",
                      help=f"average model cost per scenario (default {defaults.max_cost_per_scenario:g})")
    gate.add_argument("--min-optimality", type=float, metavar="R",
                      help="also require this median path optimality, 0 to 1 (the studio's; default: not checked)")
    gate.set_defaults(handler=_gate)


def _report(args: argparse.Namespace) -> int:
    from studio.scenarios.report import ReportError, write_report

    log = Path(args.log)
    out = Path(args.out) if args.out else log.with_name("index.html")
    try:
        written, differences = write_report(log, out, [Path(p) for p in args.compare or []])
    except ReportError as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    for difference in differences:
        print(f"metrics differ: {difference}", file=sys.stderr)
    print(f"Report: {written}")
    print("Metrics recomputed from the log " + ("differ from the run's (above)." if differences else
                                                 "match the ones the run wrote."))
    return INVALID if differences else VALID


def register_report(commands: argparse._SubParsersAction) -> None:
    report = commands.add_parser(
        "report", help="recompute a run's metrics from its JSONL log and write the HTML report",
        description="Read a run's results.jsonl, recompute every scenario's metrics from it alone (and check them "
                    "against the ones the run wrote), and write a self-contained HTML report. Exit 0: written and "
                    "the metrics agree; 1: they differ; 2: the log cannot be used.")
    report.add_argument("log", metavar="RUN.jsonl")
    report.add_argument("--out", metavar="FILE", help="the HTML file (default: index.html beside the log)")
    report.add_argument("--compare", nargs="*", metavar="EARLIER.jsonl", help="earlier runs to compare with")
    report.set_defaults(handler=_report)


def _summary(args: argparse.Namespace) -> int:
    from studio.scenarios.run_summary import SummaryError, write_joined_summary

    try:
        written = write_joined_summary([Path(p) for p in args.logs], Path(args.out))
    except (SummaryError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    print(f"Summary: {written}")
    return VALID


def register_summary(commands: argparse._SubParsersAction) -> None:
    summary = commands.add_parser(
        "summary", help="write the summary.json of one or more runs' JSONL logs (the CI comment reads it)",
        description="Write summary.json (passRate in percent, medianSteps, totalCost, passed, total, "
                    "medianDuration, …) from runs' results.jsonl: `studio run` writes one per run; give a sharded "
                    "run's logs to summarise the whole run. Exit 0: written; 2: a log cannot be used.")
    summary.add_argument("logs", nargs="+", metavar="RESULTS.jsonl")
    summary.add_argument("--out", default="summary.json", metavar="FILE", help="where to write (default "
                                                                              "summary.json)")
    summary.set_defaults(handler=_summary)


RUN_ARTIFACTS = ("results.jsonl", "index.html", "summary.json")
# What a scenario run captures in its OUT/artifacts/<id>-<n>/ folder (studio.scenarios.capture).
CAPTURED = ("step-*.png", "success.png", "failure.png", "error.png", "success.html", "trace.zip")


def _clean(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if not out.is_dir():
        print(f"Nothing to clean: {out} is not a folder.")
        return VALID
    removed = [path for name in RUN_ARTIFACTS if (path := out / name).is_file()]
    removed += sorted((out / "sessions").glob("*.json")) if (out / "sessions").is_dir() else []
    removed += sorted((out / "traces").glob("*.zip")) if (out / "traces").is_dir() else []
    runs = sorted(p for p in (out / "artifacts").iterdir() if p.is_dir()) if (out / "artifacts").is_dir() else []
    removed += [path for folder in runs for pattern in CAPTURED for path in sorted(folder.glob(pattern))]
    if args.dry_run:
        for path in removed:
            print(f"would remove {path}")
        return VALID
    for path in removed:
        path.unlink()
    for folder in (out / "sessions", out / "traces", *runs, out / "artifacts"):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    print(f"Removed {plural(len(removed), 'file')} a scenario run wrote in {out}; nothing else there was touched.")
    return VALID


def register_clean(commands: argparse._SubParsersAction) -> None:
    clean = commands.add_parser("clean", help="remove what `studio run` wrote (results, report, saved sessions)",
                                description="Remove the artifacts a scenario run wrote in OUT: results.jsonl, "
                                            "index.html, summary.json, sessions/*.json (signed-in states), traces/*.zip and the "
                                            "screenshots, page snapshots and traces in artifacts/<id>-<n>/. "
                                            "Other files are left alone.")
    clean.add_argument("--out", default="out", metavar="DIR", help="the run's folder (default out)")
    clean.add_argument("--dry-run", action="store_true", help="list what would be removed, remove nothing")
    clean.set_defaults(handler=_clean)
