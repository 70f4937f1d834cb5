"""The window on a computer without a browser: the tester types an address, and instead of a dead end a dialog says
what is missing with three choices — fetch Playwright's Chromium (progress from the installer's output, Cancel that
stops it and its download helper, a readable sentence when it fails), choose a browser by path (checked with
--version, kept in Settings), or not now (the bar keeps the way back). A ready browser starts the session again.

The real dialog and window; only the installer is a stand-in (tests/browser/fake_installer.py, as nothing can be
downloaded here), and the machine's own browsers are kept out of the search (STUDIO_BROWSER_SEARCH=playwright)."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.browser.discovery import find_browser
from studio.settings import settings_path
from studio.ui.first_run import BrowserSetupDialog
from tests.gui.support import close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui]

FAKE_INSTALLER = Path(__file__).parent.parent / "browser" / "fake_installer.py"


@pytest.fixture
def no_browser(monkeypatch, tmp_path):
    """This machine as one without Chrome, Edge or Chromium: only Playwright's (empty) folder is searched."""
    monkeypatch.delenv("STUDIO_BROWSER", raising=False)
    monkeypatch.delenv("STUDIO_BROWSER_ENDPOINT", raising=False)
    monkeypatch.setenv("STUDIO_BROWSER_SEARCH", "playwright")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "ms-playwright"))
    return tmp_path


