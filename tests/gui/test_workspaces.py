"""Workspaces and the live page's place: each workspace shows its own docks and keeps its own layout across a
restart; news badges a dock instead of moving one; the live page keeps about half of a laptop window; the page can
live in its own window or fill the window and come back; `studio gui --workspace --size --screenshot`."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QToolBar

from studio.app.studio_app import StudioServices
from studio.settings import load_settings
from studio.ui.main_window import StudioWindow, build_window
from studio.ui.synthetic_input import mouse_click
from studio.ui.workspaces import live_page_share
from tests.gui.support import close_studio, equals, open_studio, until, widget_point
from tests.race.conftest import ref_of

pytestmark = pytest.mark.gui

EXPLORE = {"events", "observations", "steps", "inspector", "project"}
PLAYGROUND = {"context", "cases"}
SIZES = ((1366, 768), (1920, 1080))


@pytest.fixture
def config(tmp_path, monkeypatch):
    """Settings of this test only: what one window saves, the next one reads."""
    monkeypatch.setenv("STUDIO_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config" / "settings.json"


def shown(window: StudioWindow) -> set[str]:
    """The docks the workspace shows (in front of their tab group or behind another tab)."""
    return {key for key, dock in window.docks.docks.items() if dock.toggleViewAction().isChecked()}


def in_front(window: StudioWindow) -> set[str]:
    """The docks the tester sees (Qt keeps the docks behind a tab visible, but out of the window)."""
    return {key for key, dock in window.docks.docks.items() if dock.isVisible() and not dock.visibleRegion().isEmpty()}


def bars(window: StudioWindow) -> set[str]:
    return {bar.objectName() for bar in window.findChildren(QToolBar) if bar.isVisible()}


def new_window(size: tuple[int, int] | None = None) -> tuple[StudioServices, StudioWindow]:
    """The studio as `studio gui` builds it, on the saved settings, at `size` before it is first shown."""
    services = StudioServices(load_settings())
    window = build_window(services)
    window.closed = asyncio.get_event_loop().create_future()
    services.project.open_untitled()
    if size is not None:
        window.resize(*size)
    window.show()
    return services, window


async def settle() -> None:
    """Let Qt lay the window out (the qasync loop runs Qt's events while this waits)."""
    await asyncio.sleep(0.15)


def test_each_workspace_shows_its_docks_and_keeps_its_own_layout_after_a_restart(qloop, config):
    async def scenario():
        services, window = new_window((1500, 950))
        workspaces = window.workspaces
        try:
            await settle()
            assert workspaces.current == "Explore" and workspaces.names()[:2] == ["Explore", "Playground"]
            # One side column beside the page: the inspector above, Events (Steps behind it) below.
            assert shown(window) == EXPLORE and {"events", "inspector"} <= in_front(window)
            assert window.dockWidgetArea(window.docks["events"]) == window.dockWidgetArea(window.docks["inspector"])
            assert "playground-bar" not in bars(window) and "url-bar" in bars(window)

            # Ctrl+Alt+2, the View menu's entry and the toolbar's switcher all switch; the widgets stay the same.
            panel = window.race_front.inspector
            assert workspaces.actions["Playground"].shortcut().toString() == "Ctrl+Alt+2"
            workspaces.actions["Playground"].trigger()
            await settle()
            assert workspaces.current == "Playground" and workspaces.switcher.currentText() == "Playground"
            assert shown(window) == PLAYGROUND and in_front(window) == {"context"}
            assert "playground-bar" in bars(window)
            # The tester makes Playground theirs: Events beside the context, the context column wider.
            window.docks["events"].show()
            window.resizeDocks([window.docks["context"]], [520], Qt.Orientation.Horizontal)
            await settle()
            context_width = window.docks["context"].width()
            assert shown(window) == PLAYGROUND | {"events"}

            workspaces.switcher.setCurrentIndex(0)
            workspaces.switcher.activated.emit(0)
            await settle()
            assert workspaces.current == "Explore" and shown(window) == EXPLORE
            assert window.race_front.inspector is panel and window.docks["inspector"].widget().widget() is panel
            workspaces.switch("playground")
            await settle()
            assert shown(window) == PLAYGROUND | {"events"}
            assert abs(window.docks["context"].width() - context_width) <= 2
        finally:
            await close_studio(services, window)

        saved = load_settings()
        assert saved.workspace == "Playground" and set(saved.workspace_layouts) == {"Explore", "Playground"}
        services, window = new_window((1500, 950))  # a restart: a new window on the saved settings
        try:
            await settle()
            assert window.workspaces.current == "Playground" and shown(window) == PLAYGROUND | {"events"}
            assert abs(window.docks["context"].width() - context_width) <= 2
            window.workspaces.switch("Explore")
            await settle()
            assert shown(window) == EXPLORE
            window.workspaces.switch("Playground")
            window.workspaces.reset_action.trigger()  # back to the layout it comes with
            await settle()
            assert shown(window) == PLAYGROUND
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_the_live_page_keeps_about_half_of_the_window_in_every_workspace(qloop, config):
    async def scenario():
        shares: dict[tuple[str, tuple[int, int]], float] = {}
        for size in SIZES:
            services, window = new_window(size)
            try:
                for name in window.workspaces.names():
                    window.workspaces.switch(name)
                    await settle()
                    assert window.size().toTuple() == size
                    shares[name, size] = live_page_share(window, window.live_view)
            finally:
                await close_studio(services, window)
        for (name, (width, height)), share in shares.items():
            print(f"live page share {name} {width}x{height}: {share:.3f}")
        for (name, size), share in shares.items():
            if size == (1366, 768):
                assert share >= 0.45, (name, share)

    qloop.run_until_complete(scenario())


def test_steps_and_events_show_a_screenful_of_rows_on_a_laptop(qloop, config, tmp_path):
    """At 1366×768 the bottom strip gave Steps 1.5 rows and Events 2; in the side column they get half its height."""
    async def scenario():
        services, window = new_window((1366, 768))
        try:
            await settle()
            for key, view in (("steps", window.race_front.steps.table), ("events", window.events.table)):
                window.docks[key].raise_()
                await settle()
                row = max(view.fontMetrics().height() + 6, 20)
                assert view.viewport().height() >= 6 * row, (key, view.viewport().height())
            table = window.events.table
            assert not table.horizontalScrollBar().isVisible()  # the message column is in view, not off to the right
            assert table.columnViewportPosition(4) + 40 < table.viewport().width()
            assert window.events.width() <= window.docks["events"].width()
            assert live_page_share(window, window.live_view) >= 0.45
            window.grab().save(str(tmp_path / "explore-1366x768-events.png"))
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.browser
def test_news_badges_its_dock_and_never_changes_what_is_shown_or_in_front(qloop, demo, config, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path)
        race, docks = services.race, window.docks
        try:
            session = await services.browser.start(services.runtime.session_options(), demo.base_url + "/help")
            assert session is not None
            await until(lambda: window.live_view.frames_painted > 0, what="a painted frame")
            await settle()
            layout, front = shown(window), in_front(window)
            assert "observations" not in front  # Events is in front of the bottom tabs

            ref = ref_of((await race.race.snapshot()).text, "button")
            race.observe(ref)
            await until(lambda: window.race_front.observations.entries.topLevelItemCount() == 1, what="the entry")
            await settle()
            assert (shown(window), in_front(window)) == (layout, front)
            assert docks["observations"].windowTitle() == "Observations \u25cf" and "observations" in docks.badged
            assert window.statusBar().currentMessage().startswith(f"New in Observations: observed {ref}")

            window.race_front.steps.record_action.trigger()  # recording: the Steps dock is badged, not raised
            await until(lambda: race.recording, what="recording")
            await settle()
            assert (shown(window), in_front(window)) == (layout, front)
            assert docks["steps"].windowTitle() == "Steps \u25cf"
            race.set_recording(False)

            docks["observations"].raise_()  # the tester opens the tab: the badge goes
            await settle()
            assert docks["observations"].windowTitle() == "Observations" and "observations" not in docks.badged

            # News for a dock the workspace hides says how to show it.
            window.workspaces.switch("Playground")
            await settle()
            layout = shown(window)
            race.observe(ref)
            await until(lambda: window.race_front.observations.entries.topLevelItemCount() == 2, what="the entry")
            await settle()
            assert shown(window) == layout
            assert window.statusBar().currentMessage().endswith("(View › Observations, Ctrl+3)")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.browser
def test_the_live_page_in_its_own_window_and_alone_in_the_window_and_back(qloop, demo, config, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path)
        view, place = window.live_view, window.live_page
        try:
            session = await services.browser.start(services.runtime.session_options(), demo.base_url + "/help")
            assert session is not None
            await until(lambda: view.frames_painted > 0, what="a painted frame")
            await settle()
            layout, front, toolbars = shown(window), in_front(window), bars(window)
            state = window.saveState()
            share = live_page_share(window, view)

            # In its own window: the studio keeps its docks, the page still takes clicks.
            place.own_window_action.trigger()
            await settle()
            own = place.own_window
            assert own is not None and own.isVisible() and view.window() is own and place.away.isVisible()
            assert shown(window) == layout
            question = session.page.get_by_role("button").filter(has_text="?").first
            await until(lambda: view.frames_painted > 0 and view.frame_rect() is not None, what="a frame")
            box = await question.bounding_box()
            assert await question.get_attribute("aria-expanded") == "false"
            mouse_click(view, widget_point(view, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
            await until(lambda: equals(question.get_attribute("aria-expanded"), "true"), what="the click")
            own.close()  # closing it brings the page back
            await settle()
            assert view.window() is window and place.own_window is None and not place.away.isVisible()
            assert place.place == "window" and not place.own_window_action.isChecked()

            # Alone in the window (F11): no docks, no toolbars; Esc brings everything back as it was.
            place.only_action.trigger()
            await settle()
            assert in_front(window) == set() and bars(window) == set()
            assert live_page_share(window, view) > share
            window.activateWindow()  # the page's own window was the active one
            await until(window.isActiveWindow, what="the studio window to be active")
            view.setFocus()
            QTest.keyClick(view, Qt.Key.Key_Escape)
            await settle()
            assert place.place == "window"
            assert (shown(window), in_front(window), bars(window)) == (layout, front, toolbars)
            assert window.saveState() == state
            place.only_action.trigger()
            place.only_action.trigger()  # F11 again goes back too
            await settle()
            assert (shown(window), bars(window)) == (layout, toolbars)
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def studio_command(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "studio", *args], check=False, capture_output=True, text=True,
                          timeout=180, env=env)


@pytest.mark.browser
def test_gui_renders_a_workspace_at_a_size_into_a_png(demo, config, tmp_path):
    png = tmp_path / "playground.png"
    done = studio_command("gui", "--url", demo.base_url + "/help", "--workspace", "playground", "--size", "1366x768",
                          "--screenshot", str(png))
    assert done.returncode == 0, done.stderr
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1366, 768)
    # The page is painted (many colours in the middle of the page area), not the empty dark view.
    colours = {image.pixel(x, y) for x in range(100, 800, 9) for y in range(150, 600, 9)}
    assert len(colours) > 30


def test_gui_refuses_an_unknown_workspace_or_size_naming_the_valid_ones(tmp_path):
    wrong = studio_command("gui", "--workspace", "Review", "--screenshot", str(tmp_path / "w.png"))
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert "no workspace called 'Review'" in wrong.stderr and "Explore, Playground" in wrong.stderr
    assert not (tmp_path / "w.png").exists()
    size = studio_command("gui", "--size", "1366by768", "--screenshot", str(tmp_path / "w.png"))
    assert size.returncode == 2 and "e.g. 1366x768" in size.stderr
    small = studio_command("gui", "--size", "300x200", "--screenshot", str(tmp_path / "w.png"))
    assert small.returncode == 2 and "800x500" in small.stderr
