"""Race-preflight contracts (seed 001): observations, action responses, element info and typed errors.

Field names are camelCase because they are the seed's JSON contract, read by agents as is.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Fact(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Point(_Fact):
    """A point in page CSS pixels."""

    x: float
    y: float


class Rect(_Fact):
    """A box in page CSS pixels (viewport coordinates of the top document)."""

    x: float
    y: float
    width: float
    height: float


class AttachmentObservation(_Fact):
    """Whether the element is still in the document (a re-render detaches old elements)."""

    type: Literal["attachment"] = "attachment"
    ref: str
    observedAt: float
    isConnected: bool


class ElementAtPoint(_Fact):
    """The element that receives a click at the target's click point."""

    ref: str
    tag: str
    testId: str | None = None
    id: str | None = None
    className: str | None = None
    zIndex: str
    opacity: str
    display: str


class TargetElement(_Fact):
    """The element the action was aimed at: the element itself, or the visible <label> of a control drawn by its
    label (a 1×1, transparent or clipped checkbox), which is what a click lands on."""

    ref: str
    tag: str
    testId: str | None = None


class CoverageObservation(_Fact):
    """Another element is at the target's click point (an overlay, a scrim, a sticky header)."""

    type: Literal["coverage"] = "coverage"
    ref: str
    observedAt: float
    elementCenter: Point = Field(description=(
        "The click point, where elementAtPoint was hit-tested: the centre of the element's part inside the viewport "
        "(its box centre when wholly in view)."))
    elementAtPoint: ElementAtPoint
    targetElement: TargetElement
    isTargetOrDescendant: bool


class RunningAnimation(_Fact):
    """One CSS animation, transition or Web Animation on the animated element."""

    playState: str
    animationName: str | None = Field(default=None, description=(
        "The CSS animation's name; null for CSS transitions and script animations (computedStyle.transitionProperty "
        "names the properties that transition)."))
    id: str | None = None
    startTime: float | None = None
    currentTime: float | None = None


class AnimationStyle(_Fact):
    """The animated element's computed animation and transition style."""

    transition: str
    transitionProperty: str
    transitionDuration: str
    animation: str
    animationName: str
    animationDuration: str


class AnimatedElement(_Fact):
    """The element that runs the animations of an animation observation: the target itself or an ancestor."""

    ref: str
    tag: str
    testId: str | None = None


class AnimationObservation(_Fact):
    """The element, or an ancestor that moves or fades it (one observation each), is animating: it may still move."""

    type: Literal["animation"] = "animation"
    ref: str
    observedAt: float
    animations: list[RunningAnimation]
    computedStyle: AnimationStyle = Field(description="The animated element's style (the seed's, for its own).")
    animatedElement: AnimatedElement | None = Field(default=None, description=(
        "Added to the seed: the element running these animations. Its ref equals `ref` (always the element acted "
        "on) for the element's own; an ancestor's, e.g. a product card fading in around its button, otherwise. "
        "Null only in steps recorded before the field existed."))

    def label(self, animation: RunningAnimation) -> str:
        """An animation's name or id; for a CSS transition (nameless) the properties that transition."""
        if animation.animationName or animation.id:
            return animation.animationName or animation.id or ""
        properties = self.computedStyle.transitionProperty
        return f"a transition of {properties}" if properties not in ("", "all", "none") else "a transition"

    def moved_by_ancestor(self) -> bool:
        """Whether the animations run on an ancestor of the element rather than on the element itself."""
        return self.animatedElement is not None and self.animatedElement.ref != self.ref


class NavigationElement(_Fact):
    ref: str
    tag: str


class LinkAncestor(_Fact):
    """The link (the element itself or an ancestor) that a click would follow."""

    ref: str
    tag: str
    href: str | None = None
    target: str | None = None
    role: str | None = None
    isTarget: bool


class NavigationObservation(_Fact):
    """Clicking the element follows a link: the page will navigate."""

    type: Literal["navigation"] = "navigation"
    ref: str
    observedAt: float
    element: NavigationElement
    linkAncestor: LinkAncestor


class ScrollPosition(_Fact):
    x: float
    y: float


class ViewportSize(_Fact):
    width: float
    height: float


class ViewportObservation(_Fact):
    """Seed phase 2: where the element is relative to the viewport, and how far the page is scrolled."""

    type: Literal["viewport"] = "viewport"
    ref: str
    observedAt: float
    inViewport: bool
    intersectionRatio: float
    boundingBox: Rect
    viewport: ViewportSize
    scroll: ScrollPosition


class InputStateObservation(_Fact):
    """Seed phase 2: the state of a form control (disabled, readonly, value)."""

    type: Literal["input_state"] = "input_state"
    ref: str
    observedAt: float
    tag: str
    inputType: str | None = None
    disabled: bool
    readOnly: bool
    value: str | None = None
    checked: bool | None = None


class AriaStateObservation(_Fact):
    """Seed phase 2: ARIA busy/disabled/hidden and inert on the element or the ancestor that sets them."""

    type: Literal["aria_state"] = "aria_state"
    ref: str
    observedAt: float
    ariaBusy: bool
    ariaDisabled: bool
    ariaHidden: bool
    inert: bool
    setBy: str | None = Field(default=None, description="Ref of the ancestor that sets a state, when not the element.")


