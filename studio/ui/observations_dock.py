"""The Observations dock: every preflight check and action on the live page, newest first, with its facts.

Facts are shown as sentences a tester reads at a glance and as the seed's JSON; selecting an entry draws
the target and what stands in its way over the live view.
"""

from __future__ import annotations

import html
import json
import time

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.app.race_entries import RaceEntry
from studio.app.race_service import RaceService
from studio.models.race import ElementInfo, Observation, Rect
from studio.ui.live_view import Highlight, LiveView

MAX_ENTRIES = 500
COLUMNS = ("Time", "Action", "Ref", "Outcome", "Locator")
TARGET = QColor("#2563eb")
BLOCKER = QColor("#dc2626")
MOVING = QColor("#d97706")
LINK = QColor("#7c3aed")
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1


def element_label(tag: str, test_id: str | None = None, element_id: str | None = None,
                  class_name: str | None = None) -> str:
    """How an element is named in a sentence: its tag and the most telling attribute."""
    if test_id:
        return f"{tag} [data-testid={test_id}]"
    if element_id:
        return f"{tag}#{element_id}"
    if class_name:
        return f"{tag}." + ".".join(class_name.split()[:2])
    return tag


def describe_element(info: ElementInfo) -> str:
    """One line for an element in a list: ref, tag with its telling attribute, role and name."""
    label = element_label(info.tag, info.testId, info.id, " ".join(info.classes) or None)
    role = f"  {info.role}" if info.role else ""
    name = f' "{info.name}"' if info.name else ""
    return f"{info.ref}  {label}{role}{name}"


def _point(x: float, y: float) -> str:
    return f"({x:.0f}, {y:.0f})"


def fact_sentence(fact: Observation) -> str:
    """A fact as a sentence: what was seen, never what it means."""
    match fact.type:
        case "coverage":
            where = _point(fact.elementCenter.x, fact.elementCenter.y)
            if fact.isTargetOrDescendant:
                return f"Clear: the click point {where} hits the element itself"
            hit = fact.elementAtPoint
            name = element_label(hit.tag, hit.testId, hit.id, hit.className)
            return f"Covered: {name} (z-index {hit.zIndex}, opacity {hit.opacity}) is at the click point {where}"
        case "animation":
            runs = [f"{fact.label(a)} ({a.playState}"
                    + (f", {a.currentTime:.0f} ms in)" if a.currentTime is not None else ")") for a in fact.animations]
            what = ", ".join(runs) or fact.computedStyle.animation or fact.computedStyle.transition
            moving = fact.animatedElement
            if moving is None or not fact.moved_by_ancestor():
                return f"Animating: {fact.ref} runs {what}"
            return f"Animating: its ancestor {element_label(moving.tag, moving.testId)} {moving.ref} runs {what}"
        case "navigation":
            link = fact.linkAncestor
            text = f"Link to {link.href or '(no href)'}"
            if link.target:
                text += f" (target {link.target})"
            return text if link.isTarget else f"{text}, through the enclosing <{link.tag}> {link.ref}"
        case "attachment":
            return "Attached to the page" if fact.isConnected else "Removed from the page"
        case "viewport":
            if fact.inViewport:
                return f"In view: {fact.intersectionRatio:.0%} of it is visible"
            box = fact.boundingBox
            return (f"Out of view: its box is at {_point(box.x, box.y)}, the page is scrolled to "
                    f"{_point(fact.scroll.x, fact.scroll.y)} in a {fact.viewport.width:.0f}×{fact.viewport.height:.0f} viewport")
        case "input_state":
            kind = f"{fact.tag}[type={fact.inputType}]" if fact.inputType else fact.tag
            states = ["disabled" if fact.disabled else "enabled"] + (["read-only"] if fact.readOnly else [])
            if fact.checked is not None:
                states.append("checked" if fact.checked else "not checked")
            value = f', value "{fact.value}"' if fact.value else ""
            return f"Field: {kind} is {', '.join(states)}{value}"
        case "aria_state":
            states = [name for name, on in (("busy", fact.ariaBusy), ("disabled", fact.ariaDisabled),
                                            ("hidden", fact.ariaHidden), ("inert", fact.inert)) if on]
            by = f" (set by {fact.setBy})" if fact.setBy else ""
            return f"ARIA: {', '.join(states) or 'no state'}{by}"
        case "pointer_events":
            return f"Ignores the pointer: pointer-events is {fact.pointerEvents}"
        case "visibility":
            if fact.isVisible:
                return f"Visible: a {fact.size.width:.0f}×{fact.size.height:.0f} box, opacity {fact.opacity}"
            hider = fact.hiddenBy
            if hider is None:
                return f"Not visible: its box is {fact.size.width:.0f}×{fact.size.height:.0f}"
            style = f"display: {hider.display}" if hider.display == "none" else f"visibility: {hider.visibility}"
            if hider.isTarget:
                return f"Not visible: it has {style}"
            return f"Not visible: its ancestor {element_label(hider.tag, hider.testId)} {hider.ref} has {style}"
    return fact.type


