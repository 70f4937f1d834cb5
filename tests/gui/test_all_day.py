"""A day of use: the project tree follows a session of 70,000 events from new rows only, the Events dock pages older
events back in from the project file instead of dropping them, filtering 20,000 rows waits for a pause in typing and
is one pass, the views stay bounded, and `studio bench soak` measures all of it on a chatty page.

Times are printed (run with -s), not judged: the machine is shared. What is judged is the work done (SQLite steps,
rows read, items kept)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Self

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSlider

from studio.app.project_service import ProjectService
from studio.app.settings_service import SettingsService
from studio.models.events import ConsoleEvent, NavigationEvent, NetworkEvent, SessionStarted
from studio.runtime import EngineRuntime
from studio.settings import StudioSettings
from studio.store import ProjectFile
from studio.store.event_rows import write_event
from studio.ui.event_rows import COLUMNS
from studio.ui.events_dock import EventsPanel
from studio.ui.project_tree import ProjectTree
from tests.gui.support import shoot

START = 1_700_000_000_000.0


def seed_session(project: ProjectFile, count: int, session_id: str = "s1") -> None:
    """A chatty page's session: 55 % console (a fifth of them errors), 42 % requests (a seventh of them 500s), 3 %
    client-side navigations, written in one transaction."""
    db = project.db
    with db.atomic():
        write_event(db, SessionStarted(session_id=session_id, at=START, browser_path="/usr/bin/chromium",
                                       browser_version="131.0", headless=True, viewport=(1280, 720), user_agent="ua"))
        for i in range(count):
            at, kind = START + 1 + i * 10, i % 100
            if kind < 55:
                event = ConsoleEvent(session_id=session_id, at=at, level="error" if kind % 5 == 0 else "log",
                                     text=f"message {i} from the chatty page")
            elif kind < 97:
                event = NetworkEvent(session_id=session_id, at=at, method="GET", resource_type="fetch",
                                     url=f"http://127.0.0.1/api/items?n={i}", status=500 if kind % 7 == 0 else 200)
            else:
                event = NavigationEvent(session_id=session_id, at=at, url=f"http://127.0.0.1/#/view/{i}")
            write_event(db, event)


def project_service(path: Path, open_it: bool = True) -> tuple[EngineRuntime, ProjectService]:
    settings = StudioSettings()
    runtime = EngineRuntime(settings)
    service = ProjectService(runtime, SettingsService(settings))
    if open_it:
        assert service.open_project(path) if path.exists() else service.new_project(path)
    return runtime, service


class SqliteSteps:
    """How many virtual-machine steps SQLite runs inside the block: rows read show up here, whatever the query."""

    def __init__(self, project: ProjectFile) -> None:
        self.conn, self.steps = project.db.conn, 0

    def _count(self) -> int:
        self.steps += 100
        return 0

    def __enter__(self) -> Self:
        self.conn.set_progress_handler(self._count, 100)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.conn.set_progress_handler(None, 0)


def texts(tree: ProjectTree) -> list[str]:
    return [item.text(0) for item in tree._walk()]


def test_the_project_tree_follows_70k_events_from_new_rows_only(qapp, tmp_path):
    path = tmp_path / "day.studio"
    with ProjectFile.create(path) as project:
        seed_session(project, 70_000)
    runtime, service = project_service(path, open_it=False)
    tree = ProjectTree(service)
    started = time.perf_counter()
    assert service.open_project(path)
    first_ms = (time.perf_counter() - started) * 1000
    project = service.project
    errors = tree._find("s:s1:console")
    session = tree._find("s:s1")
    assert errors.text(0) == "Console errors (7,700)" and errors.childCount() == 501
    assert errors.child(0).text(0) == "… 7,200 older (open in Events)"
    assert errors.child(500).text(0) == "message 69950 from the chatty page"
    assert "Network failures (4,200)" in texts(tree) and "Pages (2,100)" in texts(tree)

    for i in range(40):  # what a quarter of a second of the chatty page adds
        runtime.bus.publish(ConsoleEvent(session_id="s1", level="error" if i % 2 else "log", text=f"new {i}"))
    with SqliteSteps(project) as sqlite:
        started = time.perf_counter()
        tree.refresh()
        refresh_ms = (time.perf_counter() - started) * 1000
    with SqliteSteps(project) as quiet:
        tree.refresh()
    print(f"\nproject tree at 70,000 events: first fill {first_ms:.1f} ms (open included), "
          f"refresh with 40 new events {refresh_ms:.1f} ms ({sqlite.steps} SQLite steps), "
          f"refresh with none {tree.last_refresh_ms:.2f} ms ({quiet.steps} steps)")
    assert tree._find("s:s1") is session and tree._find("s:s1:console") is errors  # updated, not rebuilt
    assert errors.text(0) == "Console errors (7,720)" and errors.childCount() == 501
    assert errors.child(0).text(0) == "… 7,220 older (open in Events)" and errors.child(500).text(0) == "new 39"
    # Re-reading the session's rows, as the tree did, takes millions of steps at this size; new rows take hundreds.
    assert sqlite.steps < 20_000 and quiet.steps < 5_000
    service.shutdown()


def test_a_new_session_opens_on_top_while_the_others_keep_their_state(qapp, tmp_path):
    _runtime, service = project_service(tmp_path / "two.studio")
    tree = ProjectTree(service, shown_per_group=3)
    seed_session(service.project, 300, "s1")
    tree.refresh()
    pages = tree._find("s:s1:pages")
    pages.setExpanded(True)
    seed_session(service.project, 30, "s2")
    tree.refresh()
    root = tree.topLevelItem(0)
    assert root.child(0) is tree._find("s:s2") and root.child(0).isExpanded()  # newest first, opened
    assert tree._find("s:s1:pages") is pages and pages.isExpanded()
    assert pages.text(0) == "Pages (9)" and pages.childCount() == 4 and pages.child(0).text(0).startswith("… 6 older")
    service.shutdown()


def recording_panel(tmp_path: Path, max_rows: int, page_rows: int) -> tuple[EngineRuntime, ProjectService, EventsPanel]:
    runtime, service = project_service(tmp_path / "events.studio")
    panel = EventsPanel(project=service)
    panel.model.max_rows, panel.model.page_rows = max_rows, page_rows
    runtime.bus.subscribe(panel.add)  # as the window's browser service forwards every event
    panel.resize(1340, 320)  # the dock's width in a 1366 x 768 window
    panel.show()
    return runtime, service, panel


def publish_chatter(runtime: EngineRuntime, first: int, count: int) -> None:
    for i in range(first, first + count):
        if i % 3:
            runtime.bus.publish(ConsoleEvent(session_id="s1", level="log", text=f"message {i}"))
        else:
            runtime.bus.publish(NetworkEvent(session_id="s1", method="GET", url=f"http://127.0.0.1/api/{i}",
                                             resource_type="fetch", status=500 if i % 2 else 200))


def said(i: int) -> str:
    """The message publish_chatter's event number `i` reads as."""
    return f"message {i}" if i % 3 else f"GET http://127.0.0.1/api/{i}"


