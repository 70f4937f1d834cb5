"""The Events table's models: a bounded window of rows over everything the project file keeps, paged in both ways,
and the filtered view of it, which filters with one pass over plain Python rows instead of a call per row from Qt."""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from studio.models.events import EngineEvent
from studio.store.timeline import EventTimeline
from studio.ui.event_rows import CATEGORIES, COLUMN_TIPS, COLUMNS, EventRow, row_for

MAX_ROWS = 20_000  # rows the window holds; the rest stay in the project file
PAGE_ROWS = 1_000  # rows one "Load older events" brings back (about 15 ms of reading)
ERROR_COLOR, WARNING_COLOR = QColor("#d9534f"), QColor("#c98a00")

TimelineSource = Callable[[], EventTimeline | None]
_ROOT = QModelIndex()


def _stored(rows: list[EventRow]) -> int:
    return sum(1 for row in rows if row.stored)


class EventsModel(QAbstractTableModel):
    """A window of at most `max_rows` rows; live rows are batched and appended at most 10 times a second.

    Past the limit the oldest rows leave the window (the project file keeps them; `older` counts them) and
    `load_older()` pages them back in. While the tester reads older rows the window holds still: live events
    then wait in the project file (`newer` counts them) until `show_newest()`.
    Rows have serial numbers (`first_serial` is rows[0]'s), so views can follow them as rows come and go.
    """

    windowChanged = Signal()  # `older`, `newer` or `holding` changed

    def __init__(self, parent: QWidget | None = None, max_rows: int = MAX_ROWS) -> None:
        super().__init__(parent)
        self.rows: list[EventRow] = []
        self.max_rows = max_rows
        self.page_rows = PAGE_ROWS
        self.first_serial = 0
        self.older = 0
        self.newer = 0
        self.holding = False
        self.timeline: TimelineSource = lambda: None
        self.slowest_flush_ms = 0.0
        self._pending: list[EventRow] = []
        self._flush = QTimer(self, singleShot=True, interval=100)
        self._flush.timeout.connect(self.flush)

    # -- live rows -----------------------------------------------------------------------------------------

    def add(self, event: EngineEvent) -> None:
        row = row_for(event)
        if row is not None:
            self._pending.append(row)
            if not self._flush.isActive():
                self._flush.start()

    def flush(self) -> None:
        if not self._pending:
            return
        started = time.perf_counter()
        pending, self._pending = self._pending, []
        before = (self.older, self.newer)
        if self.holding and (self.newer or len(self.rows) + len(pending) > self.max_rows):
            room = 0 if self.newer else self.max_rows - len(self.rows)
            self.newer += _stored(pending[room:])  # they wait in the project file (progress ticks are gone)
            pending = pending[:room]
        if pending:
            self._drop_oldest(len(self.rows) + len(pending) - self.max_rows)
            if len(pending) > self.max_rows:
                self.older += _stored(pending[: -self.max_rows])
                self.first_serial += len(pending) - self.max_rows
                pending = pending[-self.max_rows:]
            first = len(self.rows)
            self.beginInsertRows(QModelIndex(), first, first + len(pending) - 1)
            self.rows.extend(pending)
            self.endInsertRows()
        if (self.older, self.newer) != before:
            self.windowChanged.emit()
        self.slowest_flush_ms = max(self.slowest_flush_ms, (time.perf_counter() - started) * 1000)

    def _drop_oldest(self, count: int) -> None:
        count = min(count, len(self.rows))
        if count <= 0:
            return
        while count < len(self.rows) and self.rows[count].at == self.rows[count - 1].at:
            count += 1  # never split events of one moment: paging back asks for those before a time
        self.beginRemoveRows(QModelIndex(), 0, count - 1)
        self.older += _stored(self.rows[:count])
        del self.rows[:count]
        self.first_serial += count
        self.endRemoveRows()

    # -- paging --------------------------------------------------------------------------------------------

    def load_older(self) -> int:
        """Bring back a page of the events before the window's first; the window then holds still. Returns how many
        rows came."""
        timeline = self.timeline()
        if timeline is None or self.older <= 0:
            return 0
        edge = self.rows[0].at if self.rows else self._now()
        rows = self._read(timeline, edge)
        if rows:
            self.holding = True
            self.beginInsertRows(QModelIndex(), 0, len(rows) - 1)
            self.rows[:0] = rows
            self.first_serial -= len(rows)
            self.endInsertRows()
            self._drop_newest(len(self.rows) - self.max_rows)
        self.older = timeline.count_before(self.rows[0].at) if self.rows else 0
        self.windowChanged.emit()
        return len(rows)

    def _drop_newest(self, count: int) -> None:
        if count <= 0:
            return
        cut = len(self.rows) - count
        while cut > 0 and self.rows[cut].at == self.rows[cut - 1].at:
            cut -= 1
        self.beginRemoveRows(QModelIndex(), cut, len(self.rows) - 1)
        self.newer += _stored(self.rows[cut:])
        del self.rows[cut:]
        self.endRemoveRows()

    def show_newest(self) -> None:
        """Back to the live end: the newest events from the project file, then live rows again."""
        timeline = self.timeline()
        rows = self.rows
        if timeline is not None and (self.newer or self.holding):
            rows = self._read(timeline, math.inf)
            last = rows[-1].at if rows else -math.inf
            self._pending = [row for row in self._pending if row.at > last]  # already read from the file
        self.beginResetModel()
        self.first_serial += len(self.rows)
        self.rows = rows
        self.holding, self.newer = False, 0
        self.older = timeline.count_before(rows[0].at) if timeline is not None and rows else self.older
        self.endResetModel()
        self.windowChanged.emit()

    def count_older(self) -> None:
        """Count the project's events before the window (a project was opened, or the window cleared)."""
        timeline = self.timeline()
        edge = self.rows[0].at if self.rows else (self._pending[0].at if self._pending else self._now())
        self.older = timeline.count_before(edge) if timeline is not None else 0
        self.windowChanged.emit()

    def clear(self) -> None:
        self.beginResetModel()
        self.first_serial += len(self.rows)
        self.rows = []
        self._pending.clear()
        self.holding, self.newer = False, 0
        self.endResetModel()
        self.count_older()

    def _read(self, timeline: EventTimeline, before: float) -> list[EventRow]:
        events = timeline.before(before, min(self.page_rows, self.max_rows))
        return [row for row in map(row_for, events) if row is not None]

    @staticmethod
    def _now() -> float:
        return time.time() * 1000.0

    # -- Qt model ------------------------------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        return header(section, orientation, role)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        return cell(self.rows[index.row()], index.column(), role) if index.isValid() else None


