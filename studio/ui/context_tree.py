"""The context_collection as tree nodes (seed 000's shape, section by section), with confidence bars drawn by a
delegate, highlighted sections for what the tester must act on (changes, gaps), and long sentences (gaps, blockers,
notes) wrapped across the tree's width instead of cut off."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QPainter
from PySide6.QtWidgets import (
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
)

from studio.models.catalog import PageCatalog
from studio.models.context import ContextCollection

KEY_ROLE = Qt.ItemDataRole.UserRole
BAR_ROLE = Qt.ItemDataRole.UserRole + 1  # a confidence 0..1 drawn as a bar in column 1
CASE_ROLE = Qt.ItemDataRole.UserRole + 2  # an impacted test case id
SCREENSHOT_ROLE = Qt.ItemDataRole.UserRole + 3  # a screenshot id in the project
WRAP_ROLE = Qt.ItemDataRole.UserRole + 4  # a sentence spanning both columns, wrapped to the tree's width

AMBER = QColor("#fde68a")
AMBER_LIGHT = QColor("#fef3c7")
GAP = QColor("#ffedd5")
GAP_LIGHT = QColor("#fff7ed")
RED_TEXT = QColor("#b91c1c")


class ConfidenceDelegate(QStyledItemDelegate):
    """Paints a confidence (BAR_ROLE, 0..1) as a coloured bar with its value beside it, in the text colour."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        value = index.data(BAR_ROLE)
        if value is None:
            super().paint(painter, option, index)
            return
        value = max(0.0, min(1.0, float(value)))
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(option.rect, option.palette.highlight())
        text = f"{value:.2f}"
        text_width = option.fontMetrics.horizontalAdvance("0.00") + 8
        bar = QRect(option.rect.left() + 4, option.rect.center().y() - 5, 0, 10)
        bar.setWidth(max(20, min(option.rect.width() - text_width - 10, 160)))
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#e5e7eb"))
        painter.drawRoundedRect(bar, 3, 3)
        if value > 0:
            filled = QRect(bar)
            filled.setWidth(max(4, round(bar.width() * value)))
            painter.setBrush(_bar_color(value))
            painter.drawRoundedRect(filled, 3, 3)
        painter.setPen(option.palette.highlightedText().color() if selected else option.palette.text().color())
        painter.drawText(QRect(bar.right() + 6, option.rect.top(), text_width, option.rect.height()),
                         int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), text)
        painter.restore()


class WrappingDelegate(QStyledItemDelegate):
    """Column 0: a row marked WRAP_ROLE spans the tree's width and wraps its sentence over as many lines as it
    needs (Qt's tree does not wrap on its own); other rows are drawn as usual."""

    MARGIN = 4

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree

    def text_width(self, index: QModelIndex | QPersistentModelIndex) -> int:
        depth, parent = 0, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        indent = self.tree.indentation() * (depth + (1 if self.tree.rootIsDecorated() else 0))
        return max(80, self.tree.viewport().width() - indent - 2 * self.MARGIN)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        if not index.data(WRAP_ROLE):
            return super().sizeHint(option, index)
        width = self.text_width(index)
        flags = int(Qt.TextFlag.TextWordWrap)
        height = option.fontMetrics.boundingRect(QRect(0, 0, width, 100_000), flags, str(index.data())).height()
        return QSize(width, max(height + 2 * self.MARGIN, super().sizeHint(option, index).height()))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        if not index.data(WRAP_ROLE):
            super().paint(painter, option, index)
            return
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        text, item.text = item.text, ""
        style = item.widget.style() if item.widget is not None else self.tree.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, item.widget)  # background, selection
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        foreground = index.data(Qt.ItemDataRole.ForegroundRole)
        painter.save()
        painter.setPen(option.palette.highlightedText().color() if selected else
                       foreground.color() if isinstance(foreground, QBrush) else option.palette.text().color())
        box = option.rect.adjusted(self.MARGIN, self.MARGIN, -self.MARGIN, -self.MARGIN)
        painter.drawText(box, int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop),
                         text)
        painter.restore()


def _bar_color(value: float) -> QColor:
    if value >= 0.8:
        return QColor("#16a34a")
    if value >= 0.5:
        return QColor("#d97706")
    return QColor("#dc2626")


