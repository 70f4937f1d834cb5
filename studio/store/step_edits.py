"""Editing a session's recorded steps in the project file: delete, put back and reorder, by position.

A recording is the tester's draft, so its steps can be deleted and moved. The `steps` table keeps one row per step
with `idx` unique per session; every edit renumbers the session's rows 0..n-1 in one transaction (the step's JSON
`index` follows its `idx`), so the export, which reads the steps by `idx`, writes them in the edited order, and a
step recorded afterwards (`max(idx) + 1`) lands after the last one. Edits name steps by their position in the
session (0-based, in `idx` order) rather than by row id: a deleted step put back gets a new row id, and a position
stays true while new steps are appended behind it, which is what makes undo after recording more steps exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlite_utils import Database


@dataclass(frozen=True)
class StoredStep:
    """One row of the `steps` table as it was, data verbatim, with its position in the session when it was taken."""

    position: int
    at: float
    origin: str
    action: str
    url: str
    ref: str | None
    data: str


class StepEdits:
    """Deletes, puts back and reorders one session's steps; each call is one transaction that renumbers `idx`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def indexes(self, session_id: str) -> list[int]:
        """The session's `idx` values in order (damaged rows too): a step's position is its place in this list."""
        return [row[0] for row in self.db.execute("SELECT idx FROM steps WHERE session_id = ? ORDER BY idx",
                                                  (session_id,)).fetchall()]

    def delete(self, session_id: str, positions: Sequence[int]) -> list[StoredStep]:
        """Delete the steps at `positions`; returns their rows (ascending positions) to `restore` them exactly."""
        with self.db.atomic():
            rows = _rows(self.db, session_id)
            wanted = sorted({p for p in positions if 0 <= p < len(rows)})
            removed = [_stored(position, rows[position]) for position in wanted]
            for position in wanted:
                self.db.execute("DELETE FROM steps WHERE id = ?", (rows[position][0],))
            gone = set(wanted)
            kept = [row[0] for position, row in enumerate(rows) if position not in gone]
            _renumber(self.db, session_id, kept)
        return removed

    def restore(self, session_id: str, removed: Sequence[StoredStep]) -> None:
        """Put deleted steps back at the positions they had, with their data as it was; later steps move down."""
        with self.db.atomic():
            ids = [row[0] for row in _rows(self.db, session_id)]
            spare = _next_idx(self.db, session_id)  # above every idx, so the insert never collides
            for offset, step in enumerate(sorted(removed, key=lambda s: s.position)):
                cursor = self.db.execute(
                    "INSERT INTO steps (session_id, idx, at, origin, action, url, ref, data)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (session_id, spare + offset, step.at, step.origin, step.action, step.url, step.ref, step.data))
                assert cursor.lastrowid is not None
                ids.insert(min(step.position, len(ids)), cursor.lastrowid)
            _renumber(self.db, session_id, ids)

    def reorder(self, session_id: str, order: Sequence[int]) -> None:
        """Put the steps in a new order: `order[new position] = old position`, over the first len(order) steps
        (steps recorded after those keep their places behind them)."""
        with self.db.atomic():
            ids = [row[0] for row in _rows(self.db, session_id)]
            if sorted(order) != list(range(len(order))) or len(order) > len(ids):
                raise ValueError(f"not an order of the session's first {len(order)} steps: {list(order)}")
            _renumber(self.db, session_id, [ids[old] for old in order] + ids[len(order):])


def moved(count: int, selected: Sequence[int], down: bool) -> list[int] | None:
    """The order after moving the `selected` positions one place up (or down) among `count` steps, as for
    `StepEdits.reorder`; a selected step already at the edge holds the ones behind it. None when nothing moves."""
    chosen = set(selected)
    order = list(range(count))
    places = range(count - 2, -1, -1) if down else range(1, count)
    for place in places:
        neighbour = place + 1 if down else place - 1
        if order[place] in chosen and order[neighbour] not in chosen:
            order[place], order[neighbour] = order[neighbour], order[place]
    return None if order == list(range(count)) else order


def inverse(order: Sequence[int]) -> list[int]:
    """The order that undoes `order`."""
    back = [0] * len(order)
    for new, old in enumerate(order):
        back[old] = new
    return back


def _rows(db: Database, session_id: str) -> list[tuple[int, float, str, str, str, str | None, str]]:
    return db.execute("SELECT id, at, origin, action, url, ref, data FROM steps WHERE session_id = ? ORDER BY idx",
                      (session_id,)).fetchall()


def _stored(position: int, row: tuple[int, float, str, str, str, str | None, str]) -> StoredStep:
    _id, at, origin, action, url, ref, data = row
    return StoredStep(position=position, at=at, origin=origin, action=action, url=url, ref=ref, data=data)


def _next_idx(db: Database, session_id: str) -> int:
    return int(db.execute("SELECT coalesce(max(idx), -1) + 1 FROM steps WHERE session_id = ?",
                          (session_id,)).fetchone()[0])


def _renumber(db: Database, session_id: str, ids: Sequence[int]) -> None:
    """Give the rows `ids` the indexes 0..n-1 in that order, in their column and in their JSON.

    UNIQUE (session_id, idx) is checked row by row, so every row first moves to a negative idx of its own (idx is
    never negative between transactions), then to its place. A row whose JSON someone damaged keeps its data.
    """
    db.execute("UPDATE steps SET idx = -1 - id WHERE session_id = ?", (session_id,))
    for position, row_id in enumerate(ids):
        db.execute("UPDATE steps SET idx = ?, data = CASE WHEN json_valid(data) THEN json_set(data, '$.index', ?)"
                   " ELSE data END WHERE id = ?", (position, position, row_id))
