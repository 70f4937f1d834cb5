"""The window's session controls against a real Chromium and the demo app: history buttons, a saved login state
that a later session starts from, tracing that follows the session's real state, the project tree, and Save As
errors as one sentence."""

from __future__ import annotations

import zipfile

import pytest

from studio.settings import StudioSettings
from tests.gui.support import is_none, until
from tests.gui.support import open_browsing_studio as open_studio

pytestmark = [pytest.mark.gui, pytest.mark.browser]


async def _sign_in_through_the_page(session, demo) -> None:
    user = demo.create_user(requires_2fa=False)
    await session.goto(demo.base_url + "/login")
    await session.page.get_by_test_id("email-input").fill(user["email"])
    await session.page.get_by_test_id("password-input").fill(user["password"])
    await session.page.get_by_test_id("login-button").click()
    await session.page.wait_for_url("**/dashboard")


def test_back_forward_and_reload_buttons_drive_the_page(qloop, demo):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/help")
        try:
            await services.browser.goto(demo.base_url + "/privacy")
            window.url_bar.back_action.trigger()
            await until(lambda: session.page.url.endswith("/help"), what="back")
            window.url_bar.forward_action.trigger()
            await until(lambda: session.page.url.endswith("/privacy"), what="forward")
            await session.page.wait_for_load_state()
            await session.page.evaluate("window.__marker = 1")
            window.url_bar.reload_action.trigger()
            await until(lambda: is_none(session.page.evaluate("window.__marker")), what="reload")
            await until(lambda: window.url_bar.url_edit.text().endswith("/privacy"), what="the address field")
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_a_saved_login_state_starts_a_later_session_signed_in(qloop, demo, tmp_path):
    state = tmp_path / "login-state.json"

    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/login")
        try:
            await _sign_in_through_the_page(session, demo)
            window.ask_save_path = lambda *a, **k: str(state)
            window.save_login_state()
            await until(state.exists, what="the saved login state")
            # Playwright writes the file before the session reports it: the message follows.
            await until(lambda: "Saved the login state" in window.message_bar.label.text(), what="the message")

            # Session > Start Signed In…: a new browser, signed in from the file, opens a members-only page.
            window.url_bar.url_edit.setText(demo.base_url + "/dashboard")
            window.ask_login_state_path = lambda: str(state)
            window.start_signed_in()
            await until(lambda: services.browser.session is not None and services.browser.session is not session
                        and services.browser.session.page is not None
                        and services.browser.session.page.url.endswith("/dashboard"), what="a signed-in session")
            assert "signed in from saved state" in window.session_label.text()

            # The same file in Settings: every new session starts signed in.
            window.ask_settings = lambda: StudioSettings(storage_state=str(state))
            window.edit_settings()
            previous = services.browser.session
            window.new_session(demo.base_url + "/alerts")
            await until(lambda: services.browser.session is not previous and services.browser.session is not None
                        and services.browser.session.page.url.endswith("/alerts"), what="a session from settings")

            # A damaged file is refused with a sentence, and no session pretends to be signed in.
            state.write_text("{ not json")
            window.start_signed_in()
            await until(lambda: "not valid JSON" in window.message_bar.label.text(), what="the refusal")
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_the_trace_menu_follows_the_sessions_real_tracing_state(qloop, demo, tmp_path):
    trace = tmp_path / "trace.zip"

    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/help")
        try:
            window.toggle_trace()
            await until(lambda: window.tracing, what="tracing on")
            assert window.trace_action.text().startswith("Stop Trace")
            await services.browser.goto(demo.base_url + "/privacy")
            window.ask_save_path = lambda *a, **k: str(trace)
            window.toggle_trace()
            await until(lambda: not window.tracing and trace.exists(), what="the saved trace")
            assert window.trace_action.text() == "Start &Trace" and zipfile.is_zipfile(trace)
            assert "playwright show-trace" in window.message_bar.label.text()

            await services.browser.stop()  # no session: starting a trace fails, and the menu says so
            window.toggle_trace()
            assert not window.tracing and window.trace_action.text() == "Start &Trace"
            assert "There is no browser session" in window.message_bar.label.text()
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_the_project_tree_lists_what_the_session_records(qloop, demo):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/help")
        tree = window.project_tree
        try:
            await services.browser.goto(demo.base_url + "/nowhere")  # a 404: a network failure
            services.browser.take_screenshot("manual")
            texts = lambda: [item.text(0) for item in tree._walk()]  # noqa: E731
            await until(lambda: "Screenshots (1)" in texts() and "Network failures (1)" in texts()
                        and "Pages (2)" in texts(), what="the tree's counts")
            assert any(text.endswith("/nowhere") and text.startswith("404") for text in texts())
            shot = next(item for item in tree._walk() if item.text(0).startswith("manual"))
            opened: list[int] = []
            tree.screenshotActivated.connect(opened.append)
            tree.itemActivated.emit(shot, 0)
            assert len(opened) == 1 and services.project.project.screenshot_png(opened[0]).startswith(b"\x89PNG")
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_save_as_into_a_folder_is_one_sentence(qloop, demo, tmp_path):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/help")
        try:
            (tmp_path / "folder.studio").mkdir()
            current = services.project.path
            window.ask_save_path = lambda *a, **k: str(tmp_path / "folder.studio")
            window.save_project_as()
            text = window.message_bar.label.text()
            assert text.count("Could not save") == 1 and "it is a folder" in text
            assert services.project.path == current
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_a_failed_navigation_keeps_the_typed_address(qloop, demo):
    async def scenario():
        services, window, session = await open_studio(demo.base_url + "/help")
        try:
            from tests.cli.test_cli import _free_port

            unreachable = f"http://127.0.0.1:{_free_port()}/orders"
            await services.browser.goto(unreachable)
            assert "connection refused" in window.message_bar.label.text()
            assert window.url_bar.url_edit.text() == unreachable  # not chrome-error://chromewebdata/
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())
