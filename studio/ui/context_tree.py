"""The context_collection as tree nodes (seed 000's shape, section by section), with confidence bars drawn by a
delegate and highlighted sections for what the tester must act on (changes, gaps)."""

from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
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


def paint(item: QTreeWidgetItem, color: QColor) -> None:
    for column in (0, 1):
        item.setBackground(column, QBrush(color))


def fill_tree(tree: QTreeWidget, context: ContextCollection, catalogs: list[PageCatalog]) -> None:
    """Add every section of `context` as top-level nodes of `tree` (which the caller cleared), in reading order."""
    node(tree, "Base URL", context.resolved_base_url or "not resolved yet", key="base",
         tooltip=context.resolved_base_url or None)
    confidence = node(tree, "Confidence", key="confidence")
    for label, value in (("Base URL", context.confidence.base_url), ("Entry points", context.confidence.entry_points),
                         ("Coverage", context.confidence.coverage)):
        node(confidence, label, key=f"confidence:{label}", bar=value)
    _auth(tree, context)
    _environment(tree, context)
    # What the tester acts on (the seed's edit and create priorities) comes before what the preflight mapped.
    _changes(tree, context)
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


def _auth(tree: QTreeWidget, context: ContextCollection) -> None:
    auth = context.auth_state
    blocked = f" · {len(auth.blockers)} blocker(s)" if auth.blockers else ""
    item = node(tree, "Auth state", ("login required" if auth.requires_login else "no login seen") + blocked,
                key="auth")
    for blocker in auth.blockers:
        child = node(item, "Blocker", blocker, tooltip=blocker)
        child.setForeground(1, QBrush(RED_TEXT))
    if auth.hints:
        node(item, "Hints", auth.hints, tooltip=auth.hints)


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


def _changes(tree: QTreeWidget, context: ContextCollection) -> None:
    changes = context.detected_changes
    section = node(tree, f"Detected changes ({len(changes)})", "edit priority" if changes else "none", key="changes")
    if changes:
        paint(section, AMBER)
    for number, change in enumerate(changes):
        item = node(section, change.type.replace("_", " "), change.evidence, key=f"change:{number}",
                    tooltip=change.evidence)
        item.setToolTip(1, change.evidence)
        paint(item, AMBER_LIGHT)
        for case_id in change.impacted_testcase_ids or []:
            child = node(item, f"Impacted case {case_id}", "double-click to open",
                         tooltip=f"Open {case_id} in the Test Cases editor")
            child.setData(0, CASE_ROLE, case_id)


def _gaps(tree: QTreeWidget, context: ContextCollection) -> None:
    groups: dict[str, list[str]] = defaultdict(list)
    for gap in context.coverage_gaps:
        groups[gap.gap_type].append(gap.suggestion)
    section = node(tree, f"Coverage gaps ({len(context.coverage_gaps)})",
                   "create priority" if groups else "none", key="gaps")
    if groups:
        paint(section, GAP)
    for gap_type, suggestions in groups.items():
        group = node(section, f"{gap_type.replace('_', ' ')} ({len(suggestions)})", key=f"gaps:{gap_type}")
        paint(group, GAP_LIGHT)
        for suggestion in suggestions:
            child = node(group, suggestion, tooltip=suggestion)
            child.setFirstColumnSpanned(True)


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
        child = node(notes, note, tooltip=note)
        child.setFirstColumnSpanned(True)
    shots = [catalog for catalog in catalogs if catalog.screenshot_id is not None]
    pages = node(section, f"Screenshots ({len(shots)})", key="evidence:shots")
    for catalog in shots:
        child = node(pages, catalog.path, catalog.heading or catalog.title, tooltip="Double-click to view")
        child.setData(0, SCREENSHOT_ROLE, catalog.screenshot_id)