def highlight_requests(entry: RaceEntry) -> tuple[list[tuple[str, QColor, str]], list[Highlight]]:
    """What to draw for an entry: refs to look up (with colour and label), and click points known already."""
    refs: dict[str, tuple[QColor, str]] = {entry.ref: (TARGET, f"target {entry.ref}")}
    points: list[Highlight] = []
    for fact in entry.observations:
        if fact.type == "coverage" and not fact.isTargetOrDescendant:
            hit = fact.elementAtPoint
            refs.setdefault(hit.ref, (BLOCKER, f"at the click point: {element_label(hit.tag, hit.testId, hit.id)}"))
            points.append(Highlight(Rect(x=fact.elementCenter.x, y=fact.elementCenter.y, width=0, height=0), BLOCKER))
        elif fact.type == "animation" and fact.animatedElement and fact.moved_by_ancestor():
            moving = fact.animatedElement
            refs.setdefault(moving.ref, (MOVING, f"animating: {element_label(moving.tag, moving.testId)}"))
        elif fact.type == "navigation" and not fact.linkAncestor.isTarget:
            refs.setdefault(fact.linkAncestor.ref, (LINK, f"link {fact.linkAncestor.ref}"))
    return [(ref, color, label) for ref, (color, label) in refs.items()], points


def outcome_text(entry: RaceEntry) -> str:
    facts = _facts(len(entry.observations))
    if entry.by_tester:
        return f"by you · {facts} before"
    if entry.acted is None:
        return f"observed · {facts}"
    if entry.acted:
        return "acted"
    return f"not acted · {facts}"


def _facts(count: int) -> str:
    return f"{count} fact{'s' if count != 1 else ''}"


def locator_text(entry: RaceEntry) -> str:
    if entry.locator is not None:
        return entry.locator.python()
    return "finding a locator…" if entry.locating else "(no locator: the element is gone)"


def monospace() -> QPlainTextEdit:
    view = QPlainTextEdit()
    view.setReadOnly(True)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    return view


