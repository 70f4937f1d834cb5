"""The project tree: sessions with their pages, screenshots, console errors and network failures, and runs.

It reads only what is new: each refresh asks the project for the rows after the last row id it has shown, adds them
to their groups and keeps the newest SHOWN_PER_GROUP of each under a counted "… N older" line, so a refresh costs
the same after a minute and after a day of a chatty page."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QApplication, QTreeWidget, QTreeWidgetItem, QWidget

from studio.app.project_service import ProjectService
from studio.models.project import SessionRecord
from studio.store.project import ProjectFile
from studio.store.timeline import EventTimeline, RowCursor

KEY_ROLE = Qt.ItemDataRole.UserRole
SCREENSHOT_ROLE = Qt.ItemDataRole.UserRole + 1
SHOWN_PER_GROUP = 500
OLDER_TIP = "The project file keeps every one of them: the Events dock shows them (scroll to its top, or Load older)."


def _clock(ms: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ms / 1000)) if ms else "—"


def _screenshot_item(shot: Any) -> QTreeWidgetItem:
    item = QTreeWidgetItem([f"{shot.label or 'screenshot'}  ({shot.width}×{shot.height})"])
    item.setData(0, SCREENSHOT_ROLE, shot.id)
    item.setToolTip(0, f"{shot.url}\nDouble-click to view")
    return item


def _run_item(run: tuple[int, str, float | None]) -> QTreeWidgetItem:
    return QTreeWidgetItem([f"{run[1]} — {_clock(run[2])}"])


def _text_item(text: str) -> QTreeWidgetItem:
    item = QTreeWidgetItem([text])
    if len(text) > 120:
        item.setToolTip(0, text[:2000])
    return item


# group -> (its key in the tree, its title, how one of its rows becomes an item)
GROUPS: dict[str, tuple[str, str, Callable[[Any], QTreeWidgetItem]]] = {
    "pages": ("pages", "Pages", lambda nav: _text_item(nav.url)),
    "screenshots": ("shots", "Screenshots", _screenshot_item),
    "console_errors": ("console", "Console errors", lambda entry: _text_item(entry.text)),
    "network_failures": ("network", "Network failures", lambda request: _text_item(
        f"{request.status or request.failure}  {request.method} {request.url}")),
}
# which table's row ids each group follows
TABLES = {"pages": "navigations", "screenshots": "screenshots", "console_errors": "console_events",
          "network_failures": "network_events"}


class GroupNode:
    """One group of a session: its count, its newest rows, and a line counting the older ones the tree leaves out."""

    def __init__(self, parent: QTreeWidgetItem, key: str, title: str, make: Callable[[Any], QTreeWidgetItem],
                 limit: int) -> None:
        self.item = QTreeWidgetItem(parent, [title])
        self.item.setData(0, KEY_ROLE, key)
        self.title, self.make, self.limit = title, make, limit
        self.count = 0
        self.older: QTreeWidgetItem | None = None
        self._label()

    @property
    def shown(self) -> int:
        return self.item.childCount() - (1 if self.older is not None else 0)

    def add(self, rows: list[Any], new_count: int) -> None:
        """Append `rows` (the newest of `new_count` new ones), dropping the oldest shown beyond the limit."""
        self.count += new_count
        if rows:
            rows = rows[-self.limit:]
            excess = self.shown + len(rows) - self.limit
            first = 1 if self.older is not None else 0
            if excess >= self.shown:  # every shown row goes: one call instead of one per row
                self.item.takeChildren()
                if self.older is not None:
                    self.item.addChild(self.older)
            else:
                for _ in range(max(0, excess)):
                    self.item.takeChild(first)
            self.item.addChildren([self.make(row) for row in rows])
        self._older_line()
        self._label()

    def _older_line(self) -> None:
        hidden = self.count - self.shown
        if hidden <= 0:
            if self.older is not None:
                self.item.takeChild(0)
                self.older = None
            return
        if self.older is None:
            self.older = QTreeWidgetItem([""])
            self.older.setToolTip(0, OLDER_TIP)
            self.older.setForeground(0, QApplication.palette().placeholderText())
            self.item.insertChild(0, self.older)
        self.older.setText(0, f"… {hidden:,} older (open in Events)")

    def _label(self) -> None:
        text = f"{self.title} ({self.count:,})"
        if self.item.text(0) != text:
            self.item.setText(0, text)


class SessionNode:
    """A session's line with its four groups, filled once from the newest rows, then from new rows only."""

    def __init__(self, root: QTreeWidgetItem, record: SessionRecord, limit: int) -> None:
        self.id = record.id
        self.item = QTreeWidgetItem([""])
        self.item.setData(0, KEY_ROLE, f"s:{record.id}")
        root.insertChild(0, self.item)  # newest first
        self.groups = {name: GroupNode(self.item, f"s:{record.id}:{key}", title, make, limit)
                       for name, (key, title, make) in GROUPS.items()}
        self.describe(record)

    def describe(self, record: SessionRecord) -> None:
        state = record.end_reason or "live"
        text = f"{record.label or 'Session'} · {_clock(record.started_at)} · {state}"
        if self.item.text(0) != text:
            self.item.setText(0, text)
            self.item.setToolTip(
                0, f"Session {record.id}\n{record.browser_version or ''}\n{record.end_message or ''}".strip())

    def read(self, timeline: EventTimeline, after: RowCursor, upto: RowCursor) -> None:
        """Add the session's rows with ids in (after, upto] to each group."""
        for name, group in self.groups.items():
            low, high = getattr(after, TABLES[name]), getattr(upto, TABLES[name])
            if high <= low:
                continue
            count = timeline.count_since(name, self.id, low, high)
            if count:
                group.add(timeline.rows_since(name, self.id, low, high, limit=group.limit), count)


