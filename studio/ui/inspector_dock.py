"""The Element Inspector dock: pick an element in the live view and see what a test would need to know about it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QShortcut, QTextOption
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.app.race_entries import Inspection, RaceEntry
from studio.app.race_service import RaceService
from studio.models.race import ElementInfo, Rect
from studio.ui.live_view import Highlight, LiveView
from studio.ui.observations_dock import TARGET, describe_element, fact_sentence, monospace

PICK_SHORTCUT = "Ctrl+Shift+C"


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
        self.pick_action.setShortcut(QKeySequence(PICK_SHORTCUT))
        self.pick_action.setToolTip(f"Pick an element in the page to inspect it ({PICK_SHORTCUT}; Esc leaves)")
        self.pick_action.toggled.connect(service.set_pick_mode)
        # Esc belongs to the page, except while picking.
        self.leave_pick = QShortcut(QKeySequence(Qt.Key.Key_Escape), live_view)
        self.leave_pick.setContext(Qt.ShortcutContext.WindowShortcut)
        self.leave_pick.setEnabled(False)
        self.leave_pick.activated.connect(lambda: service.set_pick_mode(False))

        pick_button = QToolButton(self)
        pick_button.setDefaultAction(self.pick_action)
        pick_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.hint = QLabel(f"Press {PICK_SHORTCUT}, then click an element in the page.", self)
        self.hint.setWordWrap(True)
        head = QHBoxLayout()
        head.addWidget(pick_button)
        head.addWidget(self.hint, 1)

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

        self.ancestors = QListWidget(self)
        self.siblings = QListWidget(self)
        self.facts = QListWidget(self)
        self.facts.setWordWrap(True)
        # One list at a time: the facts first, as they are what stands between a test and a click.
        self.lists = QTabWidget(self)
        self.lists.addTab(self.facts, "Observations")
        self.lists.addTab(self.ancestors, "Ancestors")
        self.lists.addTab(self.siblings, "Siblings")
        self.lists.setMinimumHeight(140)

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
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(locators)
        layout.addWidget(self.lists, 1)

        service.pickModeChanged.connect(self._pick_mode_changed)
        service.hovered.connect(self._hovered)
        service.inspected.connect(self.show_inspection)
        service.entryAdded.connect(self._entry_added)

    def _locator_row(self, language: str) -> tuple[QPlainTextEdit, QVBoxLayout]:
        view = monospace()
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        view.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        view.setFixedHeight(view.fontMetrics().lineSpacing() * 4 + 12)
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
        self.hint.setText("Click an element in the page to inspect it. Esc leaves without picking." if on
                          else f"Press {PICK_SHORTCUT}, then click an element in the page.")
        if not on:
            self.live_view.clear_highlights()  # the hover box; a pick draws the picked element next

    def _hovered(self, picked: tuple[ElementInfo, Rect] | None) -> None:
        if picked is None:
            self.live_view.clear_highlights()
            return
        info, box = picked
        self.live_view.set_highlights([Highlight(box, TARGET, short_label(info))], hold_ms=None)

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
        for view, items in ((self.ancestors, inspection.ancestors), (self.siblings, inspection.siblings)):
            view.clear()
            for item in items:
                line = describe_element(item)
                view.addItem(line)
                view.item(view.count() - 1).setToolTip(line)
        self.lists.setTabText(1, f"Ancestors ({len(inspection.ancestors)})")
        self.lists.setTabText(2, f"Siblings ({len(inspection.siblings)})")
        self._show_facts([fact_sentence(fact) for fact in inspection.observations])
        self._enable(True)
        if inspection.box is not None:
            self.live_view.set_highlights([Highlight(inspection.box, TARGET, f"picked {element.ref}")])

    def _entry_added(self, entry: RaceEntry) -> None:
        if self.inspection is not None and entry.ref == self.inspection.element.ref and entry.acted is None:
            self._show_facts([fact_sentence(fact) for fact in entry.observations])

    def _show_facts(self, sentences: list[str]) -> None:
        self.facts.clear()
        self.facts.addItems(sentences or ["No facts reported."])

    def _enable(self, on: bool) -> None:
        self.observe_button.setEnabled(on)
        self.click_button.setEnabled(on)

    def _with_ref(self, call) -> None:
        if self.inspection is not None:
            call(self.inspection.element.ref)
