"""Browser discovery on Linux, Windows and macOS, each searched in a fake file tree: the usual install places, PATH,
Playwright's downloads, the path the user chose, the search's order and the sentence when nothing is there."""

from __future__ import annotations

import ntpath
import posixpath
import stat
from collections.abc import Iterable

import pytest

from studio.browser.browser_places import Machine
from studio.browser.discovery import (
    NO_BROWSER,
    BrowserNotFound,
    check_browser,
    find_browser,
    searched_places,
    version_from_answer,
    windows_version,
)

WINDOWS_ENV = {"ProgramFiles": r"C:\Program Files", "ProgramFiles(x86)": r"C:\Program Files (x86)",
               "LOCALAPPDATA": r"C:\Users\qa\AppData\Local", "PATH": r"C:\Windows\system32;C:\Windows"}
PLATFORMS = {"linux": "linux", "windows": "win32", "mac": "darwin"}
HOMES = {"linux": "/home/qa", "windows": r"C:\Users\qa", "mac": "/Users/qa"}


class FakeFiles:
    """A file tree given as the paths of its executables and of other files (Playwright's marks, version folders)."""

    def __init__(self, os_name: str, executables: Iterable[str], others: Iterable[str] = ()) -> None:
        self.executables = set(executables)
        self.entries: dict[str, set[str]] = {}
        paths = ntpath if os_name == "windows" else posixpath
        for path in [*self.executables, *others]:
            child, parent = path, paths.dirname(path)
            while parent and parent != child:
                self.entries.setdefault(parent, set()).add(paths.basename(child))
                child, parent = parent, paths.dirname(parent)

    def is_executable(self, path: str) -> bool:
        return path in self.executables

    def names(self, folder: str) -> list[str]:
        return sorted(self.entries.get(folder, ()))


def machine(os_name: str, executables: Iterable[str] = (), others: Iterable[str] = (), **env: str) -> Machine:
    base = dict(WINDOWS_ENV) if os_name == "windows" else {"PATH": "/usr/local/bin:/usr/bin:/bin"}
    base.update(env)
    return Machine(PLATFORMS[os_name], base, HOMES[os_name], FakeFiles(os_name, executables, others))


