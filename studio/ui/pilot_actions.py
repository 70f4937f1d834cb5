"""The Pilot dock's actions table: one row per action (the AI's or the tester's) with its outcome and, on the same
line, why it failed, was blocked or was refused — where the tester looks first, not in a column scrolled out of view.
It fits the dock's width at 1366×768: no horizontal scrolling; a long selector is elided in the middle (its start
and its end are what tell selectors apart) and a long reason at its end, each with its full text as the tooltip."""

from __future__ import annotations

import html
import textwrap
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QColor, QResizeEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

NUMBER, BY, ACTION, SELECTOR, OUTCOME = range(5)
HEADERS = ["#", "By", "Action", "Selector", "Outcome"]
SELECTOR_SHARE = 0.45  # of the width the first three columns leave; the outcome and its reason take the rest
MARK_COLOURS = {"✓": "#16a34a", "✗": "#dc2626", "⛔": "#b45309", "↺": "#9333ea"}
REASON_ROLE = Qt.ItemDataRole.UserRole + 1  # on the Outcome cell: "#n ✗ failed", the reason (a row that has one)
TOOLTIP_WIDTH = 90
SMALL_HINT = 110  # px: the trees' preferred height, see SmallHint  # characters: a long error as a readable tooltip rather than one line across the screen


def outcome_words(outcome: dict[str, Any]) -> tuple[str, str]:
    """("✓ done" | "✗ failed" | "⛔ blocked" | "↺ refused", the reason) of an action outcome."""
    if outcome.get("refused"):
        reason = str(outcome.get("error") or "a repeated action")
        return "↺ refused", reason.removeprefix("Refused: ")  # the mark says it already
    blocked = outcome.get("blocked")
    if blocked:
        return "⛔ blocked", str(blocked.get("reason", "") if isinstance(blocked, dict) else blocked)
    if outcome.get("ok"):
        return "✓ done", ""
    return "✗ failed", str(outcome.get("error") or "")


def wrapped(text: str) -> str:
    """`text` broken into lines for a tooltip (Qt shows a plain-text tooltip as one line, however long)."""
    return "\n".join(textwrap.fill(line, TOOLTIP_WIDTH, break_on_hyphens=False, break_long_words=False)
                     for line in text.splitlines())


class MiddleElided(QStyledItemDelegate):
    """Draws its column's text elided in the middle: `#checkout…button.primary` tells two selectors apart."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class SmallHint:
    """A tree that asks for little height: the dock scrolls as soon as the panel's preferred height (with a wrapped
    label, Qt's scroll area takes that, not the minimum) exceeds the screen, and Qt's default asks 192 px a tree."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()  # type: ignore[misc]
        return QSize(hint.width(), min(hint.height(), SMALL_HINT))


class ObservationTree(SmallHint, QTreeWidget):
    """The latest observation as a tree (filled by pilot_panel.fill_tree)."""


class ActionTable(SmallHint, QTreeWidget):
    """The session's actions as they come: number, who, what, on which selector, and the outcome with its reason."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Pilot actions")
        self.setHeaderLabels(HEADERS)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setItemDelegateForColumn(SELECTOR, MiddleElided(self))
        header = self.header()
        header.setStretchLastSection(True)
        header.setMinimumSectionSize(24)
        for column in (NUMBER, BY, ACTION):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SELECTOR, QHeaderView.ResizeMode.Interactive)
        self.headerItem().setToolTip(OUTCOME, "What happened, and why when it did not: the full text is the row's "
                                              "tooltip")
        self.count = 0

    def clear_actions(self) -> None:
        self.clear()
        self.count = 0

    def add_action(self, action: dict[str, Any], outcome: dict[str, Any] | None, by: str = "ai") -> QTreeWidgetItem:
        """A row for `action` with its outcome (None: not known yet)."""
        self.count += 1
        selector = str(action.get("selector") or action.get("url") or "")
        normalized = (outcome or {}).get("selector")
        rules = ", ".join((outcome or {}).get("rules") or [])
        if normalized and normalized != selector and rules:
            selector = f"{selector} → {normalized}"
        mark, why = outcome_words(outcome) if outcome is not None else ("…", "")
        shown = selector.removeprefix("page.")  # a tester's locator is Python: `page.` says nothing in every row
        item = QTreeWidgetItem([str(self.count), by, str(action.get("action", "")), shown,
                                f"{mark}: {why}" if why else mark])
        item.setToolTip(SELECTOR, wrapped(selector + (f"\n(normalized: {rules})" if rules else "")))
        item.setToolTip(OUTCOME, wrapped(f"{mark}\n{why}" if why else mark))
        description = str(action.get("description") or "")
        if description:
            item.setToolTip(ACTION, wrapped(description))
        colour = MARK_COLOURS.get(mark[:1])
        if colour:
            item.setForeground(OUTCOME, QColor(colour))
        if why:
            item.setData(OUTCOME, REASON_ROLE, (f"#{self.count} {mark}", why))
        self.addTopLevelItem(item)
        self.scrollToItem(item)
        return item

    def reason_html(self, item: QTreeWidgetItem | None) -> str:
        """The row's reason as the line under the table shows it in full ("" for a row without one)."""
        found = item.data(OUTCOME, REASON_ROLE) if item is not None else None
        if not found:
            return ""
        what, why = found
        colour = MARK_COLOURS.get(what.split(" ")[1][:1], "#374151")
        return f'<b style="color:{colour}">{html.escape(what)}</b> — {html.escape(why)}'

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Share the width the short columns leave between the selector and the outcome, so both stay seen."""
        super().resizeEvent(event)
        header = self.header()
        used = sum(header.sectionSize(column) for column in (NUMBER, BY, ACTION))
        rest = self.viewport().width() - used
        if rest > 120:
            header.resizeSection(SELECTOR, round(rest * SELECTOR_SHARE))
