"""Seed 004's contract, walked with the seed's own examples: its YAML scenario (tests/scenarios/seed_example.yaml)
run with `studio run` against the demo, and every JSONL record the seed shows (run_start, scenario_start, step,
scenario_end, run_end) compared with ours field by field — each of the seed's fields present, with the seed's JSON
type, nested objects included; then summary.json against what the seed's CI comment and console summary read.
Extra fields of ours are allowed; a missing or retyped seed field is not."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "scenarios" / "seed_example.yaml"
SCENARIO_ID = "login-and-open-credit-report"

# The seed's "JSONL Export Format", verbatim.
SEED_JSONL = """\
{"type":"run_start","runId":"run_abc123","timestamp":"2025-10-31T10:00:00Z","scenarios":["login-and-open-credit-report"]}
{"type":"scenario_start","scenarioId":"login-and-open-credit-report","timestamp":"2025-10-31T10:00:01Z"}
{"type":"step","step":1,"action":{"type":"ui.act.type","params":{"nodeId":"email-input","text":"user@example.com"}},"observation":{"url":"http://localhost:5173/login","nodeCount":24},"timestamp":"2025-10-31T10:00:02Z"}
{"type":"step","step":2,"action":{"type":"ui.act.click","params":{"nodeId":"login-button"}},"timestamp":"2025-10-31T10:00:05Z"}
{"type":"scenario_end","scenarioId":"login-and-open-credit-report","status":"success","steps":12,"duration":45.2,"metrics":{"entropy":2.3,"backtracks":1,"optimality":0.83},"timestamp":"2025-10-31T10:00:46Z"}
{"type":"run_end","runId":"run_abc123","passRate":1.0,"totalDuration":46.1,"timestamp":"2025-10-31T10:00:47Z"}
"""
SEED = [json.loads(line) for line in SEED_JSONL.splitlines()]

# What the seed's CI comment reads from summary.json, and what its console summary shows (as JSON types).
SEED_SUMMARY = {"passRate": 100.0, "medianSteps": 12.0, "totalCost": 0.23,  # the pull-request comment
                "passed": 3, "total": 3, "medianDuration": 45.2}  # "Pass Rate: 100% (3/3)", "Median Duration"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def json_type(value: Any) -> str:
    """The JSON type of a value as json.loads gives it (a whole number written 1.0 is a float, as in the seed)."""
    for kind, name in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"),
                       (dict, "object"), (type(None), "null")):
        if isinstance(value, kind):
            return name
    raise AssertionError(f"not a JSON value: {value!r}")


def differences(seed: dict[str, Any], ours: dict[str, Any], where: str = "") -> list[str]:
    """Each of the seed's fields that ours lacks or types otherwise (nested objects compared the same way)."""
    found = []
    for field, value in seed.items():
        name = f"{where}{field}"
        if field not in ours:
            found.append(f"{name} missing")
        elif json_type(ours[field]) != json_type(value):
            found.append(f"{name} is {json_type(ours[field])} ({ours[field]!r}), the seed's is {json_type(value)}")
        elif isinstance(value, dict):
            found += differences(value, ours[field], f"{name}.")
    return found


def is_timestamp(text: str) -> bool:
    """ISO 8601 in UTC with the seed's trailing Z."""
    return text.endswith("Z") and datetime.fromisoformat(text).tzinfo is not None


@pytest.fixture(scope="module")
def seed_run(tmp_path_factory, browser_info):
    out = tmp_path_factory.mktemp("seed-004") / "reports"
    done = subprocess.run([sys.executable, "-m", "studio", "run", str(EXAMPLE), "--demo", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, env=dict(os.environ), check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    return done, records, out


@pytest.mark.timeout(400)
def test_the_records_are_the_seeds_field_by_field(seed_run):
    _done, records, _out = seed_run
    kinds = [r["type"] for r in records]
    assert kinds[:2] == ["run_start", "scenario_start"] and kinds[-2:] == ["scenario_end", "run_end"]
    assert set(kinds[2:-2]) == {"step"}
    ours = {kind: next(r for r in records if r["type"] == kind) for kind in set(kinds)}
    steps = [r for r in records if r["type"] == "step"]
    typed = next(r for r in steps if r["action"]["type"] == "ui.act.type")
    clicked = next(r for r in steps if r["action"]["type"] == "ui.act.click")
    pairs = [(SEED[0], ours["run_start"]), (SEED[1], ours["scenario_start"]), (SEED[2], typed), (SEED[3], clicked),
             (SEED[4], ours["scenario_end"]), (SEED[5], ours["run_end"])]
    found = [f"{seed['type']}: {d}" for seed, mine in pairs for d in differences(seed, mine)]
    assert found == []

    # the values the seed's example fixes: the scenario, the run's id on both ends, the step numbers, the node ids
    assert ours["run_start"]["scenarios"] == [SCENARIO_ID] and ours["run_start"]["runId"].startswith("run_")
    assert ours["run_end"]["runId"] == ours["run_start"]["runId"]
    assert all(r["scenarioId"] == SCENARIO_ID for r in records if r["type"] in ("scenario_start", "scenario_end"))
    assert [r["step"] for r in steps] == list(range(1, len(steps) + 1))
    assert (steps[0]["action"]["type"], steps[0]["action"]["params"]["nodeId"]) == ("ui.act.type", "email-input")
    assert clicked["action"]["params"]["nodeId"] == "login-button"
    assert typed["observation"]["url"].endswith("/login") and typed["observation"]["url"].startswith("http://")
    assert all(is_timestamp(r["timestamp"]) for r in records)

    # scenario_end: the run passed, its steps counted, and the seed's three metrics with numbers — optimality too
    end = ours["scenario_end"]
    assert end["status"] == "success" and end["steps"] == len(steps)
    assert 0 < end["metrics"]["optimality"] <= 1 and end["metrics"]["backtracks"] >= 0
    assert ours["run_end"]["passRate"] == 1.0


@pytest.mark.timeout(400)
def test_summary_json_is_what_the_seeds_ci_comment_reads(seed_run):
    done, records, out = seed_run
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert differences(SEED_SUMMARY, summary) == []
    [end] = [r for r in records if r["type"] == "scenario_end"]
    assert summary["passRate"] == 100.0 and (summary["passed"], summary["total"]) == (1, 1)
    assert summary["medianSteps"] == end["steps"] and summary["totalCost"] == round(end["cost"], 2)
    assert summary["runId"] == records[0]["runId"] and summary["report"] == "index.html"
    assert (out / "index.html").is_file()

    # the console says the same, in the seed's words
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"\[\d\d:\d\d:\d\d\] Starting run: 1 scenario", lines[0])
    assert any(re.fullmatch(rf"\[\d\d:\d\d:\d\d\] ✓ {SCENARIO_ID} \({end['steps']} steps, \d+\.\ds\)", line)
               for line in lines)
    assert ["Summary:", "  Pass Rate: 100% (1/1)", f"  Median Steps: {end['steps']}"] == \
        lines[lines.index("Summary:"):lines.index("Summary:") + 3]
    assert "  Total Cost: $0.00" in lines and lines[-1] == f"Reports: {out / 'index.html'}"
