"""Several programs opening one new project at once: one creates it, the others wait and open it, none writes twice."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from studio.store import EmptyProjectError, ProjectFile


def test_a_reader_leaves_a_blank_file_to_its_writer(tmp_path: Path) -> None:
    path = tmp_path / "new.studio"
    path.touch()
    with pytest.raises(EmptyProjectError) as caught:
        ProjectFile.open(path, writable=False)
    assert str(path) in str(caught.value) and "try again" in str(caught.value)
    assert path.stat().st_size == 0  # nothing was written by the reader


def test_openers_racing_on_a_blank_file_share_one_new_project(tmp_path: Path) -> None:
    """Four openers at once on a blank file, 40 times: each race has its own timing (one may inspect the file while
    another is switching it to WAL or writing its schema); every opener must get the one project."""
    openers = 4
    for round_no in range(40):
        path = tmp_path / f"new{round_no}.studio"
        path.touch()  # what a file dialog leaves: every opener sees a blank file and would initialise it
        start = threading.Barrier(openers)
        outcomes: list[object] = []

        def open_it() -> None:
            start.wait()
            try:
                with ProjectFile.open(path) as project:
                    outcomes.append(str(project.version))
            except Exception as error:  # the assertion below shows it
                outcomes.append(error)

        threads = [threading.Thread(target=open_it) for _ in range(openers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        errors = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
        assert not errors, [f"round {round_no}: {type(e).__name__}: {e}" for e in errors]
        assert len(outcomes) == openers and len(set(outcomes)) == 1
        with ProjectFile.open(path) as project:
            created = project.db.execute("SELECT count(*) FROM meta WHERE key = 'created_at'").fetchone()[0]
        assert created == 1


def test_an_empty_sqlite_database_is_a_blank_project(tmp_path: Path) -> None:
    """An SQLite file with no table and no signature holds nothing (another opener is creating it, or it was left
    empty): it is initialised like a 0-byte file, while a database with a table of its own stays foreign."""
    import sqlite3

    import pytest as _pytest

    from studio.store import ForeignFileError

    empty = tmp_path / "empty.studio"
    sqlite3.connect(empty).execute("VACUUM").connection.close()
    with ProjectFile.open(empty) as project:
        assert project.db.execute("SELECT count(*) FROM meta").fetchone()[0] == 3
    other = tmp_path / "other.studio"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text)")
    with _pytest.raises(ForeignFileError):
        ProjectFile.open(other)
