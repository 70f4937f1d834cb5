"""Editing the Steps list: multi-select, Delete, Move Up / Move Down (Alt+Up / Alt+Down), Undo / Redo, and a
context menu with all of them.

A recording is the tester's draft. The keys act only where the tester is looking: Delete and Alt+Up/Down only while
the Steps list has the keyboard focus (Delete in the URL bar deletes a character; in the live view it goes to the
page), Ctrl+Z / Ctrl+Shift+Z only inside the Steps panel (in the live view they belong to the page).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QTreeWidget, QTreeWidgetItem, QWidget
from shiboken6 import isValid

from studio.app.step_edits import StepEditor

INDEX_ROLE = Qt.ItemDataRole.UserRole  # a row's step index (column 0)


def delete_text(count: int) -> str:
    return "Delete Step" if count == 1 else f"Delete {count} Steps"


class StepsEditing:
    """The edit actions of the Steps panel `panel` on its list `table`, through the service's StepEditor."""

    def __init__(self, panel: QWidget, table: QTreeWidget, editor: StepEditor) -> None:
        self.table = table
        self.editor = editor
        table.setSelectionMode(QTreeWidget.SelectionMode.ExtendedSelection)

        self.delete_action = self._list_action("Delete", QKeySequence.StandardKey.Delete, self.delete_selected,
                                               "Delete the selected steps from the recording (Delete)")
        self.move_up_action = self._list_action("Move Up", QKeySequence("Alt+Up"), lambda: self.move(down=False),
                                                "Move the selected steps one place earlier (Alt+Up)")
        self.move_down_action = self._list_action("Move Down", QKeySequence("Alt+Down"), lambda: self.move(down=True),
                                                  "Move the selected steps one place later (Alt+Down)")
        stack = editor.stack
        self.undo_action = stack.createUndoAction(panel, "Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = stack.createRedoAction(panel, "Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence(QKeySequence.StandardKey.Redo)])
        for action, keys in ((self.undo_action, "Ctrl+Z"), (self.redo_action, "Ctrl+Shift+Z")):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            panel.addAction(action)
            action.changed.connect(lambda action=action, keys=keys: self._tip(action, keys))
            self._tip(action, keys)

        self.menu = QMenu(table)
        for action in (self.delete_action, self.move_up_action, self.move_down_action):
            self.menu.addAction(action)
        self.menu.addSeparator()
        self.menu.addAction(self.undo_action)
        self.menu.addAction(self.redo_action)
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.customContextMenuRequested.connect(self.show_menu)
        table.itemSelectionChanged.connect(self.selection_changed)
        self.selection_changed()

    def _list_action(self, text: str, keys: QKeySequence | QKeySequence.StandardKey, slot, tip: str) -> QAction:
        """An action of the list alone: its key works only while the Steps list has the keyboard focus."""
        action = QAction(text, self.table)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.table.addAction(action)
        return action

    @staticmethod
    def _tip(action: QAction, keys: str) -> None:
        if not isValid(action):  # the panel is going away: its actions say so as they are destroyed
            return
        tip = f"{action.text()} ({keys})" if action.isEnabled() else f"Nothing to {action.text().split()[0].lower()}"
        if action.toolTip() != tip:
            action.setToolTip(tip)

    def selected(self) -> list[int]:
        """The selected steps' indexes, in the list's order."""
        rows = sorted(self.table.indexOfTopLevelItem(item) for item in self.table.selectedItems())
        return [int(self._items()[row].data(0, INDEX_ROLE)) for row in rows]

    def select(self, indexes: list[int], scroll: bool = True) -> None:
        """Select the rows of these step indexes (the last row when they are all past it) and make the first
        current, so the keys go on from there."""
        items = self._items()
        if not items or not indexes:
            return
        wanted = set(indexes)
        chosen = [item for item in items if item.data(0, INDEX_ROLE) in wanted] or items[-1:]
        self.table.clearSelection()
        self.table.setCurrentItem(chosen[0])  # current first: it selects that row alone
        for item in chosen:
            item.setSelected(True)
        if scroll:
            self.table.scrollToItem(chosen[0])

    def _items(self) -> list[QTreeWidgetItem]:
        found = (self.table.topLevelItem(row) for row in range(self.table.topLevelItemCount()))
        return [item for item in found if item is not None]

    def selection_changed(self) -> None:
        count = len(self.table.selectedItems())
        self.delete_action.setText(delete_text(count) if count else "Delete")
        for action in (self.delete_action, self.move_up_action, self.move_down_action):
            action.setEnabled(bool(count))

    def delete_selected(self) -> bool:
        return self.editor.delete(self.selected())

    def move(self, down: bool) -> bool:
        return self.editor.move(self.selected(), down)

    def show_menu(self, point: QPoint) -> None:
        """The list's context menu; a right click on a row outside the selection selects that row first."""
        item = self.table.itemAt(point)
        if item is not None and not item.isSelected():
            self.table.setCurrentItem(item)
        self.menu.popup(self.table.viewport().mapToGlobal(point))
