"""How each engine event becomes rows in the project file; one transaction per event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlite_utils import Database

from studio.models.events import (
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

Writer = Callable[[Database, Any], None]


def _session_started(db: Database, event: SessionStarted) -> None:
    # An upsert, so a session whose end was recorded first (a recorder attached late) still gets its launch data.
    db.execute(
        """
        INSERT INTO sessions (id, started_at, browser_path, browser_version, headless,
                              viewport_w, viewport_h, user_agent)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
            started_at = excluded.started_at, browser_path = excluded.browser_path,
            browser_version = excluded.browser_version, headless = excluded.headless,
            viewport_w = excluded.viewport_w, viewport_h = excluded.viewport_h,
            user_agent = excluded.user_agent
        """,
        (
            _require_session(event),
            event.at,
            event.browser_path,
            event.browser_version,
            int(event.headless),
            event.viewport[0],
            event.viewport[1],
            event.user_agent,
        ),
    )


def _session_ended(db: Database, event: SessionEnded) -> None:
    db.execute(
        """
        INSERT INTO sessions (id, ended_at, end_reason, end_message) VALUES (?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
            ended_at = excluded.ended_at, end_reason = excluded.end_reason,
            end_message = excluded.end_message
        """,
        (_require_session(event), event.at, event.reason, event.message),
    )


def _navigation(db: Database, event: NavigationEvent) -> None:
    db.execute(
        "INSERT INTO navigations (session_id, at, url, title) VALUES (?, ?, ?, ?)",
        (event.session_id, event.at, event.url, event.title),
    )


def _console(db: Database, event: ConsoleEvent) -> None:
    db.execute(
        "INSERT INTO console_events (session_id, at, kind, level, text, url, line)"
        " VALUES (?, ?, 'console', ?, ?, ?, ?)",
        (event.session_id, event.at, event.level, event.text, event.url, event.line),
    )


def _page_error(db: Database, event: PageErrorEvent) -> None:
    db.execute(
        "INSERT INTO console_events (session_id, at, kind, level, text, url, line)"
        " VALUES (?, ?, 'page_error', 'error', ?, ?, NULL)",
        (event.session_id, event.at, event.message, event.url),
    )


def _network(db: Database, event: NetworkEvent) -> None:
    db.execute(
        "INSERT INTO network_events (session_id, at, method, url, resource_type, status, failure, duration_ms)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            event.session_id,
            event.at,
            event.method,
            event.url,
            event.resource_type,
            event.status,
            event.failure,
            event.duration_ms,
        ),
    )


def _screenshot(db: Database, event: ScreenshotEvent) -> None:
    db.execute(
        "INSERT INTO screenshots (session_id, at, label, url, width, height, png) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (event.session_id, event.at, event.label, event.url, event.width, event.height, event.png),
    )


def _notice(db: Database, event: NoticeEvent) -> None:
    db.execute(
        "INSERT INTO notices (session_id, at, level, message) VALUES (?, ?, ?, ?)",
        (event.session_id, event.at, event.level, event.message),
    )


# Keyed by the event's type tag. Progress ticks are deliberately absent: they are live feedback, not evidence.
WRITERS: dict[str, Writer] = {
    "session_started": _session_started,
    "session_ended": _session_ended,
    "navigation": _navigation,
    "console": _console,
    "page_error": _page_error,
    "network": _network,
    "screenshot": _screenshot,
    "notice": _notice,
}


def _job_event(db: Database, event: JobEvent) -> None:
    # Every job's events are kept whole, in order, per job.
    db.execute("INSERT INTO job_events (job_id, at, type, data) VALUES (?,?,?,?)",
               (event.job_id, event.at, event.type, event.model_dump_json()))


def write_event(db: Database, event: EngineEvent) -> bool:
    """Store `event` in one transaction; returns False for event types the project does not keep."""
    writer: Writer | None = _job_event if isinstance(event, JobEvent) else WRITERS.get(event.type)
    if writer is None:
        return False
    with db.atomic():
        writer(db, event)
    return True


def _require_session(event: EngineEvent) -> str:
    if event.session_id is None:
        raise ValueError(f"a {event.type} event needs a session_id to be stored")
    return event.session_id
