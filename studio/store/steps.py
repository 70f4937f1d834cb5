"""Recorded steps in the project file (schema 1.1): one row per step, the full step kept as JSON."""

from __future__ import annotations

from sqlite_utils import Database

from studio.models.recording import RecordedStep
from studio.store.row_decode import RowReader


def create_steps_table(db: Database) -> None:
    """Migration to 1.1: the `steps` table of the recorder."""
    db.execute(
        """
        CREATE TABLE steps (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL,
            idx INTEGER NOT NULL,
            at REAL NOT NULL,
            origin TEXT NOT NULL,
            action TEXT NOT NULL,
            url TEXT NOT NULL,
            ref TEXT,
            data TEXT NOT NULL,
            UNIQUE (session_id, idx)
        )
        """
    )
    db.execute("CREATE INDEX steps_session ON steps (session_id, idx)")


def insert_step(db: Database, step: RecordedStep) -> int:
    cursor = db.execute(
        "INSERT INTO steps (session_id, idx, at, origin, action, url, ref, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (step.session_id, step.index, step.at, step.origin, step.action, step.url, step.ref, step.model_dump_json()),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def select_steps(db: Database, session_id: str, rows: RowReader | None = None) -> list[RecordedStep]:
    """The session's steps in order; a damaged row is skipped and named in `rows`."""
    found = db.execute("SELECT id, data FROM steps WHERE session_id = ? ORDER BY idx", (session_id,)).fetchall()
    return (rows or RowReader()).models(RecordedStep, "steps", found)


def next_step_index(db: Database, session_id: str) -> int:
    row = db.execute("SELECT coalesce(max(idx), -1) + 1 FROM steps WHERE session_id = ?", (session_id,)).fetchone()
    return int(row[0])
