"""Help › About Preflight Studio, as a tester filing a bug report meets it: the installed version, PySide6 and the Qt
runtime, Playwright, the browser (the running one's own version, else "not started" and the one a session would
use), and where the log, the settings and the saved logins are, each a link that opens its folder; Copy Details."""

from __future__ import annotations

import asyncio
import stat
from importlib.metadata import version
from pathlib import Path

import PySide6
import pytest
from PySide6.QtCore import qVersion
from PySide6.QtGui import QGuiApplication

from studio import installed_version
from studio.settings import config_folder, log_path, logins_folder, settings_path
from studio.ui.about_dialog import AboutDialog
from tests.gui.support import close_studio, open_browsing_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui]


def _about_from_the_help_menu(window) -> AboutDialog:
    [help_entry] = [a for a in window.menuBar().actions() if a.text() == "&Help"]
    [about] = [a for a in help_entry.menu().actions() if a.text() == "&About Preflight Studio"]
    about.trigger()
    dialog = window.findChild(AboutDialog)
    assert dialog is not None and dialog.isVisible()
    return dialog


def _texts(dialog: AboutDialog) -> dict[str, str]:
    return {fact.name: fact.text for fact in dialog.facts}


def test_about_says_every_version_and_opens_the_folders_of_log_settings_and_logins(qloop, tmp_path, monkeypatch):
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\necho 'Chromium 156.0.8078.108'\n")
    chromium.chmod(chromium.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("STUDIO_BROWSER", str(chromium))
    opened: list[Path] = []
    monkeypatch.setattr(AboutDialog, "open_folder", lambda self, folder: opened.append(folder) or True)

    async def scenario():
        services, window = open_studio(tmp_path, "about.studio")
        try:
            dialog = _about_from_the_help_menu(window)
            said = _texts(dialog)
            assert said["Version"] == installed_version()
            assert said["Qt"] == f"PySide6 {PySide6.__version__}, Qt runtime {qVersion()}"
            assert said["Playwright"] == version("playwright")
            assert said["Browser"] == f"not started; {chromium} (found)"
            assert (said["Log"], said["Settings"], said["Saved logins"]) == \
                (str(log_path()), str(settings_path()), str(logins_folder()))
            for name in ("Log", "Settings", "Saved logins"):  # each path is a link, shown as the path itself
                label = dialog.labels[name]
                assert label.text().startswith('<a href="file://') and said[name] in label.text()
                label.linkActivated.emit(label.text().split('"')[1])
            assert opened == [log_path().parent, config_folder(), logins_folder()]
            await asyncio.sleep(0.1)
            shoot(dialog, "about-not-started")

            dialog.copy_button.click()
            copied = QGuiApplication.clipboard().text()
            assert copied.splitlines()[0] == f"Version: {installed_version()}"
            assert f"Log: {log_path()}" in copied and f"Browser: not started; {chromium} (found)" in copied
            dialog.reject()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_about_says_no_browser_was_found_and_where_to_get_one(qloop, tmp_path, monkeypatch):
    monkeypatch.delenv("STUDIO_BROWSER", raising=False)
    monkeypatch.setenv("STUDIO_BROWSER_SEARCH", "playwright")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "empty"))

    async def scenario():
        services, window = open_studio(tmp_path, "about.studio")
        try:
            dialog = _about_from_the_help_menu(window)
            assert _texts(dialog)["Browser"] == "not started; none found (Session › Browser… fetches or chooses one)"
            dialog.reject()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


@pytest.mark.browser
def test_about_gives_the_running_browsers_own_version(qloop, demo):
    async def scenario():
        services, window, session = await open_browsing_studio(demo.base_url + "/login")
        try:
            await until(lambda: window.live_view.frames_painted > 0, what="a painted frame")
            dialog = window.about()
            running = session.launcher.browser
            assert running is not None and running.version[:3].isdigit()
            assert _texts(dialog)["Browser"] == f"{running.version} (running, {session.launcher.where})"
            await asyncio.sleep(0.1)
            shoot(dialog, "about-running")
            dialog.reject()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
