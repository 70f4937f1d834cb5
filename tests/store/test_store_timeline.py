"""Reading events a little at a time: the newest rows of a session's group after a row id with their counts (the
project tree), and pages of events before a time that together give back every stored event once (the Events dock)."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_samples import session_events

from studio.models.events import (
    ConsoleEvent,
    ItemProgress,
    MainJobStarted,
    NetworkEvent,
    ProgressEvent,
    ScreenshotEvent,
)
from studio.store import ProjectFile, migrations
from studio.store.timeline import RowCursor, create_timeline_indexes


def _chatty(project: ProjectFile, session_id: str, count: int, start: float) -> None:
    """`count` console messages and requests, every fifth an error or a failure."""
    for i in range(count):
        at = start + i
        if i % 2:
            project.record(ConsoleEvent(session_id=session_id, at=at, level="error" if i % 5 == 0 else "log",
                                        text=f"message {i}"))
        else:
            project.record(NetworkEvent(session_id=session_id, at=at, method="GET", url=f"http://127.0.0.1/api/{i}",
                                        resource_type="fetch", status=500 if i % 5 == 0 else 200))


def test_new_rows_and_counts_come_from_the_rows_after_a_cursor(tmp_path: Path) -> None:
    with ProjectFile.create(tmp_path / "p.studio") as project:
        timeline = project.timeline
        for event in session_events("s1") + session_events("s2", start=1_700_000_010_000.0):
            project.record(event)
        first = timeline.latest()
        assert first.console_events == 6 and first.network_events == 6 and first.navigations == 4
        full = project.counts("s1")
        assert {group: timeline.count_since(group, "s1") for group in ("pages", "screenshots", "console_errors",
                                                                        "network_failures")} == {
            "pages": full["navigations"], "screenshots": full["screenshots"],
            "console_errors": full["console_errors"], "network_failures": full["network_failures"]}

        _chatty(project, "s2", 300, 1_700_000_020_000.0)
        now = timeline.latest()
        assert timeline.sessions_with_rows(first, now) == {"s2"}  # s1 got nothing new
        assert timeline.sessions_with_rows(now, now) == set()
        new_errors = timeline.rows_since("console_errors", "s2", first.console_events, now.console_events, limit=10)
        assert len(new_errors) == 10 and all(row.is_error for row in new_errors)
        assert new_errors[-1].text == "message 295" and new_errors[0].id < new_errors[-1].id  # the newest, in order
        assert timeline.count_since("console_errors", "s2", first.console_events, now.console_events) == 30
        assert timeline.count_since("network_failures", "s2", first.network_events, now.network_events) == 30
        assert timeline.count_since("console_errors", "s1", first.console_events, now.console_events) == 0
        assert timeline.count_since("console_errors", "s2") == project.counts("s2")["console_errors"]
        assert [row.text for row in timeline.console_since("s2", first.console_events, limit=2)] == [
            "message 285", "message 295"]


def test_the_partial_indexes_serve_the_trees_queries(tmp_path: Path) -> None:
    with ProjectFile.create(tmp_path / "p.studio") as project:
        _chatty(project, "s1", 50, 1_700_000_000_000.0)
        plans = []
        for sql, params in (
            (("SELECT count(*) FROM console_events WHERE (kind = 'page_error' OR level = 'error') AND session_id = ?"
              " AND id > ?"), ["s1", 0]),
            (("SELECT count(*) FROM network_events WHERE ((failure IS NOT NULL AND failure != 'net::ERR_ABORTED')"
              " OR status >= 400) AND session_id = ? AND id > ?"), ["s1", 0]),
        ):
            plans.append(" ".join(str(row[-1]) for row in project.db.execute("EXPLAIN QUERY PLAN " + sql, params)))
        assert "USING INDEX console_errors" in plans[0] and "USING INDEX network_failures" in plans[1]


def test_pages_before_a_time_give_back_every_stored_event_once(tmp_path: Path) -> None:
    with ProjectFile.create(tmp_path / "p.studio") as project:
        recorded = session_events("s1")
        for event in recorded:
            project.record(event)
        _chatty(project, "s1", 200, 1_700_000_005_000.0)
        # Events of different tables at the very same moment must not be lost at a page's edge.
        for i in range(5):
            project.record(ConsoleEvent(session_id="s1", at=1_700_000_009_000.0, level="log", text=f"same time {i}"))
            project.record(NetworkEvent(session_id="s1", at=1_700_000_009_000.0, method="GET",
                                        url=f"http://127.0.0.1/same/{i}", resource_type="fetch", status=200))
        project.record(MainJobStarted(job_id="j1", at=1_700_000_009_500.0, kind="new_test_case", total_items=2))
        project.record(ItemProgress(job_id="j1", at=1_700_000_009_600.0, item="case 1", index=1, total=2,
                                    status="created"))
        timeline = project.timeline
        total = timeline.count_before()
        assert total == len(recorded) - 1 + 200 + 10 + 2  # progress ticks are not kept

        pages, edge = [], float("inf")
        while page := timeline.before(edge, limit=7):
            assert all(event.at < edge for event in page)
            assert [event.at for event in page] == sorted(event.at for event in page)
            assert timeline.count_before(edge) - len(page) == timeline.count_before(page[0].at)
            pages.append(page)
            edge = page[0].at
        events = [event for page in reversed(pages) for event in page]
        assert len(events) == total
        assert len({(event.type, event.at, getattr(event, "text", None), getattr(event, "url", None))
                    for event in events}) == total
        assert timeline.count_before(events[0].at) == 0

        # Each event reads back as it was recorded (a screenshot without its picture, which stays in the file).
        kept = [event for event in recorded if not isinstance(event, ProgressEvent)]
        first = events[: len(kept)]
        for before, after in zip(kept, first, strict=True):
            if isinstance(before, ScreenshotEvent):
                assert after.model_dump(exclude={"png"}) == before.model_dump(exclude={"png"})
            else:
                assert after == before
        assert [event.type for event in events[-2:]] == ["main_job_started", "item_progress"]


def test_a_file_from_before_the_indexes_gains_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.studio"
    shipped = list(migrations.MIGRATIONS)
    before = shipped.index(create_timeline_indexes)
    monkeypatch.setattr(migrations, "MIGRATIONS", shipped[:before])  # a file as the build before them wrote it
    with ProjectFile.create(path) as project:
        assert project.version.minor == before
        _chatty(project, "s1", 40, 1_700_000_000_000.0)
    monkeypatch.setattr(migrations, "MIGRATIONS", shipped)
    with ProjectFile.open(path) as project:
        assert project.version == migrations.latest_version()
        names = {row[0] for row in project.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {"console_errors", "network_failures", "console_events_at", "network_events_at", "navigations_at",
                "notices_at", "screenshots_at", "job_events_at"} <= names
        assert project.timeline.count_since("console_errors", "s1") == 4
        assert project.timeline.latest() == RowCursor(0, 0, 20, 20, 0)
