"""Reading a project's events a little at a time, so that live views never re-read a session: the newest rows of a
group after a row id with their counts (the project tree), and pages of events before a time (the Events dock).

Schema 1.4 adds the indexes these queries stand on: partial indexes on console errors and failed requests, and an
index on each event table's time."""

from __future__ import annotations

import heapq
import math
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError
from sqlite_utils import Database

from studio.models.events import (
    EVENT_ADAPTER,
    ConsoleEvent,
    EngineEvent,
    JobEvent,
    NavigationEvent,
    NetworkEvent,
    NoticeEvent,
    PageErrorEvent,
    ScreenshotEvent,
    SessionEnded,
    SessionStarted,
)
from studio.models.project import ConsoleRecord, NavigationRecord, NetworkRecord, ScreenshotRecord
from studio.store.queries import FAILED_REQUEST_SQL
from studio.store.row_decode import RowReader

CONSOLE_ERROR_SQL = "(kind = 'page_error' OR level = 'error')"

INDEXES = f"""
CREATE INDEX console_errors ON console_events (session_id, id) WHERE {CONSOLE_ERROR_SQL};
CREATE INDEX network_failures ON network_events (session_id, id) WHERE {FAILED_REQUEST_SQL};
CREATE INDEX console_events_at ON console_events (at);
CREATE INDEX network_events_at ON network_events (at);
CREATE INDEX navigations_at ON navigations (at);
CREATE INDEX notices_at ON notices (at);
CREATE INDEX screenshots_at ON screenshots (at);
CREATE INDEX job_events_at ON job_events (at);
"""


def create_timeline_indexes(db: Database) -> None:
    """Migration to 1.4: the indexes that let the live views read only what is new."""
    for statement in INDEXES.strip().split(";"):
        if statement.strip():
            db.execute(statement)


class RowCursor(NamedTuple):
    """The newest row id of each table a session's groups come from: what a view has already read."""

    navigations: int = 0
    screenshots: int = 0
    console_events: int = 0
    network_events: int = 0
    run_summaries: int = 0


class Group(NamedTuple):
    """One list the project tree shows per session: which rows of which table, read as which record."""

    table: str
    where: str  # an extra condition; for the partial indexes it must be written exactly as the index's
    columns: str
    record: type[BaseModel]


GROUPS: dict[str, Group] = {
    "pages": Group("navigations", "", "id, session_id, at, url, title", NavigationRecord),
    # length() reads the PNG's size from the record header without loading it.
    "screenshots": Group("screenshots", "", "id, session_id, at, label, url, width, height, length(png) AS size_bytes",
                         ScreenshotRecord),
    "console_errors": Group("console_events", CONSOLE_ERROR_SQL, "id, session_id, at, kind, level, text, url, line",
                            ConsoleRecord),
    "network_failures": Group("network_events", FAILED_REQUEST_SQL,
                              "id, session_id, at, method, url, resource_type, status, failure, duration_ms",
                              NetworkRecord),
}


