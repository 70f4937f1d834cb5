"""Find a Chromium to drive: the browser the user chose (Settings, `studio browser use`), STUDIO_BROWSER, a Chromium
Playwright downloaded (`studio browser install`), then Chrome, Edge or Chromium on PATH and in the OS's usual install
folders (browser_places). STUDIO_BROWSER_SEARCH narrows the automatic search, e.g. to `playwright` alone."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from studio.browser.browser_places import (
    PATH_NAMES,
    LocalFiles,
    Machine,
    install_folders,
    install_roots,
    on_path,
    playwright_chromiums,
    playwright_folder,
)
from studio.browser.errors import BrowserError

# The ways out, said the same way by every front end: the window's first-run dialog offers both.
WAYS_OUT = ("run `studio browser install` to fetch Playwright's Chromium, or `studio browser use PATH` to use a "
            "browser installed elsewhere")
NOTHING_FOUND = "No Chrome, Edge or Chromium browser was found on this machine"
NO_BROWSER = f"{NOTHING_FOUND}: {WAYS_OUT}."
SEARCH_ENV = "STUDIO_BROWSER_SEARCH"
# What the automatic search may look at (STUDIO_BROWSER_SEARCH, comma-separated; "none" for nothing).
SEARCHES = ("playwright", "path", "system")
VERSION_TIMEOUT_S = 15
_VERSION = re.compile(r"(Chromium|Google Chrome for Testing|Google Chrome|Microsoft Edge|Chrome)\b[^\n]*?\d+(\.\d+)+")
_WINDOWS_VERSION_FOLDER = re.compile(r"^\d+\.\d+\.\d+\.\d+$")


class BrowserNotFound(BrowserError):
    """No usable Chromium was found; str() says what is missing and the ways out, `missing` only what is missing (the
    window offers the ways out as buttons), `searched` where it looked."""

    def __init__(self, message: str, searched: Iterable[str] = (), missing: str | None = None) -> None:
        super().__init__(message)
        self.searched = list(searched)
        self.missing = missing or message


@dataclass(frozen=True)
class BrowserInfo:
    """A browser executable the studio can launch, and where it was found."""

    path: str
    source: str  # "settings", "STUDIO_BROWSER", "playwright", "path" or "system"

    def version(self) -> str:
        """The browser's own version line, e.g. 'Chromium 156.0.8078.79'; 'unknown' when it cannot say."""
        try:
            return check_browser(self.path)
        except BrowserError:
            return "unknown"


def find_browser(env: Mapping[str, str] | None = None, *, chosen: str | None = None,
                 machine: Machine | None = None) -> BrowserInfo:
    """The browser to launch, in the documented order, or BrowserNotFound with a sentence saying what to do.

    `chosen` is the path the user picked (Settings' browser): used as it is, or refused when it is no longer there.
    """
    machine = machine or Machine.local(env)
    if chosen:
        gone = f"The browser chosen in Settings, {chosen}, is not an executable file any more (moved or uninstalled?)"
        return BrowserInfo(_usable(chosen, machine, BrowserNotFound(
            f"{gone}: choose another in Settings, or clear it to let the studio look for one; or {WAYS_OUT}.",
            missing=gone)), "settings")
    explicit = machine.env.get("STUDIO_BROWSER")
    if explicit:
        wrong = f"STUDIO_BROWSER is set to {explicit!r}, but that is not an executable file"
        return BrowserInfo(_usable(explicit, machine, BrowserNotFound(
            f"{wrong}. Fix the path or unset STUDIO_BROWSER; to get a browser, {WAYS_OUT} (on Debian/Ubuntu also "
            "`sudo apt-get install -y chromium`).", missing=wrong)), "STUDIO_BROWSER")
    for path, source in candidates(machine):
        if machine.files.is_executable(path):
            return BrowserInfo(path, source)
    raise BrowserNotFound(NO_BROWSER, searched_places(machine), missing=NOTHING_FOUND)


def candidates(machine: Machine) -> Iterator[tuple[str, str]]:
    """Every (path, source) the automatic search tries, in order, within STUDIO_BROWSER_SEARCH."""
    allowed = searches(machine.env)
    if "playwright" in allowed:
        yield from ((path, "playwright") for path in playwright_chromiums(machine))
    if "path" in allowed:
        yield from ((path, "path") for path in on_path(machine))
    if "system" in allowed:
        yield from ((path, "system") for path in install_folders(machine))


