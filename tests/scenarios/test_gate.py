"""`studio gate`: the seed's thresholds and messages over a run's scenario_end records; impossible thresholds refused
with a sentence and exit 2; the studio's optional --min-optimality."""

from __future__ import annotations

import json
import math

import pytest

from studio.cli.main import main
from studio.scenarios.gate import ThresholdError, Thresholds, check_thresholds


def ended(status: str, steps: int, cost: float = 0.0) -> dict:
    return {"type": "scenario_end", "scenarioId": f"s{steps}", "status": status, "steps": steps, "cost": cost}


def test_each_threshold_is_checked_with_the_seeds_message():
    results = [ended("success", 12, 0.1), ended("failure", 30, 0.9)]
    assert check_thresholds(results, Thresholds()) == [
        "Pass rate 0.5 below threshold 0.95",
        "Median steps 21 exceeds threshold 12",
        "P90 steps 28.2 exceeds threshold 20",
    ]  # average cost 0.50 is not above 0.50
    assert check_thresholds(results, Thresholds(max_cost_per_scenario=0.4))[-1] == (
        "Average cost $0.5 exceeds threshold $0.4")
    assert check_thresholds([ended("success", 6), ended("success", 8)], Thresholds()) == []


def write(path, records) -> str:
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return str(path)


def test_the_command_exits_1_on_a_violation_and_0_when_all_pass(tmp_path, capsys):
    run = [{"type": "run_start", "runId": "run_1", "scenarios": ["a", "b"]}]
    good = write(tmp_path / "good.jsonl", [*run, ended("success", 6), ended("success", 9)])
    assert main(["gate", good]) == 0 and capsys.readouterr().out.strip() == "All thresholds passed ✓"
    bad = write(tmp_path / "bad.jsonl", [*run, ended("success", 6), ended("failure", 40)])
    assert main(["gate", bad, "--max-p90-steps", "50", "--max-median-steps", "30"]) == 1
    assert capsys.readouterr().err == "Threshold violations:\nPass rate 0.5 below threshold 0.95\n"


def test_a_results_file_it_cannot_use_is_a_sentence(tmp_path, capsys):
    assert main(["gate", str(tmp_path / "missing.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type": "run_start"}\n{not json\n', encoding="utf-8")
    assert main(["gate", str(broken)]) == 2
    assert "line 2 is not JSON" in capsys.readouterr().err


def test_clean_removes_only_what_a_run_wrote(tmp_path, capsys):
    out = tmp_path / "out"
    (out / "sessions").mkdir(parents=True)
    (out / "artifacts" / "smoke-1").mkdir(parents=True)
    (out / "artifacts" / "smoke-2").mkdir(parents=True)
    for name in ("results.jsonl", "index.html", "sessions/authenticated.json", "notes.txt",
                 "artifacts/smoke-1/step-001.png", "artifacts/smoke-1/success.png", "artifacts/smoke-1/trace.zip",
                 "artifacts/smoke-2/success.html", "artifacts/smoke-2/mine.txt"):
        (out / name).write_text("x", encoding="utf-8")
    assert main(["clean", "--out", str(out), "--dry-run"]) == 0
    assert capsys.readouterr().out.count("would remove") == 7 and (out / "results.jsonl").exists()
    assert main(["clean", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["artifacts", "notes.txt"]
    assert [p.relative_to(out).as_posix() for p in (out / "artifacts").rglob("*")] == ["artifacts/smoke-2",
                                                                                       "artifacts/smoke-2/mine.txt"]
    assert "Removed 7 files" in capsys.readouterr().out


def test_the_ci_workflow_runs_validate_run_and_gate():
    from pathlib import Path

    import yaml

    workflow = yaml.safe_load((Path(__file__).resolve().parents[2] / "packaging" / "ci" / "goal-scenarios.yml")
                              .read_text(encoding="utf-8"))
    commands = " ".join(step.get("run", "") for step in workflow["jobs"]["scenarios"]["steps"])
    for needed in ("studio validate", "studio run", "--headless", "studio gate", "--min-pass-rate 0.95",
                   "--max-median-steps 12", "--max-p90-steps 20", "--max-cost-per-scenario 0.50"):
        assert needed in commands, needed
    uploaded = next(s for s in workflow["jobs"]["scenarios"]["steps"] if s.get("uses", "").startswith(
        "actions/upload-artifact"))
    assert uploaded["if"] == "always()" and "*.jsonl" in uploaded["with"]["path"]


def test_impossible_thresholds_are_refused_with_a_sentence(tmp_path, capsys):
    for wrong in ({"min_pass_rate": 1.1}, {"min_pass_rate": -0.1}, {"max_median_steps": -1}, {"max_p90_steps": -5},
                  {"max_cost_per_scenario": -0.01}, {"min_optimality": 1.5}, {"min_pass_rate": math.nan}):
        with pytest.raises(ThresholdError):
            Thresholds(**wrong)
    assert Thresholds(min_pass_rate=1, max_median_steps=0, min_optimality=0.75).min_optimality == 0.75
    good = write(tmp_path / "good.jsonl", [ended("success", 6), ended("success", 9)])
    share = "give a share of the scenarios from 0 to 1 (0.95 is 95 %)."
    refused = [("--min-pass-rate", "1.1", f"--min-pass-rate 1.1 is out of range: {share}"),
               ("--min-pass-rate", "95", "--min-pass-rate 95 is out of range"),
               ("--max-median-steps", "-3", "--max-median-steps -3 is out of range: give a number of steps, 0 or more."),
               ("--max-p90-steps", "nan", "--max-p90-steps nan is not a number"),
               ("--max-cost-per-scenario", "-1", "--max-cost-per-scenario -1 is out of range"),
               ("--min-optimality", "1.2", "--min-optimality 1.2 is out of range")]
    for flag, value, says in refused:
        assert main(["gate", good, flag, value]) == 2, flag
        err = capsys.readouterr().err
        assert err.startswith(f"error: {says}") and err.count("\n") == 1, err
    # a threshold is checked before the results: a typo is said even when the file is fine or missing
    assert main(["gate", str(tmp_path / "missing.jsonl"), "--min-pass-rate", "2"]) == 2
    assert "--min-pass-rate 2 is out of range" in capsys.readouterr().err


def test_the_studios_optimality_threshold_is_off_unless_given(tmp_path, capsys):
    def optimal(status: str, steps: int, optimality: float | None) -> dict:
        return {**ended(status, steps), "metrics": {"entropy": 1.0, "backtracks": 0, "optimality": optimality}}

    results = [optimal("success", 6, 0.5), optimal("success", 8, 0.6), optimal("failure", 9, None)]
    assert check_thresholds(results, Thresholds(min_pass_rate=0.5)) == []
    assert check_thresholds(results, Thresholds(min_pass_rate=0.5, min_optimality=0.75)) == [
        "Median optimality 0.55 below threshold 0.75"]
    assert check_thresholds([optimal("failure", 9, None)], Thresholds(min_pass_rate=0, min_optimality=0.75)) == [
        "Median optimality cannot be checked against threshold 0.75: no scenario_end record has metrics.optimality"]
    log = write(tmp_path / "run.jsonl", results)
    assert main(["gate", log, "--min-pass-rate", "0.5"]) == 0
    capsys.readouterr()
    assert main(["gate", log, "--min-pass-rate", "0.5", "--min-optimality", "0.75"]) == 1
    assert capsys.readouterr().err == "Threshold violations:\nMedian optimality 0.55 below threshold 0.75\n"