class EventTimeline:
    """The project's events read by row id (what is new since a cursor) and by time (a page before a moment)."""

    def __init__(self, db: Database, rows: RowReader | None = None) -> None:
        self.db = db
        self.rows = rows or RowReader()  # a row someone else damaged is skipped and named, not a crash of the view

    # -- by row id: the project tree -------------------------------------------------------------------------

    def latest(self) -> RowCursor:
        """The newest row id of each table now (max(id) is one step down each table's b-tree)."""
        row = self.db.execute(
            "SELECT " + ", ".join(f"(SELECT coalesce(max(id), 0) FROM {table})" for table in RowCursor._fields)
        ).fetchone()
        return RowCursor(*row)

    def sessions_with_rows(self, after: RowCursor, upto: RowCursor) -> set[str]:
        """Sessions that got rows in any group's table after `after` up to `upto`."""
        parts, params = [], []
        for table in ("navigations", "screenshots", "console_events", "network_events"):
            low, high = getattr(after, table), getattr(upto, table)
            if high > low:
                parts.append(f"SELECT DISTINCT session_id FROM {table} WHERE id > ? AND id <= ?")
                params += [low, high]
        if not parts:
            return set()
        return {row[0] for row in self.db.execute(" UNION ".join(parts), params) if row[0] is not None}

    def rows_since(self, group: str, session_id: str, after_id: int = 0, upto_id: int | None = None,
                   limit: int = 500) -> list[Any]:
        """The newest `limit` rows of a session's group with ids in (after_id, upto_id], oldest first."""
        spec = GROUPS[group]
        where, params = _range(spec, session_id, after_id, upto_id)
        rows = self.db.query(
            f"SELECT {spec.columns} FROM {spec.table} WHERE {where} ORDER BY id DESC LIMIT ?", [*params, limit])
        read = (self.rows.fields(spec.record, spec.table, row.get("id"), row) for row in reversed(list(rows)))
        return [record for record in read if record is not None]

    def count_since(self, group: str, session_id: str, after_id: int = 0, upto_id: int | None = None) -> int:
        """How many rows of a session's group have ids in (after_id, upto_id]."""
        spec = GROUPS[group]
        where, params = _range(spec, session_id, after_id, upto_id)
        return int(self.db.execute(f"SELECT count(*) FROM {spec.table} WHERE {where}", params).fetchone()[0])

    def console_since(self, session_id: str, after_id: int = 0, limit: int = 500) -> list[ConsoleRecord]:
        """A session's console errors and page errors recorded after row `after_id` (the newest `limit`)."""
        return self.rows_since("console_errors", session_id, after_id, limit=limit)

    def runs_since(self, after_id: int = 0) -> list[tuple[int, str, float | None]]:
        """(id, job, started_at) of the job outcomes recorded after row `after_id`, oldest first."""
        rows = self.db.execute(
            "SELECT id, job, started_at FROM run_summaries WHERE id > ? ORDER BY id", [after_id]).fetchall()
        return [(int(row[0]), str(row[1]), row[2]) for row in rows]

    # -- by time: the Events dock ----------------------------------------------------------------------------

    def before(self, at: float = math.inf, limit: int = 2000) -> list[EngineEvent]:
        """The newest `limit` stored events that happened before `at`, oldest first.

        Events sharing the oldest one's time all come (a page may then be a little longer), so the next page,
        asked before that time, misses none."""
        found: list[tuple[float, int, int, Any]] = []
        for rank, source in enumerate(SOURCES):
            found += source.before(self.db, rank, at, limit)
        page = heapq.nlargest(limit, found, key=_order)
        if not page:
            return []
        edge = min(row[0] for row in page)
        taken = {(row[1], row[2]) for row in page}
        for rank, source in enumerate(SOURCES):
            page += [row for row in source.at_time(self.db, rank, edge) if (row[1], row[2]) not in taken]
        page.sort(key=_order)
        events = (self._event(rank, data) for _, rank, _, data in page)
        return [event for event in events if event is not None]

    def _event(self, rank: int, row: tuple[Any, ...]) -> EngineEvent | None:
        try:
            return _event(rank, row)
        except (ValidationError, ValueError, TypeError) as error:  # columns of the wrong type or count
            self.rows.damaged_row(SOURCES[rank].table, row[1], str(error).splitlines()[0])
            return None

    def count_before(self, at: float = math.inf) -> int:
        """How many stored events happened before `at` (an index range count per table)."""
        return sum(source.count_before(self.db, at) for source in SOURCES)


def _range(spec: Group, session_id: str, after_id: int, upto_id: int | None) -> tuple[str, list[Any]]:
    where = (f"{spec.where} AND " if spec.where else "") + "session_id = ? AND id > ?"
    params: list[Any] = [session_id, after_id]
    if upto_id is not None:
        where += " AND id <= ?"
        params.append(upto_id)
    return where, params


def _order(row: tuple[float, int, int, Any]) -> tuple[float, int, int]:
    return row[0], row[1], row[2]


