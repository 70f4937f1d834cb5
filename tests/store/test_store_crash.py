"""A process killed while recording loses nothing it had committed, and the file opens cleanly afterwards."""

from __future__ import annotations

import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from studio.models.events import NavigationEvent
from studio.store import ProjectFile

SCRIPT = Path(__file__).with_name("record_until_killed.py")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_while_recording_loses_no_committed_event(tmp_path: Path) -> None:
    path = tmp_path / "crash.studio"
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    last = 0
    try:
        for line in proc.stdout:
            last = int(line)
            if last >= 200:
                break
    finally:
        proc.kill()  # SIGKILL: no atexit, no close(), no checkpoint
        rest, errors = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    # Every line printed was printed after its commit, including the ones still in the pipe.
    last = max([last, *(int(line) for line in rest.split())])
    assert last >= 200, errors

    with ProjectFile.open(path) as project:
        assert project.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        navigations = project.navigations("s1")
        assert len(navigations) >= last
        assert [n.url for n in navigations[:last]] == [f"http://127.0.0.1/page/{i}" for i in range(last)]
        assert project.counts("s1")["screenshots"] >= last // 5
        assert project.sessions()[0].running

    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_a_project_killed_before_its_first_checkpoint_opens_with_everything(tmp_path: Path) -> None:
    # Copying the file and its -wal while the project is open is the state a crash leaves behind: the main file
    # still has a blank header and every row lives in the -wal.
    live = tmp_path / "live.studio"
    crashed = tmp_path / "crashed.studio"
    with ProjectFile.create(live) as project:
        for i in range(50):
            project.record(NavigationEvent(session_id="s1", url=f"http://127.0.0.1/{i}"))
        shutil.copyfile(live, crashed)
        shutil.copyfile(f"{live}-wal", f"{crashed}-wal")

    with ProjectFile.open(crashed) as project:
        assert len(project.navigations("s1")) == 50
    assert not Path(f"{crashed}-wal").exists()
