"""Shared helpers for project-file tests: a session's worth of events, file fingerprints and table dumps."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

from studio.models.events import (
    ConsoleEvent,
    EngineEvent,
    NavigationEvent,
    NetworkEvent,
    NoticeEvent,
    PageErrorEvent,
    ProgressEvent,
    ScreenshotEvent,
    SessionEnded,
    SessionStarted,
)

# A real 1x1 PNG, so screenshots in tests are what the engine would store.
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0000003010100c9fe92ef"
    "0000000049454e44ae426082"
)

TABLES = (
    "meta",
    "sessions",
    "navigations",
    "console_events",
    "network_events",
    "screenshots",
    "notices",
    "run_summaries",
)


def session_events(session_id: str, start: float = 1_700_000_000_000.0) -> list[EngineEvent]:
    """One browser session with every kind of engine event, at fixed timestamps."""
    at = iter(start + i * 10.0 for i in range(100))
    return [
        SessionStarted(
            session_id=session_id,
            at=next(at),
            browser_path="/usr/bin/chromium",
            browser_version="131.0",
            headless=True,
            viewport=(1280, 720),
            user_agent="Mozilla/5.0 test",
        ),
        NavigationEvent(session_id=session_id, at=next(at), url="http://127.0.0.1/login", title="Log in"),
        ConsoleEvent(session_id=session_id, at=next(at), level="log", text="app booted"),
        ConsoleEvent(
            session_id=session_id, at=next(at), level="error", text="boom", url="http://127.0.0.1/app.js", line=12
        ),
        PageErrorEvent(session_id=session_id, at=next(at), message="TypeError: x is undefined", url="http://127.0.0.1/"),
        NetworkEvent(
            session_id=session_id, at=next(at), method="GET", url="http://127.0.0.1/api/me",
            resource_type="fetch", status=200, duration_ms=12.5,
        ),
        NetworkEvent(
            session_id=session_id, at=next(at), method="POST", url="http://127.0.0.1/api/cart/add",
            resource_type="xhr", status=500, duration_ms=30.0,
        ),
        NetworkEvent(
            session_id=session_id, at=next(at), method="GET", url="http://127.0.0.1/font.woff",
            resource_type="font", failure="net::ERR_CONNECTION_REFUSED",
        ),
        ProgressEvent(session_id=session_id, at=next(at), job="tour", step=1, total=3, message="logging in"),
        NavigationEvent(session_id=session_id, at=next(at), url="http://127.0.0.1/dashboard", title="Dashboard"),
        ScreenshotEvent(
            session_id=session_id, at=next(at), label="dashboard", url="http://127.0.0.1/dashboard",
            width=1, height=1, png=TINY_PNG,
        ),
        NoticeEvent(session_id=session_id, at=next(at), level="warning", message="The page is slow to settle."),
        SessionEnded(session_id=session_id, at=next(at), reason="closed", message="You closed the browser."),
    ]


def fingerprint(path: Path) -> dict[str, str | None]:
    """SHA-256 of a file and of its -wal/-shm/-journal companions (None when absent), to prove nothing was written."""
    result: dict[str, str | None] = {}
    for suffix in ("", "-wal", "-shm", "-journal"):
        candidate = path.with_name(path.name + suffix)
        result[suffix or "file"] = hashlib.sha256(candidate.read_bytes()).hexdigest() if candidate.exists() else None
    return result


def dump_tables(path: Path) -> dict[str, list[tuple]]:
    """Every row of every project table, read through a separate read-only connection that leaves no side files."""
    live = os.path.exists(f"{path}-wal")
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro{'' if live else '&immutable=1'}", uri=True)
    try:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall()
            for table in TABLES
        }
    finally:
        conn.close()


def pragma(path: Path, name: str) -> object:
    """Read one PRAGMA through a connection that leaves no -wal/-shm behind."""
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


def set_user_version(path: Path, value: int) -> None:
    """Rewrite a closed project's user_version the way another Studio build would."""
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"PRAGMA user_version = {value}")
        conn.commit()
    finally:
        conn.close()
    assert not path.with_name(path.name + "-wal").exists()


def sidecars_absent(path: Path) -> bool:
    return not any(os.path.exists(f"{path}{suffix}") for suffix in ("-wal", "-shm", "-journal"))
