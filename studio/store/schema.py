"""The project file's identity (application_id), its version number (user_version) and the v1.0 tables."""

from __future__ import annotations

from typing import NamedTuple

from sqlite_utils import Database

# "PFST" in ASCII, so `sqlite3 x.studio "pragma application_id"` and file(1) can tell our files apart.
APPLICATION_ID = 0x50465354
SCHEMA_MAJOR = 1
PROJECT_SUFFIX = ".studio"


class SchemaVersion(NamedTuple):
    """A project schema version; a major bump is incompatible, a minor bump only adds tables or columns."""

    major: int
    minor: int

    @classmethod
    def from_user_version(cls, value: int) -> SchemaVersion:
        """Decode `PRAGMA user_version`, which stores (major << 16) | minor."""
        return cls(value >> 16, value & 0xFFFF)

    def to_user_version(self) -> int:
        return (self.major << 16) | self.minor

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"


def create_base_schema(db: Database) -> None:
    """Create the v1.0 tables; the caller holds the transaction and sets the version afterwards."""
    db.create_table("meta", {"key": str, "value": str}, pk="key")
    db.create_table(
        "sessions",
        {
            "id": str,
            "label": str,
            "started_at": float,
            "ended_at": float,
            "browser_path": str,
            "browser_version": str,
            "headless": bool,
            "viewport_w": int,
            "viewport_h": int,
            "user_agent": str,
            "end_reason": str,
            "end_message": str,
        },
        pk="id",
    )
    db.create_table(
        "navigations",
        {"id": int, "session_id": str, "at": float, "url": str, "title": str},
        pk="id",
        not_null=["at", "url"],
    )
    db.create_table(
        "console_events",
        {
            "id": int,
            "session_id": str,
            "at": float,
            "kind": str,  # 'console' or 'page_error'
            "level": str,
            "text": str,
            "url": str,
            "line": int,
        },
        pk="id",
        not_null=["at", "kind", "level", "text"],
    )
    db.create_table(
        "network_events",
        {
            "id": int,
            "session_id": str,
            "at": float,
            "method": str,
            "url": str,
            "resource_type": str,
            "status": int,
            "failure": str,
            "duration_ms": float,
        },
        pk="id",
        not_null=["at", "method", "url"],
    )
    db.create_table(
        "screenshots",
        {
            "id": int,
            "session_id": str,
            "at": float,
            "label": str,
            "url": str,
            "width": int,
            "height": int,
            "png": bytes,
        },
        pk="id",
        not_null=["at", "png"],
    )
    db.create_table(
        "notices",
        {"id": int, "session_id": str, "at": float, "level": str, "message": str},
        pk="id",
        not_null=["at", "level", "message"],
    )
    db.create_table(
        "run_summaries",
        {
            "id": int,
            "job": str,
            "session_id": str,
            "started_at": float,
            "finished_at": float,
            "summary": str,  # JSON object
        },
        pk="id",
        not_null=["job", "summary"],
    )
    for table in (
        "navigations",
        "console_events",
        "network_events",
        "screenshots",
        "notices",
        "run_summaries",
    ):
        db.table(table).create_index(["session_id"])


def set_version(db: Database, version: SchemaVersion) -> None:
    """Stamp the file with our application id and `version`, inside the caller's transaction."""
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {version.to_user_version()}")
