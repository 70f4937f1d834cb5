"""Settings, saved logins and the log live in the user's config folder on every system, never beside the program,
so an upgrade or an uninstall of the studio leaves them alone."""

from __future__ import annotations

import json
import logging
import os
import stat
import subprocess
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

import pytest

import studio
from studio import entry
from studio.settings import config_folder, log_path, logins_folder

PROGRAM = Path(studio.__file__).resolve().parents[1]  # the folder the package sits in (a clone or site-packages)

# Which folder the settings module names when the platform is `argv[1]` (platformdirs picks it on import).
WHERE = """
import json, sys
import pydantic, studio.browser.launcher, studio.models.browser, studio.models.llm
assert "platformdirs" not in sys.modules, "platformdirs was imported before the platform was set"
sys.platform = sys.argv[1]
from studio import settings
print(json.dumps([str(settings.config_folder()), str(settings.settings_path()), str(settings.log_path())]))
"""


def _where(platform: str, tmp_path: Path, **env: str) -> list[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("STUDIO_CONFIG_DIR", "XDG_CONFIG_HOME")}
    environ.update(HOME=str(tmp_path / "home"), **env)
    done = subprocess.run([sys.executable, "-c", WHERE, platform], check=False, cwd=tmp_path, env=environ,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_linux_keeps_them_in_xdg_config_home_or_dot_config(tmp_path):
    folder, settings, log = _where("linux", tmp_path, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    assert folder == str(tmp_path / "xdg" / "preflight-studio")
    assert settings == f"{folder}/settings.json" and log == f"{folder}/logs/studio.log"
    assert _where("linux", tmp_path)[0] == str(tmp_path / "home" / ".config" / "preflight-studio")


def test_macos_keeps_them_in_application_support(tmp_path):
    folder, settings, _log = _where("darwin", tmp_path)
    assert folder == str(tmp_path / "home" / "Library" / "Application Support" / "preflight-studio")
    assert settings.startswith(folder)


def test_windows_keeps_them_in_appdata_not_localappdata(tmp_path):
    roaming, local = r"C:\Users\tester\AppData\Roaming", r"C:\Users\tester\AppData\Local"
    folder, settings, log = _where("win32", tmp_path, WIN_PD_OVERRIDE_APPDATA=roaming,
                                   WIN_PD_OVERRIDE_LOCAL_APPDATA=local)
    assert folder.startswith(roaming) and folder.endswith("preflight-studio")
    assert settings.startswith(folder) and log.startswith(folder)


def test_settings_logins_and_the_log_land_in_the_config_folder_and_nowhere_else(tmp_path):
    # A real run of the functions with no STUDIO_CONFIG_DIR, started from a folder of its own.
    started_in = tmp_path / "started-in"
    started_in.mkdir()
    script = ("import logging; from studio import entry, settings; "
              "settings.save_settings(settings.StudioSettings()); print(settings.logins_folder()); "
              "entry.log_to_file(); logging.getLogger('studio').warning('a warning for the log')")
    environ = {k: v for k, v in os.environ.items() if k != "STUDIO_CONFIG_DIR"}
    environ.update(HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    done = subprocess.run([sys.executable, "-c", script], check=False, cwd=started_in, env=environ,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "xdg" / "preflight-studio"
    assert (folder / "settings.json").is_file()
    assert done.stdout.strip() == str(folder / "logins")
    assert stat.S_IMODE((folder / "logins").stat().st_mode) == 0o700  # cookies: readable by the user alone
    assert "a warning for the log" in (folder / "logs" / "studio.log").read_text(encoding="utf-8")
    assert list(started_in.iterdir()) == []
    assert not folder.is_relative_to(PROGRAM)


def test_the_log_handler_is_added_once(tmp_path):
    logger = logging.getLogger("tests.packaging.log-once")
    try:
        assert entry.log_to_file(logger) == entry.log_to_file(logger) == log_path()
        assert len(logger.handlers) == 1
        logger.warning("written once")
        assert log_path().read_text(encoding="utf-8").count("written once") == 1
        assert log_path().is_relative_to(config_folder())
    finally:
        for handler in logger.handlers[:]:
            logger.removeHandler(handler)
            handler.close()


@pytest.mark.gui
def test_the_window_logs_to_the_file(qapp):
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        entry._window()  # what `studio gui` and `studio demo` load: a window from a launcher has no terminal
        added = [h for h in root.handlers if h not in before]
        assert [Path(h.baseFilename) for h in added if isinstance(h, RotatingFileHandler)] == [log_path()]
    finally:
        for handler in root.handlers[:]:
            if handler not in before:
                root.removeHandler(handler)
                handler.close()


@pytest.mark.gui
def test_saved_logins_are_proposed_in_the_config_folder(qapp, qloop, tmp_path, monkeypatch):
    from studio.app.studio_app import StudioServices
    from studio.settings import StudioSettings
    from studio.ui import main_window
    from studio.ui.main_window import StudioWindow

    monkeypatch.chdir(tmp_path)  # started from some folder (a launcher starts the program in its own)
    services = StudioServices(StudioSettings())
    window = StudioWindow(services.browser, services.project, services.settings)
    window.closed = qloop.create_future()
    asked: list[str] = []

    def cancelled(_parent, _title, where, _filter):  # the file dialog, answered with Cancel
        asked.append(where)
        return "", ""

    monkeypatch.setattr(main_window.QFileDialog, "getSaveFileName", cancelled)
    monkeypatch.setattr(main_window.QFileDialog, "getOpenFileName", cancelled)
    try:
        window.save_login_state()
        window.start_signed_in()
    finally:
        window.close()
        qloop.run_until_complete(services.shutdown())
    assert asked == [str(logins_folder() / "login-state.json"), str(logins_folder())]
