"""`studio demo --out DIR` owns DIR for its whole run: a second demo into the same folder is refused with a sentence
and touches nothing, and a project file that cannot be created is a sentence too. Real subprocesses and files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.store.project import ProjectFile
from tests.permissions import as_user, needs_enforced_permissions

pytestmark = pytest.mark.browser


def start_demo(out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "studio", "demo", "--headless", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)


def finish(process: subprocess.Popen) -> tuple[int, str]:
    _out, err = process.communicate(timeout=300)
    return process.returncode, err


def assert_recorded_by(out: Path, summary: dict) -> None:
    """demo.studio holds exactly the run that summary.json describes."""
    assert summary["project"] == str((out / "demo.studio").resolve())
    with ProjectFile.open(out / "demo.studio") as project:
        runs = project.run_summaries()
        assert [run.session_id for run in runs] == [summary["session_id"]]
        assert project.counts(summary["session_id"])["screenshots"] == summary["screenshots"] > 0


@pytest.mark.slow
def test_two_demos_started_together_into_one_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first, second = start_demo(out), start_demo(out)
    results = {first.pid: finish(first), second.pid: finish(second)}
    codes = sorted(code for code, _err in results.values())
    assert codes == [0, 2], {pid: (code, err[-1500:]) for pid, (code, err) in results.items()}
    winner = next(pid for pid, (code, _err) in results.items() if code == 0)
    refused = next(err for code, err in results.values() if code == 2)
    assert "Traceback" not in refused
    assert f"Another studio demo (pid {winner}) is writing to {out}" in refused and "--out" in refused
    summary = json.loads((out / "summary.json").read_text())
    assert_recorded_by(out, summary)
    assert not (out / "demo.previous.studio").exists()  # the refused run renamed nothing

    # Once the folder is free again, the next demo runs there and keeps the earlier project beside its own.
    code, err = finish(start_demo(out))
    assert code == 0, err[-1500:]
    newer = json.loads((out / "summary.json").read_text())
    assert_recorded_by(out, newer)
    with ProjectFile.open(out / "demo.previous.studio") as previous:
        assert [run.session_id for run in previous.run_summaries()] == [summary["session_id"]]


@needs_enforced_permissions
def test_a_project_file_the_demo_cannot_create_is_a_sentence(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / ".studio-demo.lock").touch(mode=0o666)  # left by an earlier run
    os.chmod(out / ".studio-demo.lock", 0o666)
    out.chmod(0o555)  # then the folder became read-only
    try:
        done = subprocess.run(as_user(sys.executable, "-m", "studio", "demo", "--headless", "--out", str(out)),
                              capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    finally:
        out.chmod(0o755)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert str(out / "demo.studio") in done.stderr and "writable" in done.stderr
    assert sorted(p.name for p in out.iterdir()) == [".studio-demo.lock"]
