"""Suites and cases in the project file; every save of a case is a new version with a summary."""

from __future__ import annotations

import time

from sqlite_utils import Database

from studio.models.testcase import CaseVersion, Origin, TestCase, TestSuite
from studio.store.row_decode import RowReader


class CaseStore:
    """project.cases: read and write suites and versioned cases (one transaction per save)."""

    def __init__(self, db: Database, rows: RowReader | None = None) -> None:
        self.db = db
        self.rows = rows or RowReader()  # a damaged row is skipped and named, never a traceback

    # -- suites ----------------------------------------------------------------------------------

    def save_suite(self, suite: TestSuite) -> TestSuite:
        with self.db.atomic():
            self.db.execute(
                "INSERT OR REPLACE INTO suites (id, title, module, created_at, updated_at, data) VALUES (?,?,?,?,?,?)",
                (suite.id, suite.title, suite.module, suite.created_at, suite.updated_at, suite.model_dump_json()))
        return suite

    def suites(self) -> list[TestSuite]:
        rows = self.db.execute("SELECT id, data FROM suites ORDER BY created_at, id").fetchall()
        return self.rows.models(TestSuite, "suites", rows)

    def suite(self, suite_id: str) -> TestSuite | None:
        row = self.db.execute("SELECT id, data FROM suites WHERE id = ?", (suite_id,)).fetchone()
        return self.rows.model(TestSuite, "suites", *row) if row else None

    # -- cases -----------------------------------------------------------------------------------

    def save_case(self, case: TestCase, author: Origin, summary: str) -> TestCase:
        """Store `case` as its next version (version 1 when new) and return what was stored."""
        with self.db.atomic():
            row = self.db.execute("SELECT max(version) FROM case_versions WHERE case_id = ?", (case.id,)).fetchone()
            version = (row[0] or 0) + 1
            stored = case.model_copy(update={"version": version, "updated_at": time.time() * 1000})
            data = stored.model_dump_json()
            self.db.execute(
                "INSERT OR REPLACE INTO cases (id, suite_id, title, status, priority, origin, version, updated_at,"
                " data) VALUES (?,?,?,?,?,?,?,?,?)",
                (stored.id, stored.suite_id, stored.title, stored.status, stored.priority, stored.origin, version,
                 stored.updated_at, data))
            self.db.execute(
                "INSERT INTO case_versions (case_id, version, at, author, summary, data) VALUES (?,?,?,?,?,?)",
                (stored.id, version, stored.updated_at, author, summary, data))
        return stored

    def save_cases(self, changes: list[tuple[TestCase, Origin, str]]) -> list[TestCase]:
        """Store several cases' next versions in one transaction (a bulk decision is all or nothing)."""
        with self.db.atomic():
            return [self.save_case(case, author, summary) for case, author, summary in changes]

    def cases(self, suite_id: str | None = None, status: str | None = None) -> list[TestCase]:
        sql, params = "SELECT id, data FROM cases WHERE 1=1", []
        if suite_id is not None:
            sql += " AND suite_id = ?"
            params.append(suite_id)
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        rows = self.db.execute(sql + " ORDER BY rowid", params).fetchall()
        return self.rows.models(TestCase, "cases", rows)

    def case(self, case_id: str) -> TestCase | None:
        row = self.db.execute("SELECT id, data FROM cases WHERE id = ?", (case_id,)).fetchone()
        return self.rows.model(TestCase, "cases", *row) if row else None

    def history(self, case_id: str) -> list[CaseVersion]:
        rows = self.db.execute(
            "SELECT id, version, at, author, summary, data FROM case_versions WHERE case_id = ? ORDER BY version",
            (case_id,)).fetchall()
        versions: list[CaseVersion] = []
        for row_id, v, at, a, s, d in rows:
            case = self.rows.model(TestCase, "case_versions", row_id, d)
            entry = None if case is None else self.rows.fields(CaseVersion, "case_versions", row_id, {
                "case_id": case_id, "version": v, "at": at, "author": a, "summary": s, "case": case})
            if entry is not None:
                versions.append(entry)
        return versions

    def delete_case(self, case_id: str) -> None:
        """Remove a case from the current set; its versions stay as history."""
        with self.db.atomic():
            self.db.execute("DELETE FROM cases WHERE id = ?", (case_id,))
