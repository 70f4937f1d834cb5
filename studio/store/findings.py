"""Suspected defects in the project file, by key: the latest word on each (suspected, confirmed or dismissed, and
the case that checks the expected behaviour), so a defect the tester decided on is not asked about again when a
later job finds it once more. The job's own context_collection keeps its findings as they were reported."""

from __future__ import annotations

import time

from sqlite_utils import Database

from studio.models.context import Finding

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

    def __init__(self, db: Database) -> None:
        self.db = db

    def save(self, key: str, job_id: str, finding: Finding) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT OR REPLACE INTO findings (key, job_id, kind, status, case_id, updated_at, data) "
                "VALUES (?,?,?,?,?,?,?)",
                (key, job_id, finding.kind, finding.status, finding.case_id, time.time() * 1000,
                 finding.model_dump_json()))

    def get(self, key: str) -> Finding | None:
        row = self.db.execute("SELECT data FROM findings WHERE key = ?", (key,)).fetchone()
        return Finding.model_validate_json(row[0]) if row else None

    def all(self, status: str | None = None) -> list[Finding]:
        sql, params = "SELECT data FROM findings", []
        if status is not None:
            sql += " WHERE status = ?"
            params.append(status)
        rows = self.db.execute(sql + " ORDER BY updated_at", params).fetchall()
        return [Finding.model_validate_json(row[0]) for row in rows]
