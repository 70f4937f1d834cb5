"""The main window without modal dialogs: File menu, recent projects, refused files, settings, docks, Events."""

from __future__ import annotations


import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from studio.app.studio_app import StudioServices
from studio.models.events import ConsoleEvent, NavigationEvent, NetworkEvent, ProgressEvent, SessionStarted
from studio.settings import StudioSettings, load_settings
from studio.store.project import ProjectFile
from studio.ui.events_dock import EventsPanel
from studio.ui.main_window import StudioWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def studio(qapp, qloop, tmp_path, monkeypatch):
    monkeypatch.setenv("STUDIO_CONFIG_DIR", str(tmp_path / "config"))
    services = StudioServices(StudioSettings())
    window = StudioWindow(services.browser, services.project, services.settings)
    window.closed = qloop.create_future()
    yield services, window
    window.close()
    qloop.run_until_complete(services.shutdown())


def _record_something(services, session_id="s1"):
    services.bus.publish(SessionStarted(session_id=session_id, browser_path="/c", browser_version="1",
                                        headless=True, viewport=(1280, 720), user_agent="ua"))
    services.bus.publish(NavigationEvent(session_id=session_id, url="http://app/one"))


def test_new_save_as_open_and_recent(studio, tmp_path):
    services, window = studio
    window.ask_save_path = lambda *a, **k: str(tmp_path / "first")
    window.new_project()
    assert services.project.path == tmp_path / "first.studio" and not services.project.untitled
    _record_something(services)

    window.ask_save_path = lambda *a, **k: str(tmp_path / "copy.studio")
    window.save_project_as()
    assert services.project.path == tmp_path / "copy.studio"
    services.bus.publish(NavigationEvent(session_id="s1", url="http://app/two"))  # recorded into the copy now
    with ProjectFile.open(tmp_path / "first.studio") as first:
        assert [n.url for n in first.navigations("s1")] == ["http://app/one"]
    assert [n.url for n in services.project.project.navigations("s1")] == ["http://app/one", "http://app/two"]

    window.ask_open_path = lambda: str(tmp_path / "first.studio")
    window.open_project()
    assert services.project.path == tmp_path / "first.studio"
    recent = load_settings().recent_projects
    assert recent[:2] == [str(tmp_path / "first.studio"), str(tmp_path / "copy.studio")]
    window._fill_recent()
    assert [a.text() for a in window.recent_menu.actions()][:2] == recent[:2]
    assert "first.studio" in window.windowTitle()


def test_a_refused_file_shows_a_sentence_and_keeps_the_open_project(studio, tmp_path):
    services, window = studio
    services.project.open_untitled()
    _record_something(services)
    current = services.project.path
    foreign = tmp_path / "notes.studio"
    foreign.write_text("just some text\n")
    window.ask_open_path = lambda: str(foreign)
    window.open_project()
    assert services.project.path == current
    assert window.message_bar.isVisibleTo(window)
    text = window.message_bar.label.text()
    assert "notes.studio is not a Preflight Studio project" in text and "It was not changed" in text
    assert foreign.read_text() == "just some text\n"
    services.bus.publish(NavigationEvent(session_id="s1", url="http://app/after"))
    assert services.project.project.navigations("s1")[-1].url == "http://app/after"

    window.ask_save_path = lambda *a, **k: str(current)
    window.new_project()  # an existing file is never overwritten by New
    assert "already exists" in window.message_bar.label.text()


def _open_shared(window, tmp_path, planted_sql: str):
    """Open, in the window, a project someone shared after changing it with `planted_sql` outside the studio."""
    import sqlite3

    shared = tmp_path / "shared.studio"
    with ProjectFile.create(shared) as project:
        project.record(NavigationEvent(session_id="s1", url="http://app/theirs"))
    conn = sqlite3.connect(shared)
    conn.execute(planted_sql)
    conn.commit()
    conn.close()
    window.ask_open_path = lambda: str(shared)
    window.open_project()
    return shared


def test_a_shared_file_with_a_planted_trigger_offers_a_clean_copy(studio, tmp_path):
    services, window = studio
    _open_shared(window, tmp_path, "CREATE TRIGGER wipe AFTER INSERT ON navigations BEGIN DELETE FROM navigations; END")
    assert "trigger wipe on navigations" in window.message_bar.label.text()
    buttons = window.message_bar.action_buttons
    assert [b.text() for b in buttons] == ["Open Clean Copy"]
    window.grab().save(str(tmp_path / "clean-copy-offer.png"))
    buttons[0].click()
    assert services.project.path == tmp_path / "shared-clean.studio"
    services.bus.publish(NavigationEvent(session_id="s1", url="http://app/mine"))
    urls = [n.url for n in services.project.project.navigations("s1")]
    assert urls == ["http://app/theirs", "http://app/mine"]


def test_damaged_rows_in_a_shared_file_are_named_and_the_rest_opens(studio, tmp_path):
    services, window = studio
    shared = _open_shared(window, tmp_path, "INSERT INTO jobs (id, kind, status, created_at, updated_at, data) "
                                            "VALUES ('j9', 'preflight', 'paused', 1, 1, '{not json')")
    assert services.project.path == shared
    assert "has 1 damaged row, skipped: jobs row 'j9'" in window.message_bar.label.text()


