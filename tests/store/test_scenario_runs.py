"""Goal scenario runs in the project file: a run's records come back in the order written, the history of a scenario
across runs oldest first, step screenshots by step, and a run whose process died is marked failed, saying so."""

from __future__ import annotations

import pytest

from studio.store.project import ProjectFile
from studio.store.scenario_runs import ScenarioRunStore


def end(scenario: str, status: str = "success") -> dict:
    return {"type": "scenario_end", "scenarioId": scenario, "status": status, "urlHistory": ["/a", "/b"]}


def test_records_history_and_shots_come_back_as_written(tmp_path):
    with ProjectFile.create(tmp_path / "p.studio") as project:
        store = ScenarioRunStore(project.db)
        store.start_run("run_1", "http://127.0.0.1:1", str(tmp_path / "run_1"), ["s1", "s2"])
        written = [{"type": "run_start", "runId": "run_1"}, {"type": "scenario_start", "scenarioId": "s1"},
                   {"type": "step", "scenarioId": "s1", "step": 1}, end("s1"), end("s2", "failure")]
        for record in written:
            store.add_record("run_1", record)
        store.end_run("run_1", "finished", 0.5, 3.2, "1 of 2")
        store.start_run("run_2", "http://127.0.0.1:1", "", ["s1"])
        store.add_record("run_2", end("s1", "failure"))
        shot = store.add_shot("run_1", "s1", 1, "artifacts/s1/step-001.png", b"\x89PNG one")

        assert store.records("run_1") == written
        assert store.records("run_1", "scenario_end") == written[3:]
        assert [(run, e["status"]) for run, e in store.ends("s1")] == [("run_1", "success"), ("run_2", "failure")]
        assert len(store.ends()) == 3
        assert store.run_bounds() == [written[0]]
        assert store.shots("run_1", "s1") == {1: shot} and store.shots("run_1", "s2") == {}
        assert store.shot_png(shot) == b"\x89PNG one" and store.shot_png(999) is None
        first, second = store.runs()
        assert (first.id, first.status, first.pass_rate, first.scenarios) == ("run_1", "finished", 0.5, ["s1", "s2"])
        assert second.status == "running"

        # run_2 holds no lease: its process is gone, so it is failed with a sentence; run_1 is left alone
        assert store.sweep_interrupted() == ["run_2"]
        assert store.runs()[1].status == "failed" and "interrupted" in store.runs()[1].message
        assert store.runs()[0].status == "finished"
        with pytest.raises(ValueError):
            store.end_run("run_1", "exploded", None, None)
