"""The threshold gate over a run's results (seed 004's check-thresholds): pass rate, median and p90 steps, and the
average cost per scenario, read from the run's JSONL log (its scenario_end records). The messages are the seed's."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.scenarios.metrics import median, percentile

PASSED = "All thresholds passed ✓"


class ResultsError(Exception):
    """A results file that cannot be read; str() names the file, the line and what to do."""


@dataclass(frozen=True)
class Thresholds:
    """The seed's CI values by default."""

    min_pass_rate: float = 0.95
    max_median_steps: float = 12
    max_p90_steps: float = 20
    max_cost_per_scenario: float = 0.50


def load_results(path: Path) -> list[dict[str, Any]]:
    """The scenario_end records of a run's JSONL log, in order."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise ResultsError(f"{path} does not exist. Give the results.jsonl a `studio run` wrote.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ResultsError(f"{path} could not be read ({error}).") from None
    ended = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ResultsError(f"{path} line {number} is not JSON ({error.msg}); each line of a results file is "
                               "one record.") from None
        if isinstance(record, dict) and record.get("type") == "scenario_end":
            ended.append(record)
    if not ended:
        raise ResultsError(f"{path} holds no scenario_end record: no scenario finished in that run.")
    return ended


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def check_thresholds(results: list[dict[str, Any]], thresholds: Thresholds) -> list[str]:
    """The violations, in the seed's words (empty: every threshold passed)."""
    pass_rate = sum(1 for r in results if r.get("status") == "success") / len(results)
    steps = [float(r.get("steps", 0)) for r in results]
    median_steps = median(steps) or 0.0
    p90_steps = percentile(steps, 90) or 0.0
    avg_cost = sum(float(r.get("cost", 0) or 0) for r in results) / len(results)
    failures = []
    if pass_rate < thresholds.min_pass_rate:
        failures.append(f"Pass rate {_number(round(pass_rate, 4))} below threshold "
                        f"{_number(thresholds.min_pass_rate)}")
    if median_steps > thresholds.max_median_steps:
        failures.append(f"Median steps {_number(median_steps)} exceeds threshold "
                        f"{_number(thresholds.max_median_steps)}")
    if p90_steps > thresholds.max_p90_steps:
        failures.append(f"P90 steps {_number(round(p90_steps, 2))} exceeds threshold "
                        f"{_number(thresholds.max_p90_steps)}")
    if avg_cost > thresholds.max_cost_per_scenario:
        failures.append(f"Average cost ${_number(round(avg_cost, 4))} exceeds threshold "
                        f"${_number(thresholds.max_cost_per_scenario)}")
    return failures