@pytest.mark.parametrize(("os_name", "installed", "env", "found", "source"), [
    # Linux: names on PATH in the order chromium, chromium-browser, google-chrome(-stable), microsoft-edge(-stable)
    ("linux", ["/usr/bin/google-chrome-stable"], {}, "/usr/bin/google-chrome-stable", "path"),
    ("linux", ["/usr/bin/microsoft-edge", "/usr/local/bin/chromium-browser"], {}, "/usr/local/bin/chromium-browser",
     "path"),
    ("linux", ["/usr/bin/chromium"], {"PATH": ""}, "/usr/bin/chromium", "system"),  # PATH emptied: /usr/bin still
    ("linux", ["/snap/bin/chromium"], {}, "/snap/bin/chromium", "system"),
    ("linux", ["/opt/google/chrome/chrome"], {}, "/opt/google/chrome/chrome", "system"),
    ("linux", ["/opt/microsoft/msedge/msedge"], {}, "/opt/microsoft/msedge/msedge", "system"),
    # Windows: Program Files, Program Files (x86), the user's own install in LocalAppData; Chrome before Edge
    ("windows", [r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe"], {},
     r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe", "system"),
    ("windows", [r"C:\Users\qa\AppData\Local\Google\Chrome\Application\chrome.exe",
                 r"C:\Program Files\Microsoft\Edge\Application\msedge.exe"], {},
     r"C:\Users\qa\AppData\Local\Google\Chrome\Application\chrome.exe", "system"),
    ("windows", [r"D:\Apps\Chromium\Application\chrome.exe"], {"ProgramFiles": r"D:\Apps"},
     r"D:\Apps\Chromium\Application\chrome.exe", "system"),
    ("windows", [r"C:\Program Files\Google\Chrome\Application\chrome.exe"], {"ProgramFiles": ""},
     r"C:\Program Files\Google\Chrome\Application\chrome.exe", "system"),  # unset: the usual folder
    ("windows", [r"C:\tools\chromium.exe"], {"PATH": r"C:\Windows;C:\tools"}, r"C:\tools\chromium.exe", "path"),
    # macOS: /Applications and ~/Applications; Chrome, then Edge, then Chromium
    ("mac", ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
             "/Applications/Chromium.app/Contents/MacOS/Chromium"], {},
     "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "system"),
    ("mac", ["/Users/qa/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"], {},
     "/Users/qa/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge", "system"),
    ("mac", ["/opt/homebrew/bin/chromium"], {"PATH": "/opt/homebrew/bin:/usr/bin"}, "/opt/homebrew/bin/chromium",
     "path"),
])
def test_an_installed_browser_is_found_where_its_installer_puts_it(os_name, installed, env, found, source):
    info = find_browser(machine=machine(os_name, installed, **env))
    assert (info.path, info.source) == (found, source)


PLAYWRIGHT_CHROMIUMS = {
    "linux": ("/home/qa/.cache/ms-playwright", "chrome-linux64/chrome"),
    "windows": (r"C:\Users\qa\AppData\Local\ms-playwright", r"chrome-win64\chrome.exe"),
    "mac": ("/Users/qa/Library/Caches/ms-playwright",
            "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"),
}
SYSTEM_BROWSER = {"linux": "/usr/bin/chromium", "windows": r"C:\Program Files\Google\Chrome\Application\chrome.exe",
                  "mac": "/Applications/Chromium.app/Contents/MacOS/Chromium"}


@pytest.mark.parametrize("os_name", PLATFORMS)
def test_playwrights_newest_complete_chromium_comes_before_the_systems(os_name):
    root, inside = PLAYWRIGHT_CHROMIUMS[os_name]
    join = ntpath.join if os_name == "windows" else posixpath.join
    newest, older, broken = (join(root, f"chromium-{rev}", inside) for rev in (1255, 1200, 1300))
    marks = [join(root, f"chromium-{rev}", "INSTALLATION_COMPLETE") for rev in (1255, 1200)]  # 1300: cut short
    tree = machine(os_name, [older, newest, broken, SYSTEM_BROWSER[os_name]], marks)
    assert (find_browser(machine=tree).path, find_browser(machine=tree).source) == (newest, "playwright")
    # Without any complete download, the system's browser.
    assert find_browser(machine=machine(os_name, [broken, SYSTEM_BROWSER[os_name]])).source in ("system", "path")


def test_playwrights_folder_follows_its_own_variables():
    linux = machine("linux", ["/data/cache/ms-playwright/chromium-1255/chrome-linux64/chrome"],
                    ["/data/cache/ms-playwright/chromium-1255/INSTALLATION_COMPLETE"], XDG_CACHE_HOME="/data/cache")
    assert find_browser(machine=linux).source == "playwright"
    chosen = machine("linux", ["/srv/pw/chromium-1100/chrome-linux/chrome"],
                     ["/srv/pw/chromium-1100/INSTALLATION_COMPLETE"], PLAYWRIGHT_BROWSERS_PATH="/srv/pw")
    assert find_browser(machine=chosen).path == "/srv/pw/chromium-1100/chrome-linux/chrome"  # an older layout too


@pytest.mark.parametrize("os_name", PLATFORMS)
def test_the_path_the_user_chose_comes_first_and_a_vanished_one_is_said(os_name):
    chosen = {"linux": "/home/qa/bin/chrome", "windows": r"E:\Portable\chrome.exe", "mac": "/Users/qa/Chrome"}[os_name]
    tree = machine(os_name, [chosen, SYSTEM_BROWSER[os_name]], STUDIO_BROWSER=SYSTEM_BROWSER[os_name])
    assert find_browser(chosen=chosen, machine=tree).source == "settings"
    with pytest.raises(BrowserNotFound) as gone:
        find_browser(chosen=chosen + "-old", machine=tree)
    assert f"The browser chosen in Settings, {chosen}-old, is not an executable file any more" in str(gone.value)
    assert "studio browser install" in str(gone.value)


@pytest.mark.parametrize("os_name", PLATFORMS)
def test_nothing_installed_says_what_is_missing_and_both_ways_out(os_name):
    with pytest.raises(BrowserNotFound) as missing:
        find_browser(machine=machine(os_name))
    assert str(missing.value) == NO_BROWSER
    assert "studio browser install" in NO_BROWSER and "studio browser use PATH" in NO_BROWSER
    assert NO_BROWSER.count(". ") == 0  # one sentence
    searched = " ".join(missing.value.searched)
    assert "ms-playwright" in searched and "on PATH" in searched
    assert {"linux": "/snap/bin", "windows": r"C:\Program Files (x86)", "mac": "/Users/qa/Applications"}[os_name] \
        in searched


def test_studio_browser_search_keeps_the_machines_browsers_out():
    tree = machine("linux", ["/usr/bin/chromium"])
    with pytest.raises(BrowserNotFound) as hidden:
        find_browser(machine=machine("linux", ["/usr/bin/chromium"], STUDIO_BROWSER_SEARCH="playwright"))
    assert hidden.value.searched == ["Playwright's browsers in /home/qa/.cache/ms-playwright"]
    assert find_browser(machine=tree).path == "/usr/bin/chromium"
    off = machine("linux", ["/usr/bin/chromium"], STUDIO_BROWSER_SEARCH="none")
    assert "turns the search off" in searched_places(off)[0]


@pytest.mark.parametrize(("answer", "code", "version"), [
    ("Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)\n", 0, "Chromium 156.0.8078.108"),
    ("Google Chrome 131.0.6778.85 \n", 0, "Google Chrome 131.0.6778.85"),
    ("Microsoft Edge 131.0.2903.70\n", 0, "Microsoft Edge 131.0.2903.70"),
    ("Google Chrome for Testing 159.0.8154.6\n", 0, "Google Chrome for Testing 159.0.8154.6"),
])
def test_a_chromium_answer_gives_its_version(answer, code, version):
    assert version_from_answer("/x/browser", code, answer) == version


@pytest.mark.parametrize(("answer", "code", "said"), [
    ("Mozilla Firefox 128.0\n", 0, "'Mozilla Firefox 128.0'"),
    ("", 0, "'nothing'"),
    ("Chromium 156.0.8078.108\n", 1, "(exit code 1)"),
])
def test_anything_else_is_refused_with_what_it_answered(answer, code, said):
    with pytest.raises(BrowserNotFound) as refused:
        version_from_answer("/x/browser", code, answer)
    assert str(refused.value).startswith("/x/browser is not Chrome, Edge or Chromium") and said in str(refused.value)


def test_on_windows_the_version_is_the_install_folders_name():
    exe = r"C:\Program Files\Google\Chrome\Application\chrome.exe"
    tree = machine("windows", [exe], [r"C:\Program Files\Google\Chrome\Application\119.0.6045.200\chrome.dll",
                                      r"C:\Program Files\Google\Chrome\Application\120.0.6099.130\chrome.dll"])
    assert windows_version(exe, tree) == "Google Chrome 120.0.6099.130"
    with pytest.raises(BrowserNotFound, match="chrome.exe and msedge.exe"):
        windows_version(r"C:\Python311\python.exe", tree)


def _script(path, text: str):
    path.write_text(f"#!/bin/sh\n{text}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_a_chosen_file_is_checked_by_running_it_with_version(tmp_path):
    assert check_browser(_script(tmp_path / "chrome", "echo 'Google Chrome 131.0.6778.85'")) == \
        "Google Chrome 131.0.6778.85"
    with pytest.raises(BrowserNotFound, match="answered 'Python 3.11.2'"):
        check_browser(_script(tmp_path / "python", "echo 'Python 3.11.2'"))
    plain = tmp_path / "notes.txt"
    plain.write_text("not a program")
    with pytest.raises(BrowserNotFound, match="is not an executable file"):
        check_browser(str(plain))
