"""The dock framework: adding a panel to the studio is one call that also gives it a View-menu toggle."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QWidget


class DockHost:
    """Creates docks on a main window and lists their toggles in a View menu."""

    def __init__(self, window: QMainWindow, view_menu: QMenu) -> None:
        self.window = window
        self.view_menu = view_menu
        self.docks: dict[str, QDockWidget] = {}

    def add(
        self,
        key: str,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea = Qt.DockWidgetArea.BottomDockWidgetArea,
        shortcut: str | None = None,
        visible: bool = True,
    ) -> QDockWidget:
        """Add `widget` as a dock titled `title`; `key` names it for saved layouts and tests."""
        if key in self.docks:
            raise ValueError(f"a dock named {key!r} already exists")
        dock = QDockWidget(title, self.window)
        dock.setObjectName(f"dock-{key}")
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.window.addDockWidget(area, dock)
        toggle = dock.toggleViewAction()
        if shortcut:
            toggle.setShortcut(QKeySequence(shortcut))
        self.view_menu.addAction(toggle)
        dock.setVisible(visible)
        self.docks[key] = dock
        return dock

    def __getitem__(self, key: str) -> QDockWidget:
        return self.docks[key]
