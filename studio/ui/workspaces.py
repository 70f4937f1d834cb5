"""Workspaces: one arrangement of the window per task (Explore, Playground, and one per capability to come). Each
names the docks and toolbars it shows and lays them out by default so the live page keeps about half the window at
1366×768; the tester's own changes to a workspace's layout are kept per workspace, across restarts.

A capability adds its workspace in a few lines, from its front:

    window.workspaces.register(Workspace("Games", docks=("games", "events"),
                                         default_layout=lambda w, d: place_tabs(w, d, RIGHT, ["games"], 320)))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QMainWindow, QMenu, QToolBar

from studio.app.settings_service import SettingsService
from studio.ui.docks import DockHost
from studio.ui.live_page_window import STATE_VERSION, LivePagePlacement
from studio.ui.live_view import LiveView

RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
# Default sizes chosen for a 1366×768 laptop: with them the live page keeps more than 45% of the window.
# Every workspace keeps its docks in one side column: the page keeps the window's full height.
SIDE_WIDTH = 350
WIDE_SIDE_WIDTH = 420  # a side column holding editors (the case form) rather than lists
MAX_SHORTCUTS = 9

Layout = Callable[[QMainWindow, DockHost], None]


@dataclass(frozen=True)
class Workspace:
    """A task's arrangement of the window: the docks it shows, the toolbars that belong to it (shown here and
    hidden in the other workspaces; toolbars no workspace claims are always shown), and its default layout."""

    name: str
    docks: tuple[str, ...]
    default_layout: Layout | None = None
    toolbars: tuple[str, ...] = ()
    description: str = ""


def place_tabs(window: QMainWindow, docks: DockHost, area: Qt.DockWidgetArea, keys: Iterable[str],
               size: int) -> None:
    """Put the docks named `keys` (those that exist) in `area` as tabs, the first in front, `size` px wide (left,
    right) or tall (bottom)."""
    present = [docks[key] for key in keys if key in docks.docks]
    if not present:
        return
    for dock in present:
        dock.setFloating(False)
        window.addDockWidget(area, dock)
    for dock in present[1:]:
        window.tabifyDockWidget(present[0], dock)
    present[0].raise_()  # the default layout, applied when the tester asks for it: never on the app's own
    vertical = area in (Qt.DockWidgetArea.TopDockWidgetArea, BOTTOM)
    window.resizeDocks([present[0]], [size], Qt.Orientation.Vertical if vertical else Qt.Orientation.Horizontal)


def _explore_layout(window: QMainWindow, docks: DockHost) -> None:
    # One side column beside the page, the page keeping the window's full height: at 1366×768 a bottom strip gave
    # Steps 1.5 rows and Events 2, and enlarging it shrank the page to ~600×340. The column holds two tab groups, so
    # no tab's name is cut short: the Inspector (Project behind it) above, Events (Steps, Observations) below.
    above = [docks[key] for key in ("inspector", "project") if key in docks.docks]
    below = [docks[key] for key in ("steps", "events", "observations") if key in docks.docks]
    if not above or not below:
        place_tabs(window, docks, RIGHT, ["inspector", "project", "steps", "events", "observations"], SIDE_WIDTH)
        return
    for dock in (*above, *below):
        dock.setFloating(False)
    window.addDockWidget(RIGHT, above[0])
    window.splitDockWidget(above[0], below[0], Qt.Orientation.Vertical)  # split first: a tabbed dock only tabs
    for group in (above, below):
        for dock in group[1:]:
            window.tabifyDockWidget(group[0], dock)
    above[0].raise_()
    next((d for d in below if d is docks.docks.get("events")), below[0]).raise_()  # Steps comes forward when recording
    window.resizeDocks([above[0]], [SIDE_WIDTH], Qt.Orientation.Horizontal)
    height = window.height()
    window.resizeDocks([above[0], below[0]], [int(height * 0.55), int(height * 0.45)], Qt.Orientation.Vertical)


def _playground_layout(window: QMainWindow, docks: DockHost) -> None:
    # Side by side with the page: a bottom dock tall enough for the case form would leave the page a strip.
    place_tabs(window, docks, RIGHT, ["context", "cases"], WIDE_SIDE_WIDTH)


EXPLORE = Workspace("Explore", ("events", "observations", "steps", "inspector", "project"), _explore_layout,
                    description="Browse the app by hand: events, element inspector, checks and recorded steps")
PLAYGROUND = Workspace("Playground", ("context", "cases"), _playground_layout, toolbars=("playground-bar",),
                       description="Let the agent look at the app and write test cases; review them")


def live_page_share(window: QMainWindow, view: LiveView) -> float:
    """The painted page's area (the scaled 1280×720 frame) as a share of the window's area."""
    rect = view.page_rect()
    area = window.width() * window.height()
    return rect.width * rect.height / area if area else 0.0


class Workspaces(QObject):
    """The window's workspaces: View › Workspace, the switcher on the toolbar, Ctrl+Alt+1…9, and each one's saved
    layout. Switching only shows, hides and moves existing docks: no widget is created again."""

    switched = Signal(str)

    def __init__(self, window: QMainWindow, docks: DockHost, settings: SettingsService,
                 live_page: LivePagePlacement, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.docks = docks
        self.settings = settings
        self.live_page = live_page
        self.workspaces: dict[str, Workspace] = {}
        self.layouts: dict[str, str] = dict(settings.settings.workspace_layouts)
        self.current: str | None = None
        self.menu = QMenu("&Workspace", menu)
        actions = menu.actions()
        if actions:
            menu.insertMenu(actions[0], self.menu)  # first in the View menu
        else:
            menu.addMenu(self.menu)
        self.group = QActionGroup(self)
        self.actions: dict[str, QAction] = {}
        self.reset_action = QAction("&Reset This Workspace's Layout", self)
        self.reset_action.triggered.connect(self.reset_layout)
        self.switcher = QComboBox()
        self.switcher.setAccessibleName("Workspace")
        self.switcher.setToolTip("Workspace: the panels for one task (Ctrl+Alt+1, Ctrl+Alt+2, …)")
        self.switcher.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.switcher.activated.connect(lambda index: self.switch(self.switcher.itemText(index)))
        self._arranged_hidden = False  # arranged before the window was first shown
        window.installEventFilter(self)

    def register(self, workspace: Workspace) -> QAction:
        """Add `workspace` to the View menu and the switcher; its shortcut is Ctrl+Alt+<its place>."""
        if workspace.name in self.workspaces:
            raise ValueError(f"a workspace named {workspace.name!r} already exists")
        self.workspaces[workspace.name] = workspace
        action = QAction(workspace.name, self)
        action.setCheckable(True)
        action.setToolTip(workspace.description or workspace.name)
        place = len(self.workspaces)
        if place <= MAX_SHORTCUTS:
            action.setShortcut(QKeySequence(f"Ctrl+Alt+{place}"))
        action.triggered.connect(lambda _checked=False, name=workspace.name: self.switch(name))
        self.group.addAction(action)
        self.menu.addAction(action)
        self.actions[workspace.name] = action
        self.switcher.addItem(workspace.name)
        self.switcher.setItemData(self.switcher.count() - 1, workspace.description, Qt.ItemDataRole.ToolTipRole)
        return action

    def names(self) -> list[str]:
        return list(self.workspaces)

    def find(self, name: str) -> Workspace | None:
        """The workspace called `name`, in any letter case."""
        return next((w for w in self.workspaces.values() if w.name.lower() == name.strip().lower()), None)

    def add_switcher(self, toolbar: QToolBar) -> None:
        toolbar.addSeparator()
        toolbar.addWidget(QLabel(" Workspace ", toolbar))
        toolbar.addWidget(self.switcher)

    def start(self, name: str | None = None) -> None:
        """Show `name` (else the workspace of the last session, else the first) with its saved or default layout."""
        self.menu.addSeparator()
        self.menu.addAction(self.reset_action)
        chosen = self.find(name or self.settings.settings.workspace or "") or next(iter(self.workspaces.values()))
        self._show(chosen)

    def switch(self, name: str) -> None:
        """Keep the current workspace's layout and show `name`'s."""
        workspace = self.find(name)
        if workspace is None:
            raise KeyError(f"no workspace named {name!r}; the workspaces are {', '.join(self.workspaces)}")
        if workspace.name == self.current:
            self._mark(workspace.name)
            return
        self.live_page.leave_only()  # "live page only" is a moment, not part of a layout
        self._keep_layout()
        self._show(workspace)

    def reset_layout(self) -> None:
        """Forget the current workspace's own layout and lay it out as it comes."""
        if self.current is None:
            return
        self.live_page.leave_only()
        self.layouts.pop(self.current, None)
        self._apply_default(self.workspaces[self.current])

    def save(self) -> None:
        """Write the current workspace and every workspace's layout into the settings (saved with them)."""
        self._keep_layout()
        settings = self.settings.settings
        settings.workspace = self.current
        settings.workspace_layouts = dict(self.layouts)

    # -- applying ------------------------------------------------------------------------------------

    def _keep_layout(self) -> None:
        # Only a layout the tester has seen: one captured before the window was first shown is not theirs.
        if self.current is not None and self.window.isVisible():
            state = self.live_page.normal_state()
            self.layouts[self.current] = bytes(state.toBase64().data()).decode("ascii")

    def _show(self, workspace: Workspace) -> None:
        self._arrange(workspace)
        self._arranged_hidden = not self.window.isVisible()
        self.current = workspace.name
        self._mark(workspace.name)
        self.switched.emit(workspace.name)

    def _arrange(self, workspace: Workspace) -> None:
        self.window.setUpdatesEnabled(False)  # one repaint for the whole switch
        try:
            self._set_toolbars(workspace)
            for key, dock in self.docks.docks.items():
                if key not in workspace.docks:
                    dock.hide()  # docks a saved layout does not know (a new capability's) stay out of the way
            saved = self.layouts.get(workspace.name)
            restored = saved is not None and self.window.restoreState(
                QByteArray.fromBase64(saved.encode("ascii")), STATE_VERSION)
            if not restored:
                self._apply_default(workspace)
        finally:
            self.window.setUpdatesEnabled(True)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Dock sizes given to a window not shown yet are scaled when it gets its real size: arrange once more then.
        if watched is self.window and event.type() == QEvent.Type.Show and self._arranged_hidden:
            self._arranged_hidden = False
            if self.current is not None:
                self._arrange(self.workspaces[self.current])
        return False

    def _apply_default(self, workspace: Workspace) -> None:
        self._set_toolbars(workspace)
        for key, dock in self.docks.docks.items():
            dock.setVisible(key in workspace.docks)
        if workspace.default_layout is not None:
            workspace.default_layout(self.window, self.docks)

    def _set_toolbars(self, workspace: Workspace) -> None:
        claimed = {name for w in self.workspaces.values() for name in w.toolbars}
        for toolbar in self.window.findChildren(QToolBar):
            if toolbar.objectName() in claimed:
                toolbar.setVisible(toolbar.objectName() in workspace.toolbars)

    def _mark(self, name: str) -> None:
        self.actions[name].setChecked(True)
        index = self.switcher.findText(name)
        if index != self.switcher.currentIndex():
            self.switcher.setCurrentIndex(index)