def _fake_chromium(path: Path, answer: str = "Chromium 156.0.8078.108 built on Debian") -> str:
    path.write_text(f"#!/bin/sh\necho '{answer}'\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


async def _dialog_after_typing_an_address(window) -> BrowserSetupDialog:
    window.url_bar.url_edit.setFocus()
    window.url_bar.url_edit.setText("127.0.0.1:9/login")
    QTest.keyClick(window.url_bar.url_edit, Qt.Key.Key_Return)
    dialog = await until(lambda: window.browser_setup.dialog, what="the no-browser dialog")
    await until(dialog.isVisible, what="the dialog on screen")
    await asyncio.sleep(0.1)  # laid out once before a picture
    return dialog


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # killed, and not yet reaped by its parent
        return not Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except (OSError, IndexError):
        return False


def test_no_browser_opens_the_dialog_with_its_three_choices_and_not_now_keeps_the_way_back(qloop, no_browser):
    async def scenario():
        services, window = open_studio(no_browser, "first.studio")
        try:
            dialog = await _dialog_after_typing_an_address(window)
            assert dialog.headline.text() == "Preflight Studio needs a browser"
            assert dialog.detail.text().startswith("No Chrome, Edge or Chromium was found on this computer")
            choices = [dialog.fetch_button, dialog.choose_button, dialog.later_button]
            assert [b.text() for b in choices] == ["Fetch Playwright's Chromium", "Choose a Browser…", "Not Now"]
            assert all(b.isVisible() and b.isEnabled() for b in choices)
            assert str(no_browser / "ms-playwright") in dialog.fetch_button.description()
            assert not dialog.progress_row.isVisible()  # no progress before a fetch
            assert not services.browser.alive
            shoot(dialog, "no-browser-dialog")
            shoot(window, "no-browser-window")

            dialog.later_button.click()
            bar = window.message_bar
            await until(lambda: bar.button("Fetch or Choose a Browser…") is not None, what="the bar's way back")
            assert bar.label.text().startswith("No Chrome, Edge or Chromium was found")
            assert "studio browser install" not in bar.label.text()  # the window's words, not the terminal's
            shoot(window, "no-browser-not-now")
            bar.button("Fetch or Choose a Browser…").click()
            again = await until(lambda: window.browser_setup.dialog is not dialog and window.browser_setup.dialog,
                                what="the dialog again")
            assert again.isVisible() and again.later_button.text() == "Not Now"
            again.reject()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_the_fetch_shows_progress_and_cancel_stops_the_installer_and_its_helper(qloop, no_browser):
    pids = no_browser / "pids"

    async def scenario():
        services, window = open_studio(no_browser, "first.studio")
        window.browser_setup.installer = [sys.executable, str(FAKE_INSTALLER), "slow", str(pids)]
        try:
            dialog = await _dialog_after_typing_an_address(window)
            dialog.fetch_button.click()
            await until(lambda: dialog.progress.value() >= 10, what="a percentage from the installer")
            assert dialog.progress_row.isVisible() and dialog.cancel_button.isEnabled()
            assert not dialog.fetch_button.isEnabled() and not dialog.choose_button.isEnabled()
            assert dialog.status.text().startswith("Downloading Chrome for Testing 159.0.8154.6")
            assert "% of 167.3 MiB" in dialog.status.text()
            shoot(dialog, "fetch-progress")

            dialog.cancel_button.click()
            await until(lambda: dialog.outcome is not None, what="the cancelled fetch")
            assert dialog.outcome.status == "cancelled"
            assert dialog.answer.text().startswith("Cancelled: Chromium was not installed")
            assert not dialog.progress_row.isVisible() and dialog.fetch_button.isEnabled()
            for pid in map(int, pids.read_text().split()):
                await until(lambda pid=pid: not _alive(pid), timeout=10, what=f"process {pid} to end")
            shoot(dialog, "fetch-cancelled")
            dialog.reject()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_closing_the_dialog_mid_fetch_stops_the_installer(qloop, no_browser):
    pids = no_browser / "pids"

    async def scenario():
        services, window = open_studio(no_browser, "first.studio")
        window.browser_setup.installer = [sys.executable, str(FAKE_INSTALLER), "slow", str(pids)]
        try:
            dialog = await _dialog_after_typing_an_address(window)
            dialog.fetch_button.click()
            await until(lambda: pids.exists() and len(pids.read_text().split()) == 2, what="the installer's pids")
            dialog.reject()  # Esc, or the window closing
            for pid in map(int, pids.read_text().split()):
                await until(lambda pid=pid: not _alive(pid), timeout=10, what=f"process {pid} to end")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_a_failed_fetch_is_a_sentence_with_the_next_step(qloop, no_browser):
    async def scenario():
        services, window = open_studio(no_browser, "first.studio")
        window.browser_setup.installer = [sys.executable, str(FAKE_INSTALLER), "offline"]
        try:
            dialog = await _dialog_after_typing_an_address(window)
            dialog.fetch_button.click()
            await until(lambda: dialog.outcome is not None, what="the failed fetch")
            said = dialog.answer.text()
            assert said.startswith("Chromium could not be downloaded: this computer cannot reach cdn.playwright.dev")
            assert "HTTPS_PROXY" in said and said.endswith("or choose a browser that is already installed.")
            assert "Error:" not in said and "    at " not in said and "Traceback" not in said
            assert dialog.isVisible() and dialog.fetch_button.isEnabled() and dialog.choose_button.isEnabled()
            shoot(dialog, "fetch-offline")
            dialog.reject()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_choosing_a_browser_checks_it_and_keeps_it_in_settings_then_the_session_starts_again(qloop, no_browser):
    not_a_browser = _fake_chromium(no_browser / "python3", "Python 3.11.2")
    chromium = _fake_chromium(no_browser / "chromium")

    async def scenario():
        services, window = open_studio(no_browser, "first.studio")
        retried: list[str] = []
        try:
            dialog = await _dialog_after_typing_an_address(window)
            window.new_session = lambda url=None: retried.append(window.url_bar.url_edit.text())  # no launch here
            dialog.ask_browser_path = lambda: not_a_browser
            dialog.choose_button.click()
            await until(lambda: dialog.answer.isVisible(), what="the refusal")
            assert "is not Chrome, Edge or Chromium: asked for its version it answered 'Python 3.11.2'" in \
                dialog.answer.text()
            assert services.settings.settings.browser_path is None
            assert not settings_path().exists() or json.loads(settings_path().read_text())["browser_path"] is None
            shoot(dialog, "choose-refused")

            dialog.ask_browser_path = lambda: chromium
            dialog.choose_button.click()
            await until(lambda: dialog.closed, what="the dialog closing on a good browser")
            assert services.settings.settings.browser_path == chromium
            assert json.loads(settings_path().read_text())["browser_path"] == chromium  # saved, not only held
            assert retried == ["127.0.0.1:9/login"]  # the session starts again where the tester was going
            assert window.message_bar.label.text() == f"The studio now uses the browser at {chromium}."
            assert find_browser(chosen=services.settings.settings.browser_path).source == "settings"
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_a_finished_fetch_is_found_and_replaces_a_chosen_browser_that_is_gone(qloop, no_browser, monkeypatch):
    chromium = _fake_chromium(no_browser / "real-chromium")

    async def scenario():
        services, window = open_studio(no_browser, "first.studio")
        gone = services.settings.settings.model_copy(update={"browser_path": str(no_browser / "uninstalled")})
        services.settings.apply(gone)
        retried: list[bool] = []
        window.browser_setup.installer = [sys.executable, str(FAKE_INSTALLER), "installs", chromium]
        try:
            dialog = await _dialog_after_typing_an_address(window)
            window.new_session = lambda url=None: retried.append(True)  # a real launch is another test's
            assert dialog.detail.text().startswith(f"The browser chosen in Settings, {no_browser / 'uninstalled'}")
            shoot(dialog, "chosen-browser-gone")
            started = time.monotonic()
            dialog.fetch_button.click()
            await until(lambda: dialog.closed, what="the dialog closing once installed")
            assert time.monotonic() - started < 30
            installed = no_browser / "ms-playwright" / "chromium-1255" / "chrome-linux64" / "chrome"
            assert dialog.outcome is not None and dialog.outcome.ok
            assert services.settings.settings.browser_path is None  # the stale choice no longer comes first
            assert find_browser().path == str(installed) and retried == [True]
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_session_browser_menu_says_which_browser_new_sessions_use(qloop, no_browser, monkeypatch):
    chromium = _fake_chromium(no_browser / "chromium")
    monkeypatch.setenv("STUDIO_BROWSER", chromium)

    async def scenario():
        services, window = open_studio(no_browser, "first.studio")
        try:
            [entry] = [a for a in window.menuBar().actions() if a.text() == "&Session"]
            [browser_item] = [a for a in entry.menu().actions() if a.text() == "&Browser…"]
            browser_item.trigger()
            dialog = await until(lambda: window.browser_setup.dialog, what="the browser dialog")
            assert dialog.headline.text() == f"New sessions use {chromium}"
            assert dialog.later_button.text() == "Close"
            await asyncio.sleep(0.1)
            shoot(dialog, "browser-menu")
            dialog.reject()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
