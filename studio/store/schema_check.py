"""Is a project file's schema the one the studio made? Testers share `.studio` files, and a file from someone else
may carry a trigger, a view or an index nobody here wrote: `AFTER INSERT ON jobs BEGIN DELETE FROM steps; END`
would run on the next recording and silently delete the tester's work. So before a file is opened, every schema
object in it (tables and their columns, indexes, triggers, views) is compared with what this build makes for the
file's version, built afresh in memory by the same migrations; anything else is named and the file refused."""

from __future__ import annotations

import functools
import sqlite3
from dataclasses import dataclass

from sqlite_utils import Database

from studio.store import migrations
from studio.store.schema import SchemaVersion, create_base_schema

# SQLite's own objects (AUTOINCREMENT's sqlite_sequence, ANALYZE's sqlite_stat*, automatic indexes) are its business.
_INTERNAL = "sqlite_"

Shape = dict[tuple[str, str], tuple[str, ...]]


@dataclass(frozen=True)
class ForeignObject:
    """One schema object the studio did not make: a whole table, index, trigger or view, or one column of a table;
    `changed` when an index of the studio's name was redefined."""

    kind: str
    name: str
    table: str
    column: str | None = None
    changed: bool = False

    def __str__(self) -> str:
        if self.column is not None:
            return f"column {self.table}.{self.column}"
        where = "" if self.kind == "table" else f" on {self.table}"
        return f"{self.kind} {self.name}{where}{' (changed)' if self.changed else ''}"


@dataclass(frozen=True)
class SchemaDifference:
    """What a file holds that the studio did not make (`foreign`) and what it lacks (`missing`, each a phrase)."""

    foreign: tuple[ForeignObject, ...]
    missing: tuple[str, ...]


def trust_nothing_in_schema(conn: sqlite3.Connection) -> None:
    """`PRAGMA trusted_schema = OFF`: functions with side effects may not run from the file's triggers and views."""
    conn.execute("PRAGMA trusted_schema = OFF")


def compare_schema(conn: sqlite3.Connection, version: SchemaVersion) -> SchemaDifference:
    """How the schema of the open file `conn` differs from the one this build makes for `version`."""
    found, expected = shape_of(conn), expected_shape(version)
    # A newer build of the same major only adds tables, columns and indexes (never a trigger or a view: the studio
    # makes none), so in a newer file those may be unknown here; what runs by itself never may.
    newer = version.minor > len(migrations.MIGRATIONS)
    foreign: list[ForeignObject] = []
    for key, detail in found.items():
        kind, name = key
        if newer and kind in ("table", "index") and (key not in expected or kind == "table"):
            continue
        if key not in expected:
            foreign.append(ForeignObject(kind, name, name if kind == "table" else detail[0]))
        elif kind == "table":
            foreign += [ForeignObject(kind, name, name, column) for column in detail if column not in expected[key]]
        elif detail != expected[key]:
            foreign.append(ForeignObject(kind, name, detail[0], changed=True))
    missing = [f"{kind} {name}" for kind, name in expected if (kind, name) not in found]
    missing += [f"column {name}.{column}" for (kind, name), columns in expected.items() if kind == "table"
                and (kind, name) in found for column in columns if column not in found[(kind, name)]]
    return SchemaDifference(tuple(foreign), tuple(missing))


def shape_of(conn: sqlite3.Connection) -> Shape:
    """Every schema object of the main database but SQLite's own: tables by their columns (generated and hidden
    ones too), indexes by their table, key columns and condition, triggers and views by the table they are on."""
    shape: Shape = {}
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY type, name").fetchall()
    for kind, name, table, sql in rows:
        if name.startswith(_INTERNAL) and kind in ("table", "index"):
            continue  # a trigger or a view is never SQLite's own, whatever its name
        if kind == "table":
            try:
                columns = conn.execute("SELECT name FROM pragma_table_xinfo(?)", (name,)).fetchall()
            except sqlite3.Error:
                columns = []  # a virtual table of a module this SQLite lacks: never one of ours, named as a table
            shape[(kind, name)] = tuple(column for (column,) in columns)
        elif kind == "index":
            columns = conn.execute("SELECT coalesce(name, '<expression>') FROM pragma_index_xinfo(?) WHERE key = 1 "
                                   "ORDER BY seqno", (name,)).fetchall()
            condition = _condition(sql)
            shape[(kind, name)] = (table, *(column for (column,) in columns), *([condition] if condition else []))
        else:
            shape[(kind, name)] = (table,)
    return shape


def expected_shape(version: SchemaVersion) -> Shape:
    """The schema this build makes for a file at `version`: v1.0 plus the migrations up to its minor."""
    return _shape_made_by(tuple(migrations.MIGRATIONS[: version.minor]))


@functools.lru_cache(maxsize=8)
def _shape_made_by(steps: tuple[migrations.Migration, ...]) -> Shape:
    conn = _made_afresh(steps)
    try:
        return shape_of(conn)
    finally:
        conn.close()


def expected_sql(version: SchemaVersion, kind: str, name: str) -> str | None:
    """The statement that makes one object of this build's schema at `version` (to put back a changed index)."""
    conn = _made_afresh(tuple(migrations.MIGRATIONS[: version.minor]))
    try:
        row = conn.execute("SELECT sql FROM sqlite_master WHERE type = ? AND name = ?", (kind, name)).fetchone()
        return None if row is None else row[0]
    finally:
        conn.close()


def _made_afresh(steps: tuple[migrations.Migration, ...]) -> sqlite3.Connection:
    """An in-memory database with the schema v1.0 plus `steps` make, by the same code as a real file."""
    conn = sqlite3.connect(":memory:")
    db = Database(conn, execute_plugins=False)
    create_base_schema(db)
    for migration in steps:
        migration(db)
    return conn


def _condition(sql: str | None) -> str:
    """A partial index's WHERE clause, with its spacing made uniform, so a changed condition shows."""
    if not sql:
        return ""
    upper = sql.upper()
    at = upper.rfind(" WHERE ")
    return " ".join(sql[at + 7:].split()) if at >= 0 else ""
