"""ListPages: pages shown one at a time under a row of toggle buttons that wraps onto a second row when the panel is
narrow, so no page's title (with its count) is ever cut short, as tab titles are in a narrow dock."""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


class ListPages(QWidget):
    """A QTabWidget's small API (addTab, tabText, setTabText, setCurrentWidget, currentWidget, setCurrentIndex,
    currentIndex, count) with buttons that wrap instead of eliding."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.buttons: list[QToolButton] = []
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.group.idClicked.connect(self.setCurrentIndex)
        self.stack = QStackedWidget(self)
        self.grid = QGridLayout()
        self.grid.setSpacing(2)
        self._columns = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self.grid)
        layout.addWidget(self.stack, 1)

    def addTab(self, page: QWidget, text: str) -> int:
        button = QToolButton(self)
        button.setText(text)
        button.setCheckable(True)
        button.setAutoRaise(True)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        index = len(self.buttons)
        self.group.addButton(button, index)
        self.buttons.append(button)
        self.stack.addWidget(page)
        if index == 0:
            button.setChecked(True)
        self._arrange(force=True)
        return index

    def count(self) -> int:
        return len(self.buttons)

    def tabText(self, index: int) -> str:
        return self.buttons[index].text()

    def setTabText(self, index: int, text: str) -> None:
        self.buttons[index].setText(text)
        self._arrange(force=True)

    def currentIndex(self) -> int:
        return self.stack.currentIndex()

    def setCurrentIndex(self, index: int) -> None:
        self.stack.setCurrentIndex(index)
        self.buttons[index].setChecked(True)

    def currentWidget(self) -> QWidget | None:
        return self.stack.currentWidget()

    def setCurrentWidget(self, page: QWidget) -> None:
        self.setCurrentIndex(self.stack.indexOf(page))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()

    def _arrange(self, force: bool = False) -> None:
        """All buttons on one row when their titles fit, else two per row."""
        needed = sum(button.sizeHint().width() for button in self.buttons) + self.grid.spacing() * len(self.buttons)
        columns = len(self.buttons) if needed <= self.width() else 2
        if columns == self._columns and not force:
            return
        self._columns = columns
        for button in self.buttons:
            self.grid.removeWidget(button)
        for index, button in enumerate(self.buttons):
            self.grid.addWidget(button, index // max(columns, 1), index % max(columns, 1))