def node(parent: QTreeWidget | QTreeWidgetItem, text: str, detail: str = "", key: str | None = None,
         bar: float | None = None, tooltip: str | None = None) -> QTreeWidgetItem:
    item = QTreeWidgetItem(parent, [text, detail])
    if key:
        item.setData(0, KEY_ROLE, key)
    if bar is not None:
        item.setData(1, BAR_ROLE, bar)
        item.setToolTip(1, f"Confidence {bar:.2f}")
    if tooltip or len(text) > 60:
        item.setToolTip(0, tooltip or text)
    return item


def sentence(parent: QTreeWidgetItem, text: str, key: str | None = None) -> QTreeWidgetItem:
    """A sentence that reads whole: both columns wide, wrapped (see WrappingDelegate)."""
    item = node(parent, text, key=key, tooltip=text)
    item.setFirstColumnSpanned(True)
    item.setData(0, WRAP_ROLE, True)
    return item


def paint(item: QTreeWidgetItem, color: QColor) -> None:
    for column in (0, 1):
        item.setBackground(column, QBrush(color))


def fill_tree(tree: QTreeWidget, context: ContextCollection, catalogs: list[PageCatalog], auth: str = "",
              case_titles: Mapping[str, str] | None = None) -> None:
    """Add every section of `context` as top-level nodes of `tree` (which the caller cleared), in reading order.
    `auth`: the auth state in words (signed in as whom, or why not); `case_titles`: impacted cases by id."""
    node(tree, "Base URL", context.resolved_base_url or "not resolved yet", key="base",
         tooltip=context.resolved_base_url or None)
    confidence = node(tree, "Confidence", key="confidence")
    for label, value in (("Base URL", context.confidence.base_url), ("Entry points", context.confidence.entry_points),
                         ("Coverage", context.confidence.coverage)):
        node(confidence, label, key=f"confidence:{label}", bar=value)
    _auth(tree, context, auth, catalogs)
    _environment(tree, context)
    # What the tester acts on (cases to update, then cases to write) comes before what the preflight mapped.
    _changes(tree, context, case_titles or {})
    _gaps(tree, context)
    entries = node(tree, f"Entry points ({len(context.candidate_entry_points)})", key="entries")
    for point in context.candidate_entry_points:
        item = node(entries, f"{point.label} — {point.url or '?'}", key=f"entry:{point.url}",
                    bar=point.confidence)
        if point.click_path:
            node(item, "How to reach", point.click_path)
    _ui_map(tree, context)
    flows = node(tree, f"Flows ({len(context.discovered_flows_summary)})", key="flows")
    for flow in context.discovered_flows_summary:
        item = node(flows, flow.flow_name, flow.entry_point, key=f"flow:{flow.flow_name}")
        for part in flow.notes.split(" → ") if flow.notes else []:
            node(item, part)
    _questions(tree, context)
    _evidence(tree, context, catalogs)


SIGN_OUT = re.compile(r"^\s*(sign|log)[\s-]*(out|off)\b|^\s*logout\b", re.IGNORECASE)


def signed_in_sign(catalogs: list[PageCatalog]) -> tuple[str, list[str]] | None:
    """A sign-out control the preflight saw ('Sign out', 'Log out') and the pages showing it: the evidence that
    the session it worked in was already signed in; None when no visited page offers one."""
    name, paths = "", []
    for catalog in catalogs:
        for element in [*catalog.nav, *catalog.actions, *catalog.controls]:
            if SIGN_OUT.match(element.name or ""):
                name = name or element.name.strip()
                if catalog.path not in paths:
                    paths.append(catalog.path)
                break
    return (name, paths) if name else None


def _auth(tree: QTreeWidget, context: ContextCollection, words: str, catalogs: list[PageCatalog]) -> None:
    auth = context.auth_state
    if not words:
        blocked = f" · {len(auth.blockers)} blocker{'s' if len(auth.blockers) != 1 else ''}" if auth.blockers else ""
        words = ("login required" if auth.requires_login else "no login seen") + blocked
    # No login form met, yet the pages offer to sign out: the tester's session was signed in before the preflight
    # (its sandbox carries the session's cookies). "No login seen" would read as an app without a login.
    sign = signed_in_sign(catalogs) if not auth.requires_login and not auth.blockers else None
    if sign is not None:
        words = f"The session was already signed in (the page shows '{sign[0]}'); no login form seen"
    item = node(tree, "Auth state", words, key="auth", tooltip=words)
    item.setToolTip(1, words)
    if sign is not None:
        name, paths = sign
        shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        sentence(item, f"{words}. '{name}' shows on {shown}; the preflight worked in that session as it was.",
                 key="auth:signed-in")
    for number, blocker in enumerate(auth.blockers):
        child = sentence(item, f"Blocker: {blocker}", key=f"auth:blocker:{number}")
        child.setForeground(0, QBrush(RED_TEXT))
    if auth.hints:
        sentence(item, f"How to sign in: {auth.hints}", key="auth:hints")


