"""What the element inspector reaches at one point of the page: the meaningful elements stacked there, top first."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from studio.models.race import ElementInfo, Rect


class StackedElement(BaseModel):
    """One element at a point of the page, with its box (viewport CSS pixels of the top document)."""

    model_config = ConfigDict(frozen=True)

    element: ElementInfo
    box: Rect


class PointStack(BaseModel):
    """The meaningful elements at a point, from the one a click there reaches (an overlay, say) down through what it
    covers (the button beneath, its card, the page's landmarks), shadow roots and same-origin frames included."""

    model_config = ConfigDict(frozen=True)

    x: float
    y: float
    elements: list[StackedElement]

    def index_of(self, ref: str) -> int | None:
        return next((index for index, item in enumerate(self.elements) if item.element.ref == ref), None)

    def position(self, index: int) -> str:
        """How the inspector says where an element is in the stack: "2 of 4 at this point"."""
        return f"{index + 1} of {len(self.elements)} at this point"

    def near(self, x: float, y: float, tolerance: float = 3.0) -> bool:
        """Whether (x, y) is the same point for a tester's hand (a pointer jitters by a pixel or two)."""
        return abs(self.x - x) <= tolerance and abs(self.y - y) <= tolerance
