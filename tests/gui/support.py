"""What the GUI tests share: waiting on a condition, the studio window built as `studio gui` builds it (on a real
project file, with or without a browser session), points on the live view, and screenshots (written to
$STUDIO_GUI_SHOTS when it is set, for looking at the panels after a real run)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from playwright.async_api import Error as PlaywrightError
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QWidget

from studio.app.studio_app import StudioServices
from studio.settings import StudioSettings
from studio.ui.main_window import StudioWindow, build_window
from studio.ui.synthetic_input import mouse_click


async def until(predicate, timeout: float = 30.0, what: str = "condition"):
    """Wait until `predicate()` (a value or a coroutine) is truthy and return it; fail naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.03)


async def equals(awaitable, expected) -> bool:
    return (await awaitable) == expected


async def greater(awaitable, bound) -> bool:
    return (await awaitable) > bound


async def is_none(awaitable) -> bool:
    """Whether a page evaluation gives None; asked while a reload replaces the document, it is not None yet."""
    try:
        return (await awaitable) is None
    except PlaywrightError:
        return False


def open_studio(folder: Path, name: str = "playground.studio",
                reopen: bool = False) -> tuple[StudioServices, StudioWindow]:
    """The studio as `studio gui` builds it (every dock), on a new (or, with `reopen`, the existing) project file."""
    services = StudioServices(StudioSettings())
    window = build_window(services)
    window.closed = asyncio.get_event_loop().create_future()
    opened = services.project.open_project(folder / name) if reopen else services.project.new_project(folder / name)
    assert opened
    window.resize(1500, 950)
    window.show()
    return services, window


async def open_browsing_studio(url: str, size=(1400, 900), viewport=(1280, 720)):
    """The window with the live view only, on an untitled project, with a session started on `url`."""
    services = StudioServices(StudioSettings())
    window = StudioWindow(services.browser, services.project, services.settings)
    window.closed = asyncio.get_running_loop().create_future()
    services.project.open_untitled()
    window.resize(*size)
    window.show()
    session = await services.browser.start(services.runtime.session_options(viewport=viewport), url)
    assert session is not None
    return services, window, session


async def open_race_studio(url: str, folder: Path):
    """The window with the race docks, on a named project in `folder`, showing `url` in a painted frame."""
    services = StudioServices(StudioSettings())
    window = StudioWindow(services.browser, services.project, services.settings, services.race)
    window.closed = asyncio.get_running_loop().create_future()
    # A named project: untitled ones are named by the second, and two tests can start within one.
    assert services.project.new_project(folder / "race.studio")
    window.resize(1500, 950)
    window.show()
    session = await services.browser.start(services.runtime.session_options(viewport=(1280, 720)), url)
    assert session is not None
    await until(lambda: window.live_view.frames_painted > 0, what="a painted frame")
    return services, window, session


async def close_studio(services: StudioServices, window: StudioWindow) -> None:
    window.close()
    await services.shutdown()


def widget_point(view, page_x: float, page_y: float) -> QPoint:
    """The live view's point showing the page's point (page_x, page_y)."""
    x, y = view.frame_rect().to_widget(page_x, page_y)
    return QPoint(round(x), round(y))


async def center_of(view, locator) -> QPoint:
    box = await locator.bounding_box()
    return widget_point(view, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def shoot(widget: QWidget, name: str) -> None:
    """Save `widget` as $STUDIO_GUI_SHOTS/<name>.png when that folder is set."""
    folder = os.environ.get("STUDIO_GUI_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    widget.repaint()
    assert widget.grab().save(str(Path(folder) / f"{name}.png")), name


class NextSignal:
    """The next emission of a Qt signal from the moment this is made (connect before the action that causes it);
    `await caught.wait()` gives its argument (a tuple when it has several)."""

    def __init__(self, signal, check=lambda *args: True) -> None:
        self._signal = signal
        self._check = check
        self._future: asyncio.Future = asyncio.get_event_loop().create_future()
        signal.connect(self._caught)

    def _caught(self, *args) -> None:
        if not self._future.done() and self._check(*args):
            self._future.set_result(args[0] if len(args) == 1 else args)

    async def wait(self, timeout: float = 30.0, what: str = "the signal"):
        try:
            return await asyncio.wait_for(asyncio.shield(self._future), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what}") from None
        finally:
            self._signal.disconnect(self._caught)


async def click_on(view, locator) -> None:
    """A tester's click on the live view over the element, at where the page shows it now."""
    await locator.scroll_into_view_if_needed()
    box = await locator.bounding_box()
    x, y = view.frame_rect().to_widget(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    mouse_click(view, QPoint(round(x), round(y)))