def _environment(tree: QTreeWidget, context: ContextCollection) -> None:
    env = context.environment
    item = node(tree, "Environment", env.role and f"role {env.role}" or "", key="env")
    for label, value in (("Tenant", env.tenant), ("Workspace", env.workspace), ("Role", env.role)):
        node(item, label, value or "—")
    node(item, "Feature flags", ", ".join(env.feature_flags) or "none announced")


def _ui_map(tree: QTreeWidget, context: ContextCollection) -> None:
    ui = context.ui_map
    item = node(tree, "UI map", f"{len(ui.top_nav)} nav links · {len(ui.key_pages)} key pages", key="uimap")
    nav = node(item, "Top navigation", ", ".join(ui.top_nav), key="uimap:nav")
    for name in ui.top_nav:
        node(nav, name)
    pages = node(item, f"Key pages ({len(ui.key_pages)})", key="uimap:pages")
    for page in ui.key_pages:
        node(pages, f"{page.name} — {page.url or '?'}", page.how_to_reach)


def _changes(tree: QTreeWidget, context: ContextCollection, titles: Mapping[str, str]) -> None:
    changes = context.detected_changes
    section = node(tree, f"Detected changes ({len(changes)})", "cases to update first" if changes else "none",
                   key="changes")
    if changes:
        paint(section, AMBER)
    for number, change in enumerate(changes):
        item = node(section, change.type.replace("_", " "), change.evidence, key=f"change:{number}",
                    tooltip=change.evidence)
        item.setToolTip(1, change.evidence)
        paint(item, AMBER_LIGHT)
        for case_id in change.impacted_testcase_ids or []:
            title = titles.get(case_id)
            child = node(item, f"Impacted: {title}" if title else f"Impacted case {case_id}", "double-click to open",
                         tooltip=f"Open {title or case_id} ({case_id}) in the Test Cases editor")
            child.setData(0, CASE_ROLE, case_id)


def _gaps(tree: QTreeWidget, context: ContextCollection) -> None:
    groups: dict[str, list[str]] = defaultdict(list)
    for gap in context.coverage_gaps:
        groups[gap.gap_type].append(gap.suggestion)
    section = node(tree, f"Coverage gaps ({len(context.coverage_gaps)})",
                   "cases to write first" if groups else "none", key="gaps")
    if groups:
        paint(section, GAP)
    for gap_type, suggestions in groups.items():
        group = node(section, f"{gap_type.replace('_', ' ')} ({len(suggestions)})", key=f"gaps:{gap_type}")
        paint(group, GAP_LIGHT)
        for suggestion in suggestions:
            sentence(group, suggestion)


def _questions(tree: QTreeWidget, context: ContextCollection) -> None:
    section = node(tree, "Questions and answers", f"{len(context.questions)} asked · {len(context.answers)} answered",
                   key="qa")
    for question in context.questions:
        node(section, f"Asked: {question.title}", question.question, tooltip=question.question)
    for answer in context.answers:
        node(section, answer.key, answer.value or "(skipped)")


def _evidence(tree: QTreeWidget, context: ContextCollection, catalogs: list[PageCatalog]) -> None:
    evidence = context.evidence
    section = node(tree, "Evidence", f"{len(evidence.visited_urls)} pages · {len(evidence.notes)} notes",
                   key="evidence")
    urls = node(section, f"Visited URLs ({len(evidence.visited_urls)})", key="evidence:urls")
    for url in evidence.visited_urls:
        node(urls, url)
    notes = node(section, f"Notes ({len(evidence.notes)})", key="evidence:notes")
    for note in evidence.notes:
        sentence(notes, note)
    shots = [catalog for catalog in catalogs if catalog.screenshot_id is not None]
    pages = node(section, f"Screenshots ({len(shots)})", key="evidence:shots")
    for catalog in shots:
        child = node(pages, catalog.path, catalog.heading or catalog.title, tooltip="Double-click to view")
        child.setData(0, SCREENSHOT_ROLE, catalog.screenshot_id)
