"""What the playground GUI tests share: the whole studio window on a real project file, waiting, and screenshots
(written to $STUDIO_GUI_SHOTS when it is set, for looking at the panels after a real run)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from PySide6.QtWidgets import QWidget

from studio.app.studio_app import StudioServices
from studio.settings import StudioSettings
from studio.ui.main_window import StudioWindow


async def until(predicate, timeout: float = 30.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.03)


def open_studio(folder: Path, name: str = "playground.studio",
                reopen: bool = False) -> tuple[StudioServices, StudioWindow]:
    """The studio as `studio gui` builds it (every dock), on a new (or, with `reopen`, the existing) project file."""
    services = StudioServices(StudioSettings())
    window = StudioWindow(services.browser, services.project, services.settings, services.race,
                          services.playground, services.cases)
    window.closed = asyncio.get_event_loop().create_future()
    opened = services.project.open_project(folder / name) if reopen else services.project.new_project(folder / name)
    assert opened
    window.resize(1500, 950)
    window.show()
    return services, window


async def close_studio(services: StudioServices, window: StudioWindow) -> None:
    window.close()
    await services.shutdown()


def shoot(widget: QWidget, name: str) -> None:
    """Save `widget` as $STUDIO_GUI_SHOTS/<name>.png when that folder is set."""
    folder = os.environ.get("STUDIO_GUI_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    widget.repaint()
    assert widget.grab().save(str(Path(folder) / f"{name}.png")), name
