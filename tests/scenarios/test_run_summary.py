"""summary.json (what seed 004's CI pull-request comment reads: passRate, medianSteps, totalCost, and the rest of the
seed's console summary) from a run's JSONL log, `studio summary` over several shards' logs, and the CI workflow's
two steps of the seed: the Playwright traces of a failed run kept 7 days, and the comment built from summary.json —
the comment's own script run with node on a summary the studio wrote."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from studio.scenarios.run_summary import summarise, write_summary

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "packaging" / "ci" / "goal-scenarios.yml"


def end(status: str, steps: int, duration: float, cost: float) -> dict:
    return {"type": "scenario_end", "scenarioId": "s", "status": status, "steps": steps, "duration": duration,
            "cost": cost}


LOG = [{"type": "run_start", "runId": "run_a", "scenarios": ["s"]},
       end("success", 12, 45.2, 0.1), end("success", 8, 32.1, 0.08), end("failure", 15, 58.3, 0.05),
       {"type": "run_end", "runId": "run_a", "passRate": 0.6667, "totalDuration": 136.0}]


def write_log(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_the_summary_has_what_the_seeds_comment_and_console_summary_show():
    summary = summarise(LOG, report="index.html")
    # the CI comment prints `${summary.passRate}%`: a percentage
    assert summary["passRate"] == 66.67 and summary["passed"] == 2 and summary["total"] == 3
    assert summary["medianSteps"] == 12 and summary["medianDuration"] == 45.2
    assert summary["totalCost"] == 0.23 and summary["totalDuration"] == 136.0
    assert summary["runId"] == "run_a" and summary["report"] == "index.html" and summary["stopped"] is False
    empty = summarise([{"type": "run_start", "runId": "run_b"}])
    assert empty["passRate"] == 0.0 and empty["total"] == 0 and empty["medianSteps"] is None


def test_write_summary_puts_it_beside_the_log(tmp_path):
    log = write_log(tmp_path / "out" / "results.jsonl", LOG)
    written = write_summary(log, tmp_path / "out" / "index.html")
    assert written == tmp_path / "out" / "summary.json"
    summary = json.loads(written.read_text(encoding="utf-8"))
    assert summary["results"] == "results.jsonl" and summary["report"] == "index.html"
    # a later run into the same folder appends to its log: its summary is its own
    later = [{"type": "run_start", "runId": "run_b"}, end("success", 6, 4.0, 0.01),
             {"type": "run_end", "runId": "run_b", "passRate": 1.0, "totalDuration": 5.0}]
    write_log(log, LOG + later)
    own = json.loads(write_summary(log, run_id="run_b").read_text(encoding="utf-8"))
    assert (own["runId"], own["passRate"], own["total"], own["medianSteps"]) == ("run_b", 100.0, 1, 6.0)
    assert json.loads(write_summary(log).read_text(encoding="utf-8"))["total"] == 4  # without an id: the whole log


def test_studio_summary_joins_the_shards_logs(tmp_path):
    first = write_log(tmp_path / "shards" / "smoke" / "results.jsonl", LOG)
    second = write_log(tmp_path / "shards" / "regression" / "results.jsonl",
                       [{"type": "run_start", "runId": "run_b"}, end("success", 6, 4.0, 0.0),
                        {"type": "run_end", "runId": "run_b", "passRate": 1.0, "totalDuration": 5.0}])
    out = tmp_path / "reports" / "summary.json"
    done = subprocess.run([sys.executable, "-m", "studio", "summary", str(first), str(second), "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, env=dict(os.environ), check=False)
    assert done.returncode == 0, done.stderr
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert summary["passRate"] == 75.0 and summary["total"] == 4 and summary["medianSteps"] == 10.0
    assert summary["runId"] == "run_a,run_b" and summary["totalDuration"] == 141.0
    missing = subprocess.run([sys.executable, "-m", "studio", "summary", str(tmp_path / "none.jsonl")],
                             capture_output=True, text=True, cwd=ROOT, timeout=120, env=dict(os.environ), check=False)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    started_only = write_log(tmp_path / "shards" / "broken" / "results.jsonl", [{"type": "run_start", "runId": "x"}])
    nothing = subprocess.run([sys.executable, "-m", "studio", "summary", str(started_only), "--out", str(out)],
                             capture_output=True, text=True, cwd=ROOT, timeout=120, env=dict(os.environ), check=False)
    assert nothing.returncode == 2 and "no scenario finished" in nothing.stderr  # never a summary of nothing


# -- the CI workflow ----------------------------------------------------------------------------------------------

def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def step(job: dict, name: str) -> dict:
    found = [s for s in job["steps"] if s.get("name") == name]
    assert len(found) == 1, [s.get("name") for s in job["steps"]]
    return found[0]


def test_the_workflow_uploads_the_playwright_traces_of_a_failed_run_for_7_days():
    shard = workflow()["jobs"]["scenarios"]
    traces = step(shard, "Upload Playwright traces")
    assert traces["if"] == "failure()" and traces["uses"].startswith("actions/upload-artifact@")
    assert traces["with"]["retention-days"] == 7
    assert traces["with"]["path"].endswith("trace.zip") and "${{ matrix.folder }}" in traces["with"]["path"]
    run = next(s["run"] for s in shard["steps"] if "studio run" in str(s.get("run")))
    assert "--trace" in run and '--out "reports/${{ matrix.folder }}"' in run  # the traces it uploads are taken


def test_the_workflow_comments_the_summary_on_a_pull_request_before_the_gate():
    gate = workflow()["jobs"]["gate"]
    names = [s.get("name") for s in gate["steps"]]
    comment = step(gate, "Comment PR with results")
    assert comment["if"] == "github.event_name == 'pull_request'"
    assert comment["uses"].startswith("actions/github-script@")
    script = comment["with"]["script"]
    assert "fs.readFileSync('./reports/summary.json')" in script and "github.rest.issues.createComment" in script
    assert all(f"summary.{field}" in script for field in ("passRate", "medianSteps", "totalCost"))
    # summary.json is written before the comment, and the gate after it (a failing run is commented on too)
    summarise_step = step(gate, "Summarise the whole run")
    assert "studio summary" in summarise_step["run"] and "--out reports/summary.json" in summarise_step["run"]
    assert names.index("Summarise the whole run") < names.index("Comment PR with results") < \
        names.index("Check the thresholds of the whole run")
    assert gate["permissions"] == {"issues": "write", "pull-requests": "write"}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the comment's script")
def test_the_comment_script_reads_the_summary_the_studio_writes(tmp_path):
    script = step(workflow()["jobs"]["gate"], "Comment PR with results")["with"]["script"]
    script = script.replace("${{ github.repository }}", "acme/app").replace("${{ github.run_id }}", "42")
    write_summary(write_log(tmp_path / "reports" / "results.jsonl", LOG))
    (tmp_path / "comment.js").write_text(script, encoding="utf-8")
    harness = """const fs = require('fs');
let made = null;
const github = {rest: {issues: {createComment: (args) => { made = args; }}}};
const context = {issue: {number: 7}, repo: {owner: 'acme', repo: 'app'}};
new Function('require', 'github', 'context', fs.readFileSync('comment.js', 'utf8'))(require, github, context);
console.log(JSON.stringify(made));"""
    (tmp_path / "harness.js").write_text(harness, encoding="utf-8")
    done = subprocess.run(["node", "harness.js"], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    made = json.loads(done.stdout)
    assert made["issue_number"] == 7 and made["owner"] == "acme" and made["repo"] == "app"
    body = made["body"]
    assert "**Pass Rate**: 66.67%" in body and "**Median Steps**: 12" in body and "**Total Cost**: $0.23" in body
    assert "https://github.com/acme/app/actions/runs/42" in body
