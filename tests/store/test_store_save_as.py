"""Save As writes a complete, standalone copy through SQLite's backup API, replacing a target atomically."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from store_samples import dump_tables, fingerprint, session_events, sidecars_absent
from studio.events import EventBus
from studio.models.events import NavigationEvent
from studio.store import ProjectFile, ProjectRecorder, SaveAsError


def integrity(path: Path) -> str:
    conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def test_the_copy_has_the_same_content_and_opens_on_its_own(tmp_path: Path) -> None:
    source = tmp_path / "work.studio"
    copy = tmp_path / "elsewhere" / "copy.studio"
    copy.parent.mkdir()
    with ProjectFile.create(source) as project:
        for event in session_events("s1"):
            project.record(event)
        project.add_run_summary("tour", "s1", 1.0, 2.0, {"ok": True})
        assert project.save_as(copy) == copy
        # The copy is complete before the source is closed: nothing of it lives in the source's -wal.
        assert sidecars_absent(copy)
        assert integrity(copy) == "ok"
        assert dump_tables(copy) == dump_tables(source)

    assert not any(p.name.endswith(".tmp") for p in copy.parent.iterdir())
    with ProjectFile.open(copy) as reopened:
        assert reopened.counts("s1") == {
            "navigations": 2,
            "console_errors": 2,
            "network_failures": 2,
            "screenshots": 1,
        }
        assert [s.job for s in reopened.run_summaries()] == ["tour"]


def test_save_as_while_a_session_is_recording(tmp_path: Path) -> None:
    source = tmp_path / "live.studio"
    copy = tmp_path / "snapshot.studio"
    bus = EventBus()
    with ProjectFile.create(source) as project, ProjectRecorder(project, bus):
        for event in session_events("s1")[:-1]:  # the session has not ended
            bus.publish(event)
        project.save_as(copy)
        bus.publish(NavigationEvent(session_id="s1", url="http://127.0.0.1/after-save"))
        bus.publish(session_events("s1")[-1])

        assert len(project.navigations("s1")) == 3, "recording goes on into the open project"
    with ProjectFile.open(copy) as snapshot:
        assert len(snapshot.navigations("s1")) == 2
        assert snapshot.sessions()[0].running


def test_an_existing_destination_is_replaced_whole(tmp_path: Path) -> None:
    source = tmp_path / "new.studio"
    dest = tmp_path / "old.studio"
    with ProjectFile.create(dest) as old:
        for event in session_events("old-session"):
            old.record(event)
    os.chmod(dest, 0o640)

    with ProjectFile.create(source) as project:
        for event in session_events("new-session"):
            project.record(event)
        project.save_as(dest)
        assert dump_tables(dest) == dump_tables(source)

    assert oct(dest.stat().st_mode & 0o777) == oct(0o640), "the replaced file keeps its permissions"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.studio", "old.studio"]
    with ProjectFile.open(dest) as reopened:
        assert [s.id for s in reopened.sessions()] == ["new-session"]


def test_a_failed_save_leaves_the_destination_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dest = tmp_path / "precious.studio"
    dest.write_text("someone else's file")
    before = fingerprint(dest)

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    with ProjectFile.create(tmp_path / "p.studio") as project:
        monkeypatch.setattr(os, "replace", failing_replace)
        with pytest.raises(SaveAsError) as caught:
            project.save_as(dest)
    assert "No space left on device" in str(caught.value)
    assert fingerprint(dest) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.studio", "precious.studio"]


def test_saving_over_the_open_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.studio"
    link = tmp_path / "link.studio"
    with ProjectFile.create(path) as project:
        project.record(NavigationEvent(session_id="s", url="http://x/"))
        link.symlink_to(path)
        for target in (path, link, tmp_path / "." / "p.studio"):
            with pytest.raises(SaveAsError) as caught:
                project.save_as(target)
            assert "open from that file" in str(caught.value)
        assert len(project.navigations("s")) == 1


def test_a_destination_open_in_another_program_is_refused(tmp_path: Path) -> None:
    dest = tmp_path / "busy.studio"
    with ProjectFile.create(dest) as other, ProjectFile.create(tmp_path / "p.studio") as project:
        other.record(NavigationEvent(session_id="s", url="http://x/"))
        before = fingerprint(dest)
        with pytest.raises(SaveAsError) as caught:
            project.save_as(dest)
        assert "-wal" in str(caught.value) or "-shm" in str(caught.value)
        assert fingerprint(dest) == before
