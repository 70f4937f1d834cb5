"""The inspector's Facts list: what stands in the way of a click comes first, marked and in red, so a tester sees at
a glance why a click would not happen ("⊘ Covered: div [data-testid=loading-scrim] …") instead of reading a flat list
in which "Attached to the page" comes first and the scrim fourth.
"""

from __future__ import annotations

from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from studio.models.race import Observation
from studio.ui.observations_dock import BLOCKER, fact_sentence

BLOCKS_MARK = "⊘ "  # a no-entry sign every desktop font has (⛔ is often an empty box)


def blocks_a_click(fact: Observation) -> bool:
    """Whether the fact would stop a click now (the preflight's view: covered, gone, hidden, disabled, busy,
    ignoring the pointer, moving); the rest (attached, in view, a link) describe the element."""
    match fact.type:
        case "coverage":
            return not fact.isTargetOrDescendant
        case "attachment":
            return not fact.isConnected
        case "visibility":
            return not fact.isVisible
        case "input_state":
            return bool(fact.disabled)
        case "aria_state":
            return any((fact.ariaBusy, fact.ariaDisabled, fact.ariaHidden, fact.inert))
        case "pointer_events":
            return fact.pointerEvents == "none"
        case "animation":
            return True
    return False


def show_facts(view: QListWidget, facts: list[Observation]) -> int:
    """Fill `view` with the facts, the blocking ones first (marked, bold, red); the number of blocking facts."""
    view.clear()
    if not facts:
        view.addItem("No facts reported.")
        return 0
    blocking = [fact for fact in facts if blocks_a_click(fact)]
    for fact in blocking:
        item = QListWidgetItem(BLOCKS_MARK + fact_sentence(fact))
        font = item.font()
        font.setBold(True)
        item.setFont(font)
        item.setForeground(QBrush(BLOCKER))
        item.setToolTip("This stands in the way: a click now would not happen.")
        view.addItem(item)
    for fact in facts:
        if not blocks_a_click(fact):
            view.addItem(fact_sentence(fact))
    return len(blocking)