def test_settings_apply_to_the_next_session(studio, tmp_path):
    services, window = studio
    updated = StudioSettings(headless=False, viewport=(1024, 768), browser_path="/opt/chrome")
    window.ask_settings = lambda: updated
    window.edit_settings()
    assert load_settings().viewport == (1024, 768)
    options = window.settings.session_options()
    assert (options.headless, options.viewport, options.browser_path) == (False, (1024, 768), "/opt/chrome")
    # One change signal reaches every holder: the engine's next session and job use the new settings too.
    assert services.runtime.settings is updated
    assert services.runtime.session_options().viewport == (1024, 768)
    window.ask_settings = lambda: None  # Cancel changes nothing
    window.edit_settings()
    assert window.settings is updated


def test_settings_dialog_edits_a_copy(qapp):
    from studio.ui.dialogs import SettingsDialog

    original = StudioSettings()
    dialog = SettingsDialog(original)
    dialog.width_box.setValue(1440)
    dialog.headless.setChecked(False)
    dialog.storage_state.setText("  /tmp/login-state.json ")
    result = dialog.result_settings()
    assert result.viewport == (1440, 720) and not result.headless
    assert result.storage_state == "/tmp/login-state.json"
    assert result.session_options().storage_state.name == "login-state.json"
    assert original.viewport == (1280, 720) and original.headless


def test_adding_a_dock_is_one_call_with_a_view_toggle(studio):
    _, window = studio
    window.show()
    dock = window.docks.add("notes", "Notes", QLabel("hello"), Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+9")
    toggle = dock.toggleViewAction()
    assert toggle in window.view_menu.actions() and toggle.shortcut().toString() == "Ctrl+9"
    toggle.trigger()
    assert not dock.isVisible()
    with pytest.raises(ValueError):
        window.docks.add("notes", "Again", QLabel())


def test_events_panel_batches_and_filters(qapp, qtbot):
    panel = EventsPanel()
    qtbot.addWidget(panel)
    panel.add(ConsoleEvent(level="log", text="hello"))
    panel.add(ConsoleEvent(level="error", text="boom"))
    panel.add(NetworkEvent(method="GET", url="http://a/x", resource_type="fetch", status=500))
    panel.add(NetworkEvent(method="GET", url="http://a/y", resource_type="fetch", status=200))
    panel.add(ProgressEvent(job="demo", step=1, total=2, message="Visiting /help"))
    assert panel.model.rowCount() == 0  # batched: nothing until the flush timer fires
    qtbot.waitUntil(lambda: panel.model.rowCount() == 5, timeout=2000)
    panel.errors_only.setChecked(True)
    assert panel.proxy.rowCount() == 2
    panel.errors_only.setChecked(False)
    panel.search.setText("visiting")
    assert panel.proxy.rowCount() == 1
    panel.search.setText("")
    panel.toggles["network"].setChecked(False)
    assert panel.proxy.rowCount() == 3
    panel.model.clear()
    assert panel.proxy.rowCount() == 0


def test_closing_the_window_resolves_closed(studio, qloop):
    _, window = studio
    window.show()
    window.close()
    assert window.closed.done()


def test_untitled_projects_opened_in_the_same_second_do_not_collide(studio):
    services, _ = studio
    paths = []
    for _ in range(3):
        services.project.open_untitled()
        paths.append(services.project.path)
    assert len(set(paths)) == 3 and services.project.untitled


def test_the_seed_job_events_read_as_sentences_under_job(qapp, qtbot):
    from studio.models.context import PendingQuestion
    from studio.models.events import AskedQuestion, ItemProgress, MainJobCompleted, PreflightProgress, PreflightQuestion

    panel = EventsPanel()
    qtbot.addWidget(panel)
    panel.add(PreflightProgress(job_id="j", objective="build_ui_map", message="Surveying /alerts", step=4,
                                max_steps=40))
    area = PendingQuestion.make("area", "Area", "Which area?", "The request names no page.")
    panel.add(PreflightQuestion(job_id="j", questions=[AskedQuestion.of(area)]))
    panel.add(ItemProgress(job_id="j", item="case tc-1", index=1, total=3, status="created",
                           message="Created 'Empty form is refused'"))
    panel.add(MainJobCompleted(job_id="j", kind="new_test_case", status="budget_exhausted",
                               summary={"summary": "The job used its 180 s."}))
    qtbot.waitUntil(lambda: panel.model.rowCount() == 4, timeout=2000)
    rows = panel.model.rows
    assert {row.category for row in rows} == {"job"}
    assert rows[0].message == "[build_ui_map] Surveying /alerts  (step 4 of at most 40)"
    assert rows[1].message == "asks: Which area?" and rows[1].is_warning
    assert rows[2].kind == "item" and rows[2].status == "created"
    assert rows[2].message == "1/3 created: Created 'Empty form is refused'"
    assert rows[3].is_warning and rows[3].message.endswith("The job used its 180 s.")
    panel.toggles["job"].setChecked(False)
    assert panel.proxy.rowCount() == 0


def test_the_screenshot_viewer_saves_and_explains_a_failed_save(qapp, tmp_path):
    from studio.ui.dialogs import ScreenshotViewer

    data = _tiny_png()
    viewer = ScreenshotViewer(data, "Screenshot 1")
    viewer.ask_save_path = lambda: str(tmp_path / "no-such-folder" / "shot.png")
    viewer.save_button.click()
    assert "Could not save" in viewer.status.text() and "Choose another folder" in viewer.status.text()
    viewer.ask_save_path = lambda: str(tmp_path / "shot.png")
    viewer.save_button.click()
    assert (tmp_path / "shot.png").read_bytes() == data and viewer.status.text().startswith("Saved")
    viewer.close()


def _tiny_png() -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage

    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(0x3366CC)
    raw = QByteArray()
    buffer = QBuffer(raw)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(raw)
