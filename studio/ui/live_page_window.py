"""Where the live page is shown: in the studio window among the docks (as usual), alone in the studio window (View ›
Live Page Only, F11; docks and toolbars hidden, restored exactly on the way back), or in a window of its own (View ›
Live Page in Own Window). The live view keeps forwarding the tester's mouse and keys to the page wherever it is."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QObject, QSize, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from studio.ui.live_view import LiveView

# The version every saved window layout carries: bumped when the defaults change a lot, so a layout saved from the
# old defaults is not restored over the new ones (2: Explore moved its bottom strip into the side column).
STATE_VERSION = 2
OWN_WINDOW_SHORTCUT = "Ctrl+Shift+O"
ONLY_SHORTCUT = "F11"
AWAY_TEXT = "The live page is in its own window."
ONLY_TEXT = f"Live page only: {ONLY_SHORTCUT} or Esc brings the panels back."


class LivePageWindow(QWidget):
    """A top-level window holding the live view; closing it brings the view back (`closing`)."""

    closing = Signal()

    def __init__(self, actions: list[QAction]) -> None:
        super().__init__(None, Qt.WindowType.Window)
        self.setWindowTitle("Live Page — Preflight Studio")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.page_layout = layout
        # The studio's shortcuts (Ctrl+L, F5, the workspaces, bringing the page back…) work here too.
        self.addActions(actions)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closing.emit()
        event.accept()


class LivePagePlacement(QObject):
    """Moves the live view between the studio window and its own window, and fills the studio window with it."""

    placeChanged = Signal(str)  # "window", "only" (fills the studio window), "own-window"

    def __init__(self, window: QMainWindow, view: LiveView, central: QVBoxLayout, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.view = view
        self.central = central
        self.place = "window"
        self.own_window: LivePageWindow | None = None
        self._before_only: QByteArray | None = None
        self._hidden_bars: list[QToolBar] = []

        self.away = QWidget(window)  # stands where the page was while it is in its own window
        away_layout = QVBoxLayout(self.away)
        away_layout.addStretch(1)
        away_label = QLabel(AWAY_TEXT, self.away)
        away_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        back = QPushButton("Bring It Back", self.away)
        back.clicked.connect(self.show_in_window)
        away_layout.addWidget(away_label)
        away_layout.addWidget(back, 0, Qt.AlignmentFlag.AlignHCenter)
        away_layout.addStretch(1)
        self.away.hide()

        self.own_window_action = QAction("Live Page in Own &Window", self)
        self.own_window_action.setCheckable(True)
        self.own_window_action.setShortcut(QKeySequence(OWN_WINDOW_SHORTCUT))
        self.own_window_action.setToolTip(f"Show the live page in a window of its own and back ({OWN_WINDOW_SHORTCUT})")
        self.own_window_action.triggered.connect(
            lambda on: self.show_in_own_window() if on else self.show_in_window())
        self.only_action = QAction("Live Page &Only", self)
        self.only_action.setCheckable(True)
        self.only_action.setShortcut(QKeySequence(ONLY_SHORTCUT))
        self.only_action.setToolTip(f"Hide the panels and toolbars: the page fills the window ({ONLY_SHORTCUT} or "
                                    "Esc brings them back)")
        self.only_action.triggered.connect(lambda on: self.show_only() if on else self.show_in_window())
        menu.addAction(self.own_window_action)
        menu.addAction(self.only_action)
        window.addAction(self.only_action)  # F11 works while the menu bar is hidden too
        # Esc leaves "live page only"; the rest of the time it belongs to the page. Off while picking an element,
        # whose own Esc leaves pick mode (two Esc shortcuts at once would both be ignored).
        self.esc_back = QShortcut(QKeySequence(Qt.Key.Key_Escape), window)
        self.esc_back.setContext(Qt.ShortcutContext.WindowShortcut)
        self.esc_back.setEnabled(False)
        self.esc_back.activated.connect(self.show_in_window)
        self._picking = False

    def picking_changed(self, on: bool) -> None:
        self._picking = on
        self.esc_back.setEnabled(self.place == "only" and not on)

    # -- the three places ------------------------------------------------------------------------------

    def show_in_window(self) -> None:
        """The page back among the docks, with the layout it had."""
        if self.place == "only":
            self._restore_layout()
        elif self.place == "own-window":
            self._bring_back()
        self._set_place("window")

    def leave_only(self) -> None:
        """Bring back the panels if the page fills the window (a page in its own window stays there)."""
        if self.place == "only":
            self.show_in_window()

    def show_only(self) -> None:
        """The page fills the studio window: docks and toolbars are hidden until F11 or Esc."""
        if self.place == "only":
            return
        if self.place == "own-window":
            self._bring_back()
        self._before_only = self.window.saveState(STATE_VERSION)
        self._hidden_bars = [bar for bar in self.window.findChildren(QToolBar) if bar.isVisible()]
        for dock in self.window.findChildren(QDockWidget):
            dock.hide()
        for bar in self._hidden_bars:
            bar.hide()
        self._set_place("only")
        self.window.statusBar().showMessage(ONLY_TEXT, 8000)

    def show_in_own_window(self) -> None:
        """The page in a window of its own; the studio window keeps its docks and says where the page went."""
        if self.place == "own-window":
            if self.own_window is not None:
                self.own_window.raise_()
            return
        if self.place == "only":
            self._restore_layout()
        size = self.view.size()
        index = self.central.indexOf(self.view)
        self.central.insertWidget(index, self.away, 1)
        self.away.show()
        self.own_window = LivePageWindow(self._shortcut_actions())
        self.own_window.closing.connect(self._own_window_closed)
        self.own_window.page_layout.addWidget(self.view)  # re-parents the view: input still goes to the page
        self.view.show()
        self.own_window.resize(self._own_window_size(size.width(), size.height()))
        self.own_window.show()
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        self._set_place("own-window")

    def normal_state(self) -> QByteArray:
        """The window's layout as the tester arranged it (not the moment's "live page only")."""
        if self.place == "only" and self._before_only is not None:
            return self._before_only
        return self.window.saveState(STATE_VERSION)

    # -- internals -------------------------------------------------------------------------------------

    def _restore_layout(self) -> None:
        if self.window.statusBar().currentMessage() == ONLY_TEXT:
            self.window.statusBar().clearMessage()
        if self._before_only is not None:
            self.window.restoreState(self._before_only, STATE_VERSION)
        for bar in self._hidden_bars:
            bar.show()
        self._before_only, self._hidden_bars = None, []

    def _bring_back(self) -> None:
        own, self.own_window = self.own_window, None
        index = self.central.indexOf(self.away)
        self.central.insertWidget(index, self.view, 1)
        self.away.hide()
        self.central.removeWidget(self.away)
        self.view.show()
        if own is not None:
            own.closing.disconnect(self._own_window_closed)
            own.close()
            own.deleteLater()

    def _own_window_closed(self) -> None:
        if self.place == "own-window":
            self.show_in_window()

    def _set_place(self, place: str) -> None:
        self.place = place
        self.own_window_action.setChecked(place == "own-window")
        self.only_action.setChecked(place == "only")
        self.esc_back.setEnabled(place == "only" and not self._picking)
        self.placeChanged.emit(place)

    def _shortcut_actions(self) -> list[QAction]:
        """Every action with a shortcut in the studio's menus and toolbars."""
        found: list[QAction] = []

        def collect(actions: list[QAction]) -> None:
            for action in actions:
                menu = action.menu()
                if isinstance(menu, QMenu):
                    collect(menu.actions())
                elif not action.shortcut().isEmpty() and action not in found:
                    found.append(action)

        collect(self.window.menuBar().actions())
        for bar in self.window.findChildren(QToolBar):
            collect(bar.actions())
        return found

    def _own_window_size(self, width: int, height: int) -> QSize:
        """At least the page's own size (1280×720) when the screen has room, else as much as fits, aspect kept."""
        width, height = max(width, 1280), max(height, 720)
        screen = self.window.screen() or QGuiApplication.primaryScreen()
        if screen is not None:
            room = screen.availableGeometry().size()
            scale = min(1.0, room.width() * 0.9 / width, room.height() * 0.9 / height)
            width, height = round(width * scale), round(height * scale)
        return QSize(width, height)
