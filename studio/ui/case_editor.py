"""The Test Cases dock: suites and cases as a filterable tree, the case form with Save and Export, and the
review of the EDIT agent's changes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.app.case_records import LocatorTextError
from studio.app.case_service import CaseService
from studio.models.testcase import CaseEdit, TestCase
from studio.ui.case_form import PRIORITIES, STATUSES, CaseForm
from studio.ui.edit_review import EditReview

CASE_ROLE = Qt.ItemDataRole.UserRole
SUITE_ROLE = Qt.ItemDataRole.UserRole + 1
UNSORTED = "Unsorted"
SIDE_BY_SIDE = 760  # narrower than this (a side panel), the list sits above the form
STATUS_COLORS = {"draft": "#6b7280", "active": "#15803d", "stale": "#b45309"}


class CaseEditorPanel(QWidget):
    """Lists the project's cases; edits one at a time in the form; unsaved edits survive switching cases."""

    exportRequested = Signal(list)  # [TestCase]
    notice = Signal(str)

    def __init__(self, service: CaseService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.cases: dict[str, TestCase] = {}
        self.drafts: dict[str, TestCase] = {}
        self._saving = False

        self.status_filter = QComboBox(self)
        self.status_filter.addItem("All statuses", None)
        for status in STATUSES:
            self.status_filter.addItem(status, status)
        self.priority_filter = QComboBox(self)
        self.priority_filter.addItem("All priorities", None)
        for priority in PRIORITIES:
            self.priority_filter.addItem(priority, priority)
        self.text_filter = QLineEdit(self)
        self.text_filter.setPlaceholderText("Filter by title, id or tag")
        self.text_filter.setClearButtonEnabled(True)
        for combo in (self.status_filter, self.priority_filter):
            combo.currentIndexChanged.connect(self.apply_filters)
        self.text_filter.textChanged.connect(self.apply_filters)

        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels(["Case", "Priority", "Status", "v"])
        self.tree.setAccessibleName("Test cases")
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setWordWrap(True)  # in a side panel a title takes two lines rather than losing its end
        self.tree.setUniformRowHeights(False)
        self.tree.setItemDelegateForColumn(0, WrappedTitles(self.tree))
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # titles are long; they get the room
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.currentItemChanged.connect(self._current_changed)
        header.sectionResized.connect(self._rewrap_titles)
        self.new_button = QPushButton("New Case", self)
        self.new_button.setToolTip("A new draft case in the selected suite")
        self.new_button.clicked.connect(self.new_case)
        self.export_button = QPushButton("Export…", self)
        self.export_button.setToolTip("Preview and write the selected cases as Playwright tests")
        self.export_button.clicked.connect(self.request_export)

        self.form = CaseForm(self)
        self.save_button = QPushButton("Save", self)
        self.save_button.setToolTip("Save the case as a new version (Ctrl+S)")
        self.save_button.setShortcut("Ctrl+S")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self.save)
        self.form.dirtyChanged.connect(self.save_button.setEnabled)

        left = QWidget(self)
        filters = QHBoxLayout()
        filters.addWidget(self.status_filter)
        filters.addWidget(self.priority_filter)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addLayout(filters)
        left_layout.addWidget(self.text_filter)
        left_layout.addWidget(self.tree, 1)
        left_buttons = QHBoxLayout()
        left_buttons.addWidget(self.new_button)
        left_buttons.addStretch(1)
        left_buttons.addWidget(self.export_button)
        left_layout.addLayout(left_buttons)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.form, 1)
        save_row = QHBoxLayout()
        save_row.addStretch(1)
        save_row.addWidget(self.save_button)
        right_layout.addLayout(save_row)
        # Scrollable, so the form's many fields never force the bottom dock area taller than the live view allows.
        right.setMinimumHeight(330)
        form_area = QScrollArea(self)
        form_area.setWidget(right)
        form_area.setWidgetResizable(True)
        form_area.setFrameShape(QScrollArea.Shape.NoFrame)
        splitter = self.splitter = QSplitter(self)
        splitter.addWidget(left)
        splitter.addWidget(form_area)
        splitter.setChildrenCollapsible(False)
        splitter.setStretchFactor(1, 1)
        self._sized = False

        self.review = EditReview(service, self)
        # Stacked until it is first shown (it then lays itself out): side by side, the hidden review alone would
        # make the panel wider than a laptop's side column and clip the case form.
        self.review.splitter.setOrientation(Qt.Orientation.Vertical)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(splitter, "Cases")
        self.tabs.addTab(self.review, "Agent edits")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.tabs)

        self.review.caseOpenRequested.connect(self.open_case)
        self.review.countChanged.connect(self._review_count)
        service.casesChanged.connect(self.refresh)
        self.refresh()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The list beside the form when there is room; in a side panel, the list above the form."""
        super().resizeEvent(event)
        wanted = Qt.Orientation.Horizontal if self.width() >= SIDE_BY_SIDE else Qt.Orientation.Vertical
        if wanted != self.splitter.orientation() or not self._sized:
            self._sized = True
            self.splitter.setOrientation(wanted)
            if wanted == Qt.Orientation.Horizontal:
                self.splitter.setSizes([min(440, self.width() * 2 // 5), self.width() * 3 // 5])
            else:
                self.splitter.setSizes([self.height() // 3, self.height() * 2 // 3])

    def _rewrap_titles(self, column: int, _old: int, _new: int) -> None:
        """Row heights follow the title column's width (Qt measures wrapped rows once, at the width they had)."""
        if column == 0:
            self.tree.doItemsLayout()

    # -- the tree ----------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Re-read suites and cases, keeping the selection and the case being edited."""
        current = self.current_id
        if not self._saving:
            self._keep_draft()  # cases written elsewhere (an agent) must not wipe the tester's unsaved edit
        selected = set(self.selected_ids())
        cases = self.service.cases()
        self.cases = {case.id: case for case in cases}
        self.drafts = {key: draft for key, draft in self.drafts.items() if key in self.cases}
        self.tree.blockSignals(True)
        self.tree.clear()
        groups: dict[str | None, QTreeWidgetItem] = {}
        bold = QFont()
        bold.setBold(True)
        for suite in self.service.suites():
            item = QTreeWidgetItem(self.tree, [suite.title])
            item.setToolTip(0, suite.description or suite.module or suite.title)
            item.setFont(0, bold)
            item.setData(0, CASE_ROLE, None)
            item.setData(0, SUITE_ROLE, suite.id)
            groups[suite.id] = item
        for case in cases:
            parent = groups.get(case.suite_id)
            if parent is None:
                parent = groups.get(None)
                if parent is None:
                    parent = groups[None] = QTreeWidgetItem(self.tree, [UNSORTED])
                    parent.setFont(0, bold)
            item = QTreeWidgetItem(parent, [case.title, case.priority, case.status, str(case.version)])
            item.setData(0, CASE_ROLE, case.id)
            item.setToolTip(0, f"{case.title}\n{case.id} · {case.origin} · tags: {', '.join(case.tags) or 'none'}")
            item.setForeground(2, QBrush(QColor(STATUS_COLORS.get(case.status, "#111827"))))
            if case.id in selected:
                item.setSelected(True)
        for group in groups.values():
            group.setExpanded(True)
            group.setText(0, f"{group.text(0).split('  (')[0]}  ({group.childCount()})")
        self.tree.blockSignals(False)
        self.apply_filters()
        if current in self.cases:
            self.select_case(current, reload=False)
            self._load(current)
        elif self.form.case is not None:
            self.form.setEnabled(False)

    def _groups(self) -> list[QTreeWidgetItem]:
        """The suite rows, each holding its cases."""
        groups = (self.tree.topLevelItem(top) for top in range(self.tree.topLevelItemCount()))
        return [group for group in groups if group is not None]

    def _case_items(self) -> list[QTreeWidgetItem]:
        return [item for group in self._groups() for item in _children(group)]

    def item_for(self, case_id: str) -> QTreeWidgetItem | None:
        return next((item for item in self._case_items() if item.data(0, CASE_ROLE) == case_id), None)

    def apply_filters(self) -> None:
        status, priority = self.status_filter.currentData(), self.priority_filter.currentData()
        words = self.text_filter.text().strip().lower()
        for item in self._case_items():
            case = self.cases[item.data(0, CASE_ROLE)]
            haystack = " ".join([case.title, case.id, *case.tags]).lower()
            shown = ((status is None or case.status == status) and (priority is None or case.priority == priority)
                     and (not words or all(word in haystack for word in words.split())))
            item.setHidden(not shown)
        filtering = status is not None or priority is not None or bool(words)
        for group in self._groups():
            visible = any(not item.isHidden() for item in _children(group))
            group.setHidden(filtering and not visible)

    def visible_case_ids(self) -> list[str]:
        return [item.data(0, CASE_ROLE) for item in self._case_items()
                if not item.isHidden() and not _group_hidden(item)]

    def selected_ids(self) -> list[str]:
        return [item.data(0, CASE_ROLE) for item in self.tree.selectedItems() if item.data(0, CASE_ROLE)]

    def selected_cases(self) -> list[TestCase]:
        ids = self.selected_ids() or ([self.current_id] if self.current_id else [])
        return [self.cases[case_id] for case_id in ids if case_id in self.cases]

    @property
    def current_id(self) -> str | None:
        return self.form.case.id if self.form.case is not None and self.form.isEnabled() else None

    def select_case(self, case_id: str, reload: bool = True) -> bool:
        """Make `case_id` the current case (clearing filters that hide it); False when it is not in the project."""
        item = self.item_for(case_id)
        if item is None:
            return False
        if item.isHidden() or _group_hidden(item):
            self.status_filter.setCurrentIndex(0)
            self.priority_filter.setCurrentIndex(0)
            self.text_filter.clear()
        self.tabs.setCurrentIndex(0)
        self.tree.blockSignals(not reload)
        self.tree.setCurrentItem(item)
        self.tree.blockSignals(False)
        self.tree.scrollToItem(item)
        return True

    def _current_changed(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        case_id = item.data(0, CASE_ROLE) if item is not None else None
        if case_id and case_id != self.current_id:
            self._keep_draft()
            self._load(case_id)

    def _keep_draft(self) -> None:
        if self.form.case is None or not self.form.dirty:
            return
        try:
            self.drafts[self.form.case.id] = self.form.current_case()
        except (LocatorTextError, ValueError):
            self.notice.emit(f"The unsaved edit of '{self.form.case.title}' was dropped: a step's locator is not "
                             "valid. Fix it before switching cases to keep such edits.")

    def _load(self, case_id: str) -> None:
        case = self.cases[case_id]
        self.form.load(case, self.service.history(case_id), self.service.suites(), self.drafts.get(case_id))

    # -- commands ----------------------------------------------------------------------------------------

    def new_case(self) -> None:
        item = self.tree.currentItem()
        suite_id = None
        if item is not None:
            group = item.parent()
            suite_id = (item if group is None else group).data(0, SUITE_ROLE)
        case = self.service.new_case(suite_id)
        if case is not None:
            self.select_case(case.id)
            self.form.title.setFocus()
            self.form.title.selectAll()

    def request_export(self) -> None:
        self.exportRequested.emit(self.selected_cases())

    def save(self) -> TestCase | None:
        if self.form.case is None:
            return None
        try:
            edited = self.form.current_case()
        except (LocatorTextError, ValueError) as error:
            self.notice.emit(f"Not saved: {error} Fix it in the steps table, then save again.")
            return None
        self.drafts.pop(edited.id, None)
        self._saving = True
        try:
            stored = self.service.save(edited)  # casesChanged reloads the form with the stored version
        finally:
            self._saving = False
        if stored is None and self.service.project.project is not None:
            self.form.mark_saved()  # nothing differed from the stored version
        return stored

    # -- agent edits ---------------------------------------------------------------------------------------

    def set_edits(self, edits: list[CaseEdit]) -> None:
        """Show a job's edits for review, with the cases its detected changes impact."""
        self.review.set_edits(edits, self.service.edit_job_cases(edits))
        if edits:
            self.tabs.setCurrentWidget(self.review)

    def open_case(self, case_id: str) -> None:
        if not self.select_case(case_id):
            self.notice.emit("That case is no longer in this project (it was deleted or the project changed).")

    def _review_count(self, waiting: int) -> None:
        index = self.tabs.indexOf(self.review)
        self.tabs.setTabText(index, f"Agent edits ({waiting})" if waiting else "Agent edits")


class WrappedTitles(QStyledItemDelegate):
    """Measures a title at its column's width: Qt's tree measures wrapped rows as if they had all the room."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        depth, parent = 1, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        width = self.tree.header().sectionSize(0) - depth * self.tree.indentation() - 8
        text = str(index.data() or "")
        if width <= 40 or not text:
            return hint
        box = option.fontMetrics.boundingRect(QRect(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap), text)
        return QSize(hint.width(), max(hint.height(), box.height() + 4))


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    children = (item.child(row) for row in range(item.childCount()))
    return [child for child in children if child is not None]


def _group_hidden(item: QTreeWidgetItem) -> bool:
    """Whether the suite row holding the case `item` is hidden (filtered out)."""
    group = item.parent()
    return group is not None and group.isHidden()


def export_folder(project_path: Path | None, untitled: bool) -> Path:
    """Beside the project; an untitled project lives in a hidden data folder, so then beside the studio."""
    base = project_path.parent if project_path is not None and not untitled else Path.cwd()
    return base / "exported-tests"
