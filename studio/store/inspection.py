"""Look at a file before opening it for writing: is it ours, intact and readable by this build? Never writes."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from studio.store.errors import (
    DamagedProjectError,
    ForeignFileError,
    ForeignSchemaError,
    NewerProjectError,
    ProjectAccessError,
    ProjectInUseError,
    ProjectNotFoundError,
    UnsupportedProjectError,
)
from studio.store.migrations import latest_version
from studio.store.schema import APPLICATION_ID, SchemaVersion
from studio.store.schema_check import compare_schema, trust_nothing_in_schema

SQLITE_MAGIC = b"SQLite format 3\x00"
_APPLICATION_ID_OFFSET = 68


@dataclass(frozen=True)
class FileInspection:
    """What a read-only look at a path found: a blank file to initialise, or a project at `version`."""

    path: Path
    blank: bool
    version: SchemaVersion | None


def sidecar(path: Path, suffix: str) -> Path:
    """SQLite's companion file for `path`, e.g. the `-wal` or `-shm` next to it."""
    return path.with_name(path.name + suffix)


def has_live_wal(path: Path) -> bool:
    """Whether a write-ahead log with content lies beside `path`: the project is open elsewhere, or was killed."""
    wal = sidecar(path, "-wal")
    return wal.exists() and wal.stat().st_size > 0


def read_only_uri(path: Path) -> str:
    """The SQLite URI that reads `path` and writes nothing beside it.

    mode=ro alone still creates -wal/-shm beside a WAL-mode file and leaves them behind. Without a live -wal the main
    file is complete, so immutable=1 reads it with no side files and no locks. With a -wal (a crash, or the project
    open elsewhere), SQLite must read it and the side files already exist.
    """
    return path.absolute().as_uri() + ("?mode=ro" if has_live_wal(path) else "?mode=ro&immutable=1")


def inspect_project_file(path: Path) -> FileInspection:
    """Check that `path` is an intact project this build can open, or raise a ProjectError; the file is not touched."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ProjectNotFoundError(path) from None
    except OSError as exc:
        raise ProjectAccessError(path, exc.strerror or str(exc)) from exc
    if not path.is_file():
        raise ForeignFileError(path, "it is a folder or a device, not a file")

    has_wal = has_live_wal(path)
    # A 0-byte file is what a file dialog or mkstemp leaves; it holds nothing to protect. With a -wal beside it,
    # it is a project killed before its first checkpoint and SQLite must read it.
    if size == 0 and not has_wal:
        return FileInspection(path, blank=True, version=None)

    header = _read_header(path)
    if size > 0 and not header.startswith(SQLITE_MAGIC):
        raise ForeignFileError(path, "it is not an SQLite database")
    header_says_ours = (
        len(header) >= _APPLICATION_ID_OFFSET + 4
        and int.from_bytes(header[_APPLICATION_ID_OFFSET : _APPLICATION_ID_OFFSET + 4], "big")
        == APPLICATION_ID
    )

    try:
        version = _check_with_sqlite(path)
        if version is None:
            return FileInspection(path, blank=True, version=None)
    except sqlite3.DatabaseError as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            raise ProjectInUseError(path, str(exc)) from exc
        if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
            raise ProjectAccessError(path, str(exc)) from exc
        if header_says_ours:
            raise DamagedProjectError(path, str(exc)) from exc
        raise ForeignFileError(path, f"SQLite cannot read it: {exc}") from exc
    return FileInspection(path, blank=False, version=version)


def _read_header(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(100)
    except OSError as exc:
        raise ProjectAccessError(path, exc.strerror or str(exc)) from exc


def _check_with_sqlite(path: Path) -> SchemaVersion | None:
    """The project's schema version; None for an SQLite database that holds nothing yet (no table, no signature:
    what another opener leaves for an instant while it creates the project)."""
    conn = sqlite3.connect(read_only_uri(path), uri=True)
    try:
        trust_nothing_in_schema(conn)
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if application_id == 0 and conn.execute("PRAGMA user_version").fetchone()[0] == 0 and \
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
            return None
        if application_id != APPLICATION_ID:
            raise ForeignFileError(
                path,
                "it is an SQLite database of another application"
                if application_id
                else "it is an SQLite database without a Preflight Studio signature",
            )
        version = SchemaVersion.from_user_version(conn.execute("PRAGMA user_version").fetchone()[0])
        supported = latest_version()
        if version.major > supported.major:
            raise NewerProjectError(path, str(version), str(supported))
        if version.major < supported.major:
            raise UnsupportedProjectError(path, str(version))
        # integrity_check, not quick_check: it also finds indexes that disagree with their tables (wrong query
        # results later), and on a project file it costs milliseconds.
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            raise DamagedProjectError(path, _summarise(problems))
        difference = compare_schema(conn, version)
        if difference.foreign:
            raise ForeignSchemaError(path, tuple(str(item) for item in difference.foreign))
        if difference.missing:
            raise DamagedProjectError(path, "it lacks " + _summarise(list(difference.missing)))
        return version
    finally:
        conn.close()


def _summarise(problems: list[str]) -> str:
    # integrity_check rows may hold several lines and a "*** in database main ***" banner; one line reads better.
    lines = [line for row in problems for line in row.splitlines() if line and not line.startswith("***")]
    shown = "; ".join(lines[:3])
    return shown + (f" (and {len(lines) - 3} more)" if len(lines) > 3 else "")
