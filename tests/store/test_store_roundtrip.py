"""Every engine event recorded through the bus comes back from the file after it is closed and reopened."""

from __future__ import annotations

from pathlib import Path

import pytest

from store_samples import TINY_PNG, dump_tables, pragma, session_events, sidecars_absent
from studio.events import EventBus
from studio.models.events import NavigationEvent, ProgressEvent
from studio.store.migrations import latest_version
from studio.store import (
    APPLICATION_ID,
    ProjectExistsError,
    ProjectFile,
    ProjectNotFoundError,
    ProjectRecorder,
)


def record_session(project: ProjectFile, session_id: str) -> None:
    bus = EventBus()
    with ProjectRecorder(project, bus):
        for event in session_events(session_id):
            bus.publish(event)


def test_every_event_type_survives_close_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "shop.studio"
    with ProjectFile.create(path) as project:
        record_session(project, "s1")

    assert sidecars_absent(path), "close() must leave one self-contained file"
    assert pragma(path, "application_id") == APPLICATION_ID
    assert pragma(path, "user_version") == latest_version().to_user_version()

    with ProjectFile.open(path) as project:
        [session] = project.sessions()
        assert session.id == "s1"
        assert session.browser_path == "/usr/bin/chromium"
        assert session.browser_version == "131.0"
        assert session.headless is True
        assert session.viewport == (1280, 720)
        assert session.user_agent == "Mozilla/5.0 test"
        assert session.started_at == 1_700_000_000_000.0
        assert session.end_reason == "closed"
        assert session.end_message == "You closed the browser."
        assert not session.running

        navigations = project.navigations("s1")
        assert [(n.url, n.title) for n in navigations] == [
            ("http://127.0.0.1/login", "Log in"),
            ("http://127.0.0.1/dashboard", "Dashboard"),
        ]

        console = project.console("s1")
        assert [(c.kind, c.level, c.text) for c in console] == [
            ("console", "log", "app booted"),
            ("console", "error", "boom"),
            ("page_error", "error", "TypeError: x is undefined"),
        ]
        assert (console[1].url, console[1].line) == ("http://127.0.0.1/app.js", 12)
        assert [c.text for c in project.console("s1", kinds=["page_error"])] == ["TypeError: x is undefined"]
        assert len(project.console("s1", kinds=["console"])) == 2

        network = project.network("s1")
        assert [(r.method, r.status, r.failure) for r in network] == [
            ("GET", 200, None),
            ("POST", 500, None),
            ("GET", None, "net::ERR_CONNECTION_REFUSED"),
        ]
        assert network[0].duration_ms == 12.5
        assert [r.url for r in project.network("s1", failed_only=True)] == [
            "http://127.0.0.1/api/cart/add",
            "http://127.0.0.1/font.woff",
        ]

        [shot] = project.screenshots("s1")
        assert (shot.label, shot.width, shot.height, shot.size_bytes) == ("dashboard", 1, 1, len(TINY_PNG))
        assert project.screenshot_png(shot.id) == TINY_PNG

        assert [(n.level, n.message) for n in project.notices("s1")] == [
            ("warning", "The page is slow to settle.")
        ]
        assert project.counts("s1") == {
            "navigations": 2,
            "console_errors": 2,
            "network_failures": 2,
            "screenshots": 1,
        }


def test_progress_ticks_are_not_evidence(tmp_path: Path) -> None:
    path = tmp_path / "p.studio"
    with ProjectFile.create(path) as project:
        record_session(project, "s1")
        before = dump_tables(path)
        tick = ProgressEvent(session_id="s1", job="tour", step=2, total=3, message="dashboard")
        assert project.record(tick) is False
        assert dump_tables(path) == before


def test_sessions_are_kept_apart_and_listed_in_start_order(tmp_path: Path) -> None:
    with ProjectFile.create(tmp_path / "p.studio") as project:
        bus = EventBus()
        recorder = ProjectRecorder(project, bus)
        for event in session_events("later", start=2_000.0) + session_events("earlier", start=1_000.0):
            bus.publish(event)
        recorder.close()
        bus.publish(NavigationEvent(session_id="earlier", url="http://after-close/"))

        assert [s.id for s in project.sessions()] == ["earlier", "later"]
        assert project.counts("later")["navigations"] == 2
        assert len(project.navigations("earlier")) == 2, "a closed recorder must stop recording"
        project.set_session_label("later", "Checkout run")
        assert project.session("later").label == "Checkout run"
        assert project.session("nope") is None
        assert project.counts("nope") == dict.fromkeys(
            ("navigations", "console_errors", "network_failures", "screenshots"), 0
        )


