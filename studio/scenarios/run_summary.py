"""A run's `summary.json`, beside its results.jsonl and report: what seed 004's CI pull-request comment reads
(`passRate`, `medianSteps`, `totalCost`) and the rest of the seed's console summary (passed of total, median
duration), with the run's id, duration and files. Computed from the JSONL log alone, so the summary of several
shards' logs joined is the whole run's (`studio summary`).

`passRate` is a percentage (0–100), as the seed's comment prints it (`**Pass Rate**: ${summary.passRate}%`);
the log's run_end keeps the share (0–1), and `passed` / `total` give it exactly."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from studio.scenarios.gate import ResultsError, read_log
from studio.scenarios.metrics import median
from studio.scenarios.records import timestamp

SUMMARY_FILE = "summary.json"


class SummaryError(Exception):
    """A log the summary cannot be made from; str() names the file and what to do."""


def read_records(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Every record of the logs, in order (several shards' results.jsonl make one run)."""
    try:
        return [record for path in paths for record in read_log(path)]
    except ResultsError as error:
        raise SummaryError(str(error)) from None


def summarise(records: list[dict[str, Any]], report: str | None = None,
              stopped: bool = False) -> dict[str, Any]:
    """The summary of the run(s) the records hold: `report` is the HTML report's path (relative to the summary),
    `stopped` says the run was stopped before every scenario ran."""
    ends = [r for r in records if r.get("type") == "scenario_end"]
    run_ids = list(dict.fromkeys(str(r["runId"]) for r in records if r.get("type") == "run_start" and r.get("runId")))
    passed = sum(1 for r in ends if r.get("status") == "success")
    total = len(ends)
    steps = median([float(r.get("steps", 0) or 0) for r in ends])
    duration = median([float(r.get("duration", 0) or 0) for r in ends])
    return {
        "runId": ",".join(run_ids),
        "passRate": round(100 * passed / total, 2) if total else 0.0,
        "medianSteps": steps,
        "totalCost": round(sum(float(r.get("cost", 0) or 0) for r in ends), 2),
        "passed": passed,
        "total": total,
        "medianDuration": None if duration is None else round(duration, 2),
        "totalDuration": round(sum(float(r.get("totalDuration", 0) or 0) for r in records
                                   if r.get("type") == "run_end"), 2),
        "stopped": stopped,
        "results": "results.jsonl",
        "report": report,
        "timestamp": timestamp(),
    }


def one_run(records: list[dict[str, Any]], run_id: str) -> list[dict[str, Any]]:
    """The records of run `run_id` in a log that holds several (`studio run` appends to an --out used before)."""
    starts = [i for i, r in enumerate(records) if r.get("type") == "run_start" and r.get("runId") == run_id]
    if not starts:
        return records
    ends = [i for i, r in enumerate(records) if r.get("type") == "run_end" and r.get("runId") == run_id
            and i >= starts[-1]]
    return records[starts[-1]:(ends[0] + 1 if ends else len(records))]


def write_summary(log: Path, report: Path | None = None, stopped: bool = False, run_id: str | None = None) -> Path:
    """Write summary.json beside `log` (a run's results.jsonl) and return its path: the summary of run `run_id`
    when given (the log may hold earlier runs too), else of the whole log."""
    out = log.with_name(SUMMARY_FILE)
    records = read_records([log])
    summary = summarise(one_run(records, run_id) if run_id else records,
                        report.name if report is not None else None, stopped)
    summary["results"] = log.name
    out.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def write_joined_summary(logs: list[Path], out: Path) -> Path:
    """Write the summary of several runs' logs (a sharded run's results.jsonl files) to `out`."""
    records = read_records(logs)
    if not any(record.get("type") == "scenario_end" for record in records):
        # Never a summary of nothing: a 0 % pass rate of 0 scenarios would read as a run that failed everything.
        raise SummaryError(f"{', '.join(str(path) for path in logs)} holds no scenario_end record: no scenario "
                           "finished in that run, so there is nothing to summarise. Check that the run got going.")
    summary = summarise(records)
    summary["results"] = ", ".join(str(path) for path in logs)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out
