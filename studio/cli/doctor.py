"""`studio doctor`: what this machine has for the studio, and the next step for anything missing."""

from __future__ import annotations

import asyncio
import json
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

from studio.browser.discovery import BrowserNotFound, find_browser
from studio.browser.fleet import probe_browser
from studio.browser.launcher import ENDPOINT_ENV

PACKAGES = (
    "preflight-studio", "PySide6-Essentials", "playwright", "qasync", "openai", "pydantic",
    "sqlite-utils", "pyqtgraph", "aiohttp", "pyotp", "PyYAML", "platformdirs", "keyring",
)

QT_PROBE = (
    "import sys; from PySide6 import QtCore, QtWidgets; app = QtWidgets.QApplication(sys.argv); "
    "print(QtCore.qVersion(), app.platformName())"
)


@dataclass
class Check:
    """One line of the doctor's report: a name, whether it passed, what was found and the next step."""

    name: str
    ok: bool
    found: str
    next_step: str = ""
    fatal: bool = True


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok or not check.fatal for check in self.checks)


def check_python() -> Check:
    ok = sys.version_info >= (3, 11)
    return Check("Python", ok, f"{platform.python_version()} at {sys.executable}",
                 "" if ok else "Install Python 3.11 or newer.")


def check_packages() -> Check:
    found, missing = [], []
    for name in PACKAGES:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            missing.append(name)
    return Check("Packages", not missing, ", ".join(found),
                 f"Missing {', '.join(missing)}: run `pip install -e .` in the repository." if missing else "")


def check_browser(launch: bool, endpoint: str | None = None) -> Check:
    if endpoint:
        return _check_endpoint(endpoint, launch)
    from studio.settings import load_settings

    try:
        info = find_browser(chosen=load_settings().browser_path)  # the browser a session would launch
    except BrowserNotFound as error:
        looked = f" (looked in: {'; '.join(error.searched)})" if error.searched else ""
        linux = " On Debian/Ubuntu, `sudo apt-get install -y chromium` installs one too." \
            if error.searched and sys.platform.startswith("linux") else ""
        return Check("Browser", False, "none found" + looked, str(error) + linux)
    found = f"{info.path} ({info.version()}, found via {info.source})"
    if not launch:
        return Check("Browser", True, found)
    problem = asyncio.run(probe_browser(browser_path=info.path))
    if problem and "driver" in problem:
        return Check("Browser", False, found + f"; Playwright's driver did not start: {problem}",
                     "Playwright's bundled Node.js is missing a system library; on Debian/Ubuntu run "
                     "`sudo apt-get install -y libatomic1`, then `studio doctor` again.")
    if problem:
        return Check("Browser", False, found + f"; launching it failed: {problem}",
                     "Reinstall it (`sudo apt-get install --reinstall -y chromium`), fetch Playwright's Chromium "
                     "(`studio browser install`) or choose another browser (`studio browser use PATH`).")
    return Check("Browser", True, found + "; launches headless: yes")


def _check_endpoint(endpoint: str, connect: bool) -> Check:
    found = f"the browser endpoint {endpoint} (from --browser-endpoint, {ENDPOINT_ENV} or Settings)"
    if not connect:
        return Check("Browser", True, found)
    problem = asyncio.run(probe_browser(endpoint=endpoint))
    if problem:
        return Check("Browser", False, found + "; connecting failed", problem)
    return Check("Browser", True, found + "; connects and opens a page: yes")


def display_description() -> str:
    shown = [f"{name}={os.environ[name]}" for name in ("DISPLAY", "WAYLAND_DISPLAY") if os.environ.get(name)]
    return ", ".join(shown) if shown else "none (the GUI can still run offscreen; use `xvfb-run studio` for a window)"


def check_qt() -> Check:
    env = dict(os.environ)
    if not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        done = subprocess.run([sys.executable, "-c", QT_PROBE], capture_output=True, text=True,
                              timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return Check("Qt", False, "starting Qt timed out", "Run `QT_DEBUG_PLUGINS=1 studio` to see why.")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["unknown error"])[-1]
        return Check("Qt", False, f"cannot start: {last}",
                     "Install Qt's system libraries: `sudo apt-get install -y libegl1 libgl1 libxkbcommon0 "
                     "libfontconfig1 libdbus-1-3 libxcb-cursor0`.")
    version, platform_name = (done.stdout.split() + ["?", "?"])[:2]
    requested = env.get("QT_QPA_PLATFORM", "default")
    return Check("Qt", True, f"Qt {version}, platform plugin {platform_name} (QT_QPA_PLATFORM={requested})")


def check_project_file() -> Check:
    from studio.store.project import ProjectFile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "doctor.studio"
        try:
            with ProjectFile.create(path) as project:
                project.set_meta("doctor", "ok")
            with ProjectFile.open(path) as project:
                ok = project.meta("doctor") == "ok"
        except Exception as error:  # report, never crash the doctor
            return Check("Project files", False, f"SQLite {sqlite3.sqlite_version}: {error}",
                         "Check that the temporary folder is writable.")
    return Check("Project files", ok, f"SQLite {sqlite3.sqlite_version}, WAL journal, create/write/reopen ok")


def run_doctor(launch_browser: bool = True, endpoint: str | None = None) -> Report:
    report = Report()
    report.checks += [check_python(), check_packages(), check_browser(launch_browser, endpoint), check_qt()]
    report.checks.append(Check("Display", True, display_description(), fatal=False))
    report.checks.append(check_project_file())
    return report


def print_report(report: Report, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"ok": report.ok, "checks": [asdict(c) for c in report.checks]}, indent=2))
        return
    width = max(len(check.name) for check in report.checks)
    for check in report.checks:
        mark = "ok " if check.ok else ("ERR" if check.fatal else "warn")
        print(f"[{mark}] {check.name.ljust(width)}  {check.found}")
        if check.next_step and not check.ok:
            print(f"      {''.ljust(width)}  next step: {check.next_step}")
    print("All set." if report.ok else "Some checks failed; see the next steps above.")
