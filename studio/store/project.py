"""An open project file: safe open and create, versioned schema, one transaction per write, Save As by backup."""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sqlite3
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlite_utils import Database

from studio import __version__
from studio.store.cases import CaseStore
from studio.store.findings import FindingStore
from studio.store.jobs import JobStore
from studio.store.leases import JobLeases
from studio.store.llm_calls import LLMCallStore
from studio.models.recording import RecordedStep
from studio.store.row_decode import RowReader
from studio.store.steps import insert_step, next_step_index, select_steps
from studio.store.step_edits import StepEdits
from studio.store.timeline import EventTimeline
from studio.models.events import EngineEvent
from studio.models.project import (
    ConsoleRecord,
    NavigationRecord,
    NetworkRecord,
    NoticeRecord,
    RunSummary,
    ScreenshotRecord,
    SessionRecord,
)
from studio.store import queries
from studio.store.errors import (
    EmptyProjectError,
    ProjectAccessError,
    ProjectError,
    ProjectExistsError,
    ProjectInUseError,
    ProjectReadOnlyError,
    ProjectUpgradeError,
    SaveAsError,
)
from studio.store.event_rows import write_event
from studio.store.inspection import inspect_project_file, read_only_uri, sidecar
from studio.store.save_as import backup_to, remove_quietly
from studio.store.migrations import create_latest_schema, latest_version, upgrade
from studio.store.schema import SchemaVersion
from studio.store.schema_check import trust_nothing_in_schema

log = logging.getLogger(__name__)

# Long enough to ride out another process's checkpoint or schema set-up on a loaded machine, short enough not to
# freeze the GUI's event loop for long.
_BUSY_TIMEOUT_S = 5.0

PathArg = str | os.PathLike[str]


