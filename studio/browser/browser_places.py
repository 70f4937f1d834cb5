"""Where Chrome, Edge and Chromium are installed on Linux, Windows and macOS, and where Playwright keeps the Chromium
it downloads: the places browser discovery looks, as pure functions of a Machine (its platform, environment, home
folder and files), so that the search can be tested for every OS on any OS."""

from __future__ import annotations

import ntpath
import os
import posixpath
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

# Browsers looked up on PATH, per OS, in the order they are preferred.
PATH_NAMES = {
    "linux": ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "microsoft-edge",
              "microsoft-edge-stable", "msedge"),
    "windows": ("chrome.exe", "msedge.exe", "chromium.exe"),
    "mac": ("chromium", "google-chrome", "microsoft-edge"),
}
# The folders installers put them in when they are not on PATH.
LINUX_FOLDERS = ("/usr/bin", "/snap/bin")
LINUX_FILES = ("/opt/google/chrome/chrome", "/opt/google/chrome/google-chrome", "/opt/microsoft/msedge/msedge",
               "/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser")
WINDOWS_FILES = (r"Google\Chrome\Application\chrome.exe", r"Microsoft\Edge\Application\msedge.exe",
                 r"Chromium\Application\chrome.exe")
MAC_APPS = ("Google Chrome.app/Contents/MacOS/Google Chrome", "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
            "Chromium.app/Contents/MacOS/Chromium")
# Inside a Playwright `chromium-<revision>` folder: Chrome for Testing (Playwright 1.49 and later), then the older
# Chromium builds' layout. A folder counts only once Playwright has written its INSTALLATION_COMPLETE mark.
PLAYWRIGHT_LAYOUTS = {
    "linux": (("chrome-linux64", "chrome"), ("chrome-linux-arm64", "chrome"), ("chrome-linux", "chrome")),
    "windows": (("chrome-win64", "chrome.exe"), ("chrome-win", "chrome.exe")),
    "mac": (("chrome-mac-arm64", "Google Chrome for Testing.app", "Contents", "MacOS", "Google Chrome for Testing"),
            ("chrome-mac-x64", "Google Chrome for Testing.app", "Contents", "MacOS", "Google Chrome for Testing"),
            ("chrome-mac", "Chromium.app", "Contents", "MacOS", "Chromium")),
}
INSTALLATION_COMPLETE = "INSTALLATION_COMPLETE"
_REVISION = re.compile(r"^chromium-(\d+)$")


class FileTree(Protocol):
    """What the search reads of a file system: whether a file can be run, and the names in a folder."""

    def is_executable(self, path: str) -> bool: ...

    def names(self, folder: str) -> list[str]: ...


class LocalFiles:
    """This machine's files."""

    def is_executable(self, path: str) -> bool:
        return os.path.isfile(path) and os.access(path, os.X_OK)

    def names(self, folder: str) -> list[str]:
        try:
            return os.listdir(folder)
        except OSError:
            return []


@dataclass(frozen=True)
class Machine:
    """The computer being searched: `platform` in sys.platform's words ("linux", "win32", "darwin")."""

    platform: str
    env: Mapping[str, str]
    home: str
    files: FileTree = field(default_factory=LocalFiles)
    # Where the playwright package keeps browsers installed with PLAYWRIGHT_BROWSERS_PATH=0.
    package_browsers: str | None = None

    @classmethod
    def local(cls, env: Mapping[str, str] | None = None) -> Machine:
        """This computer, read through `env` (os.environ by default)."""
        env = os.environ if env is None else env
        inside = _package_browsers() if env.get("PLAYWRIGHT_BROWSERS_PATH") == "0" else None
        return cls(sys.platform, env, str(Path.home()), LocalFiles(), inside)

    @property
    def os_name(self) -> str:
        """"windows", "mac" or "linux" (any other Unix is searched as Linux)."""
        if self.platform.startswith(("win", "cygwin")):
            return "windows"
        return "mac" if self.platform == "darwin" else "linux"

    def join(self, *parts: str) -> str:
        return (ntpath if self.os_name == "windows" else posixpath).join(*parts)


def on_path(machine: Machine) -> Iterator[str]:
    """Each browser name in each PATH folder, browsers in order of preference."""
    separator = ";" if machine.os_name == "windows" else ":"
    folders = [f for f in machine.env.get("PATH", "").split(separator) if f]
    for name in PATH_NAMES[machine.os_name]:
        for folder in folders:
            yield machine.join(folder, name)


def install_roots(machine: Machine) -> list[str]:
    """The folders installers put Chrome, Edge and Chromium under, on this machine's OS."""
    if machine.os_name == "windows":
        local = machine.env.get("LOCALAPPDATA") or machine.join(machine.home, "AppData", "Local")
        return [machine.env.get("ProgramFiles") or r"C:\Program Files",
                machine.env.get("ProgramFiles(x86)") or r"C:\Program Files (x86)", local]
    if machine.os_name == "mac":
        return ["/Applications", machine.join(machine.home, "Applications")]
    return [*LINUX_FOLDERS, *dict.fromkeys(posixpath.dirname(f) for f in LINUX_FILES)]


def install_folders(machine: Machine) -> Iterator[str]:
    """Where the OS's installers put Chrome, Edge and Chromium, browsers in order of preference."""
    roots = install_roots(machine)
    if machine.os_name == "windows":
        for relative in WINDOWS_FILES:
            for root in roots:
                yield machine.join(root, relative)
    elif machine.os_name == "mac":
        for app in MAC_APPS:
            for root in roots:
                yield machine.join(root, app)
    else:
        for name in PATH_NAMES["linux"]:
            for folder in LINUX_FOLDERS:
                yield machine.join(folder, name)
        yield from LINUX_FILES


def playwright_folder(machine: Machine) -> str:
    """Where `playwright install` puts browsers: PLAYWRIGHT_BROWSERS_PATH, else the OS's cache folder's ms-playwright
    (as Playwright's own registry computes it)."""
    chosen = machine.env.get("PLAYWRIGHT_BROWSERS_PATH")
    if chosen == "0" and machine.package_browsers:
        return machine.package_browsers
    if chosen and chosen != "0":
        return chosen
    if machine.os_name == "windows":
        cache = machine.env.get("LOCALAPPDATA") or machine.join(machine.home, "AppData", "Local")
    elif machine.os_name == "mac":
        cache = machine.join(machine.home, "Library", "Caches")
    else:
        cache = machine.env.get("XDG_CACHE_HOME") or machine.join(machine.home, ".cache")
    return machine.join(cache, "ms-playwright")


def playwright_chromiums(machine: Machine) -> Iterator[str]:
    """Playwright's completely installed Chromium builds, newest revision first."""
    root = playwright_folder(machine)
    revisions = sorted(((int(m.group(1)), name) for name in machine.files.names(root)
                        if (m := _REVISION.match(name))), reverse=True)
    for _, name in revisions:
        folder = machine.join(root, name)
        if INSTALLATION_COMPLETE not in machine.files.names(folder):
            continue  # a download that was cancelled or failed half-way
        for layout in PLAYWRIGHT_LAYOUTS[machine.os_name]:
            yield machine.join(folder, *layout)


def _package_browsers() -> str | None:
    try:
        import playwright
    except ImportError:
        return None
    return str(Path(playwright.__file__).parent / "driver" / "package" / ".local-browsers")
