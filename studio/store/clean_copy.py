"""A clean copy of a shared project that holds schema objects the studio did not make: the tester's sessions, steps,
cases and jobs, without the planted trigger, view, index, table or column. The shared file itself is never
changed (it is only read, with SQLite trusting nothing in its schema), and the copy is checked like any other
file before it is handed back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from studio.store.errors import ForeignSchemaError, ProjectError, ProjectExistsError, SaveAsError
from studio.store.inspection import inspect_project_file, read_only_uri, sidecar
from studio.store.save_as import backup_to, remove_quietly
from studio.store.schema import SchemaVersion
from studio.store.schema_check import ForeignObject, compare_schema, expected_sql, trust_nothing_in_schema


def clean_copy_path(source: Path) -> Path:
    """Where the clean copy goes by default: beside the shared file, `NAME-clean.studio` (then -clean-2, ...)."""
    for n in range(1, 1000):
        candidate = source.with_name(f"{source.stem}-clean{'' if n == 1 else f'-{n}'}{source.suffix or '.studio'}")
        if not candidate.exists():
            return candidate
    raise ProjectExistsError(source.with_name(f"{source.stem}-clean{source.suffix}"))


def make_clean_copy(source: Path, dest: Path | None = None) -> tuple[Path, tuple[str, ...]]:
    """Copy `source` to `dest` without what the studio did not make; returns the copy and what was left out.

    A file with nothing foreign is copied as it is (the list is empty). Raises a ProjectError for a file that is
    not a project at all, or damaged, and SaveAsError when the copy cannot be written or cleaned (no copy is left).
    """
    source = Path(source).absolute()
    try:
        inspect_project_file(source)
    except ForeignSchemaError:
        pass  # what this is for; every other refusal (not ours, damaged, newer major) stands
    dest = Path(dest).absolute() if dest is not None else clean_copy_path(source)
    if dest.exists():
        raise ProjectExistsError(dest)
    reader = sqlite3.connect(read_only_uri(source), uri=True)
    try:
        trust_nothing_in_schema(reader)
        backup_to(reader, source, dest)
    finally:
        reader.close()
    try:
        removed = _remove_foreign(dest)
    except (sqlite3.Error, ProjectError) as exc:
        remove_quietly(dest, sidecar(dest, "-journal"), sidecar(dest, "-wal"), sidecar(dest, "-shm"))
        raise SaveAsError(dest, f"what the studio did not make could not be removed ({exc})",
                          "The shared file is unchanged; ask whoever shared it for a copy from the studio.") from exc
    inspect_project_file(dest)  # the copy passes the same checks as any file the studio opens
    return dest, removed


def _remove_foreign(path: Path) -> tuple[str, ...]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        trust_nothing_in_schema(conn)
        version = SchemaVersion.from_user_version(conn.execute("PRAGMA user_version").fetchone()[0])
        foreign = compare_schema(conn, version).foreign
        conn.execute("BEGIN IMMEDIATE")
        # Triggers and views first (they may name the tables and columns dropped after them), then indexes, then
        # whole tables, then the columns left in the studio's own tables.
        order = {"trigger": 0, "view": 1, "index": 2, "table": 3}
        for item in sorted(foreign, key=lambda f: (f.column is not None, order.get(f.kind, 9))):
            _drop(conn, item, version)
        conn.execute("COMMIT")
        left = compare_schema(conn, version).foreign
        if left:
            raise SaveAsError(path, "some objects stayed: " + ", ".join(map(str, left)), "")
        conn.execute("VACUUM")  # the dropped objects' pages, and whatever they held, leave the copy
        return tuple(str(item) for item in foreign)
    finally:
        conn.close()


def _drop(conn: sqlite3.Connection, item: ForeignObject, version: SchemaVersion) -> None:
    quoted = '"' + item.name.replace('"', '""') + '"'
    if item.column is not None:
        column = '"' + item.column.replace('"', '""') + '"'
        conn.execute(f"ALTER TABLE {quoted} DROP COLUMN {column}")
        return
    conn.execute(f"DROP {item.kind.upper()} IF EXISTS {quoted}")
    if item.changed:
        sql = expected_sql(version, item.kind, item.name)
        if sql:
            conn.execute(sql)  # the studio's own definition, in place of the one that was changed