def messages(panel: EventsPanel) -> list[str]:
    return [panel.proxy.row(i).message for i in range(panel.proxy.rowCount())]


def test_the_events_dock_pages_older_events_back_in_from_the_project_file(qapp, tmp_path):
    runtime, service, panel = recording_panel(tmp_path, max_rows=150, page_rows=100)
    publish_chatter(runtime, 0, 400)
    panel.model.flush()
    assert panel.model.rowCount() == 150 and messages(panel)[-1] == said(399)
    assert panel.model.older == 250 and panel.load_older_button.isVisible()
    assert panel.window_label.text() == "250 older not shown"
    assert "the project file keeps them" in panel.window_label.toolTip()

    panel.load_older_button.click()
    assert panel.model.older == 150 and panel.model.holding and panel.newest_button.isVisible()
    assert messages(panel)[0] == said(150) and panel.model.rowCount() == 150  # the window stays bounded
    assert panel.model.newer == 100 and panel.window_label.text() == "150 older not shown · 100 newer waiting"

    scroll = panel.table.verticalScrollBar()
    scroll.triggerAction(QAbstractSlider.SliderAction.SliderToMinimum)  # the tester scrolls to the top
    QTest.qWait(50)
    assert messages(panel)[0] == said(50) and panel.model.older == 50
    assert scroll.value() > 0  # the rows the tester was reading stay in view

    publish_chatter(runtime, 400, 10)  # live events wait in the file while older ones are read
    panel.model.flush()
    assert messages(panel)[-1] == said(199) and panel.model.newer == 210
    shoot(panel, "events_dock_older")

    panel.newest_button.click()
    assert messages(panel)[-1] == said(409) and panel.model.rowCount() == 100
    assert not panel.model.holding and panel.model.newer == 0 and panel.model.older == 310
    assert not panel.newest_button.isVisible()
    publish_chatter(runtime, 410, 5)
    panel.model.flush()
    assert messages(panel)[-1] == said(414)  # live again
    service.shutdown()


