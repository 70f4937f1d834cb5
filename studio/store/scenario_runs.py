"""Goal scenario runs in the project file (seed 004): each run, its JSONL records in order (the same objects the
run's results.jsonl holds, so `studio report` and the studio read one truth), and the screenshots its steps took.

A run started from the studio writes here as it goes (a record is in the file the moment it is written), so a
crashed or cancelled run keeps every scenario that finished; the run's folder beside the project holds the JSONL,
the HTML report and the traces, which are exports of what is here.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from studio.store.leases import JobLeases

TABLES = """
CREATE TABLE scenario_runs (
    id TEXT PRIMARY KEY, created_at REAL NOT NULL, updated_at REAL NOT NULL, status TEXT NOT NULL,
    base_url TEXT NOT NULL, folder TEXT NOT NULL DEFAULT '', scenarios TEXT NOT NULL, pass_rate REAL,
    duration REAL, message TEXT NOT NULL DEFAULT '');
CREATE TABLE scenario_records (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, type TEXT NOT NULL, scenario_id TEXT NOT NULL
    DEFAULT '', record TEXT NOT NULL);
CREATE INDEX scenario_records_run ON scenario_records (run_id, id);
CREATE TABLE scenario_shots (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, scenario_id TEXT NOT NULL, step INTEGER NOT NULL,
    name TEXT NOT NULL, png BLOB NOT NULL);
CREATE INDEX scenario_shots_run ON scenario_shots (run_id, scenario_id, step);
"""

RUN_STATUSES = ("running", "finished", "cancelled", "failed")


def create_scenario_tables(db: Database) -> None:
    """Migration: goal scenario runs, their records and their step screenshots (seed 004)."""
    for statement in TABLES.strip().split(";"):
        if statement.strip():
            db.execute(statement)


@dataclass(frozen=True)
class ScenarioRun:
    id: str
    created_at: float
    status: str  # running | finished | cancelled | failed
    base_url: str
    folder: str  # where the run's JSONL, report and traces are
    scenarios: list[str]
    pass_rate: float | None = None
    duration: float | None = None
    message: str = ""


class ScenarioRunStore:
    """`ScenarioRunStore(project.db)`: runs oldest first, each run's records in the order they were written."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def start_run(self, run_id: str, base_url: str, folder: str, scenarios: list[str]) -> ScenarioRun:
        now = time.time()
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO scenario_runs (id, created_at, updated_at, status, base_url, folder, scenarios)"
                " VALUES (?,?,?,?,?,?,?)", (run_id, now, now, "running", base_url, folder, json.dumps(scenarios)))
        return ScenarioRun(run_id, now, "running", base_url, folder, scenarios)

    def end_run(self, run_id: str, status: str, pass_rate: float | None, duration: float | None,
                message: str = "") -> None:
        if status not in RUN_STATUSES:
            raise ValueError(f"unknown run status {status!r}")
        with self.db.atomic():
            self.db.execute("UPDATE scenario_runs SET status = ?, pass_rate = ?, duration = ?, message = ?,"
                            " updated_at = ? WHERE id = ?", (status, pass_rate, duration, message, time.time(),
                                                             run_id))

    def add_record(self, run_id: str, record: dict[str, Any]) -> None:
        with self.db.atomic():
            self.db.execute("INSERT INTO scenario_records (run_id, type, scenario_id, record) VALUES (?,?,?,?)",
                            (run_id, str(record.get("type", "")), str(record.get("scenarioId", "")),
                             json.dumps(record, ensure_ascii=False)))

    def add_shot(self, run_id: str, scenario_id: str, step: int, name: str, png: bytes) -> int:
        with self.db.atomic():
            cursor = self.db.execute("INSERT INTO scenario_shots (run_id, scenario_id, step, name, png)"
                                     " VALUES (?,?,?,?,?)", (run_id, scenario_id, step, name, png))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def runs(self) -> list[ScenarioRun]:
        rows = self.db.execute("SELECT id, created_at, status, base_url, folder, scenarios, pass_rate, duration,"
                               " message FROM scenario_runs ORDER BY created_at, id").fetchall()
        return [ScenarioRun(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7], r[8]) for r in rows]

    def records(self, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        sql, params = "SELECT record FROM scenario_records WHERE run_id = ?", [run_id]
        if kind is not None:
            sql += " AND type = ?"
            params.append(kind)
        return [json.loads(row[0]) for row in self.db.execute(sql + " ORDER BY id", params)]

    def run_bounds(self) -> list[dict[str, Any]]:
        """The run_start and run_end records of every run (where a run's navigation graph is), in one query."""
        rows = self.db.execute("SELECT record FROM scenario_records WHERE type IN ('run_start', 'run_end') ORDER BY id")
        return [json.loads(row[0]) for row in rows]

    def ends(self, scenario_id: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """(run id, scenario_end record) of every run, oldest first: the history the path tree and trends draw."""
        sql = ("SELECT r.run_id, r.record FROM scenario_records r JOIN scenario_runs s ON s.id = r.run_id"
               " WHERE r.type = 'scenario_end'")
        params: list[Any] = []
        if scenario_id is not None:
            sql += " AND r.scenario_id = ?"
            params.append(scenario_id)
        return [(row[0], json.loads(row[1])) for row in self.db.execute(sql + " ORDER BY s.created_at, r.id", params)]

    def shots(self, run_id: str, scenario_id: str) -> dict[int, int]:
        """step number -> screenshot id of one scenario in one run (0: the end screenshot)."""
        rows = self.db.execute("SELECT step, id FROM scenario_shots WHERE run_id = ? AND scenario_id = ? ORDER BY id",
                               (run_id, scenario_id))
        return {step: shot_id for step, shot_id in rows}

    def shot_png(self, shot_id: int) -> bytes | None:
        row = self.db.execute("SELECT png FROM scenario_shots WHERE id = ?", (shot_id,)).fetchone()
        return bytes(row[0]) if row else None

    def sweep_interrupted(self) -> list[str]:
        """Runs still marked running whose process is gone become failed, saying so; returns their ids."""
        leases = JobLeases(self.db)
        swept = []
        for run in self.runs():
            if run.status == "running" and leases.holder(run.id) is None:
                self.end_run(run.id, "failed", run.pass_rate, run.duration,
                             "The run was interrupted: the process running it stopped. The scenarios that finished "
                             "are kept; run the others again.")
                swept.append(run.id)
        return swept
