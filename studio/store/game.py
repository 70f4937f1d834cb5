"""Game evaluations in the project file (seed 002): the runs, their control_discoveries, agent_actions and
decision_log, the evaluation scores (5 metrics + overall per run) and the evidence (screenshots and logs).

Seed 002 keeps these in three places (D1, the Durable Object's SQL, R2); here they are tables of the one project
file. Every write is one transaction, so a screenshot taken during play is in the file the moment it is taken.
"""

from __future__ import annotations

import json
import time

from sqlite_utils import Database

from studio.models.game import (
    METRIC_WEIGHTS,
    OVERALL,
    AgentAction,
    ControlDiscovery,
    DecisionEntry,
    EvidenceShot,
    GameRun,
    MetricScore,
    PhaseKey,
)
from studio.store.leases import JobLeases

TABLES = """
CREATE TABLE game_runs (
    id TEXT PRIMARY KEY, url TEXT NOT NULL, status TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL,
    overall_score INTEGER, message TEXT NOT NULL DEFAULT '', data TEXT NOT NULL);
CREATE INDEX game_runs_url ON game_runs (url, created_at);
CREATE TABLE control_discoveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, element_selector TEXT NOT NULL,
    action_type TEXT NOT NULL, confidence REAL NOT NULL, discovered_at INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX control_discoveries_run ON control_discoveries (run_id, id);
CREATE TABLE agent_actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, timestamp INTEGER NOT NULL, action TEXT NOT NULL,
    reasoning TEXT NOT NULL, outcome TEXT, phase TEXT NOT NULL, target TEXT NOT NULL DEFAULT '');
CREATE INDEX agent_actions_run ON agent_actions (run_id, id);
CREATE TABLE decision_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, timestamp INTEGER NOT NULL, decision TEXT NOT NULL,
    context TEXT NOT NULL, ai_model TEXT);
CREATE INDEX decision_log_run ON decision_log (run_id, id);
CREATE TABLE evaluation_scores (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, metric_name TEXT NOT NULL, score INTEGER NOT NULL,
    weight INTEGER NOT NULL, justification TEXT NOT NULL, created_at REAL NOT NULL, UNIQUE (run_id, metric_name));
CREATE TABLE game_evidence (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, kind TEXT NOT NULL, phase TEXT NOT NULL,
    name TEXT NOT NULL, at REAL NOT NULL, width INTEGER, height INTEGER, content BLOB NOT NULL);
CREATE INDEX game_evidence_run ON game_evidence (run_id, kind, id);
"""


def create_game_tables(db: Database) -> None:
    """Migration: game evaluation runs and what they keep (seed 002)."""
    for statement in TABLES.strip().split(";"):
        if statement.strip():
            db.execute(statement)


