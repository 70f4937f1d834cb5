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
    path = tmp_path / "new.studio"
    path.touch()  # what a file dialog leaves: every opener sees a blank file and would initialise it
    openers = 4
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
    assert not errors, [f"{type(e).__name__}: {e}" for e in errors]
    assert len(outcomes) == openers and len(set(outcomes)) == 1
    with ProjectFile.open(path) as project:
        created = project.db.execute("SELECT count(*) FROM meta WHERE key = 'created_at'").fetchone()[0]
    assert created == 1
