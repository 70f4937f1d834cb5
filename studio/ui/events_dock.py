"""The Events dock: console, network, navigation, progress, job (seed 000's preflight and main-job events) and
session events, live and filterable, with older events paged back in from the project file."""

from __future__ import annotations

from bisect import bisect_left

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.app.project_service import ProjectService
from studio.models.events import EngineEvent
from studio.ui.event_rows import CATEGORIES, COLUMNS, EventRow, job_row, row_for
from studio.ui.events_model import MAX_ROWS, PAGE_ROWS, EventsFilter, EventsModel

__all__ = ["CATEGORIES", "COLUMNS", "MAX_ROWS", "EventRow", "EventsFilter", "EventsModel", "EventsPanel", "job_row",
           "row_for"]

# Up to this many rows a keystroke filters at once (a few ms); above it, typing waits for a pause of FILTER_PAUSE_MS.
FILTER_AT_ONCE_ROWS = 2_000
FILTER_PAUSE_MS = 150
TOGGLES_PER_ROW = 3


class EventsPanel(QWidget):
    """The dock's content: source toggles, an errors-only switch, a text filter, Clear, the table, and a line that
    says how many events the window leaves out, with Load older events and Show newest."""

    def __init__(self, parent: QWidget | None = None, project: ProjectService | None = None) -> None:
        super().__init__(parent)
        self.model = EventsModel(self)
        self.proxy = EventsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.toggles: dict[str, QCheckBox] = {}
        # Three short rows rather than one long one: the panel sits in a side column ~350 px wide at 1366×768.
        toggles = QGridLayout()
        for place, category in enumerate(CATEGORIES):
            box = QCheckBox(category.capitalize(), self)
            box.setChecked(True)
            box.toggled.connect(self._refilter)
            self.toggles[category] = box
            toggles.addWidget(box, place // TOGGLES_PER_ROW, place % TOGGLES_PER_ROW)
        self.errors_only = QCheckBox("Errors only", self)
        self.errors_only.toggled.connect(self._refilter)
        toggles.addWidget(self.errors_only, len(CATEGORIES) // TOGGLES_PER_ROW, len(CATEGORIES) % TOGGLES_PER_ROW)
        bar = QHBoxLayout()
        paging = QHBoxLayout()
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Filter events…")
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(120)
        self.search.textChanged.connect(self._text_changed)
        self._pause = QTimer(self, singleShot=True, interval=FILTER_PAUSE_MS)
        self._pause.timeout.connect(self._refilter)
        bar.addWidget(self.search, 1)
        # What the list leaves out, and the way to it, on the same line: a short dock keeps its rows for the table.
        self.window_label = QLabel(self)
        self.window_label.setWordWrap(True)
        paging.addWidget(self.window_label, 1)
        self.load_older_button = QPushButton("Load older events", self)
        self.load_older_button.setToolTip(f"Bring back the {PAGE_ROWS:,} events before the first one shown "
                                          "(scrolling to the top does the same)")
        self.load_older_button.clicked.connect(self.load_older)
        paging.addWidget(self.load_older_button)
        self.newest_button = QPushButton("Show newest", self)
        self.newest_button.setToolTip("Go back to the newest events and follow new ones again")
        self.newest_button.clicked.connect(self.show_newest)
        paging.addWidget(self.newest_button)
        clear = QPushButton("Clear", self)
        clear.setToolTip("Clear the list (the project file keeps everything: Load older events brings it back)")
        clear.clicked.connect(self.model.clear)
        bar.addWidget(clear)
        self.table = self._table()
        self.model.windowChanged.connect(self._describe_window)
        self.model.rowsInserted.connect(self._follow)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(toggles)
        layout.addLayout(bar)
        layout.addLayout(paging)
        layout.addWidget(self.table)
        self._describe_window()
        if project is not None:
            self.follow_project(project)

    def _table(self) -> QTableView:
        table = QTableView(self)
        table.setModel(self.proxy)
        table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        table.verticalHeader().setVisible(False)
        table.verticalHeader().setDefaultSectionSize(20)
        table.setWordWrap(False)
        header = table.horizontalHeader()
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        for column, width in enumerate((62, 58, 70, 44)):  # narrow: the message gets what is left of a side column
            table.setColumnWidth(column, width)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        table.verticalScrollBar().actionTriggered.connect(self._scrolled_by_tester)
        return table

    def follow_project(self, project: ProjectService) -> None:
        """Page older events in from `project`'s open file (and count them when another file opens)."""
        self.model.timeline = lambda: project.project.timeline if project.project is not None else None
        project.projectChanged.connect(lambda _path: self.model.count_older())
        self.model.count_older()

    def add(self, event: EngineEvent) -> None:
        self.model.add(event)

    def load_older(self) -> int:
        """Page older events in above the first shown, keeping the rows in view where they are."""
        scroll = self.table.verticalScrollBar()
        position, first = scroll.value(), self.proxy.shown[0] if self.proxy.shown else None
        count = self.model.load_older()
        if count and first is not None:
            self.table.updateGeometries()  # the scroll range follows the rows now, not at the next layout
            # Rows keep their serial numbers: the rows that came are those now shown before the former first.
            scroll.setValue(position + bisect_left(self.proxy.shown, first))
        return count

    def show_newest(self) -> None:
        self.model.show_newest()
        self.table.scrollToBottom()

    def _scrolled_by_tester(self, _action: int) -> None:
        # The action comes before the move: look once it is done.
        QTimer.singleShot(0, self.table, self._load_at_top)

    def _load_at_top(self) -> None:
        scroll = self.table.verticalScrollBar()
        if scroll.value() == scroll.minimum() and self.model.older > 0:
            self.load_older()

    def _text_changed(self) -> None:
        if self.model.rowCount() <= FILTER_AT_ONCE_ROWS:
            self._refilter()
        else:
            self._pause.start()  # restarts: one filter when typing pauses

    def _refilter(self) -> None:
        self._pause.stop()
        scroll = self.table.verticalScrollBar()
        at_bottom = scroll.value() >= scroll.maximum() - 2
        chosen = {name for name, box in self.toggles.items() if box.isChecked()}
        self.proxy.update(chosen, self.errors_only.isChecked(), self.search.text())
        if at_bottom:
            self.table.scrollToBottom()

    def _describe_window(self) -> None:
        model = self.model
        short, sentences = [], []
        if model.older:
            short.append(f"{model.older:,} older not shown")
            sentences.append(f"{model.older:,} older event{'s' if model.older != 1 else ''} are not shown; the "
                             "project file keeps them (Load older events, or scroll to the top).")
        if model.newer:
            short.append(f"{model.newer:,} newer waiting")
            sentences.append(f"{model.newer:,} newer event{'s' if model.newer != 1 else ''} wait while you read "
                             "older ones (Show newest).")
        sentences.append(f"The list holds {model.max_rows:,} events at most; the project file keeps them all.")
        self.window_label.setText(" · ".join(short))
        self.window_label.setToolTip("\n".join(sentences))
        self.window_label.setVisible(bool(short))
        self.load_older_button.setVisible(model.older > 0)
        self.newest_button.setVisible(model.holding)

    def _follow(self) -> None:
        if self.model.holding:
            return  # the tester reads older events: new ones must not pull the view away
        scroll = self.table.verticalScrollBar()
        if scroll.value() >= scroll.maximum() - 40:
            # The table is the timer's context: if the panel is gone by then, Qt drops the call.
            QTimer.singleShot(0, self.table, self._to_newest)

    def _to_newest(self) -> None:
        if not self.model.holding:  # the tester may have started reading older events meanwhile
            self.table.scrollToBottom()
