"""`studio validate FILES…` (exit 1 on any problem, each printed as FILE:LINE:COLUMN: sentence),
`studio scenario schema` (the JSON Schema of scenario files, for editors) and `studio gate RESULTS.jsonl` (the
seed's threshold check, exit 1 on any violation)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

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
    print(f"{total - bad} of {total} scenario file(s) valid" + (f"; {bad} with problems." if bad else "."),
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


def _gate(args: argparse.Namespace) -> int:
    from studio.scenarios.gate import PASSED, ResultsError, Thresholds, check_thresholds, load_results

    try:
        results = load_results(Path(args.results))
    except ResultsError as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    failures = check_thresholds(results, Thresholds(
        min_pass_rate=args.min_pass_rate, max_median_steps=args.max_median_steps, max_p90_steps=args.max_p90_steps,
        max_cost_per_scenario=args.max_cost_per_scenario))
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
                    "Exit 0: all passed; 1: a threshold is violated (each printed); 2: the file cannot be used.")
    gate.add_argument("results", metavar="RESULTS.jsonl")
    gate.add_argument("--min-pass-rate", type=float, default=defaults.min_pass_rate, metavar="R",
                      help=f"share of scenarios that must succeed (default {defaults.min_pass_rate})")
    gate.add_argument("--max-median-steps", type=float, default=defaults.max_median_steps, metavar="N",
                      help=f"default {defaults.max_median_steps:g}")
    gate.add_argument("--max-p90-steps", type=float, default=defaults.max_p90_steps, metavar="N",
                      help=f"default {defaults.max_p90_steps:g}")
    gate.add_argument("--max-cost-per-scenario", type=float, default=defaults.max_cost_per_scenario, metavar="USD",
                      help=f"average model cost per scenario (default {defaults.max_cost_per_scenario:g})")
    gate.set_defaults(handler=_gate)
