"""What the race docks show: entries of observe/act, inspections, and the predicates recording uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.browser.input import InputAction
from studio.models.locator import LocatorSpec
from studio.models.pick import PointStack
from studio.models.race import ActionOutcome, ElementInfo, Observation, Rect

TEXT_ROLES = {"textbox", "searchbox", "spinbutton"}


@dataclass(eq=False)
class RaceEntry:
    """One observe or action on the live page, as the Observations dock lists it.

    It is shown as soon as the facts are in; `locator` follows (entryUpdated), as synthesis takes longer.
    """

    at: float  # ms since the epoch
    action: str  # an ActionName, or "observe"
    ref: str
    observations: list[Observation]
    outcome: ActionOutcome | None = None  # None for observe and for the tester's own actions
    locator: LocatorSpec | None = None
    locating: bool = True
    # The tester's own click, key or typing in the live view, recorded: it happened, whatever the facts
    # (`observations`, what the preflight saw just before it) say.
    by_tester: bool = False

    @property
    def acted(self) -> bool | None:
        if self.by_tester:
            return True
        return None if self.outcome is None else self.outcome.acted

    def seed_json(self) -> Any:
        """The seed's shape: an action's response, or observe_element_state's array of observations."""
        if self.outcome is not None:
            return self.outcome.to_seed_json()
        return [item.model_dump(mode="json") for item in self.observations]


@dataclass(frozen=True)
class Inspection:
    """Everything the inspector shows about one element."""

    element: ElementInfo
    box: Rect | None
    ancestors: list[ElementInfo]
    siblings: list[ElementInfo]
    locator: LocatorSpec | None
    observations: list[Observation] = field(default_factory=list)
    descendants: list[ElementInfo] = field(default_factory=list)
    # Where it was picked: the elements at that point and which of them it is (None when reached another way).
    stack: PointStack | None = None
    stack_index: int | None = None
    # The ref it had before the page was reloaded or re-rendered, when its locator found it again.
    found_again_from: str | None = None

    @property
    def position(self) -> str | None:
        """Where it sits among the elements at the point it was picked at, e.g. "2 of 4 at this point"."""
        if self.stack is None or self.stack_index is None:
            return None
        return self.stack.position(self.stack_index)


@dataclass(frozen=True)
class StackPosition:
    """The element pick mode points at: one of the stack at the pointer (Alt+wheel or Alt+click walks it)."""

    stack: PointStack
    index: int

    @property
    def element(self) -> ElementInfo:
        return self.stack.elements[self.index].element

    @property
    def box(self) -> Rect:
        return self.stack.elements[self.index].box


@dataclass
class RememberedField:
    """A text field the tester clicked while recording: its value then, to tell whether typing changed it."""

    ref: str
    locator: LocatorSpec
    before: str


def is_text_field(info: ElementInfo) -> bool:
    return info.role in TEXT_ROLES or info.tag == "textarea" or (info.role == "combobox" and info.tag == "input")


def starts_step(action: InputAction) -> bool:
    return (action.kind == "down" and action.button == "left" and action.click_count == 1) or (
        action.kind == "key_down" and action.key == "Enter")
