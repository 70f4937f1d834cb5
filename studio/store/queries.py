"""Read a project file's evidence back as pydantic read models, oldest first."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlite_utils import Database

from studio.store.row_decode import RowReader

from studio.models.events import CANCELLED_REQUEST
from studio.models.project import (
    ConsoleRecord,
    NavigationRecord,
    NetworkRecord,
    NoticeRecord,
    RunSummary,
    ScreenshotRecord,
    SessionRecord,
)


# Kept in step with NetworkEvent.failed: a request the page or a navigation cancelled is not a failure.
FAILED_REQUEST_SQL = f"((failure IS NOT NULL AND failure != '{CANCELLED_REQUEST}') OR status >= 400)"


# Each reader takes the project's RowReader: a row whose columns someone else filled with the wrong types is
# skipped and named (table and id) rather than ending the command in a validation traceback.


def sessions(db: Database, rows: RowReader | None = None) -> list[SessionRecord]:
    """Every session, in the order they started (sessions known only from their end come last)."""
    found = db.query("SELECT * FROM sessions ORDER BY started_at IS NULL, started_at, rowid")
    return [record for row in found if (record := _session_record(row, rows)) is not None]


def session(db: Database, session_id: str, rows: RowReader | None = None) -> SessionRecord | None:
    """One session by id, or None."""
    row = next(db.query("SELECT * FROM sessions WHERE id = ?", [session_id]), None)
    return None if row is None else _session_record(row, rows)


def _session_record(row: dict[str, Any], rows: RowReader | None) -> SessionRecord | None:
    width, height = row.pop("viewport_w"), row.pop("viewport_h")
    row["viewport"] = (width, height) if width is not None and height is not None else None
    return (rows or RowReader()).fields(SessionRecord, "sessions", row.get("id"), row)


def _read(rows: RowReader | None, model: Any, table: str, found: Iterable[dict[str, Any]]) -> list[Any]:
    reader = rows or RowReader()
    return [r for row in found if (r := reader.fields(model, table, row.get("id"), row)) is not None]


def navigations(db: Database, session_id: str, rows: RowReader | None = None) -> list[NavigationRecord]:
    found = db.query(
        "SELECT id, session_id, at, url, title FROM navigations WHERE session_id = ? ORDER BY at, id",
        [session_id],
    )
    return _read(rows, NavigationRecord, "navigations", found)


def console(db: Database, session_id: str, kinds: Iterable[str] | None = None,
            rows: RowReader | None = None) -> list[ConsoleRecord]:
    sql = "SELECT id, session_id, at, kind, level, text, url, line FROM console_events WHERE session_id = ?"
    params: list[object] = [session_id]
    if kinds is not None:
        wanted = list(kinds)
        sql += f" AND kind IN ({', '.join('?' for _ in wanted)})" if wanted else " AND 0"
        params += wanted
    return _read(rows, ConsoleRecord, "console_events", db.query(sql + " ORDER BY at, id", params))


def network(db: Database, session_id: str, failed_only: bool = False,
            rows: RowReader | None = None) -> list[NetworkRecord]:
    sql = (
        "SELECT id, session_id, at, method, url, resource_type, status, failure, duration_ms"
        " FROM network_events WHERE session_id = ?"
    )
    if failed_only:
        sql += f" AND {FAILED_REQUEST_SQL}"
    return _read(rows, NetworkRecord, "network_events", db.query(sql + " ORDER BY at, id", [session_id]))


def screenshots(db: Database, session_id: str, rows: RowReader | None = None) -> list[ScreenshotRecord]:
    # length() reads the blob's size from the record header without loading the PNG.
    found = db.query(
        "SELECT id, session_id, at, label, url, width, height, length(png) AS size_bytes"
        " FROM screenshots WHERE session_id = ? ORDER BY at, id",
        [session_id],
    )
    return _read(rows, ScreenshotRecord, "screenshots", found)


def screenshot_png(db: Database, screenshot_id: int) -> bytes:
    row = db.execute("SELECT png FROM screenshots WHERE id = ?", [screenshot_id]).fetchone()
    if row is None:
        raise KeyError(f"no screenshot with id {screenshot_id}")
    return bytes(row[0])


def notices(db: Database, session_id: str | None = None, rows: RowReader | None = None) -> list[NoticeRecord]:
    """Notices of one session, or every notice (including those outside any session) when `session_id` is None."""
    sql = "SELECT id, session_id, at, level, message FROM notices"
    params: list[object] = []
    if session_id is not None:
        sql += " WHERE session_id = ?"
        params.append(session_id)
    return _read(rows, NoticeRecord, "notices", db.query(sql + " ORDER BY at, id", params))


def run_summaries(db: Database, rows: RowReader | None = None) -> list[RunSummary]:
    reader = rows or RowReader()
    found = db.query(
        "SELECT id, job, session_id, started_at, finished_at, summary FROM run_summaries ORDER BY id"
    )
    decoded = ({**row, "summary": reader.json("run_summaries", row["id"], row["summary"])} for row in found)
    return _read(reader, RunSummary, "run_summaries", (row for row in decoded if row["summary"] is not None))


def counts(db: Database, session_id: str) -> dict[str, int]:
    """The numbers a session list shows: navigations, console errors, failed requests and screenshots."""
    row = db.execute(
        f"""
        SELECT
          (SELECT count(*) FROM navigations WHERE session_id = :s),
          (SELECT count(*) FROM console_events
             WHERE session_id = :s AND (kind = 'page_error' OR level = 'error')),
          (SELECT count(*) FROM network_events
             WHERE session_id = :s AND {FAILED_REQUEST_SQL}),
          (SELECT count(*) FROM screenshots WHERE session_id = :s)
        """,
        {"s": session_id},
    ).fetchone()
    return dict(zip(("navigations", "console_errors", "network_failures", "screenshots"), row))
