"""A shared project file with a planted trigger (issue 21, point 9): it is refused on open, naming what the studio
did not make, the file is left as it was, and a clean copy keeps every recorded step while the trigger is gone."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from studio.models.context import JobRecord
from studio.models.recording import RecordedStep
from studio.store import ProjectFile
from studio.store.errors import ForeignSchemaError

PLANTS = {
    "trigger": "CREATE TRIGGER wipe_steps AFTER INSERT ON jobs BEGIN DELETE FROM steps; END",
    "view": "CREATE VIEW everything AS SELECT * FROM steps",
    "column": "ALTER TABLE jobs ADD COLUMN payload TEXT",
    "table": "CREATE TABLE stash (x)",
    "changed index": "DROP INDEX jobs_status; CREATE INDEX jobs_status ON jobs (kind) WHERE status = 'running'",
    "internal-looking trigger": "PRAGMA writable_schema = ON; INSERT INTO sqlite_master VALUES ('trigger', "
                                "'sqlite_evil', 'jobs', 0, 'CREATE TRIGGER sqlite_evil AFTER INSERT ON jobs BEGIN "
                                "DELETE FROM steps; END'); PRAGMA writable_schema = OFF",
}


def _project_with_steps(path: Path, count: int = 8) -> None:
    with ProjectFile.create(path) as project:
        for index in range(count):
            project.add_step(RecordedStep(session_id="s1", index=index, at=float(index), action="click",
                                          url="http://127.0.0.1/app", ref=f"e{index}"))


def _plant(path: Path, sql: str) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(sql)
    conn.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _job() -> JobRecord:
    return JobRecord(id="j1", kind="preflight", status="running", request="", created_at=1, updated_at=1)


def test_a_planted_trigger_is_refused_by_name_and_the_file_is_left_unchanged(tmp_path):
    path = tmp_path / "shared.studio"
    _project_with_steps(path)
    _plant(path, PLANTS["trigger"])
    before = _digest(path)
    with pytest.raises(ForeignSchemaError) as refused:
        ProjectFile.open(path)
    message = str(refused.value)
    assert "trigger wipe_steps on jobs" in message and "studio clean-copy" in message
    assert _digest(path) == before and not path.with_name(path.name + "-wal").exists()


@pytest.mark.parametrize("kind", sorted(PLANTS))
def test_whatever_was_planted_is_named_and_a_clean_copy_keeps_every_step(tmp_path, kind):
    path = tmp_path / "shared.studio"
    _project_with_steps(path)
    _plant(path, PLANTS[kind])
    before = _digest(path)
    with pytest.raises(ForeignSchemaError):
        ProjectFile.open(path, writable=False)

    done = subprocess.run([sys.executable, "-m", "studio", "clean-copy", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    copy = tmp_path / "shared-clean.studio"
    assert str(copy) in done.stdout and "is unchanged" in done.stdout
    assert _digest(path) == before
    with ProjectFile.open(copy) as project:
        project.jobs.save(_job())  # what would have fired the trigger
        assert len(project.steps("s1")) == 8
        kinds = {row[0] for row in project.db.execute("SELECT type FROM sqlite_master")}
        assert not kinds & {"trigger", "view"}


def test_the_schema_is_not_trusted_with_functions(tmp_path):
    path = tmp_path / "p.studio"
    with ProjectFile.create(path) as project:
        assert project.db.execute("PRAGMA trusted_schema").fetchone()[0] == 0


def test_a_clean_file_is_copied_as_it_is(tmp_path):
    path = tmp_path / "mine.studio"
    _project_with_steps(path, 3)
    done = subprocess.run([sys.executable, "-m", "studio", "clean-copy", str(path), "--out", str(tmp_path / "c.studio")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "holds nothing" in done.stdout
    with ProjectFile.open(tmp_path / "c.studio") as project:
        assert len(project.steps("s1")) == 3