class _Source(NamedTuple):
    """One table the Events dock's events come from: its time column, the columns an event is made of."""

    table: str
    at: str
    columns: str
    where: str = ""
    key: str = "id"

    def _select(self, condition: str) -> str:
        extra = f" AND {self.where}" if self.where else ""
        return f"SELECT {self.at}, {self.key}, {self.columns} FROM {self.table} WHERE {condition}{extra}"

    def before(self, db: Database, rank: int, at: float, limit: int) -> list[tuple[float, int, int, Any]]:
        sql = self._select(f"{self.at} < ?") + f" ORDER BY {self.at} DESC LIMIT ?"
        return [(row[0], rank, row[1], row) for row in db.execute(sql, [at, limit])]

    def at_time(self, db: Database, rank: int, at: float) -> list[tuple[float, int, int, Any]]:
        return [(row[0], rank, row[1], row) for row in db.execute(self._select(f"{self.at} = ?"), [at])]

    def count_before(self, db: Database, at: float) -> int:
        extra = f" AND {self.where}" if self.where else ""
        sql = f"SELECT count(*) FROM {self.table} WHERE {self.at} < ?{extra}"
        return int(db.execute(sql, [at]).fetchone()[0])


# The job events the Events dock shows (those EVENT_ADAPTER reads); other jobs' events stay with their job.
_JOB_TYPES = ("preflight_started", "preflight_progress", "preflight_question", "preflight_completed",
              "main_job_started", "item_progress", "main_job_completed")

# The sessions table stands in for two sources (a start and an end), keyed by rowid (its id is the session's name).
SOURCES: tuple[_Source, ...] = (
    _Source("sessions", "started_at", "id, browser_path, browser_version, headless, viewport_w, viewport_h, user_agent",
            "started_at IS NOT NULL", "rowid"),
    _Source("sessions", "ended_at", "id, end_reason, end_message", "ended_at IS NOT NULL", "rowid"),
    _Source("navigations", "at", "session_id, url, title"),
    _Source("console_events", "at", "session_id, kind, level, text, url, line"),
    _Source("network_events", "at", "session_id, method, url, resource_type, status, failure, duration_ms"),
    _Source("screenshots", "at", "session_id, label, url, width, height"),
    _Source("notices", "at", "session_id, level, message"),
    _Source("job_events", "at", "data", f"type IN ({', '.join(repr(name) for name in _JOB_TYPES)})"),
)


def _event(rank: int, row: tuple[Any, ...]) -> EngineEvent | None:
    """The engine event a stored row was written from (a screenshot without its picture, which stays in the file)."""
    at = row[0]
    table = SOURCES[rank].table
    values = row[2:]
    if table == "sessions" and SOURCES[rank].at == "started_at":
        session_id, path, version, headless, width, height, agent = values
        return SessionStarted(at=at, session_id=session_id, browser_path=path or "", browser_version=version or "",
                              headless=bool(headless), viewport=(width or 0, height or 0), user_agent=agent or "")
    if table == "sessions":
        session_id, reason, message = values
        try:
            return SessionEnded(at=at, session_id=session_id, reason=reason or "closed", message=message or "")
        except ValidationError:
            return None
    if table == "navigations":
        session_id, url, title = values
        return NavigationEvent(at=at, session_id=session_id, url=url, title=title)
    if table == "console_events":
        session_id, kind, level, text, url, line = values
        if kind == "page_error":
            return PageErrorEvent(at=at, session_id=session_id, message=text, url=url)
        return ConsoleEvent(at=at, session_id=session_id, level=level, text=text, url=url, line=line)
    if table == "network_events":
        session_id, method, url, resource_type, status, failure, duration = values
        return NetworkEvent(at=at, session_id=session_id, method=method, url=url, resource_type=resource_type or "",
                            status=status, failure=failure, duration_ms=duration)
    if table == "screenshots":
        session_id, label, url, width, height = values
        return ScreenshotEvent(at=at, session_id=session_id, label=label or "", url=url or "", width=width or 0,
                               height=height or 0, png=b"")
    if table == "notices":
        session_id, level, message = values
        try:
            return NoticeEvent(at=at, session_id=session_id, level=level, message=message)
        except ValidationError:
            return None
    return _job_event(values[0])


def _job_event(data: str) -> EngineEvent | None:
    try:
        event = EVENT_ADAPTER.validate_json(data)
    except ValidationError:
        return None
    return event if isinstance(event, JobEvent) else None

