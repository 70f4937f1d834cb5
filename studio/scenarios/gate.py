"""The threshold gate over a run's results (seed 004's check-thresholds): pass rate, median and p90 steps, and the
average cost per scenario, read from the run's JSONL log (its scenario_end records). The messages are the seed's.
The studio adds one optional threshold, the median path optimality (off unless given).

A threshold no run could be measured against — a pass rate above 1 or below 0, a negative step count or cost, an
optimality above 1, a value that is not a number — is refused before the results are read (ThresholdError): a CI
gate with a typo would otherwise fail every run, or pass every run, without saying why."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from studio.scenarios.metrics import median, percentile

PASSED = "All thresholds passed ✓"


class ResultsError(Exception):
    """A results file that cannot be read; str() names the file, the line and what to do."""


class ThresholdError(ValueError):
    """A threshold no run can be measured against; str() names its flag, the value and what to give instead."""


# Each threshold's flag, and the values it can take: (lowest, highest, what it is).
LIMITS: dict[str, tuple[str, float, float, str]] = {
    "min_pass_rate": ("--min-pass-rate", 0.0, 1.0, "a share of the scenarios from 0 to 1 (0.95 is 95 %)"),
    "max_median_steps": ("--max-median-steps", 0.0, math.inf, "a number of steps, 0 or more"),
    "max_p90_steps": ("--max-p90-steps", 0.0, math.inf, "a number of steps, 0 or more"),
    "max_cost_per_scenario": ("--max-cost-per-scenario", 0.0, math.inf, "an amount in US dollars, 0 or more"),
    "min_optimality": ("--min-optimality", 0.0, 1.0, "a path optimality from 0 to 1 (shortest / actual steps)"),
}


@dataclass(frozen=True)
class Thresholds:
    """The seed's CI values by default; `min_optimality` (the studio's) is checked only when given. Refuses an
    impossible value (ThresholdError)."""

    min_pass_rate: float = 0.95
    max_median_steps: float = 12
    max_p90_steps: float = 20
    max_cost_per_scenario: float = 0.50
    min_optimality: float | None = None

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if value is None and field.name == "min_optimality":
                continue
            flag, lowest, highest, what = LIMITS[field.name]
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
                raise ThresholdError(f"{flag} {value} is not a number; give {what}.")
            if not lowest <= value <= highest:
                raise ThresholdError(f"{flag} {_number(float(value))} is out of range: give {what}.")


def read_log(path: Path) -> list[dict[str, Any]]:
    """Every record of a run's JSONL log, in order (ResultsError naming the file and the line when it cannot be)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise ResultsError(f"{path} does not exist. Give the results.jsonl a `studio run` wrote.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ResultsError(f"{path} could not be read ({error}).") from None
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ResultsError(f"{path} line {number} is not JSON ({error.msg}); each line of a results file is "
                               "one record.") from None
        if isinstance(record, dict):
            records.append(record)
    return records


def load_results(path: Path) -> list[dict[str, Any]]:
    """The scenario_end records of a run's JSONL log, in order."""
    ended = [record for record in read_log(path) if record.get("type") == "scenario_end"]
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
    if thresholds.min_optimality is not None:
        failures += _optimality(results, thresholds.min_optimality)
    return failures


def _optimality(results: list[dict[str, Any]], threshold: float) -> list[str]:
    """The median of the runs' scenario_end.metrics.optimality against --min-optimality (a failed run has none)."""
    known = [float(v) for r in results if isinstance(v := (r.get("metrics") or {}).get("optimality"), int | float)]
    middle = median(known)
    if middle is None:
        unknown = f"Median optimality cannot be checked against threshold {_number(threshold)}"
        return [f"{unknown}: no scenario_end record has metrics.optimality"]
    if middle < threshold:
        return [f"Median optimality {_number(round(middle, 4))} below threshold {_number(threshold)}"]
    return []