class ProjectFile:
    """One open `.studio` project: an SQLite file in WAL mode that every engine event and result is written to.

    Build it with `create`, `open` or `open_or_create`; they refuse foreign, damaged and too-new files unchanged.
    """

    def __init__(self, path: Path, db: Database, version: SchemaVersion) -> None:
        self.path = path
        self.db = db
        self.version = version
        self._identity = _file_identity(path)
        self._closed = False
        self.read_only = False  # opened only to read: no checkpoint on close, every write fails
        # Rows someone else damaged are skipped and named here (table and id) by every store that reads them.
        self.rows = RowReader()
        # Playground records (seed 000) live in small stores of their own rather than on this class.
        self.cases = CaseStore(db, self.rows)
        self.jobs = JobStore(db, self.rows)
        self.leases = JobLeases(db)
        self.llm_calls = LLMCallStore(db)
        self.findings = FindingStore(db, self.rows)
        # What the live views read: new rows since a row id, pages of events before a time.
        self.timeline = EventTimeline(db, self.rows)

    # -- opening -----------------------------------------------------------------------------------------------

    @classmethod
    def create(cls, path: PathArg) -> ProjectFile:
        """Create a new project at `path`; raises ProjectExistsError if anything is already there."""
        path = Path(path)
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            raise ProjectExistsError(path) from None
        except OSError as exc:
            raise ProjectAccessError(path, exc.strerror or str(exc)) from exc
        try:
            return cls._connect(path, found=None)
        except BaseException:
            # Only files this call created are removed, so a failed create leaves the folder as it was.
            remove_quietly(path, sidecar(path, "-wal"), sidecar(path, "-shm"))
            raise

    @classmethod
    def open(cls, path: PathArg, writable: bool = True) -> ProjectFile:
        """Open an existing project, migrating an older minor version forward; a 0-byte file becomes a new project.

        A file this process cannot write is refused (ProjectReadOnlyError) unless `writable` is False (only reading).
        """
        path = Path(path)
        inspection = inspect_project_file(path)
        if writable:
            _check_writable(path)
        elif inspection.blank:
            # Only reading: a blank file is left for its writer to initialise (two first writers would collide).
            raise EmptyProjectError(path)
        elif inspection.version is not None and inspection.version.minor >= latest_version().minor:
            return cls._connect_read_only(path, inspection.version)
        else:
            _check_writable(path)  # an older file is read through its upgrade, which writes
        return cls._connect(path, found=inspection.version)

    @classmethod
    def _connect_read_only(cls, path: Path, version: SchemaVersion) -> ProjectFile:
        """Open for reading only (export, the navigation graph): a read-only file or folder is fine, nothing is
        written and, without a live -wal, no side file is made (immutable: nobody has the file open)."""
        try:
            conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=_BUSY_TIMEOUT_S)
            trust_nothing_in_schema(conn)
        except sqlite3.Error as exc:
            raise _open_error(path, exc) from exc
        project = cls(path, Database(conn, execute_plugins=False), version)
        project.read_only = True
        return project

    @classmethod
    def open_or_create(cls, path: PathArg) -> ProjectFile:
        """Open the project at `path`, or create it there when nothing exists yet."""
        path = Path(path)
        if not os.path.lexists(path):
            try:
                return cls.create(path)
            except ProjectExistsError:
                pass  # someone created it between the check and ours: open theirs
        return cls.open(path)

    @classmethod
    def _connect(cls, path: Path, found: SchemaVersion | None) -> ProjectFile:
        """Open for writing a file the inspection passed (`found` None: blank) and bring its schema up to date."""
        try:
            conn = sqlite3.connect(path, timeout=_BUSY_TIMEOUT_S)
        except sqlite3.Error as exc:
            raise ProjectAccessError(path, str(exc)) from exc
        db = Database(conn, execute_plugins=False)
        try:
            trust_nothing_in_schema(conn)
            _enable_wal(db)
            # NORMAL in WAL mode never loses a commit to a process crash, only to power loss, at a fraction of
            # FULL's fsyncs.
            db.execute("PRAGMA synchronous = NORMAL")
            with _write_locked(conn):
                # Read again under the write lock: another process may have created or upgraded it meanwhile.
                stored = conn.execute("PRAGMA user_version").fetchone()[0]
                if stored:
                    found = SchemaVersion.from_user_version(stored)
                if found is None:
                    version = create_latest_schema(db)
                    now = str(time.time() * 1000.0)
                    for key, value in (("created_at", now), ("studio_version", __version__), ("name", path.stem)):
                        db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
                elif found.minor < latest_version().minor:
                    version = _upgrade(path, db, found)
                else:
                    version = found
        except sqlite3.Error as exc:
            conn.close()
            raise _open_error(path, exc) from exc
        except BaseException:
            conn.close()
            raise
        return cls(path, db, version)

    # -- lifecycle ---------------------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Fold the write-ahead log into the file, so the `.studio` file alone is complete, and close it."""
        if self._closed:
            return
        self._closed = True
        try:
            if not self.read_only:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            # Every commit is already durable in the -wal; SQLite folds it in on the next open.
            log.warning("could not checkpoint %s on close: %s", self.path, exc)
        finally:
            try:
                self.db.close()
            except sqlite3.Error:
                pass

    def __enter__(self) -> ProjectFile:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ProjectFile {str(self.path)!r} v{self.version}{' closed' if self._closed else ''}>"

    def file_missing(self) -> bool:
        """True when the file at `path` was deleted or replaced since it was opened; writes then die with us."""
        try:
            return _file_identity(self.path) != self._identity
        except FileNotFoundError:
            return True
        except OSError:
            return False

    def save_as(self, dest: PathArg) -> Path:
        """Write a complete standalone copy of the project to `dest` with SQLite's backup API; this project stays open.

        An existing `dest` is replaced atomically (copy to a temporary file beside it, then rename); the file this
        project is open from is refused.
        """
        if self._closed:
            raise SaveAsError(Path(dest).absolute(), "the project is closed", "Open the project again, then save it.")
        return backup_to(self.db.conn, self.path, Path(dest).absolute())

    # -- writing -----------------------------------------------------------------------------------------------

    def record(self, event: EngineEvent) -> bool:
        """Store one engine event in one transaction; returns False for events that are not kept (progress)."""
        return write_event(self.db, event)

    def add_run_summary(
        self,
        job: str,
        session_id: str | None,
        started_at: float | None,
        finished_at: float | None,
        summary: dict[str, Any],
    ) -> int:
        """Store a job's outcome and return its id."""
        with self.db.atomic():
            cursor = self.db.execute(
                "INSERT INTO run_summaries (job, session_id, started_at, finished_at, summary)"
                " VALUES (?, ?, ?, ?, ?)",
                (job, session_id, started_at, finished_at, json.dumps(summary)),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def add_step(self, step: RecordedStep) -> int:
        """Store one recorded step (its index must be new for the session) and return its id."""
        with self.db.atomic():
            return insert_step(self.db, step)

    def steps(self, session_id: str) -> list[RecordedStep]:
        """The recorded steps of a session, in order."""
        return select_steps(self.db, session_id, self.rows)

    def next_step_index(self, session_id: str) -> int:
        return next_step_index(self.db, session_id)

    def step_edits(self) -> StepEdits:
        """Delete, put back and reorder a session's steps (each edit one transaction that renumbers `idx`)."""
        return StepEdits(self.db)

    def set_session_label(self, session_id: str, label: str | None) -> None:
        """Name a session for the user (sessions start unnamed)."""
        with self.db.atomic():
            self.db.execute("UPDATE sessions SET label = ? WHERE id = ?", (label, session_id))

    def set_meta(self, key: str, value: str) -> None:
        """Set one project-level fact (name, created_at, studio_version...); never a secret."""
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def meta(self, key: str, default: str | None = None) -> str | None:
        """One project-level fact, or `default` when it was never set."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else row[0]

    # -- reading -----------------------------------------------------------------------------------------------

    def sessions(self) -> list[SessionRecord]:
        return queries.sessions(self.db, self.rows)

    def session(self, session_id: str) -> SessionRecord | None:
        return queries.session(self.db, session_id, self.rows)

    def navigations(self, session_id: str) -> list[NavigationRecord]:
        return queries.navigations(self.db, session_id, self.rows)

    def console(self, session_id: str, kinds: Iterable[str] | None = None) -> list[ConsoleRecord]:
        """Console messages and page errors of a session; `kinds` narrows to 'console' and/or 'page_error'."""
        return queries.console(self.db, session_id, kinds, self.rows)

    def network(self, session_id: str, failed_only: bool = False) -> list[NetworkRecord]:
        """Finished requests of a session; `failed_only` keeps failures and statuses >= 400."""
        return queries.network(self.db, session_id, failed_only, self.rows)

    def screenshots(self, session_id: str) -> list[ScreenshotRecord]:
        return queries.screenshots(self.db, session_id, self.rows)

    def screenshot_png(self, screenshot_id: int) -> bytes:
        """The PNG bytes of one screenshot; KeyError if there is none with that id."""
        return queries.screenshot_png(self.db, screenshot_id)

    def notices(self, session_id: str | None = None) -> list[NoticeRecord]:
        return queries.notices(self.db, session_id, self.rows)

    def run_summaries(self) -> list[RunSummary]:
        return queries.run_summaries(self.db, self.rows)

    def counts(self, session_id: str) -> dict[str, int]:
        """navigations, console_errors (errors + page errors), network_failures (failed or >= 400), screenshots."""
        return queries.counts(self.db, session_id)


def _check_writable(path: Path) -> None:
    """Raise ProjectReadOnlyError when this process may not write `path`; opening it for writing changes nothing."""
    # A file whose owner may not write it was made read-only on purpose (`chmod 444`); root, whom the OS lets write
    # anything, honours that too.
    if os.name == "posix" and not os.stat(path).st_mode & stat.S_IWUSR:
        raise ProjectReadOnlyError(path, f"its mode is {stat.S_IMODE(os.stat(path).st_mode):o}, which lets nobody "
                                         "write it")
    # SQLite silently falls back to read-only for such a file and only fails at the first write, mid-job.
    try:
        os.close(os.open(path, os.O_RDWR))
    except OSError as exc:
        if exc.errno == errno.EROFS:
            raise ProjectReadOnlyError(path, "it is on a read-only disk") from exc
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise ProjectReadOnlyError(path, "its permissions do not let you write it") from exc
        raise ProjectAccessError(path, exc.strerror or str(exc)) from exc


def _upgrade(path: Path, db: Database, found: SchemaVersion) -> SchemaVersion:
    try:
        return upgrade(db, found)
    except Exception as exc:
        # Raising out of the caller's atomic() rolls every migration back together.
        raise ProjectUpgradeError(path, str(found), str(latest_version()), str(exc)) from exc


def _open_error(path: Path, exc: sqlite3.Error) -> ProjectError:
    name = getattr(exc, "sqlite_errorname", "")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return ProjectInUseError(path, str(exc))
    return ProjectAccessError(path, str(exc))


def _file_identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def _enable_wal(db: Database) -> None:
    """WAL mode, waiting out another opener: switching a new file to WAL needs it alone for an instant, and SQLite
    answers "database is locked" at once (without its busy wait) while another connection is setting it up."""
    deadline = time.monotonic() + _BUSY_TIMEOUT_S
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as exc:
            busy = getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


@contextlib.contextmanager
def _write_locked(conn: sqlite3.Connection) -> Iterator[None]:
    """One transaction that holds the write lock from its start (BEGIN IMMEDIATE).

    A deferred transaction that reads first and writes later fails at once, without waiting, when another
    connection wrote in between; taking the lock first makes a concurrent opener wait its turn instead.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
    conn.execute("COMMIT")
