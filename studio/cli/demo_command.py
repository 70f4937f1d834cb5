"""`studio demo` in the terminal: start the demo app, run the tour headless, record it, write summary.json."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

from studio.browser.errors import BrowserError, SessionClosedError
from studio.cli.progress import JsonLines, TerminalProgress
from studio.cli.window import window
from studio.demo.out_folder import OutFolderError, exclusive_out_folder
from studio.demo.run import demo_project_path, run_demo
from studio.demo.server import DemoConfig, DemoServerThread
from studio.runtime import EngineRuntime
from studio.settings import load_settings
from studio.store.errors import ProjectError
from studio.store.project import ProjectFile
from studio.wording import plural


async def run_in_terminal(out: Path, seed: int, jsonl: Path | None, endpoint: str | None = None) -> int:
    """Run the whole demo with progress on stderr; returns the process exit code."""
    jsonl_stream = jsonl.open("w", encoding="utf-8") if jsonl else None
    overrides = {"browser_endpoint": endpoint} if endpoint else {}
    try:
        with DemoServerThread(config=DemoConfig(seed=seed)) as demo, \
                ProjectFile.create(demo_project_path(out)) as project:
            async with EngineRuntime(load_settings(), project) as runtime:
                runtime.bus.subscribe(TerminalProgress())
                if jsonl_stream:
                    runtime.bus.subscribe(JsonLines(jsonl_stream))
                print(f"Demo app running at {demo.base_url}", file=sys.stderr)
                try:
                    session = await runtime.start_browser(headless=True, label="studio demo", **overrides)
                    summary = await run_demo(session, demo, project, out)
                except (BrowserError, SessionClosedError) as error:
                    print(f"error: {error}\nWhat was recorded is in {project.path}.", file=sys.stderr)
                    return 2
    finally:
        if jsonl_stream:
            jsonl_stream.close()  # after the runtime closed: the session's end is in the file too
    print(
        f"Visited {len(summary['pages'])} pages, {summary['screenshots']} screenshots, "
        f"{summary['console_errors']} console errors, {summary['network_failures']} network failures.\n"
        f"Project: {summary['project']}\nSummary: {(out / 'summary.json').resolve()}",
        file=sys.stderr,
    )
    if summary["failures"]:
        print(f"{plural(len(summary['failures']), 'step')} failed; see above.", file=sys.stderr)
        return 1
    return 0


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("darwin", "win32")


def _unwritable(out: Path, jsonl: Path | None) -> str | None:
    """Why the demo could not write its files (a sentence with a next step), or None when it can."""
    if out.exists() and not out.is_dir():
        return f"{out} is a file, and the demo needs a folder for its files. Choose a folder with --out."
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return (f"cannot use {out} for the demo's files: {error.strerror or error}. "
                "Choose another folder with --out.")
    if jsonl is not None:
        try:
            jsonl.parent.mkdir(parents=True, exist_ok=True)
            jsonl.touch()
        except OSError as error:
            return f"cannot write the events to {jsonl}: {error.strerror or error}. Choose another file with --jsonl."
    return None


def main(out: Path, seed: int, headless: bool, jsonl: Path | None, close_when_done: bool = False,
         endpoint: str | None = None) -> int:
    problem = _unwritable(out, jsonl)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        # Held for the whole run: a second demo into the same folder would move this one's project file away.
        with exclusive_out_folder(out):
            if not headless and has_display():
                return window().run_demo(out=out, seed=seed, close_when_done=close_when_done)
            started = time.perf_counter()
            code = asyncio.run(run_in_terminal(out, seed, jsonl, endpoint))
            print(f"Done in {time.perf_counter() - started:.1f} s.", file=sys.stderr)
            return code
    except (OutFolderError, ProjectError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
