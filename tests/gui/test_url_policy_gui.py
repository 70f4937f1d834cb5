"""The address field follows the studio's one URL policy, while browsing and while recording: a file: URL is refused
with a sentence unless the studio was started with --allow-file-urls, and then it opens."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.app.studio_app import StudioServices
from studio.settings import StudioSettings
from studio.ui.main_window import StudioWindow
from tests.gui.support import until

pytestmark = [pytest.mark.gui, pytest.mark.browser]

PAGE = "<!doctype html><title>Local page</title><h1>Local page</h1>"


async def open_with(settings: StudioSettings, url: str, folder):
    services = StudioServices(settings)
    window = StudioWindow(services.browser, services.project, services.settings, services.race)
    window.closed = asyncio.get_running_loop().create_future()
    assert services.project.new_project(folder / "policy.studio")
    window.show()
    session = await services.browser.start(services.runtime.session_options(), url)
    assert session is not None
    return services, window, session


def type_url(window, text: str) -> None:
    window.url_bar.url_edit.setText(text)
    QTest.keyClick(window.url_bar.url_edit, Qt.Key.Key_Return)


@pytest.mark.parametrize("recording", [False, True])
def test_the_address_field_refuses_a_file_url_by_default(qloop, demo, tmp_path, recording):
    async def scenario():
        services, window, session = await open_with(StudioSettings(), demo.base_url + "/help", tmp_path)
        try:
            if recording:
                window.race_front.steps.record_action.trigger()
            type_url(window, "file:///etc/")
            await until(lambda: window.message_bar.isVisible(), what="the refusal")
            said = window.message_bar.label.text()
            assert "only http and https" in said and "--allow-file-urls" in said
            await asyncio.sleep(0.3)
            assert session.page.url.endswith("/help")
            assert services.project.project.steps(session.id) == []
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_a_new_session_does_not_start_on_a_file_url(qloop, demo, tmp_path):
    async def scenario():
        services, window, _session = await open_with(StudioSettings(), demo.base_url + "/help", tmp_path)
        try:
            window.url_bar.url_edit.setText("file:///etc/")
            window.new_session()  # Session > New Session starts at what the address field holds
            await until(lambda: window.message_bar.isVisible() and "--allow-file-urls" in
                        window.message_bar.label.text(), what="the refusal")
            assert services.browser.session.page.url == "about:blank"
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_with_the_opt_in_a_file_url_opens(qloop, demo, tmp_path):
    page = tmp_path / "page.html"
    page.write_text(PAGE)

    async def scenario():
        settings = StudioSettings(allow_file_urls=True)
        services, window, session = await open_with(settings, demo.base_url + "/help", tmp_path)
        try:
            type_url(window, page.as_uri())
            await until(lambda: session.page.url == page.as_uri(), what="the local page")
            assert await session.page.title() == "Local page"
        finally:
            window.close()
            await services.shutdown()
        assert "allow_file_urls" not in settings.model_dump_json()  # a per-run flag, never saved

    qloop.run_until_complete(scenario())
