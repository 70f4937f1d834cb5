"""`studio browser find | install | use`: which browser the studio drives, fetching Playwright's Chromium, and choosing
one by path — the terminal's side of the window's first-run dialog."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

FOUND, NOT_FOUND, BAD_INPUT = 0, 1, 2


def _find(args: argparse.Namespace) -> int:
    from studio.browser.discovery import BrowserNotFound, find_browser
    from studio.settings import load_settings

    try:
        info = find_browser(chosen=load_settings().browser_path)
    except BrowserNotFound as error:
        if args.json:
            print(json.dumps({"found": False, "error": str(error), "searched": error.searched}, indent=2))
        else:
            print(error, file=sys.stderr)
            for place in error.searched:
                print(f"  looked in: {place}", file=sys.stderr)
        return NOT_FOUND
    version = info.version()
    if args.json:
        print(json.dumps({"found": True, "path": info.path, "source": info.source, "version": version}, indent=2))
    else:
        print(f"{version} at {info.path} ({_SOURCES.get(info.source, info.source)})")
    return FOUND


_SOURCES = {"settings": "chosen in Settings", "STUDIO_BROWSER": "from STUDIO_BROWSER",
            "playwright": "downloaded by Playwright", "path": "found on PATH", "system": "found in its install folder"}


def _install(args: argparse.Namespace) -> int:
    from studio.browser.chromium_install import ChromiumInstall, InstallProgress

    shown: list[tuple[str, int | None]] = []

    def show(progress: InstallProgress) -> None:
        key = (progress.title, progress.percent)
        if key not in shown:  # each step once, as lines a log keeps
            shown.append(key)
            print(progress.sentence(), file=sys.stderr, flush=True)

    install = ChromiumInstall(on_progress=None if args.quiet else show,
                              choose="or use a browser that is already installed: `studio browser use PATH`")
    print(f"Fetching Playwright's Chromium ({' '.join(install.command[-3:])}); Ctrl+C cancels.", file=sys.stderr)
    outcome = asyncio.run(install.run())
    if not outcome.ok:
        print(f"error: {outcome.message}", file=sys.stderr)
        return NOT_FOUND
    print(outcome.message)
    return FOUND


def _use(args: argparse.Namespace) -> int:
    from studio.browser.discovery import BrowserNotFound, check_browser
    from studio.settings import load_settings, save_settings, settings_path

    settings = load_settings()
    if args.auto:
        settings.browser_path = None
        save_settings(settings)
        print(f"Saved in {settings_path()}: the studio looks for a browser itself (`studio browser find` shows which).")
        return FOUND
    if not args.path:
        print("error: give the browser's program (`studio browser use /usr/bin/chromium`), or --auto to let the "
              "studio look for one.", file=sys.stderr)
        return BAD_INPUT
    path = os.path.abspath(os.path.expanduser(args.path))
    try:
        version = check_browser(path)
    except BrowserNotFound as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    settings.browser_path = path
    save_settings(settings)
    print(f"Saved in {settings_path()}: the studio uses {version} at {path}.")
    return FOUND


def register(commands: argparse._SubParsersAction) -> None:
    browser = commands.add_parser(
        "browser", help="find the browser the studio drives, fetch Playwright's Chromium, or choose one by path",
        description="The studio drives Chrome, Edge or Chromium. `find` says which one it would use; `install` "
                    "fetches Playwright's Chromium (python -m playwright install chromium); `use PATH` checks a "
                    "browser (PATH --version) and keeps it in Settings.")
    actions = browser.add_subparsers(dest="browser_action", metavar="ACTION", required=True)
    find = actions.add_parser("find", help="say which browser the studio would use (exit 1: none found)",
                              description="Exit 0: a browser was found; 1: none (the sentence says the two ways out).")
    find.add_argument("--json", action="store_true", help="print {found, path, source, version} as JSON")
    find.set_defaults(handler=_find)
    install = actions.add_parser(
        "install", help="fetch Playwright's Chromium, with progress (exit 1: it failed)",
        description="Run `python -m playwright install chromium` (STUDIO_BROWSER_INSTALLER replaces the command), "
                    "showing its progress; Ctrl+C stops it and its download. Exit 0: installed; 1: it failed (the "
                    "sentence says why and what to do); 130: cancelled.")
    install.add_argument("--quiet", action="store_true", help="no progress lines")
    install.set_defaults(handler=_install)
    use = actions.add_parser("use", help="choose a browser by path: checked with --version, then kept in Settings",
                             description="Exit 0: saved; 2: PATH is not Chrome, Edge or Chromium (nothing saved).")
    use.add_argument("path", nargs="?", metavar="PATH", help="the browser's program, e.g. /usr/bin/chromium")
    use.add_argument("--auto", action="store_true", help="forget the chosen browser: the studio looks for one")
    use.set_defaults(handler=_use)
