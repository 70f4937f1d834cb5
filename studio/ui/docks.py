"""The dock framework: adding a panel to the studio is one call that also gives it a View-menu toggle. Docks
never come to the front by themselves: a panel with news asks for `attention`, which badges its title (and tab)
and says why in the status bar, until the tester looks at it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QScrollArea, QWidget

ATTENTION_MS = 15_000  # how long the status bar says why a dock is badged; the badge stays until it is seen


class DockHost:
    """Creates docks on a main window and lists their toggles in a View menu."""

    def __init__(self, window: QMainWindow, view_menu: QMenu) -> None:
        self.window = window
        self.view_menu = view_menu
        self.docks: dict[str, QDockWidget] = {}
        self.titles: dict[str, str] = {}
        self.badged: set[str] = set()

    def add(
        self,
        key: str,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea = Qt.DockWidgetArea.BottomDockWidgetArea,
        shortcut: str | None = None,
        visible: bool = True,
    ) -> QDockWidget:
        """Add `widget` as a dock titled `title`; `key` names it for saved layouts and tests. The dock scrolls what
        does not fit, so no panel's minimum size ever squeezes the live page."""
        if key in self.docks:
            raise ValueError(f"a dock named {key!r} already exists")
        dock = QDockWidget(title, self.window)
        dock.setObjectName(f"dock-{key}")
        dock.setWidget(_scrollable(widget))
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
        self.titles[key] = title
        dock.visibilityChanged.connect(lambda shown, k=key: self._seen(k) if shown else None)
        return dock

    def attention(self, key: str, reason: str) -> None:
        """`key` has news: unless the tester sees it already, badge its title (and tab) with ● and say `reason` in
        the status bar, with how to show the dock when the workspace hides it. The layout never changes."""
        dock = self.docks.get(key)
        if dock is None or _in_view(dock):
            return
        self.badged.add(key)
        dock.setWindowTitle(f"{self.titles[key]} \u25cf")
        toggle = dock.toggleViewAction()
        if reason and not toggle.isChecked():  # hidden, not merely behind another tab
            shortcut = toggle.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            reason += f" (View › {self.titles[key]}" + (f", {shortcut})" if shortcut else ")")
        if reason and hasattr(self.window, "statusBar"):
            self.window.statusBar().showMessage(reason, ATTENTION_MS)

    def _seen(self, key: str) -> None:
        if key in self.badged:
            self.badged.discard(key)
            self.docks[key].setWindowTitle(self.titles[key])

    def __getitem__(self, key: str) -> QDockWidget:
        return self.docks[key]


def _scrollable(widget: QWidget) -> QScrollArea:
    area = QScrollArea(widget.parentWidget())
    area.setWidget(widget)
    area.setWidgetResizable(True)  # fills the dock when there is room; scrolls only below its minimum size
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    return area


def _in_view(dock: QDockWidget) -> bool:
    """Whether the tester can see the dock now (shown, and the front tab when tabbed)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()