def test_session_end_without_its_start_is_still_kept(tmp_path: Path) -> None:
    with ProjectFile.create(tmp_path / "p.studio") as project:
        project.record(session_events("s1")[-1])
        [session] = project.sessions()
        assert (session.id, session.started_at, session.end_reason) == ("s1", None, "closed")


def test_run_summaries_and_meta(tmp_path: Path) -> None:
    path = tmp_path / "Fintech app.studio"
    with ProjectFile.create(path) as project:
        assert project.meta("name") == "Fintech app"
        assert project.meta("studio_version")
        assert float(project.meta("created_at")) > 1_600_000_000_000
        assert project.meta("missing", "fallback") == "fallback"
        project.set_meta("name", "Fintech")
        first = project.add_run_summary("demo_tour", "s1", 1.0, 2.0, {"pages": 4, "errors": ["x"]})
        second = project.add_run_summary("game_eval", None, 3.0, None, {"score": 81.5})
    with ProjectFile.open(path) as project:
        assert project.meta("name") == "Fintech"
        summaries = project.run_summaries()
        assert [(s.id, s.job, s.session_id, s.summary) for s in summaries] == [
            (first, "demo_tour", "s1", {"pages": 4, "errors": ["x"]}),
            (second, "game_eval", None, {"score": 81.5}),
        ]
        assert summaries[1].finished_at is None


def test_create_refuses_an_existing_path_and_leaves_it_alone(tmp_path: Path) -> None:
    path = tmp_path / "taken.studio"
    path.write_text("my notes")
    with pytest.raises(ProjectExistsError) as caught:
        ProjectFile.create(path)
    assert str(path) in str(caught.value)
    assert path.read_text() == "my notes"


def test_open_of_a_missing_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "gone.studio"
    with pytest.raises(ProjectNotFoundError) as caught:
        ProjectFile.open(path)
    assert "does not exist" in str(caught.value)
    assert not path.exists()


def test_open_or_create_creates_then_reopens(tmp_path: Path) -> None:
    path = tmp_path / "p.studio"
    with ProjectFile.open_or_create(path) as project:
        project.record(NavigationEvent(session_id="s", url="http://x/"))
    with ProjectFile.open_or_create(path) as project:
        assert len(project.navigations("s")) == 1


def test_an_empty_file_becomes_a_new_project(tmp_path: Path) -> None:
    # What a "New project" file dialog or mkstemp leaves behind: 0 bytes, nothing to protect.
    path = tmp_path / "blank.studio"
    path.touch()
    with ProjectFile.open(path) as project:
        assert project.sessions() == []
    assert pragma(path, "application_id") == APPLICATION_ID


def test_screenshot_png_of_an_unknown_id_is_a_key_error(tmp_path: Path) -> None:
    with ProjectFile.create(tmp_path / "p.studio") as project, pytest.raises(KeyError):
        project.screenshot_png(42)


def test_cancelled_requests_are_kept_but_not_counted_as_failures(tmp_path):
    from studio.events import EventBus
    from studio.models.events import NetworkEvent, SessionStarted
    from studio.store.project import ProjectFile
    from studio.store.recorder import ProjectRecorder

    bus = EventBus()
    with ProjectFile.create(tmp_path / "p.studio") as project, ProjectRecorder(project, bus):
        bus.publish(SessionStarted(session_id="s1", browser_path="/c", browser_version="1", headless=True,
                                   viewport=(1280, 720), user_agent="ua"))
        cancelled = NetworkEvent(session_id="s1", method="GET", url="http://h/favicon.svg", resource_type="other",
                                 failure="net::ERR_ABORTED")
        refused = NetworkEvent(session_id="s1", method="GET", url="http://h/api", resource_type="fetch",
                               failure="net::ERR_CONNECTION_REFUSED")
        not_found = NetworkEvent(session_id="s1", method="GET", url="http://h/x", resource_type="fetch", status=404)
        for event in (cancelled, refused, not_found):
            bus.publish(event)
        assert [cancelled.failed, refused.failed, not_found.failed] == [False, True, True]
        assert len(project.network("s1")) == 3
        assert [r.url for r in project.network("s1", failed_only=True)] == ["http://h/api", "http://h/x"]
        assert project.counts("s1")["network_failures"] == 2
        assert [r.failed for r in project.network("s1")] == [False, True, True]