class ProjectTree(QTreeWidget):
    """Follows the open project from new records only (the service throttles refreshes to 4 a second)."""

    screenshotActivated = Signal(int)

    def __init__(self, service: ProjectService, parent: QWidget | None = None,
                 shown_per_group: int = SHOWN_PER_GROUP) -> None:
        super().__init__(parent)
        self.service = service
        self.shown_per_group = shown_per_group
        self.setHeaderHidden(True)
        self.setAccessibleName("Project")
        self.setUniformRowHeights(True)
        self.itemActivated.connect(self._activated)
        self._project: ProjectFile | None = None
        self._root: QTreeWidgetItem | None = None
        self._runs: GroupNode | None = None
        self._sessions: dict[str, SessionNode] = {}
        self._cursor = RowCursor()
        self.last_refresh_ms = 0.0
        self.slowest_refresh_ms = 0.0  # since the window opened: what `studio bench soak` reports
        service.projectChanged.connect(self.refresh)
        service.recordsChanged.connect(self.refresh)

    def refresh(self) -> None:
        started = time.perf_counter()
        project = self.service.project
        if project is not self._project:
            self._start(project)
        if project is not None and self._root is not None:
            self._update(project, self._root)
        self.last_refresh_ms = (time.perf_counter() - started) * 1000
        self.slowest_refresh_ms = max(self.slowest_refresh_ms, self.last_refresh_ms)

    def _start(self, project: ProjectFile | None) -> None:
        self.clear()
        self._project, self._root, self._runs = project, None, None
        self._sessions, self._cursor = {}, RowCursor()
        if project is not None:
            self._root = QTreeWidgetItem(self, [""])
            self._root.setData(0, KEY_ROLE, "project")

    def _update(self, project: ProjectFile, root: QTreeWidgetItem) -> None:
        name = project.path.name + ("  (untitled — use File › Save As to keep it)" if self.service.untitled else "")
        if root.text(0) != name:
            root.setText(0, name)
        timeline = project.timeline
        now = timeline.latest()
        changed = timeline.sessions_with_rows(self._cursor, now) if now != self._cursor else set()
        newest: SessionNode | None = None
        for record in project.sessions():
            node = self._sessions.get(record.id)
            if node is None:
                node = self._sessions[record.id] = SessionNode(root, record, self.shown_per_group)
                node.read(timeline, RowCursor(), now)
                newest = node
            else:
                node.describe(record)
                if record.id in changed:
                    node.read(timeline, self._cursor, now)
        if now.run_summaries > self._cursor.run_summaries:
            self._add_runs(root, timeline.runs_since(self._cursor.run_summaries))
        self._cursor = now
        root.setExpanded(True)
        if newest is not None:
            newest.item.setExpanded(True)  # a new session opens expanded

    def _add_runs(self, root: QTreeWidgetItem, runs: list[tuple[int, str, float | None]]) -> None:
        if self._runs is None:
            self._runs = GroupNode(root, "runs", "Runs", _run_item, self.shown_per_group)
        self._runs.add(runs, len(runs))

    # -- finding items (tests, expansion) ------------------------------------------------------------------

    def _walk(self) -> Iterator[QTreeWidgetItem]:
        stack = [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        while stack:
            item = stack.pop()
            if item is None:  # Qt's answer for an index out of range only
                continue
            yield item
            stack.extend(item.child(i) for i in range(item.childCount()))

    def _find(self, key: str) -> QTreeWidgetItem | None:
        return next((item for item in self._walk() if item.data(0, KEY_ROLE) == key), None)

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        shot_id = item.data(0, SCREENSHOT_ROLE)
        if shot_id is not None:
            self.screenshotActivated.emit(int(shot_id))
