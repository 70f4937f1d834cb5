"""`studio game` as a user runs it: the seed's result shapes with --json, the exit codes (0 completed, 1 failed with
the translated sentence, 2 bad input before anything runs), and the run recorded in the project file."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from studio.game import errors
from studio.store.game import GameStore
from studio.store.project import ProjectFile

pytestmark = [pytest.mark.browser]


def studio(*args, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


def test_bad_input_is_refused_with_a_sentence_before_anything_runs(tmp_path):
    project = tmp_path / "bad.studio"
    for url, said in (("file:///etc/passwd", "is not a web address"), ("javascript:alert(1)", "is not a web address"),
                      ("ftp://example.com/game", "is not a web address")):
        done = studio("game", url, "--project", project)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
    schema = tmp_path / "schema.json"
    for text, said in (('{"controls": {"movement": ["Warp"]}}', "not a key name"),
                       ('{"controls": [1, 2]', "not valid JSON"),
                       ('{"cheats": true}', "is not a field of the input schema"),
                       (json.dumps({"objectives": "x" * 11000}), "larger than the 10 KB limit")):
        schema.write_text(text)
        done = studio("game", "http://127.0.0.1:9/", "--project", project, "--input-schema", schema)
        assert done.returncode == 2 and said in done.stderr, (text[:40], done.stderr)
    done = studio("game", "http://127.0.0.1:9/", "--project", project, "--max-seconds", "nan")
    assert done.returncode == 2 and "finite number" in done.stderr
    assert not project.exists() or GameStore(ProjectFile.open(project).db).runs() == []


def test_a_missing_game_fails_with_the_seeds_sentence_and_its_partial_scores(tmp_path, demo):
    project = tmp_path / "missing.studio"
    done = studio("game", demo.base_url + "/arcade/nothing-here", "--project", project, "--json", "--quiet")
    assert done.returncode == 1, done.stderr
    assert errors.NOT_ACCESSIBLE in done.stderr and "Traceback" not in done.stderr
    result = json.loads(done.stdout)
    assert set(result) >= {"runId", "phase1", "phase2", "phase3", "phase4"}
    assert result["phase1"]["success"] is False and result["phase4"]["metrics"]
    with ProjectFile.open(project) as opened:
        assert GameStore(opened.db).run(result["runId"]).status == "failed"


@pytest.mark.timeout(240)
@pytest.mark.slow
def test_a_game_is_evaluated_and_printed_in_the_seeds_shapes(tmp_path, demo):
    project = tmp_path / "comet.studio"
    done = studio("game", demo.base_url + "/arcade/comet?seed=1", "--project", project, "--json", "--seed", "1",
                  "--max-seconds", "30")
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result["status"] == "completed"
    assert set(result["phase1"]) == {"success", "requiresInteraction", "errors"}
    assert set(result["phase2"]) == {"success", "controls", "hypothesis"}
    assert set(result["phase3"]) == {"success", "screenshotCount", "errors", "actionsTaken"}
    assert set(result["phase4"]) == {"success", "overallScore", "metrics"}
    assert [m["name"] for m in result["phase4"]["metrics"]] == ["load", "visual", "controls", "playability",
                                                                  "technical"]
    events = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    assert events[0]["type"] == "game_status" and events[-1]["type"] == "game_run_completed"
    with ProjectFile.open(project) as opened:
        store = GameStore(opened.db)
        assert len(store.scores(result["runId"])) == 6
    human = studio("game", demo.base_url + "/arcade/comet?seed=1", "--project", project, "--quiet",
                   "--max-seconds", "20")
    assert human.returncode == 0, human.stderr[-2000:]
    assert "Overall" in human.stdout and "Phase 1" in human.stdout and "Load & Validation" in human.stdout
