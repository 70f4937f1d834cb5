"""The observation's screenshot in the Pilot dock: one line that says what it is ("base64 PNG, 84 KB", or the path of
its file), not the first 300 characters of its base64, and the image itself on a double-click. The first test runs
the studio on the demo with a real Chromium (the observation the session really writes); the others give the panel
a screenshot file, as `studio pilot --screenshot path` names it. Screenshots go to $STUDIO_GUI_SHOTS."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel, QTreeWidgetItem

from studio.ui.dialogs import ScreenshotViewer
from studio.ui.pilot_panel import PilotPanel
from studio.ui.pilot_screenshot import summary
from studio.ui.synthetic_input import mouse_double_click
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui]


def screenshot_row(panel: PilotPanel) -> QTreeWidgetItem:
    [row] = panel.observation.findItems("screenshot", Qt.MatchFlag.MatchExactly, 0)
    return row


def double_click(panel: PilotPanel, row: QTreeWidgetItem) -> None:
    """As a tester does: a double-click on the row's value, where it is drawn."""
    tree = panel.observation
    tree.scrollToItem(row)
    rect = tree.visualItemRect(row)
    point = rect.center()
    point.setX(tree.columnViewportPosition(1) + 20)
    mouse_double_click(tree.viewport(), point)


def viewers(panel: PilotPanel) -> list[ScreenshotViewer]:
    return [v for v in panel.findChildren(ScreenshotViewer) if v.isVisible()]


def shown_size(viewer: ScreenshotViewer) -> tuple[int, int]:
    [label] = [label for label in viewer.findChildren(QLabel) if not label.pixmap().isNull()]
    return label.pixmap().width(), label.pixmap().height()


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_observations_screenshot_reads_as_base64_png_and_opens_on_double_click(qloop, demo, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path, "pilot.studio")
        window.resize(1366, 768)
        service, panel = services.pilot, window.pilot.panel
        try:
            window.workspaces.switch("Pilot")
            window.open_url(demo.base_url + "/help")
            await until(lambda: window.live_view.frames_painted > 0, timeout=30, what="the help page")
            await until(lambda: "/help" in services.browser.session.page.url, what="the live page's address")
            started = NextSignal(service.sessionStarted)
            panel.goal.setText("Find how long a dispute takes")
            panel.start_button.click()
            folder = Path(await started.wait(30, what="the session to start"))
            await until(lambda: panel.observation.findItems("screenshot", Qt.MatchFlag.MatchExactly, 0),
                        what="the observation tree")
            written = json.loads((folder / "observation.json").read_text(encoding="utf-8"))
            png = base64.b64decode(written["screenshot"])  # the seed's default: in base64
            row = screenshot_row(panel)
            assert row.text(1) == f"base64 PNG, {round(len(png) / 1024)} KB"
            assert re.fullmatch(r"base64 PNG, \d+ KB", row.text(1))
            assert "Double-click" in row.toolTip(1) and written["screenshot"][:40] not in row.toolTip(1)
            shoot(panel, "pilot_panel_screenshot_row")

            double_click(panel, row)
            [viewer] = await until(lambda: viewers(panel), what="the screenshot viewer")
            image = QImage.fromData(png, "PNG")  # type: ignore[arg-type]
            assert shown_size(viewer) == (image.width(), image.height())
            shoot(viewer, "pilot_panel_screenshot_viewer")
            assert viewer.windowTitle() == f"Screenshot of pilot observation {written['stepNumber']}"
            viewer.close()
            panel.stop_button.click()
            await until(lambda: "DONE" in panel.status.text(), what="the session to end")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def png_file(path: Path, size=(320, 200)) -> bytes:
    image = QImage(*size, QImage.Format.Format_RGB32)
    image.fill(QColor("#2563eb"))
    path.parent.mkdir(parents=True, exist_ok=True)
    assert image.save(str(path), "PNG")
    return path.read_bytes()


def test_a_screenshot_file_is_shown_as_its_path_and_opens_from_the_session_folder(qtbot, tmp_path):
    panel = PilotPanel()
    qtbot.addWidget(panel)
    panel.resize(440, 600)
    panel.show()
    folder = tmp_path / "fe-pilot-sessions" / "exploration-1"
    relative = "screenshots/step-2-1700000000000.png"
    png_file(folder / relative)
    panel.session_started(str(folder))
    panel.show_observation({"stepNumber": 2, "currentUrl": "http://app.test/", "screenshot": relative})
    row = screenshot_row(panel)
    assert row.text(1) == relative  # a path stays the path
    assert "as the file screenshots/step-2-1700000000000.png in the session folder" in row.toolTip(1)

    double_click(panel, row)
    [viewer] = viewers(panel)
    assert shown_size(viewer) == (320, 200)
    viewer.close()

    (folder / relative).unlink()  # the folder cleaned up since
    double_click(panel, row)
    assert not viewers(panel)
    assert row.text(1).startswith(str(folder / relative) + " cannot be read")
    assert "moved or cleaned up" in row.text(1)


def test_what_a_screenshot_row_says(tmp_path):
    png = png_file(tmp_path / "shot.png", (1280, 720))
    encoded = base64.b64encode(png).decode("ascii")
    assert summary(encoded) == f"base64 PNG, {max(1, round(len(png) / 1024))} KB"
    assert summary("data:image/png;base64," + encoded) == summary(encoded)
    jpeg = base64.b64encode(b"\xff\xd8\xff\xe0" + bytes(3000)).decode("ascii")
    assert summary(jpeg) == "base64 JPEG, 3 KB"
    assert summary("screenshots/step-1-1.png") == "screenshots/step-1-1.png"
    assert summary("abcd") == "abcd"  # valid base64, but of no image: shown as it is
