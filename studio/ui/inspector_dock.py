"""The Element Inspector dock: pick an element in the live view and see what a test would need to know about it.

Alt+click or Alt+wheel while picking, or Above / Beneath here, reach the elements stacked at the picked point (what
an overlay covers); the ancestors, siblings and descendants are clickable and inspect the element clicked.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QShortcut, QTextOption
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.app.race_entries import Inspection, RaceEntry, StackPosition
from studio.app.race_service import RaceService
from studio.models.race import ElementInfo, Observation
from studio.ui.inspector_facts import BLOCKS_MARK, show_facts
from studio.ui.list_pages import ListPages
from studio.ui.live_view import Highlight, LiveView
from studio.ui.observations_dock import TARGET, describe_element, monospace

PICK_SHORTCUT = "Ctrl+Shift+C"
IDLE_HINT = f"Press {PICK_SHORTCUT}, then click an element in the page."
PICKING_HINT = ("Click an element in the page to inspect it. Alt+click (or Alt+wheel) reaches what lies beneath it. "
                "Esc leaves without picking.")
PICK_BANNER = "Pick mode: click an element to inspect it — Esc to leave"
REF_ROLE = Qt.ItemDataRole.UserRole + 1


def _value(text: str | None) -> str:
    return text if text else "—"


def short_label(info: ElementInfo) -> str:
    """A hover label: ref, role (or tag) and the start of the name."""
    name = f' "{info.name[:40]}"' if info.name else ""
    return f"{info.ref} {info.role or info.tag}{name}"


class InspectorPanel(QWidget):
    """Shows the picked element: identity, ancestors, siblings, the synthesized locator and its current facts."""

    def __init__(self, service: RaceService, live_view: LiveView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.live_view = live_view
        self.inspection: Inspection | None = None

        self.pick_action = QAction("Pick Element", self)
        self.pick_action.setCheckable(True)
        self.pick_action.setToolTip(f"Pick an element in the page to inspect it ({PICK_SHORTCUT}; Esc leaves)")
        self.pick_action.toggled.connect(service.set_pick_mode)
        # The shortcut only ever starts picking: pressed again after an Alt+click (which keeps picking) it must not
        # end the mode, or the next click, meant as a pick, reaches the page and is recorded. Esc or the button
        # ends it. On the live view, so it works with the toolbar hidden (Live Page Only) too.
        self.start_pick = QShortcut(QKeySequence(PICK_SHORTCUT), live_view)
        self.start_pick.setContext(Qt.ShortcutContext.WindowShortcut)
        self.start_pick.activated.connect(lambda: service.set_pick_mode(True))
        # Esc belongs to the page, except while picking.
        self.leave_pick = QShortcut(QKeySequence(Qt.Key.Key_Escape), live_view)
        self.leave_pick.setContext(Qt.ShortcutContext.WindowShortcut)
        self.leave_pick.setEnabled(False)
        self.leave_pick.activated.connect(lambda: service.set_pick_mode(False))

        pick_button = QToolButton(self)
        pick_button.setDefaultAction(self.pick_action)
        pick_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.hint = QLabel(IDLE_HINT, self)
        self.hint.setWordWrap(True)
        head = QHBoxLayout()
        head.addWidget(pick_button)
        head.addWidget(self.hint, 1)

        # Where the element sits among those at the picked point, and the way above and beneath it.
        self.position = QLabel("", self)
        self.position.setAccessibleName("Place at the picked point")
        bold = self.position.font()
        bold.setBold(True)
        self.position.setFont(bold)
        self.above_button = QToolButton(self)
        self.above_button.setText("▲ Above")
        self.above_button.setToolTip("Inspect the element over this one at the picked point")
        self.above_button.clicked.connect(lambda: service.walk_stack(-1))
        self.beneath_button = QToolButton(self)
        self.beneath_button.setText("▼ Beneath")
        self.beneath_button.setToolTip("Inspect the element beneath this one at the picked point (Alt+click while "
                                       "picking does the same)")
        self.beneath_button.clicked.connect(lambda: service.walk_stack(1))
        stack_row = QHBoxLayout()
        stack_row.addWidget(self.position, 1)
        stack_row.addWidget(self.above_button)
        stack_row.addWidget(self.beneath_button)

        self.fields: dict[str, QLabel] = {}
        form = QFormLayout()
        for key, title in (("ref", "Ref"), ("role", "Role"), ("name", "Name"), ("testId", "Test id"), ("tag", "Tag")):
            label = QLabel("—", self)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.fields[key] = label
            form.addRow(title, label)

        self.python_locator, python_row = self._locator_row("Python")
        self.typescript_locator, typescript_row = self._locator_row("TypeScript")
        locators = QGroupBox("Locator", self)
        locators_layout = QVBoxLayout(locators)
        locators_layout.addLayout(python_row)
        locators_layout.addLayout(typescript_row)

        self.ancestors = self._element_list("Ancestors")
        self.siblings = self._element_list("Siblings")
        self.descendants = self._element_list("Descendants")
        self.facts = QListWidget(self)
        self.facts.setWordWrap(True)
        # One list at a time: the facts first, as they are what stands between a test and a click. Their titles
        # wrap onto two rows in a narrow dock rather than being cut short or hidden behind scroll arrows.
        self.lists = ListPages(self)
        self.lists.addTab(self.facts, "Facts")
        self.lists.addTab(self.ancestors, "Ancestors")
        self.lists.addTab(self.siblings, "Siblings")
        self.lists.addTab(self.descendants, "Descendants")
        self.lists.setMinimumHeight(170)  # the tabs and about six facts

        self._requested: str | None = None  # the ref a click in a list asked to inspect, until it is shown
        self._picked_while_picking = False  # Alt+click picked it: pick mode went on

        self.observe_button = QPushButton("Observe", self)
        self.observe_button.setToolTip("Check the element's state without acting (the facts go to Observations)")
        self.click_button = QPushButton("Click with preflight", self)
        self.click_button.setToolTip("Click it through the race preflight: facts instead of a click when "
                                     "something stands in the way")
        self.observe_button.clicked.connect(lambda: self._with_ref(service.observe))
        self.click_button.clicked.connect(lambda: self._with_ref(lambda ref: service.act("click", ref)))
        buttons = QHBoxLayout()
        buttons.addWidget(self.observe_button)
        buttons.addWidget(self.click_button)
        self._enable(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(head)
        layout.addLayout(stack_row)
        layout.addLayout(form)
        layout.addLayout(buttons)
        # The facts above the locator: at 1366×768 both fit, and the facts are what a tester looks for first.
        layout.addWidget(self.lists, 1)
        layout.addWidget(locators)

        service.pickModeChanged.connect(self._pick_mode_changed)
        service.hovered.connect(self._hovered)
        service.inspected.connect(self.show_inspection)
        service.entryAdded.connect(self._entry_added)
        service.pickLost.connect(self.hint.setText)
        service.errorOccurred.connect(lambda _text: setattr(self, "_requested", None))  # a click may ask again
        self._show_position(None)

    def _element_list(self, title: str) -> QListWidget:
        view = QListWidget(self)
        view.setAccessibleName(title)
        view.setCursor(Qt.CursorShape.PointingHandCursor)
        view.itemClicked.connect(self._list_activated)
        view.itemActivated.connect(self._list_activated)  # Enter, or a double click
        return view

    def _list_activated(self, item: QListWidgetItem) -> None:
        ref = item.data(REF_ROLE)
        current = self.inspection.element.ref if self.inspection else None
        if ref and ref not in (self._requested, current):
            self._requested = ref
            self.service.inspect(ref)

    def _locator_row(self, language: str) -> tuple[QPlainTextEdit, QVBoxLayout]:
        view = monospace()
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        view.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        view.setFixedHeight(view.fontMetrics().lineSpacing() * 4 + 12)  # a scoped locator wraps onto four lines
        view.setAccessibleName(f"{language} locator")
        copy = QToolButton(self)
        copy.setText("Copy")
        copy.setToolTip(f"Copy the {language} locator")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(view.toPlainText()))
        head = QHBoxLayout()
        head.addWidget(QLabel(language, self), 1)
        head.addWidget(copy)
        row = QVBoxLayout()
        row.setSpacing(2)
        row.addLayout(head)
        row.addWidget(view)
        return view, row

    # -- reactions -----------------------------------------------------------------------------------

    def _pick_mode_changed(self, on: bool) -> None:
        if self.pick_action.isChecked() != on:
            self.pick_action.blockSignals(True)
            self.pick_action.setChecked(on)
            self.pick_action.blockSignals(False)
        self.leave_pick.setEnabled(on)
        self.live_view.setCursor(Qt.CursorShape.CrossCursor if on else Qt.CursorShape.ArrowCursor)
        self.live_view.set_pick_banner(PICK_BANNER if on else "")
        self.hint.setText(PICKING_HINT if on else IDLE_HINT)
        if on:
            self._picked_while_picking = False
        elif self._picked_while_picking and self.inspection is not None and self.inspection.box is not None:
            # Alt+click picked it and picking went on: Esc leaves with the picked element drawn, not the hover box.
            self._draw_picked(self.inspection)
        else:
            self.live_view.clear_highlights()  # the hover box; a pick draws the picked element next

    def _hovered(self, position: StackPosition | None) -> None:
        if position is None:
            self.live_view.clear_highlights()
            return
        count = len(position.stack.elements)
        label = (f"{position.index + 1} of {count} · " if count > 1 else "") + short_label(position.element)
        self.live_view.set_highlights([Highlight(position.box, TARGET, label)], hold_ms=None)

    def show_inspection(self, inspection: Inspection) -> None:
        self.inspection = inspection
        element = inspection.element
        for key, label in self.fields.items():
            label.setText(_value(getattr(element, key)))
        locator = inspection.locator
        self.python_locator.setPlainText(locator.python() if locator else "(no locator: the element is gone)")
        self.typescript_locator.setPlainText(locator.typescript() if locator else "")
        if locator is not None and not locator.unique:
            self.python_locator.setToolTip(f"Not unique: {locator.matches} elements match, so it uses nth().")
        self._requested = None
        lists = (("Ancestors", self.ancestors, inspection.ancestors), ("Siblings", self.siblings, inspection.siblings),
                 ("Descendants", self.descendants, inspection.descendants))
        for tab, (title, view, items) in enumerate(lists, start=1):
            view.clear()
            for info in items:
                line = "    " * max(0, (info.depth or 1) - 1) + describe_element(info)
                item = QListWidgetItem(line)
                item.setData(REF_ROLE, info.ref)
                item.setToolTip(f"{describe_element(info)}\nClick to inspect it.")
                view.addItem(item)
            self.lists.setTabText(tab, f"{title} ({len(items)})")
        self._show_facts(inspection.observations)
        self._enable(True)
        self._show_position(inspection)
        if inspection.found_again_from:
            self.hint.setText(f"Found again after the page changed: {inspection.found_again_from} is "
                              f"{element.ref} now.")
        elif not self.service.picking:
            self.hint.setText(IDLE_HINT)
        self._picked_while_picking = self.service.picking
        self._draw_picked(inspection)

    def _draw_picked(self, inspection: Inspection) -> None:
        if inspection.box is not None:
            label = f"picked {inspection.element.ref}" + (f" · {inspection.position}" if inspection.position else "")
            self.live_view.set_highlights([Highlight(inspection.box, TARGET, label)])

    def _show_position(self, inspection: Inspection | None) -> None:
        position = inspection.position if inspection is not None else None
        self.position.setText(position or "")
        self.position.setVisible(position is not None)
        index, stack = (inspection.stack_index, inspection.stack) if inspection is not None else (None, None)
        self.above_button.setVisible(position is not None)
        self.beneath_button.setVisible(position is not None)
        self.above_button.setEnabled(bool(index))
        self.beneath_button.setEnabled(stack is not None and index is not None and index + 1 < len(stack.elements))

    def _entry_added(self, entry: RaceEntry) -> None:
        if self.inspection is not None and entry.ref == self.inspection.element.ref and entry.acted is None:
            self._show_facts(entry.observations)

    def _show_facts(self, facts: list[Observation]) -> None:
        blocking = show_facts(self.facts, facts)
        self.lists.setTabText(0, f"{BLOCKS_MARK if blocking else ''}Facts ({len(facts)})")
        self._bring_facts_into_view()

    def _bring_facts_into_view(self) -> None:
        """The dock scrolls when the Explore column is short (1366×768): the facts are what the tester looks for."""
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None:
            area.ensureWidgetVisible(self.lists, 0, 0)

    def _enable(self, on: bool) -> None:
        self.observe_button.setEnabled(on)
        self.click_button.setEnabled(on)

    def _with_ref(self, call) -> None:
        if self.inspection is not None:
            call(self.inspection.element.ref)