class GameStore:
    """Game runs and their rows in one project file; `GameStore(project.db)`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- runs ------------------------------------------------------------------------------------------------------

    def save_run(self, run: GameRun) -> GameRun:
        run = run.model_copy(update={"updated_at": time.time() * 1000})
        with self.db.atomic():
            self.db.execute(
                "INSERT OR REPLACE INTO game_runs (id, url, status, created_at, updated_at, overall_score, message,"
                " data) VALUES (?,?,?,?,?,?,?,?)",
                (run.id, run.url, run.status, run.created_at, run.updated_at, run.overall_score, run.message,
                 run.model_dump_json()))
        return run

    def run(self, run_id: str) -> GameRun | None:
        row = self.db.execute("SELECT data FROM game_runs WHERE id = ?", (run_id,)).fetchone()
        return GameRun.model_validate_json(row[0]) if row else None

    def runs(self, url: str | None = None) -> list[GameRun]:
        """Every run (of one game URL when given), oldest first: the history a chart draws."""
        sql, params = "SELECT data FROM game_runs", []
        if url is not None:
            sql += " WHERE url = ?"
            params.append(url)
        return [GameRun.model_validate_json(row[0]) for row in self.db.execute(sql + " ORDER BY created_at", params)]

    def sweep_interrupted(self) -> list[GameRun]:
        """Runs saved as queued or running whose process is gone become failed, saying so; returns them."""
        leases = JobLeases(self.db)
        swept = []
        for run in self.runs():
            if run.status not in ("queued", "running") or leases.holder(run.id) is not None:
                continue
            when = time.strftime("%H:%M:%S", time.localtime(run.updated_at / 1000))
            message = (f"The evaluation was interrupted: the process running it stopped without finishing "
                       f"(last saved at {when}). What it found is kept; run it again for scores.")
            swept.append(self.save_run(run.model_copy(update={"status": "failed", "end_reason": "failed",
                                                              "message": message,
                                                              "errors": [*run.errors, message]})))
        return swept

    # -- per-run rows ----------------------------------------------------------------------------------------------

    def add_control(self, run_id: str, control: ControlDiscovery) -> int:
        with self.db.atomic():
            cursor = self.db.execute(
                "INSERT INTO control_discoveries (run_id, element_selector, action_type, confidence, discovered_at,"
                " data) VALUES (?,?,?,?,?,?)",
                (run_id, control.element_selector, control.action_type, control.confidence,
                 int(control.discovered_at), control.model_dump_json(exclude={"id"})))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def controls(self, run_id: str) -> list[ControlDiscovery]:
        rows = self.db.execute("SELECT id, data FROM control_discoveries WHERE run_id = ? ORDER BY id", (run_id,))
        return [ControlDiscovery.model_validate({**json.loads(data), "id": row_id}) for row_id, data in rows]

    def add_action(self, run_id: str, action: AgentAction) -> int:
        with self.db.atomic():
            cursor = self.db.execute(
                "INSERT INTO agent_actions (run_id, timestamp, action, reasoning, outcome, phase, target)"
                " VALUES (?,?,?,?,?,?,?)",
                (run_id, int(action.timestamp), action.action, action.reasoning, action.outcome, action.phase,
                 action.target))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def actions(self, run_id: str) -> list[AgentAction]:
        rows = self.db.execute("SELECT id, timestamp, action, reasoning, outcome, phase, target FROM agent_actions"
                               " WHERE run_id = ? ORDER BY id", (run_id,))
        keys = ("id", "timestamp", "action", "reasoning", "outcome", "phase", "target")
        return [AgentAction.model_validate(dict(zip(keys, row))) for row in rows]

    def add_decision(self, run_id: str, entry: DecisionEntry) -> int:
        with self.db.atomic():
            cursor = self.db.execute(
                "INSERT INTO decision_log (run_id, timestamp, decision, context, ai_model) VALUES (?,?,?,?,?)",
                (run_id, int(entry.timestamp), entry.decision, entry.context, entry.ai_model))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def decisions(self, run_id: str) -> list[DecisionEntry]:
        rows = self.db.execute("SELECT id, timestamp, decision, context, ai_model FROM decision_log"
                               " WHERE run_id = ? ORDER BY id", (run_id,))
        keys = ("id", "timestamp", "decision", "context", "ai_model")
        return [DecisionEntry.model_validate(dict(zip(keys, row))) for row in rows]

    # -- scores ----------------------------------------------------------------------------------------------------

    def save_scores(self, run_id: str, metrics: list[MetricScore], overall: int, overall_note: str) -> None:
        """The five metric rows and the overall row (6 rows), replacing any earlier ones of the run."""
        now = time.time() * 1000
        with self.db.atomic():
            self.db.execute("DELETE FROM evaluation_scores WHERE run_id = ?", (run_id,))
            for metric in metrics:
                self.db.execute(
                    "INSERT INTO evaluation_scores (run_id, metric_name, score, weight, justification, created_at)"
                    " VALUES (?,?,?,?,?,?)",
                    (run_id, metric.name, metric.score, METRIC_WEIGHTS[metric.name], metric.justification, now))
            self.db.execute(
                "INSERT INTO evaluation_scores (run_id, metric_name, score, weight, justification, created_at)"
                " VALUES (?,?,?,?,?,?)", (run_id, OVERALL, overall, 100, overall_note, now))

    def scores(self, run_id: str) -> dict[str, tuple[int, str]]:
        """metric name (and "overall") -> (score, justification)."""
        rows = self.db.execute("SELECT metric_name, score, justification FROM evaluation_scores WHERE run_id = ?"
                               " ORDER BY id", (run_id,))
        return {name: (score, text) for name, score, text in rows}

    # -- evidence --------------------------------------------------------------------------------------------------

    def add_screenshot(self, run_id: str, phase: PhaseKey, name: str, png: bytes, width: int, height: int,
                       at: float | None = None) -> EvidenceShot:
        at = time.time() * 1000 if at is None else at
        with self.db.atomic():
            cursor = self.db.execute(
                "INSERT INTO game_evidence (run_id, kind, phase, name, at, width, height, content)"
                " VALUES (?, 'screenshot', ?, ?, ?, ?, ?, ?)", (run_id, phase, name, at, width, height, png))
        assert cursor.lastrowid is not None
        return EvidenceShot(id=cursor.lastrowid, run_id=run_id, phase=phase, name=name, at=at, width=width,
                            height=height, size_bytes=len(png))

    def screenshots(self, run_id: str) -> list[EvidenceShot]:
        rows = self.db.execute(
            "SELECT id, run_id, phase, name, at, width, height, length(content) FROM game_evidence"
            " WHERE run_id = ? AND kind = 'screenshot' ORDER BY id", (run_id,))
        keys = ("id", "run_id", "phase", "name", "at", "width", "height", "size_bytes")
        return [EvidenceShot.model_validate(dict(zip(keys, row))) for row in rows]

    def screenshot_png(self, shot_id: int) -> bytes:
        row = self.db.execute("SELECT content FROM game_evidence WHERE id = ? AND kind = 'screenshot'",
                              (shot_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game screenshot with id {shot_id}")
        return bytes(row[0])

    def add_log(self, run_id: str, phase: PhaseKey, name: str, text: str) -> None:
        """A log flushed at the end of a run (console.log, network.log, agent-decisions.log)."""
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO game_evidence (run_id, kind, phase, name, at, content) VALUES (?, 'log', ?, ?, ?, ?)",
                (run_id, phase, name, time.time() * 1000, text.encode("utf-8")))

    def logs(self, run_id: str) -> dict[str, str]:
        rows = self.db.execute("SELECT name, content FROM game_evidence WHERE run_id = ? AND kind = 'log'"
                               " ORDER BY id", (run_id,))
        return {name: bytes(content).decode("utf-8") for name, content in rows}
