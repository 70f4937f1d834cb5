"""The project tree: sessions with their pages, screenshots, console errors and network failures, and runs."""

from __future__ import annotations

import time
from collections.abc import Iterator

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from studio.app.project_service import ProjectService

SCREENSHOT_ROLE = Qt.ItemDataRole.UserRole + 1


def _clock(ms: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ms / 1000)) if ms else "—"


class ProjectTree(QTreeWidget):
    """Re-reads the project when records change (throttled by the service) and keeps what was expanded."""

    screenshotActivated = Signal(int)

    def __init__(self, service: ProjectService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.setHeaderHidden(True)
        self.setAccessibleName("Project")
        self.setUniformRowHeights(True)
        self.itemActivated.connect(self._activated)
        service.projectChanged.connect(self.refresh)
        service.recordsChanged.connect(self.refresh)

    def refresh(self) -> None:
        expanded = self._expanded_keys()
        known = self._all_keys()
        self.clear()
        project = self.service.project
        if project is None:
            return
        name = project.path.name + ("  (untitled — use File › Save As to keep it)" if self.service.untitled else "")
        root = self._item(self, name, "project")
        sessions = project.sessions()
        for record in reversed(sessions):  # newest first
            state = record.end_reason or "live"
            session = self._item(root, f"{record.label or 'Session'} · {_clock(record.started_at)} · {state}", f"s:{record.id}")
            session.setToolTip(0, f"Session {record.id}\n{record.browser_version or ''}\n{record.end_message or ''}".strip())
            counts = project.counts(record.id)
            pages = self._item(session, f"Pages ({counts['navigations']})", f"s:{record.id}:pages")
            for nav in project.navigations(record.id)[-500:]:
                self._item(pages, nav.url, None)
            shots = self._item(session, f"Screenshots ({counts['screenshots']})", f"s:{record.id}:shots")
            for shot in project.screenshots(record.id):
                item = self._item(shots, f"{shot.label or 'screenshot'}  ({shot.width}×{shot.height})", None)
                item.setData(0, SCREENSHOT_ROLE, shot.id)
                item.setToolTip(0, f"{shot.url}\nDouble-click to view")
            errors = self._item(session, f"Console errors ({counts['console_errors']})", f"s:{record.id}:console")
            for entry in [e for e in project.console(record.id) if e.is_error][-500:]:
                self._item(errors, entry.text, None)
            failures = self._item(session, f"Network failures ({counts['network_failures']})", f"s:{record.id}:network")
            for request in project.network(record.id, failed_only=True)[-500:]:
                self._item(failures, f"{request.status or request.failure}  {request.method} {request.url}", None)
        runs = project.run_summaries()
        if runs:
            group = self._item(root, f"Runs ({len(runs)})", "runs")
            for run in reversed(runs):
                self._item(group, f"{run.job} — {_clock(run.started_at)}", None)
        root.setExpanded(True)
        if sessions and f"s:{sessions[-1].id}" not in known:
            newest = self._find(f"s:{sessions[-1].id}")
            if newest is not None:
                newest.setExpanded(True)  # a new session opens expanded
        for key in expanded:
            found = self._find(key)
            if found is not None:
                found.setExpanded(True)

    def _item(self, parent, text: str, key: str | None) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [text])
        if key:
            item.setData(0, Qt.ItemDataRole.UserRole, key)
        return item

    def _walk(self) -> Iterator[QTreeWidgetItem]:
        stack = [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        while stack:
            item = stack.pop()
            if item is None:  # Qt's answer for an index out of range only
                continue
            yield item
            stack.extend(item.child(i) for i in range(item.childCount()))

    def _expanded_keys(self) -> set[str]:
        return {key for item in self._walk() if item.isExpanded() and (key := item.data(0, Qt.ItemDataRole.UserRole))}

    def _all_keys(self) -> set[str]:
        return {key for item in self._walk() if (key := item.data(0, Qt.ItemDataRole.UserRole))}

    def _find(self, key: str) -> QTreeWidgetItem | None:
        return next((item for item in self._walk() if item.data(0, Qt.ItemDataRole.UserRole) == key), None)

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        shot_id = item.data(0, SCREENSHOT_ROLE)
        if shot_id is not None:
            self.screenshotActivated.emit(int(shot_id))
