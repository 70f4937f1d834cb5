"""The Events dock: console, network, navigation, progress, job (seed 000's preflight and main-job events) and
session events, live and filterable."""

from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.models.events import (
    ConsoleEvent,
    EngineEvent,
    ItemProgress,
    MainJobCompleted,
    MainJobStarted,
    NavigationEvent,
    NetworkEvent,
    NoticeEvent,
    PageErrorEvent,
    PreflightCompleted,
    PreflightProgress,
    PreflightQuestion,
    PreflightStarted,
    ProgressEvent,
    ScreenshotEvent,
    SessionEnded,
    SessionStarted,
)

CATEGORIES = ("console", "network", "navigation", "progress", "job", "session")
MAX_ROWS = 20_000
COLUMNS = ("Time", "Kind", "Level", "Message")


@dataclass(frozen=True, slots=True)
class EventRow:
    """One line of the Events table."""

    at: float
    category: str
    level: str
    message: str
    is_error: bool
    is_warning: bool


def row_for(event: EngineEvent) -> EventRow | None:
    """How an engine event reads in the table; None for events the dock does not show."""
    if isinstance(event, ConsoleEvent):
        where = f"  ({event.url}:{event.line})" if event.url else ""
        return EventRow(event.at, "console", event.level, event.text + where, event.level == "error", event.level == "warning")
    if isinstance(event, PageErrorEvent):
        return EventRow(event.at, "console", "pageerror", event.message, True, False)
    if isinstance(event, NetworkEvent):
        level = str(event.status) if event.status is not None else "failed"
        detail = f"  — {event.failure}" if event.failure else ""
        return EventRow(event.at, "network", level, f"{event.method} {event.url}{detail}", event.failed, False)
    if isinstance(event, NavigationEvent):
        return EventRow(event.at, "navigation", "", event.url, False, False)
    if isinstance(event, ProgressEvent):
        return EventRow(event.at, "progress", f"{event.step}/{event.total}", event.message, False, False)
    if isinstance(event, NoticeEvent):
        return EventRow(event.at, "progress", event.level, event.message, event.level == "error", event.level == "warning")
    if isinstance(event, ScreenshotEvent):
        return EventRow(event.at, "session", "screenshot", f"{event.label}  ({event.url})", False, False)
    if isinstance(event, SessionStarted):
        return EventRow(event.at, "session", "started",
                        f"{event.browser_version}, {'headless' if event.headless else 'headed'}, "
                        f"{event.viewport[0]}×{event.viewport[1]}", False, False)
    if isinstance(event, SessionEnded):
        return EventRow(event.at, "session", event.reason, event.message, event.reason != "closed", False)
    return job_row(event)


def job_row(event: EngineEvent) -> EventRow | None:
    """Seed 000's job events, under their own names, as a tester reads them."""
    row = None
    if isinstance(event, PreflightStarted):
        row = f"{event.request or 'a preflight'}" + (f" on {event.url}" if event.url else ""), False, False
    elif isinstance(event, PreflightProgress):
        row = f"[{event.objective}] {event.message}  (step {event.step} of at most {event.max_steps})", False, False
    elif isinstance(event, PreflightQuestion):
        row = "asks: " + " · ".join(q.question for q in event.questions), False, True
    elif isinstance(event, PreflightCompleted):
        shown = ", ".join(f"{k} {v:.2f}" for k, v in event.confidence.model_dump().items())
        row = f"{event.steps} browser steps; confidence {shown}", False, False
    elif isinstance(event, MainJobStarted):
        row = f"{event.kind}" + (f": {event.total_items} item(s)" if event.total_items else ""), False, False
    elif isinstance(event, ItemProgress):
        row = f"{event.index}/{event.total} {event.status}: {event.message or event.item}", False, False
    elif isinstance(event, MainJobCompleted):
        row = f"{event.kind} {event.status}: {event.summary.summary}", event.status == "failed", \
            event.status in ("cancelled", "budget_exhausted")
    if row is None:
        return None
    message, is_error, is_warning = row
    return EventRow(event.at, "job", event.type, message, is_error, is_warning)


