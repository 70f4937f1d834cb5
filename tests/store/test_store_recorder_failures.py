"""When the project file cannot be written, the recorder tells the user once, keeps going and never breaks the engine."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from store_samples import TINY_PNG, dump_tables, session_events
from studio.events import EventBus
from studio.models.events import EngineEvent, NavigationEvent, NoticeEvent, ScreenshotEvent
from studio.store import ProjectFile, ProjectRecorder


class Notices:
    """Collects the notices a user would see."""

    def __init__(self, bus: EventBus) -> None:
        self.seen: list[NoticeEvent] = []
        bus.subscribe(self.seen.append, NoticeEvent)

    def levels(self) -> list[str]:
        return [n.level for n in self.seen]


def big_screenshot(i: int) -> EngineEvent:
    return ScreenshotEvent(
        session_id="s1", label=f"shot {i}", url="u", width=1, height=1, png=TINY_PNG + os.urandom(64_000)
    )


@pytest.fixture
def no_subscriber_crashes(caplog: pytest.LogCaptureFixture):
    """Fail the test if any exception escaped a subscriber into the bus."""
    with caplog.at_level(logging.ERROR, logger="studio.events"):
        yield
    assert not [r for r in caplog.records if r.name == "studio.events"]


@pytest.mark.usefixtures("no_subscriber_crashes")
def test_a_full_disk_is_reported_once_and_recording_resumes_when_there_is_room(tmp_path: Path) -> None:
    path = tmp_path / "full.studio"
    bus = EventBus()
    notices = Notices(bus)
    with ProjectFile.create(path) as project, ProjectRecorder(project, bus) as recorder:
        for event in session_events("s1"):
            bus.publish(event)
        notices.seen.clear()

        # max_page_count is SQLite's own quota: past it, writes fail with SQLITE_FULL exactly like a full disk.
        pages = project.db.execute("PRAGMA page_count").fetchone()[0]
        project.db.execute(f"PRAGMA max_page_count = {pages}")
        for i in range(3):
            bus.publish(big_screenshot(i))

        assert notices.levels() == ["error"], "one notice for a run of failures, not one per event"
        message = notices.seen[0].message
        assert str(path) in message
        assert "disk is full" in message
        assert "Free some disk space" in message
        assert notices.seen[0].session_id == "s1"
        assert recorder.lost_events == 3

        project.db.execute("PRAGMA max_page_count = 1073741823")
        bus.publish(NavigationEvent(session_id="s1", url="http://127.0.0.1/after"))

        assert notices.levels() == ["error", "info"]
        assert "works again" in notices.seen[1].message
        assert "3 events" in notices.seen[1].message
        assert [n.url for n in project.navigations("s1")][-1] == "http://127.0.0.1/after"
        assert project.counts("s1")["screenshots"] == 1
        # The gap itself is on record: the info notice was written once writes worked again.
        assert "works again" in project.notices("s1")[-1].message


@pytest.mark.usefixtures("no_subscriber_crashes")
def test_a_connection_closed_underneath_is_reported_not_raised(tmp_path: Path) -> None:
    bus = EventBus()
    notices = Notices(bus)
    project = ProjectFile.create(tmp_path / "p.studio")
    recorder = ProjectRecorder(project, bus)
    bus.publish(NavigationEvent(session_id="s1", url="http://127.0.0.1/"))

    project.db.conn.close()
    for i in range(5):
        bus.publish(NavigationEvent(session_id="s1", url=f"http://127.0.0.1/{i}"))

    assert notices.levels() == ["error"]
    assert "project was closed" in notices.seen[0].message
    assert recorder.lost_events == 5
    recorder.close()
    project.close()  # must not raise either


@pytest.mark.usefixtures("no_subscriber_crashes")
def test_a_deleted_file_is_reported_and_save_as_rescues_the_recording(tmp_path: Path) -> None:
    path = tmp_path / "doomed.studio"
    rescue = tmp_path / "rescued.studio"
    bus = EventBus()
    notices = Notices(bus)
    with ProjectFile.create(path) as project, ProjectRecorder(project, bus):
        bus.publish(NavigationEvent(session_id="s1", url="http://127.0.0.1/1"))
        os.remove(path)
        bus.publish(NavigationEvent(session_id="s1", url="http://127.0.0.1/2"))
        bus.publish(NavigationEvent(session_id="s1", url="http://127.0.0.1/3"))

        assert notices.levels() == ["error"]
        assert "moved or deleted" in notices.seen[0].message
        assert "Save As" in notices.seen[0].message
        project.save_as(rescue)

    assert [row[3] for row in dump_tables(rescue)["navigations"]] == [
        "http://127.0.0.1/1",
        "http://127.0.0.1/2",
        "http://127.0.0.1/3",
    ]


@pytest.mark.usefixtures("no_subscriber_crashes")
def test_a_file_that_turns_read_only_is_reported_with_what_to_do(tmp_path: Path) -> None:
    bus = EventBus()
    notices = Notices(bus)
    with ProjectFile.create(tmp_path / "p.studio") as project, ProjectRecorder(project, bus):
        # query_only makes every write fail with SQLITE_READONLY, as a remount or a permission change would.
        project.db.execute("PRAGMA query_only = ON")
        bus.publish(NavigationEvent(session_id="s1", url="http://127.0.0.1/lost"))
        project.db.execute("PRAGMA query_only = OFF")
        bus.publish(NavigationEvent(session_id="s1", url="http://127.0.0.1/kept"))

        assert notices.levels() == ["error", "info"]
        assert "read-only" in notices.seen[0].message
        assert "writable" in notices.seen[0].message
        assert "1 event recorded meanwhile" in notices.seen[1].message
        assert [n.url for n in project.navigations("s1")] == ["http://127.0.0.1/kept"]
