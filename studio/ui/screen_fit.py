"""The first window fits the screen it opens on: 1500×950 is the studio's comfortable size, but on a 1366×768 laptop
(the most common screen) a window that size runs off the bottom and right, hiding the status bar and the docks'
lower edge. The window takes its comfortable size where the screen has room and the screen's free area otherwise,
centred on it."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

COMFORTABLE = QSize(1500, 950)


def fitted_size(available: QSize, comfortable: QSize = COMFORTABLE) -> QSize:
    """The window's size on a screen whose free area (without panels and docks) is `available`."""
    return QSize(min(comfortable.width(), available.width()), min(comfortable.height(), available.height()))


def fit_to_screen(window: QWidget) -> None:
    """Size `window` for the screen it will open on and centre it there (the primary screen when it has none).
    The offscreen platform (tests, `--screenshot` without a display) has no real screen, only an 800×800 stand-in:
    there the window keeps its comfortable size."""
    if QGuiApplication.platformName() == "offscreen":
        window.resize(COMFORTABLE)
        return
    screen = window.screen() or QGuiApplication.primaryScreen()
    available = screen.availableGeometry() if screen is not None else QRect(0, 0, COMFORTABLE.width(),
                                                                            COMFORTABLE.height())
    size = fitted_size(available.size())
    window.resize(size)
    window.move(available.x() + (available.width() - size.width()) // 2,
                available.y() + (available.height() - size.height()) // 2)