def test_the_events_columns_say_source_kind_and_status(qapp, tmp_path):
    runtime, service, panel = recording_panel(tmp_path, max_rows=1000, page_rows=100)
    publish_chatter(runtime, 0, 4)
    runtime.bus.publish(NetworkEvent(session_id="s1", method="GET", url="http://127.0.0.1/gone",
                                     resource_type="document", failure="net::ERR_CONNECTION_REFUSED"))
    panel.model.flush()
    assert COLUMNS == ("Time", "Source", "Kind", "Status", "Message")
    header = [panel.proxy.headerData(i, Qt.Orientation.Horizontal) for i in range(len(COLUMNS))]
    assert header == list(COLUMNS)
    cells = [[panel.proxy.index(r, c).data() for c in range(1, 4)] for r in range(panel.proxy.rowCount())]
    assert cells == [["Network", "fetch", "200"], ["Console", "log", ""], ["Console", "log", ""],
                     ["Network", "fetch", "500"], ["Network", "document", "failed"]]
    panel.search.setText("500")
    assert messages(panel) == ["GET http://127.0.0.1/api/3"]  # a status is searchable
    service.shutdown()


def test_filtering_20k_rows_waits_for_a_pause_and_is_one_pass(qapp):
    panel = EventsPanel()
    panel.resize(1100, 320)
    panel.show()
    for i in range(20_000):
        if i % 2:
            panel.add(ConsoleEvent(level="error" if i % 10 == 1 else "log", text=f"message {i} about items"))
        else:
            panel.add(NetworkEvent(method="GET", url=f"http://127.0.0.1/api/orders?n={i}", resource_type="fetch",
                                   status=200))
    panel.model.flush()
    QTest.qWait(10)
    keystrokes = []
    for key in "items":
        started = time.perf_counter()
        QTest.keyClick(panel.search, key)
        qapp.processEvents()
        keystrokes.append((time.perf_counter() - started) * 1000)
    assert panel.proxy.rowCount() == 20_000  # typing on: nothing filtered yet
    QTest.qWait(300)
    expected = sum(1 for row in panel.model.rows if "items" in row.message.lower())
    assert panel.proxy.rowCount() == expected == 10_000
    applied = panel.proxy.last_filter_ms
    QTest.keyClicks(panel.search, " 1")
    QTest.qWait(300)
    narrowed = panel.proxy.last_filter_ms
    assert messages(panel) == [row.message for row in panel.model.rows if "items 1" in row.message.lower()] == []
    panel.search.setText("message 1")
    QTest.qWait(300)
    assert panel.proxy.rowCount() == sum(1 for row in panel.model.rows if "message 1" in row.message)
    print(f"\nfilter at 20,000 rows: keystrokes {', '.join(f'{ms:.1f}' for ms in keystrokes)} ms; "
          f"the filter after the pause {applied:.1f} ms; narrowing it {narrowed:.1f} ms")


def test_the_views_stay_bounded_and_nothing_keeps_every_event(qapp, tmp_path):
    runtime, service, panel = recording_panel(tmp_path, max_rows=1_000, page_rows=100)
    tree = ProjectTree(service, shown_per_group=50)
    runtime.bus.publish(SessionStarted(session_id="s1", browser_path="x", browser_version="1", headless=True,
                                       viewport=(1280, 720), user_agent="ua"))
    for round_ in range(5):
        for i in range(1_000):
            runtime.bus.publish(ConsoleEvent(session_id="s1", level="error", text=f"round {round_} error {i}"))
            runtime.bus.publish(NetworkEvent(session_id="s1", method="GET", url=f"http://127.0.0.1/{i}",
                                             resource_type="fetch", status=503))
        panel.model.flush()
        tree.refresh()
    assert panel.model.rowCount() == 1_000 and len(panel.proxy.shown) == 1_000
    assert panel.model.older == 9_001  # counted, and in the project file
    for key in ("s:s1:console", "s:s1:network"):
        assert tree._find(key).childCount() == 51  # 50 rows and the "… older" line
    gc.collect()
    # Only this test's events: other tests in the worker may keep theirs (a session fixture's event log).
    alive = sum(1 for thing in gc.get_objects()
                if isinstance(thing, (ConsoleEvent, NetworkEvent)) and thing.session_id == "s1")
    assert alive < 50  # the bus, the recorder, the dock and the tree keep rows, not the events
    service.shutdown()


@pytest.mark.slow
@pytest.mark.own_browser  # it measures the memory of the Chromium it launched
def test_the_soak_bench_measures_lag_memory_and_the_project(browser_info, tmp_path):
    done = subprocess.run([sys.executable, "-m", "studio", "bench", "soak", "--minutes", "0.25", "--json"],
                          capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["events_recorded"]["console"] > 100 and result["events_recorded"]["network"] > 100
    assert result["loop_lag_ms"]["samples"] > 50 and result["loop_lag_ms"]["max"] >= result["loop_lag_ms"]["p99"]
    assert len(result["memory_mb"]) >= 3 and all(row["studio"] > 0 and row["chromium"] > 0 and row["driver"] > 0
                                                 for row in result["memory_mb"])
    assert result["project_mb"] > 0 and set(result["met"]) == {"loop_lag_p99", "loop_lag_max", "studio_growth"}
