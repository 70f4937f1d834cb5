"""The live view against a real Chromium and the demo app: frames arrive and are painted, input reaches the page."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.runtime import EngineRuntime
from studio.settings import StudioSettings
from studio.ui.synthetic_input import mouse_click, mouse_double_click, wheel
from tests.gui.support import equals, greater, until, widget_point
from tests.gui.support import open_browsing_studio as open_studio

pytestmark = [pytest.mark.gui, pytest.mark.browser]


def test_frames_reach_the_view_and_clicks_and_keys_reach_the_page(qloop, demo, tmp_path):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/help")
        view = window.live_view
        try:
            await until(lambda: view.frames_painted > 0, what="a painted frame")
            # The painted frame is the page: the view's image has the page's size and is not blank.
            image = view.grab().toImage()
            rect = view.frame_rect()
            assert rect.page_width == 1280 and rect.page_height == 720
            assert rect.width < 1280  # the widget is smaller than the page, so this is a scaled mapping
            assert not _is_red(image.pixelColor(round(rect.x + rect.width / 2), round(rect.y + rect.height / 2)))

            page = session.page
            question = page.get_by_role("button").filter(has_text="?").first
            box = await question.bounding_box()
            assert await question.get_attribute("aria-expanded") == "false"
            mouse_click(view, widget_point(view, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
            await until(lambda: equals(question.get_attribute("aria-expanded"), "true"), what="the click")

            search = page.get_by_test_id("help-search")
            sbox = await search.bounding_box()
            mouse_click(view, widget_point(view, sbox["x"] + 10, sbox["y"] + sbox["height"] / 2))
            QTest.keyClicks(view, "Card")
            QTest.keyClick(view, Qt.Key.Key_Backspace)
            await until(lambda: equals(search.input_value(), "Car"), what="typed text")

            # The page's own pixels reach the widget: paint the page red, and the view's centre turns red.
            await page.evaluate("""document.body.innerHTML = ''; document.body.style.background = 'rgb(220, 20, 30)'""")
            await until(lambda: _is_red(view.grab().toImage().pixelColor(
                round(rect.x + rect.width / 2), round(rect.y + rect.height / 2))), what="the page's red in the view")
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def _is_red(color) -> bool:
    return color.red() > 180 and color.green() < 70 and color.blue() < 80  # JPEG shifts colours a little


def _jpeg(color: str, size=(640, 360)) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QColor, QImage

    image = QImage(*size, QImage.Format.Format_RGB32)
    image.fill(QColor(color))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "JPG")
    return bytes(data)


def test_only_the_newest_frame_is_decoded_and_painted(qapp, qtbot):
    """Frames that arrive faster than the widget paints are dropped, never queued: one paint, the newest frame."""
    from studio.app.browser_service import BrowserService
    from studio.models.browser import LiveFrame
    from studio.ui.live_view import LiveView

    service = BrowserService(EngineRuntime(StudioSettings()))
    view = LiveView(service)
    qtbot.addWidget(view)
    view.message = ""  # no session here, so no "no page yet" banner over the frame
    view.resize(640, 360)
    view.show()
    qtbot.waitExposed(view)
    for number, color in enumerate(["#00c000", "#0000d0", "#d01010"]):  # a burst of three frames, no paint between
        service._on_frame(LiveFrame(jpeg=_jpeg(color), viewport_width=640, viewport_height=360, timestamp=number))
    assert service.frames_received == 3 and view.frames_shown == 0
    qtbot.waitUntil(lambda: view.frames_shown >= 1)
    view.repaint()
    assert view.frames_shown == 1  # the two older frames were never decoded
    assert _is_red(view.grab().toImage().pixelColor(320, 180))


def test_typing_a_url_navigates_and_updates_the_events_and_project(qloop, demo):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/privacy")
        try:
            window.url_bar.url_edit.setText(demo.base_url.removeprefix("http://") + "/nowhere")
            QTest.keyClick(window.url_bar.url_edit, Qt.Key.Key_Return)
            await until(lambda: session.page.url.endswith("/nowhere"), what="navigation")
            await until(lambda: window.url_bar.url_edit.text().endswith("/nowhere") or window.url_bar.url_edit.hasFocus())
            def kinds():
                window.events.model.flush()
                return {(row.category, row.status or row.kind) for row in window.events.model.rows}

            # The 404 response, the navigation and Chromium's console line about the 404 arrive separately.
            await until(lambda: {("network", "404"), ("navigation", "page"), ("console", "error")} <= kinds(),
                        what="the 404's events")
            window.events.errors_only.setChecked(True)
            visible = {window.events.proxy.index(r, 1).data() for r in range(window.events.proxy.rowCount())}
            # Chromium also logs "Failed to load resource … 404" to the console: both are errors.
            assert visible == {"Network", "Console"}
            window.events.toggles["console"].setChecked(False)
            visible = {window.events.proxy.index(r, 1).data() for r in range(window.events.proxy.rowCount())}
            assert visible == {"Network"}
            project = services.project.project
            assert [n.url for n in project.navigations(session.id)][-1].endswith("/nowhere")
            assert project.counts(session.id)["network_failures"] >= 1

            window.url_bar.url_edit.setText("ftp://nope")
            QTest.keyClick(window.url_bar.url_edit, Qt.Key.Key_Return)
            await until(lambda: window.message_bar.isVisible(), what="an error message")
            assert "only http and https" in window.message_bar.label.text()
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


@pytest.mark.own_browser  # it crashes the browser: its own, not the worker's
def test_a_killed_browser_shows_a_sentence_and_keeps_the_recording(qloop, demo):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/products")
        try:
            cdp = await session.context.browser.new_browser_cdp_session()
            try:
                await cdp.send("Browser.crash")
            except Exception:
                pass
            await until(lambda: window.message_bar.isVisible(), what="the crash message")
            assert "browser stopped unexpectedly" in window.message_bar.label.text()
            assert not services.browser.alive
            project = services.project.project
            await until(lambda: project.session(session.id).end_reason == "browser_disconnected")
            assert project.navigations(session.id)
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_wheel_scrolls_and_double_click_reaches_the_page(qloop, demo):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/privacy", viewport=(1100, 700))
        view = window.live_view
        try:
            await until(lambda: view.frames_painted > 0, what="a painted frame")
            # The status bar describes the running session, not the saved settings.
            assert "headless · 1100×700" in window.session_label.text()
            assert view.frame_rect().page_width == 1100
            page = session.page
            await page.evaluate(
                "window.__dbl = 0; document.addEventListener('dblclick', () => window.__dbl++)")
            middle = widget_point(view, 640, 400)
            wheel(view, middle, 3)
            await until(lambda: greater(page.evaluate("scrollY"), 200), what="the page to scroll")
            mouse_double_click(view, middle)
            await until(lambda: equals(page.evaluate("window.__dbl"), 1), what="the double click")
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_the_address_field_follows_the_page_unless_the_tester_is_typing(qloop, demo):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/help")
        edit = window.url_bar.url_edit
        try:
            edit.setFocus()
            await until(lambda: edit.text().endswith("/help"), what="the URL of the page")
            edit.setText("http://half-typed")
            edit.setModified(True)  # as after the tester's own keystrokes
            await session.goto(demo.base_url + "/privacy")
            await asyncio.sleep(0.3)
            assert edit.text() == "http://half-typed"  # not overwritten under the tester's fingers
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())
