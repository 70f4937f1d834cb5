"""The window front end the terminal commands use (see studio.cli.window): the window, the demo in the window,
and the window's benches."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


class Window:
    """studio.ui as studio.cli.window.WindowFrontEnd; Qt loads with the first call."""

    def run_gui(self, project: Path | None, url: str | None, screenshot: Path | None, headed: bool,
                storage_state: Path | None, allow_file_urls: bool, workspace: str | None = None,
                size: tuple[int, int] | None = None) -> int:
        from studio.ui.launcher import run_gui

        return run_gui(project=project, url=url, screenshot=screenshot, headed=headed, storage_state=storage_state,
                       allow_file_urls=allow_file_urls, workspace=workspace, size=size)

    def run_demo(self, out: Path, seed: int, close_when_done: bool) -> int:
        from studio.ui.launcher import run_demo_gui

        return run_demo_gui(out=out, seed=seed, close_when_done=close_when_done)

    def bench(self) -> Callable[..., int]:
        from studio.ui.bench import main

        return main


WINDOW = Window()
