"""Files that are not ours, are damaged or are too new are refused with a sentence, and not changed by a byte."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from store_samples import TINY_PNG, fingerprint, session_events, set_user_version, sidecars_absent
from studio.events import EventBus
from studio.models.events import NavigationEvent, ScreenshotEvent
from studio.store import (
    DamagedProjectError,
    ForeignFileError,
    NewerProjectError,
    ProjectError,
    ProjectFile,
    ProjectRecorder,
)


def refuse(path: Path, error: type[ProjectError]) -> ProjectError:
    """Open `path` expecting `error`, and check that neither the file nor its companions changed."""
    before = fingerprint(path)
    with pytest.raises(error) as caught:
        ProjectFile.open(path)
    with pytest.raises(error):
        ProjectFile.open_or_create(path)
    assert fingerprint(path) == before
    assert sidecars_absent(path)
    message = str(caught.value)
    assert str(path) in message
    assert "not changed" in message
    return caught.value


def big_project(path: Path) -> None:
    """A closed project with enough rows and blobs to span many pages."""
    bus = EventBus()
    with ProjectFile.create(path) as project, ProjectRecorder(project, bus):
        for event in session_events("s1"):
            bus.publish(event)
        for i in range(300):
            bus.publish(NavigationEvent(session_id="s1", url=f"http://127.0.0.1/page/{i}", title=f"Page {i}"))
        for i in range(20):
            png = TINY_PNG + os.urandom(8_000)
            bus.publish(ScreenshotEvent(session_id="s1", label=f"shot {i}", url="u", width=1, height=1, png=png))


def test_a_text_file_is_foreign(tmp_path: Path) -> None:
    path = tmp_path / "notes.studio"
    path.write_text("Remember to test the checkout.\n" * 50)
    error = refuse(path, ForeignFileError)
    assert "not a Preflight Studio project" in str(error)


def test_a_png_is_foreign(tmp_path: Path) -> None:
    path = tmp_path / "screenshot.studio"
    path.write_bytes(TINY_PNG)
    refuse(path, ForeignFileError)


def test_a_short_file_of_garbage_is_foreign(tmp_path: Path) -> None:
    path = tmp_path / "x.studio"
    path.write_bytes(b"SQL")
    refuse(path, ForeignFileError)


@pytest.mark.parametrize("journal_mode", ["delete", "wal"])
@pytest.mark.parametrize("application_id", [0, 0x47504B47])  # none, and GeoPackage's "GPKG"
def test_another_applications_sqlite_database_is_foreign(
    tmp_path: Path, journal_mode: str, application_id: int
) -> None:
    path = tmp_path / "other.studio"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA journal_mode = {journal_mode}")
    conn.execute(f"PRAGMA application_id = {application_id}")
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ada', '555')")
    conn.commit()
    conn.close()
    error = refuse(path, ForeignFileError)
    assert "SQLite database" in str(error)


def test_a_folder_is_foreign(tmp_path: Path) -> None:
    path = tmp_path / "folder.studio"
    path.mkdir()
    with pytest.raises(ForeignFileError):
        ProjectFile.open(path)


def test_a_project_with_garbage_from_page_three_on_is_damaged(tmp_path: Path) -> None:
    path = tmp_path / "damaged.studio"
    big_project(path)
    page_size = 4096
    data = bytearray(path.read_bytes())
    assert len(data) > 20 * page_size
    garbage = bytes((i * 151 + 7) % 256 for i in range(len(data) - 2 * page_size))
    data[2 * page_size :] = garbage
    path.write_bytes(bytes(data))

    error = refuse(path, DamagedProjectError)
    assert "is damaged (SQLite reports:" in str(error)
    assert ".recover" in str(error)


def test_a_project_whose_table_pages_are_torn_is_damaged(tmp_path: Path) -> None:
    # Smaller damage in the middle: a few pages zeroed, as a failing disk or a bad copy would leave them.
    path = tmp_path / "torn.studio"
    big_project(path)
    data = bytearray(path.read_bytes())
    middle = (len(data) // 4096 // 2) * 4096
    data[middle - 3 * 4096 : middle + 3 * 4096] = b"\xff" * (6 * 4096)
    data[4096 : 3 * 4096] = b"\x00" * (2 * 4096)
    path.write_bytes(bytes(data))
    refuse(path, DamagedProjectError)


def test_a_newer_major_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.studio"
    big_project(path)
    set_user_version(path, (2 << 16) | 3)
    error = refuse(path, NewerProjectError)
    assert "newer Preflight Studio" in str(error)
    assert "2.3" in str(error)
    assert "Update Preflight Studio" in str(error)


def test_an_index_that_disagrees_with_its_table_is_damaged(tmp_path: Path) -> None:
    # Every page is intact (quick_check says ok), but the navigations index no longer matches its rows: queries by
    # session would silently miss pages. Only a full integrity check notices.
    path = tmp_path / "index.studio"
    big_project(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema=ON")
    conn.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX \"idx_navigations_session_id\" ON \"navigations\" (\"url\")'"
                 " WHERE name = 'idx_navigations_session_id'")
    conn.commit()
    conn.close()
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    check.close()
    error = refuse(path, DamagedProjectError)
    assert "missing from index" in str(error)