def header(section: int, orientation: Qt.Orientation, role: int):
    if orientation != Qt.Orientation.Horizontal:
        return None
    if role == Qt.ItemDataRole.DisplayRole:
        return COLUMNS[section]
    if role == Qt.ItemDataRole.ToolTipRole:
        return COLUMN_TIPS[section]
    return None


def cell(row: EventRow, column: int, role: int):
    """What one cell shows."""
    if role == Qt.ItemDataRole.DisplayRole:
        if column == 0:
            return time.strftime("%H:%M:%S", time.localtime(row.at / 1000)) + f".{int(row.at % 1000):03d}"
        return (None, row.category.capitalize(), row.kind, row.status, row.message)[column]
    if role == Qt.ItemDataRole.ToolTipRole and column == 4:
        return row.message[:2000]
    if role == Qt.ItemDataRole.ForegroundRole:
        if row.is_error:
            return ERROR_COLOR
        if row.is_warning:
            return WARNING_COLOR
    return None


class EventsFilter(QAbstractTableModel):
    """The rows of an EventsModel that match the chosen sources, errors only, and a text.

    It keeps the serial numbers of the matching rows: a new text that extends the last one only re-checks the rows
    shown, new rows are checked as they come, and rows leaving the window leave the list from its ends."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.categories = set(CATEGORIES)
        self.errors_only = False
        self.text = ""
        self.source: EventsModel | None = None
        self.shown: list[int] = []
        self.last_filter_ms = 0.0

    def setSourceModel(self, source: EventsModel) -> None:
        self.source = source
        source.rowsInserted.connect(self._inserted)
        source.rowsAboutToBeRemoved.connect(self._removing)
        source.modelReset.connect(self._refilter_all)
        self._refilter_all()

    def sourceModel(self) -> EventsModel | None:
        return self.source

    def update(self, categories: set[str], errors_only: bool, text: str) -> None:
        started = time.perf_counter()
        text = text.lower()
        narrowing = categories == self.categories and errors_only == self.errors_only and text.startswith(self.text)
        self.categories, self.errors_only, self.text = set(categories), errors_only, text
        if narrowing and self.source is not None:
            rows, first = self.source.rows, self.source.first_serial
            self.beginResetModel()
            self.shown = [serial for serial in self.shown if text in rows[serial - first].haystack]
            self.endResetModel()
        else:
            self._refilter_all()
        self.last_filter_ms = (time.perf_counter() - started) * 1000

    def accepts(self, row: EventRow) -> bool:
        return (row.category in self.categories and (row.is_error or not self.errors_only)
                and (not self.text or self.text in row.haystack))

    def _matching(self, first: int, last: int) -> list[int]:
        assert self.source is not None
        rows, base = self.source.rows, self.source.first_serial
        categories, errors_only, text = self.categories, self.errors_only, self.text
        return [base + position for position in range(first, last + 1)
                if (row := rows[position]).category in categories and (row.is_error or not errors_only)
                and (not text or text in row.haystack)]

    def _refilter_all(self) -> None:
        self.beginResetModel()
        self.shown = self._matching(0, len(self.source.rows) - 1) if self.source is not None else []
        self.endResetModel()

    def _inserted(self, _parent: QModelIndex, first: int, last: int) -> None:
        matching = self._matching(first, last)
        if matching:
            at = bisect_left(self.shown, matching[0])
            self.beginInsertRows(QModelIndex(), at, at + len(matching) - 1)
            self.shown[at:at] = matching
            self.endInsertRows()

    def _removing(self, _parent: QModelIndex, first: int, last: int) -> None:
        assert self.source is not None
        base = self.source.first_serial
        start, end = bisect_left(self.shown, base + first), bisect_left(self.shown, base + last + 1)
        if end > start:
            self.beginRemoveRows(QModelIndex(), start, end - 1)
            del self.shown[start:end]
            self.endRemoveRows()

    def row(self, position: int) -> EventRow:
        assert self.source is not None
        return self.source.rows[self.shown[position] - self.source.first_serial]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.shown)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        return header(section, orientation, role)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        return cell(self.row(index.row()), index.column(), role) if index.isValid() else None
