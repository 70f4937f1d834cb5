"""The steps table of the case form: a model whose every edit (cell, add, remove, move) is an undoable command."""

from __future__ import annotations

from typing import get_args

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QComboBox, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from studio.app.case_records import LocatorTextError, parse_locator
from studio.models.locator import LocatorSpec
from studio.models.testcase import CaseStep, StepAction

COLUMNS = ("Action", "Target", "Locator", "Data / URL", "Expected")
# A side panel gives each column a fifth of its width: the headers stay short and say the rest as tooltips.
COLUMN_TIPS = ("What the step does", "What it acts on, in words", "The locator, as Python (page.get_by_…)",
               "The text typed or chosen; for navigate and expect_url, the address", "What the step should show")
ACTION, TARGET, LOCATOR, DATA, EXPECTED = range(5)
ACTIONS: tuple[str, ...] = get_args(StepAction)
URL_ACTIONS = ("navigate", "expect_url")  # their Data / URL cell is the step's url

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()  # the table's invisible root: its rows are the steps


class Row:
    """One step as the table edits it: five texts, and the stored locator while its text is unchanged."""

    def __init__(self, cells: list[str], locator: LocatorSpec | None = None) -> None:
        self.cells = cells
        self.locator = locator

    @classmethod
    def of(cls, step: CaseStep) -> Row:
        data = (step.url or "") if step.action in URL_ACTIONS else (step.data or "")
        return cls([step.action, step.target, step.locator.python() if step.locator else "", data, step.expected],
                   step.locator)

    def copy(self) -> Row:
        return Row(list(self.cells), self.locator)

    def locator_error(self) -> str | None:
        try:
            self.spec()
        except LocatorTextError as error:
            return str(error)
        return None

    def spec(self) -> LocatorSpec | None:
        text = self.cells[LOCATOR].strip()
        if self.locator is not None and text == self.locator.python():
            return self.locator  # keeps how it was synthesized (strategy, uniqueness)
        return parse_locator(text)

    def step(self) -> CaseStep:
        action, target, _locator, data, expected = self.cells
        is_url = action in URL_ACTIONS
        # The action cell is text (picked from ACTIONS): pydantic checks it is a StepAction.
        return CaseStep.model_validate({
            "action": action, "target": target.strip(), "locator": self.spec(),
            "url": (data.strip() or None) if is_url else None, "data": None if is_url else (data or None),
            "expected": expected.strip()})


class StepsModel(QAbstractTableModel):
    """Rows of steps; setData and the row operations go through the undo stack."""

    def __init__(self, undo: QUndoStack, parent=None) -> None:
        super().__init__(parent)
        self.undo = undo
        self.rows: list[Row] = []
        self.read_only = False

    # -- loading and reading -------------------------------------------------------------------------

    def set_steps(self, steps: list[CaseStep]) -> None:
        self.beginResetModel()
        self.rows = [Row.of(step) for step in steps]
        self.endResetModel()

    def steps(self) -> list[CaseStep]:
        """The steps as CaseSteps; LocatorTextError names the step whose locator text is wrong."""
        found = []
        for number, row in enumerate(self.rows, 1):
            try:
                found.append(row.step())
            except LocatorTextError as error:
                raise LocatorTextError(f"Step {number}'s locator: {error}") from None
        return found

    # -- Qt model ------------------------------------------------------------------------------------

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return COLUMN_TIPS[section]
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return COLUMNS[section] if orientation == Qt.Orientation.Horizontal else str(section + 1)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return row.cells[index.column()]
        if index.column() == LOCATOR and role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.ForegroundRole):
            error = row.locator_error()
            if role == Qt.ItemDataRole.ToolTipRole:
                return error or row.cells[LOCATOR] or None
            return QBrush(QColor("#b91c1c")) if error else None
        if role == Qt.ItemDataRole.ToolTipRole and row.cells[index.column()]:
            return row.cells[index.column()]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        return base if self.read_only else base | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: Index, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or self.read_only:
            return False
        old = self.rows[index.row()].cells[index.column()]
        if str(value) == old:
            return False
        self.undo.push(SetCell(self, index.row(), index.column(), old, str(value)))
        return True

    # -- undoable operations ---------------------------------------------------------------------------

    def add_step(self, row: int, action: str = "click") -> None:
        self.undo.push(InsertRow(self, row, Row([action, "", "", "", ""])))

    def remove_step(self, row: int) -> None:
        if 0 <= row < len(self.rows):
            self.undo.push(RemoveRow(self, row))

    def move_step(self, row: int, delta: int) -> None:
        if 0 <= row < len(self.rows) and 0 <= row + delta < len(self.rows):
            self.undo.push(MoveRow(self, row, row + delta))

    # -- raw changes (the commands call these) -----------------------------------------------------------

    def _set(self, row: int, column: int, value: str) -> None:
        self.rows[row].cells[column] = value
        index = self.index(row, column)
        self.dataChanged.emit(index, index)

    def _insert(self, row: int, item: Row) -> None:
        self.beginInsertRows(QModelIndex(), row, row)
        self.rows.insert(row, item.copy())
        self.endInsertRows()

    def _remove(self, row: int) -> Row:
        self.beginRemoveRows(QModelIndex(), row, row)
        item = self.rows.pop(row)
        self.endRemoveRows()
        return item

    def _move(self, source: int, target: int) -> None:
        self._insert(target, self._remove(source))


class SetCell(QUndoCommand):
    def __init__(self, model: StepsModel, row: int, column: int, old: str, new: str) -> None:
        super().__init__(f"Edit step {row + 1}'s {COLUMNS[column].split(' ')[0].lower()}")
        self.model, self.row, self.column, self.old, self.new = model, row, column, old, new

    def redo(self) -> None:
        self.model._set(self.row, self.column, self.new)

    def undo(self) -> None:
        self.model._set(self.row, self.column, self.old)


class InsertRow(QUndoCommand):
    def __init__(self, model: StepsModel, row: int, item: Row) -> None:
        super().__init__(f"Add step {row + 1}")
        self.model, self.row, self.item = model, row, item

    def redo(self) -> None:
        self.model._insert(self.row, self.item)

    def undo(self) -> None:
        self.model._remove(self.row)


class RemoveRow(QUndoCommand):
    def __init__(self, model: StepsModel, row: int) -> None:
        super().__init__(f"Remove step {row + 1}")
        self.model, self.row = model, row
        self.item = model.rows[row].copy()

    def redo(self) -> None:
        self.model._remove(self.row)

    def undo(self) -> None:
        self.model._insert(self.row, self.item)


class MoveRow(QUndoCommand):
    def __init__(self, model: StepsModel, source: int, target: int) -> None:
        super().__init__(f"Move step {source + 1} to {target + 1}")
        self.model, self.source, self.target = model, source, target

    def redo(self) -> None:
        self.model._move(self.source, self.target)

    def undo(self) -> None:
        self.model._move(self.target, self.source)


class ActionDelegate(QStyledItemDelegate):
    """The Action column is edited with a list of the actions a case step can take."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        combo = QComboBox(parent)
        combo.addItems(ACTIONS)
        return combo

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if isinstance(editor, QComboBox):
            editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole)))

    def setModelData(self, editor: QWidget, model, index: Index) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)