class ObservationsPanel(QWidget):
    """The dock's content: the entries on the left, the selected entry's facts (sentences, JSON) on the right."""

    def __init__(self, service: RaceService, live_view: LiveView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.live_view = live_view
        self.entries = QTreeWidget(self)
        self.entries.setHeaderLabels(COLUMNS)
        self.entries.setRootIsDecorated(False)
        self.entries.setUniformRowHeights(True)
        self.entries.setAlternatingRowColors(True)
        self.entries.setAccessibleName("Observations")
        header = self.entries.header()
        # The short columns take the width of what they hold; only the locator is shortened (… and a tooltip).
        for column in range(4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.entries.currentItemChanged.connect(self._selected)

        self.summary = QLabel("Pick an element (Ctrl+Shift+C), then Observe it or Click with preflight: "
                              "the facts appear here.", self)
        self.summary.setWordWrap(True)
        self.locator = QLineEdit(self)
        self.locator.setReadOnly(True)
        self.locator.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.locator.setAccessibleName("Locator of the target")
        self.locator.setPlaceholderText("Locator of the target")
        self.facts = QListWidget(self)
        self.facts.setWordWrap(True)
        self.facts.setAccessibleName("Facts")
        self.json_view = monospace()
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.facts, "Facts")
        self.tabs.addTab(self.json_view, "JSON")
        self.copy_button = QPushButton("Copy JSON", self)
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy_json)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.copy_button)
        detail = QWidget(self)
        detail_layout = QVBoxLayout(detail)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addLayout(top)
        detail_layout.addWidget(self.locator)
        detail_layout.addWidget(self.tabs, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.entries)
        splitter.addWidget(detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter)
        service.entryAdded.connect(self.add)
        service.entryUpdated.connect(self.update_entry)

    @property
    def current(self) -> RaceEntry | None:
        item = self.entries.currentItem()
        return item.data(0, ENTRY_ROLE) if item is not None else None

    def add(self, entry: RaceEntry) -> None:
        clock = time.strftime("%H:%M:%S", time.localtime(entry.at / 1000))
        item = QTreeWidgetItem([clock, entry.action, entry.ref, outcome_text(entry), locator_text(entry)])
        item.setData(0, ENTRY_ROLE, entry)
        for column in range(len(COLUMNS)):
            item.setToolTip(column, item.text(column))
        if entry.acted is False or (entry.by_tester and entry.observations):
            item.setForeground(3, BLOCKER)
        self.entries.insertTopLevelItem(0, item)
        while self.entries.topLevelItemCount() > MAX_ENTRIES:
            self.entries.takeTopLevelItem(self.entries.topLevelItemCount() - 1)
        self.entries.setCurrentItem(item)  # the newest is what the tester just asked about

    def update_entry(self, entry: RaceEntry) -> None:
        for row in range(self.entries.topLevelItemCount()):
            item = self.entries.topLevelItem(row)
            if item is not None and item.data(0, ENTRY_ROLE) is entry:
                item.setText(4, locator_text(entry))
                item.setToolTip(4, item.text(4))
                if item is self.entries.currentItem():
                    self.locator.setText(locator_text(entry))
                    self.locator.setToolTip(self.locator.text())
                    self.locator.setCursorPosition(0)
                return

    def _selected(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        entry = item.data(0, ENTRY_ROLE) if item is not None else None
        self.facts.clear()
        self.copy_button.setEnabled(entry is not None)
        if entry is None:
            self.json_view.clear()
            self.locator.clear()
            return
        self.summary.setText(self._summary(entry))
        self.locator.setText(locator_text(entry))
        self.locator.setToolTip(self.locator.text())
        self.locator.setCursorPosition(0)
        sentences = [fact_sentence(fact) for fact in entry.observations]
        self.facts.addItems(sentences or ["Nothing stood in the way: no facts to report."])
        self.json_view.setPlainText(json.dumps(entry.seed_json(), indent=2))
        self.highlight(entry)

    def _summary(self, entry: RaceEntry) -> str:
        count = len(entry.observations)
        if entry.by_tester:
            facts = (f"{count} fact{'s' if count != 1 else ''} stood in the way just before it" if count
                     else "nothing stood in the way")
            return f"<b>your {html.escape(entry.action)} on {html.escape(entry.ref)}</b> in the live view — {facts}"
        if entry.acted is None:
            result = f"{_facts(count)} about the element now"
        elif entry.acted:
            result = "done: nothing stood in the way"
        else:
            result = f"not done: {count} fact{'s' if count != 1 else ''} stood in the way"
        what = "observe" if entry.acted is None else entry.action
        return f"<b>{html.escape(what)} {html.escape(entry.ref)}</b> — {result}"

    def highlight(self, entry: RaceEntry) -> None:
        """Draw the target and what stands in its way over the live view, where they are now."""
        wanted, points = highlight_requests(entry)

        def draw(rects: dict[str, Rect | None]) -> None:
            if self.current is not entry:
                return  # another entry was selected meanwhile
            boxes = [Highlight(rect, color, label) for ref, color, label in wanted
                     if (rect := rects.get(ref)) is not None and rect.width > 0 and rect.height > 0]
            self.live_view.set_highlights(boxes + points)

        self.live_view.set_highlights(points)
        self.service.request_rects([ref for ref, _, _ in wanted], draw)

    def copy_json(self) -> None:
        QGuiApplication.clipboard().setText(self.json_view.toPlainText())
