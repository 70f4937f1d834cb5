"""The terminal on a machine without a browser, as a user meets it (real `studio` subprocesses): one sentence with the
two ways out and an exit code, never a traceback; `studio browser install` with progress, a readable failure and
Ctrl+C that stops the download too; `studio browser use` that checks the path and keeps it in Settings.

The machine's own browsers are kept out with STUDIO_BROWSER_SEARCH=playwright and an empty Playwright folder; the
installer is tests/browser/fake_installer.py (STUDIO_BROWSER_INSTALLER), as nothing can be downloaded here."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.browser.discovery import NO_BROWSER

FAKE_INSTALLER = Path(__file__).with_name("fake_installer.py")


def _no_browser_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("STUDIO_BROWSER", "STUDIO_BROWSER_ENDPOINT")}
    env.update({"STUDIO_BROWSER_SEARCH": "playwright", "PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "ms-playwright"),
                "STUDIO_CONFIG_DIR": str(tmp_path / "config"), "QT_QPA_PLATFORM": "offscreen"})
    env.update(extra)
    return env


def studio(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], check=False, capture_output=True, text=True,
                          timeout=timeout, env=env)


def _fake_chromium(path: Path, answer: str = "Chromium 156.0.8078.108 built on Debian") -> Path:
    path.write_text(f"#!/bin/sh\necho '{answer}'\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def _installer(mode: str, arg: Path | str) -> str:
    return f"{sys.executable} {FAKE_INSTALLER} {mode} {arg}"


@pytest.mark.parametrize(("command", "code"), [
    (["browser", "find"], 1),
    (["observe", "http://127.0.0.1:9/", "--selector", "body"], 2),
    (["demo", "--headless", "--out", "{tmp}/out"], 2),
    (["preflight", "http://127.0.0.1:9/", "--project", "{tmp}/p.studio"], 1),
])
def test_without_a_browser_a_command_says_what_is_missing_and_the_two_ways_out(command, code, tmp_path):
    done = studio(*[arg.format(tmp=tmp_path) for arg in command], env=_no_browser_env(tmp_path))
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    assert NO_BROWSER in done.stderr  # the one sentence: what is missing, `studio browser install`, `… use PATH`


def test_browser_find_says_where_it_looked_and_which_it_found(tmp_path):
    missing = studio("browser", "find", "--json", env=_no_browser_env(tmp_path))
    report = json.loads(missing.stdout)
    assert missing.returncode == 1 and report["found"] is False and report["error"] == NO_BROWSER
    assert report["searched"] == [f"Playwright's browsers in {tmp_path / 'ms-playwright'}"]

    chrome = _fake_chromium(tmp_path / "chrome")
    found = studio("browser", "find", env=_no_browser_env(tmp_path, STUDIO_BROWSER=str(chrome)))
    assert found.returncode == 0
    assert found.stdout.strip() == f"Chromium 156.0.8078.108 at {chrome} (from STUDIO_BROWSER)"


@pytest.mark.slow
def test_browser_use_checks_the_path_with_version_and_keeps_it_in_settings(tmp_path):
    env = _no_browser_env(tmp_path)
    not_a_browser = _fake_chromium(tmp_path / "python3", "Python 3.11.2")
    refused = studio("browser", "use", str(not_a_browser), env=env)
    assert refused.returncode == 2 and "answered 'Python 3.11.2'" in refused.stderr
    assert not (tmp_path / "config" / "settings.json").exists()  # nothing saved

    chrome = _fake_chromium(tmp_path / "chrome")
    saved = studio("browser", "use", str(chrome), env=env)
    assert saved.returncode == 0 and "Chromium 156.0.8078.108" in saved.stdout
    settings = json.loads((tmp_path / "config" / "settings.json").read_text())
    assert settings["browser_path"] == str(chrome)
    found = studio("browser", "find", "--json", env=env)
    assert json.loads(found.stdout)["source"] == "settings"

    chrome.unlink()  # moved or uninstalled since: said, with the ways out
    gone = studio("browser", "find", env=env)
    assert gone.returncode == 1 and f"The browser chosen in Settings, {chrome}, is not an executable" in gone.stderr
    assert studio("browser", "use", "--auto", env=env).returncode == 0
    assert json.loads((tmp_path / "config" / "settings.json").read_text())["browser_path"] is None


def test_browser_install_shows_progress_then_the_browser_is_found(tmp_path):
    chrome = _fake_chromium(tmp_path / "real-chrome")
    env = _no_browser_env(tmp_path, STUDIO_BROWSER_INSTALLER=_installer("installs", chrome))
    done = studio("browser", "install", env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert "Downloading Chrome for Testing 159.0.8154.6 (playwright chromium v1255)…" in lines
    assert "Downloading Chrome for Testing 159.0.8154.6 (playwright chromium v1255): 50% of 167.3 MiB" in lines
    installed = tmp_path / "ms-playwright" / "chromium-1255" / "chrome-linux64" / "chrome"
    assert done.stdout.strip() == f"Playwright's Chromium is installed: {installed}."
    found = json.loads(studio("browser", "find", "--json", env=env).stdout)
    assert (found["path"], found["source"]) == (str(installed), "playwright")


def test_browser_install_offline_is_a_sentence_with_the_next_step(tmp_path):
    done = studio("browser", "install", env=_no_browser_env(tmp_path, STUDIO_BROWSER_INSTALLER=_installer(
        "offline", "")))
    assert done.returncode == 1 and "Traceback" not in done.stderr and "    at " not in done.stderr
    error = done.stderr.splitlines()[-1]
    assert error.startswith("error: Chromium could not be downloaded: this computer cannot reach cdn.playwright.dev")
    assert "HTTPS_PROXY" in error and "`studio browser use PATH`" in error


def test_ctrl_c_stops_the_install_and_its_download_helper(tmp_path):
    pids = tmp_path / "pids"
    env = _no_browser_env(tmp_path, STUDIO_BROWSER_INSTALLER=_installer("slow", pids))
    process = subprocess.Popen([sys.executable, "-m", "studio", "browser", "install"], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stderr is not None
    seen = []
    while not any("%" in line for line in seen):  # the first percentage: the installer runs
        line = process.stderr.readline()
        assert line, f"the install ended early: {seen}"
        seen.append(line)
    process.send_signal(signal.SIGINT)
    _, rest = process.communicate(timeout=30)
    assert process.returncode == 130 and "Traceback" not in rest
    for pid in map(int, pids.read_text().split()):
        assert not _alive(pid), f"process {pid} outlived the cancelled install"


def _alive(pid: int) -> bool:
    deadline = time.monotonic() + 10  # a killed process is gone once its parent (or init) has reaped it
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        if _zombie(pid):
            return False
        time.sleep(0.05)
    return True


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except (OSError, IndexError):
        return False
