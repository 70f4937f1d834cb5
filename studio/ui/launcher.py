"""GUI front end: start Qt with an asyncio loop (qasync), show the window, and shut down in the right order."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import qasync
from PySide6.QtWidgets import QApplication

from studio.app.studio_app import StudioServices
from studio.browser.errors import BrowserError, SessionClosedError
from studio.settings import load_settings
from studio.ui.main_window import StudioWindow, build_window
from studio.ui.theme import apply_theme

log = logging.getLogger(__name__)

T = TypeVar("T")


def _display_problem(offscreen_ok: bool) -> str | None:
    """None when Qt can show (or render) windows; else a sentence saying what to do."""
    if os.environ.get("QT_QPA_PLATFORM") or sys.platform in ("darwin", "win32"):
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    if offscreen_ok:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        return None
    return ("No display was found, so the studio window cannot open. Run it under a virtual display "
            "(`xvfb-run studio`), or use the terminal front end (`studio demo --headless`).")


def run_in_qt(main: Callable[[], Awaitable[T]]) -> T:
    """Run `main()` on a qasync loop inside a QApplication and return its result (an exit code, a bench's numbers)."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    if not isinstance(app, QApplication):
        raise TypeError(f"The studio window needs a QApplication, but a {type(app).__name__} is already running.")
    app.setApplicationName("Preflight Studio")
    app.setOrganizationName("Preflight Studio")
    # The launcher entry's name (preflight-studio.desktop): Wayland docks and task bars show its icon and name.
    app.setDesktopFileName("preflight-studio")
    # The coroutine decides when to quit: closing the window must not stop the loop before shutdown ran.
    app.setQuitOnLastWindowClosed(False)
    apply_theme(app)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        return loop.run_until_complete(main())
    finally:
        asyncio.set_event_loop(None)
        loop.close()


class Studio:
    """The services plus the window, created together on the running loop."""

    def __init__(self, allow_file_urls: bool = False) -> None:
        settings = load_settings()
        settings.allow_file_urls = allow_file_urls  # for this run only; never saved
        self.services = StudioServices(settings)
        services = self.services
        self.window = build_window(services)
        # Resolved when the window closes; the front end then shuts the services down.
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.window.closed = self.closed

    async def shutdown(self) -> None:
        await self.services.shutdown()


async def wait_for_settled_frames(studio: Studio, quiet_s: float = 0.4, timeout_s: float = 15.0) -> bool:
    """Wait until the live view has painted a frame and no newer frame came for `quiet_s` (the page settled)."""
    view, service = studio.window.live_view, studio.services.browser
    deadline = time.monotonic() + timeout_s
    last_count, last_change = -1, time.monotonic()
    while time.monotonic() < deadline:
        count = service.frames_received
        if count != last_count:
            last_count, last_change = count, time.monotonic()
        elif view.frames_shown > 0 and time.monotonic() - last_change >= quiet_s:
            return True
        await asyncio.sleep(0.05)
    return view.frames_shown > 0


async def _network_idle(session, timeout_ms: float = 8000) -> None:
    """Wait until the page has had no network traffic for 500 ms (data fetched after load has arrived); a page that
    polls forever never goes idle, and the frames settling is then the only signal."""
    from studio.runtime.live import LivePage

    await LivePage(session).driver.wait_for_load("networkidle", timeout_ms)


def save_window_png(studio: Studio, path: Path) -> None:
    studio.window.live_view.repaint()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not studio.window.grab().save(str(path)):
        raise OSError(f"Qt could not write {path}")


def arrange_window(window: StudioWindow, workspace: str | None, size: tuple[int, int] | None) -> str | None:
    """Show `workspace` at `size`; a sentence naming the valid workspaces when there is no such one."""
    if workspace is not None:
        found = window.workspaces.find(workspace)
        if found is None:
            names = ", ".join(window.workspaces.names())
            return f"error: there is no workspace called {workspace!r}. The workspaces are: {names}."
        window.workspaces.switch(found.name)
    if size is not None:
        window.resize(*size)
    return None


def _report_first_frame_once(view):
    def report() -> None:
        view.framePainted.disconnect(report)
        print(f"first-frame {time.time():.3f}", flush=True)

    return report


def run_gui(project: Path | None = None, url: str | None = None, screenshot: Path | None = None,
            headed: bool = False, storage_state: Path | None = None, allow_file_urls: bool = False,
            workspace: str | None = None, size: tuple[int, int] | None = None) -> int:
    """`studio gui`: the window, optionally on a project and URL, in a workspace and at a size; with `screenshot`,
    capture it once the page's first frames are painted, and exit."""
    problem = _display_problem(offscreen_ok=screenshot is not None)
    if problem:
        print(problem, file=sys.stderr)
        return 2

    async def main() -> int:
        studio = Studio(allow_file_urls)
        window, services = studio.window, studio.services
        problem = arrange_window(window, workspace, size)
        if problem:
            print(problem, file=sys.stderr)
            window.close()
            await studio.shutdown()
            return 2
        if project is not None:
            if not services.project.open_or_create(project):
                print(window.message_bar.label.text(), file=sys.stderr)
                if screenshot is not None:
                    await studio.shutdown()
                    return 2
        if services.project.project is None:
            services.project.open_untitled()
        window.show()
        if os.environ.get("STUDIO_REPORT_FIRST_FRAME"):
            # For `studio bench startup`: the moment the first page frame is on screen, as wall-clock time.
            window.live_view.framePainted.connect(_report_first_frame_once(window.live_view))
        overrides: dict[str, object] = {"headless": False} if headed else {}
        if storage_state is not None:
            overrides["storage_state"] = storage_state
        options = services.runtime.session_options(label="exploration", **overrides)
        code = 0
        if url:
            window.url_bar.url_edit.setText(url)
            if screenshot is not None:
                errors: list[str] = []
                services.browser.errorOccurred.connect(errors.append)
                session = await services.browser.start(options, url)
                if session is not None and session.alive and not errors:
                    await _network_idle(session)
                if errors:
                    print("\n".join(errors), file=sys.stderr)
                    code = 1
                elif not await wait_for_settled_frames(studio):
                    print("No frame of the page arrived in time.", file=sys.stderr)
                    code = 1
            else:
                services.browser.start_session(options, url)
        if screenshot is not None:
            await asyncio.sleep(0.1)  # let docks and the status bar lay out once before grabbing
            if size is not None and window.size().toTuple() != size:
                print(f"The window could not be made {size[0]}x{size[1]} (it is {window.width()}x{window.height()}"
                      "); the screenshot has its real size.", file=sys.stderr)
                code = code or 1
            save_window_png(studio, screenshot)
            print(f"Saved {screenshot}", file=sys.stderr)
            window.close()
        await studio.closed
        await studio.shutdown()
        return code

    return run_in_qt(main)


def run_demo_gui(out: Path, seed: int, close_when_done: bool = False) -> int:
    """`studio demo` with a display: the same tour as in the terminal, live in the studio window.

    The window stays open for exploring afterwards, unless `close_when_done` (scripted runs)."""
    from studio.demo.run import demo_project_path, run_demo
    from studio.demo.server import DemoConfig, DemoServerThread

    async def main() -> int:
        with DemoServerThread(config=DemoConfig(seed=seed)) as demo:
            studio = Studio()
            window, services = studio.window, studio.services
            project = services.project.project if services.project.new_project(demo_project_path(out)) else None
            if project is None:
                await studio.shutdown()
                return 2
            window.show()
            session = await services.browser.start(services.runtime.session_options(label="studio demo"))
            if session is None:
                await studio.closed
                await studio.shutdown()
                return 2
            code = 0
            try:
                summary = await run_demo(session, demo, project, out)
                window.message_bar.show_message(
                    f"Demo finished: {len(summary['pages'])} pages, {summary['screenshots']} screenshots, "
                    f"{summary['console_errors']} console errors. The session stays open: explore on.", "info")
                code = 1 if summary["failures"] else 0
            except (BrowserError, SessionClosedError) as error:
                window.message_bar.show_message(str(error), "error")
                code = 2
            if close_when_done:
                window.close()
            await studio.closed
            await studio.shutdown()
        return code

    return run_in_qt(main)