def searches(env: Mapping[str, str]) -> tuple[str, ...]:
    """The searches STUDIO_BROWSER_SEARCH allows (all of them when it is unset)."""
    text = env.get(SEARCH_ENV)
    if text is None:
        return SEARCHES
    return tuple(word for word in (w.strip().lower() for w in text.split(",")) if word in SEARCHES)


def searched_places(machine: Machine) -> list[str]:
    """Where the automatic search looked, in a few words each, for the not-found report."""
    allowed = searches(machine.env)
    places = []
    if "playwright" in allowed:
        places.append(f"Playwright's browsers in {playwright_folder(machine)}")
    if "path" in allowed:
        places.append(f"{', '.join(PATH_NAMES[machine.os_name])} on PATH")
    if "system" in allowed:
        places.append("the install folders " + ", ".join(install_roots(machine)))
    if not allowed:
        places.append(f"nowhere: {SEARCH_ENV}={machine.env.get(SEARCH_ENV)!r} turns the search off")
    return places


def check_browser(path: str, machine: Machine | None = None) -> str:
    """Launch `path --version` and return its version line, e.g. 'Chromium 156.0.8078.79'; BrowserNotFound with a
    sentence when it is not an executable Chrome, Edge or Chromium."""
    machine = machine or Machine.local()
    resolved = _usable(path, machine, BrowserNotFound(
        f"{path} is not an executable file. Choose the browser's program itself (e.g. /usr/bin/chromium, chrome.exe, "
        "or Google Chrome.app/Contents/MacOS/Google Chrome)."))
    if machine.os_name == "windows":
        return windows_version(resolved, machine)
    try:
        done = subprocess.run([resolved, "--version"], check=False, capture_output=True, text=True,
                              timeout=VERSION_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise BrowserNotFound(f"{path} did not answer `--version` within {VERSION_TIMEOUT_S} s, so it is not a "
                              "browser the studio can drive. Choose Chrome, Edge or Chromium.") from None
    except OSError as error:
        raise BrowserNotFound(f"{path} could not be started ({error.strerror or error}). Choose Chrome, Edge or "
                              "Chromium.") from None
    return version_from_answer(path, done.returncode, done.stdout + done.stderr)


def version_from_answer(path: str, returncode: int, output: str) -> str:
    """The version line a Chromium printed for `--version`, or BrowserNotFound saying what answered instead."""
    match = _VERSION.search(output)
    if returncode == 0 and match:
        return match.group(0)
    said = (output.strip().splitlines() or ["nothing"])[0][:120]
    raise BrowserNotFound(f"{path} is not Chrome, Edge or Chromium: asked for its version it answered {said!r}"
                          f"{f' (exit code {returncode})' if returncode else ''}. Choose a Chromium-based browser: "
                          "the studio drives it through Playwright's Chromium protocol.")


def windows_version(path: str, machine: Machine) -> str:
    """On Windows `chrome.exe --version` prints nothing (it is a GUI program): the version is the name of the folder
    the installer keeps beside it (Application\\120.0.6099.130\\)."""
    folder, name = path.rsplit("\\", 1) if "\\" in path else ("", path)
    browser = {"chrome.exe": "Google Chrome", "msedge.exe": "Microsoft Edge", "chromium.exe": "Chromium"}.get(
        name.lower())
    if browser is None:
        raise BrowserNotFound(f"{path} is not Chrome, Edge or Chromium (their programs are chrome.exe and "
                              "msedge.exe). Choose one of those.")
    versions = sorted((v for v in machine.files.names(folder) if _WINDOWS_VERSION_FOLDER.match(v)),
                      key=lambda v: tuple(int(p) for p in v.split(".")), reverse=True)
    return f"{browser} {versions[0]}" if versions else browser


def launch_args() -> list[str]:
    """Chromium flags the studio always passes: quiet networking, and no sandbox when running as root."""
    args = [
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start as root with its sandbox on
    return args


def _usable(path: str, machine: Machine, problem: BrowserNotFound) -> str:
    """`path` (a bare name is looked up on PATH) when it is an executable file, else BrowserNotFound(problem)."""
    resolved = path
    if isinstance(machine.files, LocalFiles) and machine.platform == sys.platform and os.sep not in path \
            and "/" not in path:
        resolved = shutil.which(path, path=machine.env.get("PATH", os.defpath)) or path
    if not machine.files.is_executable(resolved):
        raise problem
    return resolved

