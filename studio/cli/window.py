"""The window as the terminal front end knows it: `studio gui`, `studio demo` with a display, and the benches that
measure the window. The CLI never imports Qt; the entry point (studio.entry) installs the window front end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol


class WindowFrontEnd(Protocol):
    """What studio.ui offers the CLI."""

    def run_gui(self, project: Path | None, url: str | None, screenshot: Path | None, headed: bool,
                storage_state: Path | None, allow_file_urls: bool, workspace: str | None = None,
                size: tuple[int, int] | None = None) -> int: ...

    def run_demo(self, out: Path, seed: int, close_when_done: bool) -> int: ...

    def bench(self) -> Callable[..., int]:
        """The `studio bench live-view|startup` entry: main(target, seconds, json_only, runs=None) -> int."""
        ...


class WindowUnavailable(RuntimeError):
    """No window front end was installed (the engine was started without studio.entry)."""


_loader: Callable[[], WindowFrontEnd] | None = None


def install(loader: Callable[[], WindowFrontEnd]) -> None:
    """Make the window available; `loader` imports it (and Qt) only when a command needs it."""
    global _loader
    _loader = loader


def window() -> WindowFrontEnd:
    if _loader is None:
        raise WindowUnavailable("The studio window is not available here; start the studio with the `studio` "
                                "command (studio.entry).")
    return _loader()