class EventsModel(QAbstractTableModel):
    """Rows of events; new rows are batched and inserted at most 10 times a second."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[EventRow] = []
        self._pending: list[EventRow] = []
        self._flush = QTimer(self, singleShot=True, interval=100)
        self._flush.timeout.connect(self.flush)

    def add(self, event: EngineEvent) -> None:
        row = row_for(event)
        if row is not None:
            self._pending.append(row)
            if not self._flush.isActive():
                self._flush.start()

    def flush(self) -> None:
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        overflow = len(self.rows) + len(pending) - MAX_ROWS
        if overflow > 0:
            drop = min(overflow, len(self.rows))
            self.beginRemoveRows(QModelIndex(), 0, drop - 1)
            del self.rows[:drop]
            self.endRemoveRows()
            pending = pending[-MAX_ROWS:]
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(pending) - 1)
        self.rows.extend(pending)
        self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self.rows.clear()
        self._pending.clear()
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            column = index.column()
            if column == 0:
                return time.strftime("%H:%M:%S", time.localtime(row.at / 1000)) + f".{int(row.at % 1000):03d}"
            return (None, row.category, row.level, row.message)[column]
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 3:
            return row.message
        if role == Qt.ItemDataRole.ForegroundRole:
            if row.is_error:
                return QColor("#d9534f")
            if row.is_warning:
                return QColor("#c98a00")
        return None


class EventsFilter(QSortFilterProxyModel):
    """Shows the chosen categories, optionally errors only, matching a text filter."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.categories = set(CATEGORIES)
        self.errors_only = False
        self.text = ""

    def update(self, categories: set[str], errors_only: bool, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9; invalidateRowsFilter() is deprecated there
            self.beginFilterChange()
            self.categories, self.errors_only, self.text = categories, errors_only, text.lower()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.categories, self.errors_only, self.text = categories, errors_only, text.lower()
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        source = self.sourceModel()
        if not isinstance(source, EventsModel):  # the panel only ever filters its EventsModel
            return super().filterAcceptsRow(source_row, source_parent)
        row = source.rows[source_row]
        if row.category not in self.categories or (self.errors_only and not row.is_error):
            return False
        return not self.text or self.text in row.message.lower() or self.text in row.level.lower()


class EventsPanel(QWidget):
    """The dock's content: category toggles, an errors-only switch, a text filter, Clear, and the table."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = EventsModel(self)
        self.proxy = EventsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.toggles: dict[str, QCheckBox] = {}
        bar = QHBoxLayout()
        for category in CATEGORIES:
            box = QCheckBox(category.capitalize(), self)
            box.setChecked(True)
            box.toggled.connect(self._refilter)
            self.toggles[category] = box
            bar.addWidget(box)
        self.errors_only = QCheckBox("Errors only", self)
        self.errors_only.toggled.connect(self._refilter)
        bar.addWidget(self.errors_only)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Filter events…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._refilter)
        bar.addWidget(self.search, 1)
        clear = QPushButton("Clear", self)
        clear.setToolTip("Clear the list (the project file keeps everything)")
        clear.clicked.connect(self.model.clear)
        bar.addWidget(clear)
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        for column, width in ((0, 96), (1, 90), (2, 80)):
            self.table.setColumnWidth(column, width)
        self.model.rowsInserted.connect(self._follow)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.table)

    def add(self, event: EngineEvent) -> None:
        self.model.add(event)

    def _refilter(self) -> None:
        chosen = {name for name, box in self.toggles.items() if box.isChecked()}
        self.proxy.update(chosen, self.errors_only.isChecked(), self.search.text())

    def _follow(self) -> None:
        scroll = self.table.verticalScrollBar()
        if scroll.value() >= scroll.maximum() - 40:
            # The table is the timer's context: if the panel is gone by then, Qt drops the call.
            QTimer.singleShot(0, self.table, self.table.scrollToBottom)