class Size(_Fact):
    width: float
    height: float


class HidingElement(_Fact):
    """The element that hides the target: itself or an ancestor, with its own computed display and visibility."""

    ref: str
    tag: str
    testId: str | None = None
    display: str
    visibility: str
    isTarget: bool


class VisibilityObservation(_Fact):
    """Whether the element is visible as Playwright judges it (rendered, `visibility: visible`, a non-empty box;
    opacity 0 counts as visible), with its own computed style and what hides it. A hidden element blocks pointer
    actions and typing, as Playwright waits for visibility."""

    type: Literal["visibility"] = "visibility"
    ref: str
    observedAt: float
    isVisible: bool
    display: str = Field(description="The element's own computed display (an ancestor's display:none leaves it as is).")
    visibility: str
    opacity: str
    size: Size = Field(description="The element's box in CSS pixels (0×0 when it is not rendered).")
    hiddenBy: HidingElement | None = Field(default=None, description=(
        "The nearest element (the target or an ancestor) with display:none, content-visibility:hidden or a closed "
        "<details> around the target; else the one the target's visibility:hidden is inherited from. Null when "
        "nothing hides it (or only its empty box does)."))


class PointerEventsObservation(_Fact):
    """The element does not take pointer events (pointer-events: none on it or inherited)."""

    type: Literal["pointer_events"] = "pointer_events"
    ref: str
    observedAt: float
    pointerEvents: str


Observation = Annotated[
    Union[
        AttachmentObservation,
        CoverageObservation,
        AnimationObservation,
        NavigationObservation,
        ViewportObservation,
        InputStateObservation,
        AriaStateObservation,
        PointerEventsObservation,
        VisibilityObservation,
    ],
    Field(discriminator="type"),
]
OBSERVATIONS: TypeAdapter[list[Observation]] = TypeAdapter(list[Observation])

# A drag moves in this many steps from where it starts to where it ends: the race layer drags so, and exported tests
# call drag_to(..., steps=DRAG_STEPS), so a page that reacts to each move (a sortable list) sees the same moves.
DRAG_STEPS = 5
ActionName = Literal["click", "type", "fill", "hover", "select", "check", "press", "dblclick", "uncheck", "drag",
                     "upload"]
# Seed 001: browser_click answers {"clicked": ...}; the other actions follow the same style.
ACTION_FLAG: dict[str, str] = {
    "click": "clicked", "type": "typed", "fill": "filled", "hover": "hovered",
    "select": "selected", "check": "checked", "press": "pressed", "dblclick": "doubleClicked",
    "uncheck": "unchecked", "drag": "dragged", "upload": "uploaded",
}


class ActionOutcome(BaseModel):
    """What an action did: acted (with ref and timestamp), or not, with the observations that stopped it."""

    action: ActionName
    acted: bool
    ref: str
    timestamp: float
    observations: list[Observation] = Field(default_factory=list)

    def to_seed_json(self) -> dict[str, Any]:
        """The seed's response shape: {clicked: true, ref, timestamp} or {clicked: false, observations}."""
        flag = ACTION_FLAG[self.action]
        if self.acted:
            answer: dict[str, Any] = {flag: True, "ref": self.ref, "timestamp": self.timestamp}
            if self.observations:  # acted at once, and what it did: a link within the document (#/active) followed
                answer["observations"] = [o.model_dump(mode="json") for o in self.observations]
            return answer
        return {flag: False, "observations": [o.model_dump(mode="json") for o in self.observations]}


class ElementInfo(BaseModel):
    """One element as get_ancestors / get_siblings / get_descendants report it."""

    ref: str
    tag: str
    role: str | None = None
    name: str | None = None
    testId: str | None = None
    id: str | None = None
    classes: list[str] = Field(default_factory=list)
    childCount: int
    depth: int | None = Field(default=None, description="Levels below the queried element (descendants only).")


class PageSnapshot(BaseModel):
    """A compact accessibility snapshot with refs: one line per meaningful element, indented by nesting.

    A page too large to take at once comes a piece at a time (elementCount says why): `text` is then the piece's
    lines, starting at line `first` of the whole, and `more` says whether pieces follow.
    """

    url: str
    title: str
    text: str
    refCount: int
    first: int = 0
    more: bool = False
    elementCount: int | None = None


RaceErrorKind = Literal[
    "unknown_ref", "stale_ref", "no_match", "navigated", "context_closed", "not_actionable", "bad_input", "timeout",
    # Front ends (the MCP server, `studio observe`): a URL that cannot be opened, a named browser context with no
    # page yet, no browser to launch, and a failure of our own that the message asks to report.
    "navigation_failed", "no_page", "browser_unavailable", "internal",
    # Typing refused on a page outside the origins the agent's job is pinned to (answers stay on the app).
    "origin_refused",
]


class RaceErrorInfo(BaseModel):
    """A typed error in a tool result: what went wrong and what to do (never a traceback)."""

    type: RaceErrorKind
    message: str
