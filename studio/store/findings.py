"""Suspected defects in the project file, by key: the latest word on each (suspected, confirmed or dismissed, and
the case that checks the expected behaviour), so a defect the tester decided on is not asked about again when a
later job finds it once more. The job's own context_collection keeps its findings as they were reported."""

from __future__ import annotations

import time

from sqlite_utils import Database

from studio.models.context import Finding
from studio.store.row_decode import RowReader

TABLE = """
CREATE TABLE findings (
    key TEXT PRIMARY KEY, job_id TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL, case_id TEXT,
    updated_at REAL NOT NULL, data TEXT NOT NULL)
"""


def create_findings_table(db: Database) -> None:
    """Migration to 1.7: suspected defects and the tester's decisions on them."""
    db.execute(TABLE)


class FindingStore:
    """project.findings: the project's suspected defects by key, with the tester's decision (one write each)."""

    def __init__(self, db: Database, rows: RowReader | None = None) -> None:
        self.db = db
        self.rows = rows or RowReader()

    def save(self, key: str, job_id: str, finding: Finding) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT OR REPLACE INTO findings (key, job_id, kind, status, case_id, updated_at, data) "
                "VALUES (?,?,?,?,?,?,?)",
                (key, job_id, finding.kind, finding.status, finding.case_id, time.time() * 1000,
                 finding.model_dump_json()))

    def get(self, key: str) -> Finding | None:
        row = self.db.execute("SELECT key, data FROM findings WHERE key = ?", (key,)).fetchone()
        return self.rows.model(Finding, "findings", *row) if row else None

    def all(self, status: str | None = None) -> list[Finding]:
        sql, params = "SELECT key, data FROM findings", []
        if status is not None:
            sql += " WHERE status = ?"
            params.append(status)
        rows = self.db.execute(sql + " ORDER BY updated_at", params).fetchall()
        return self.rows.models(Finding, "findings", rows)
