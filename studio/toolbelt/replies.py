"""What the toolbelt's tools answer: one pydantic reply per tool, or a ToolError; front ends serialise them as is.

`to_json()` gives the wire shape the MCP tools have always had (seed 001's answers), so the MCP server, the pilot
protocol and the game and scenario agents read the same objects.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from studio.models.race import ActionOutcome, ElementInfo, Observation, RaceErrorInfo, RaceErrorKind


class ToolReply(BaseModel):
    """Base of every successful tool answer."""

    def to_json(self) -> dict[str, Any] | list[Any]:
        return self.model_dump(mode="json")


class ToolError(ToolReply):
    """A typed failure: what went wrong and what to do next (never a traceback)."""

    error: RaceErrorInfo

    @classmethod
    def of(cls, kind: RaceErrorKind, message: str) -> ToolError:
        return cls(error=RaceErrorInfo(type=kind, message=message))


class NavigateReply(ToolReply):
    """Where the page ended up after a navigation (redirects included)."""

    ok: bool = True
    url: str
    title: str
    status: int | None
    recordedSession: str | None = None

    def to_json(self) -> dict[str, Any]:
        # recordedSession is only said when the context records; status stays, null for same-document moves.
        return self.model_dump(mode="json", exclude=set() if self.recordedSession else {"recordedSession"})


class SnapshotReply(ToolReply):
    """A snapshot of the page, or one part of it when the whole would be too large for one answer."""

    url: str
    title: str
    text: str
    refCount: int
    truncated: bool = False
    offset: int = Field(default=0, description="The first line of the snapshot this answer shows.")
    nextOffset: int | None = Field(default=None, description="Pass as offset for the next part (when truncated).")
    totalLines: int | None = Field(default=None, description="The snapshot's length in lines, once it is known.")
    elementCount: int | None = Field(default=None, description="The page's element count, when it is too large to "
                                                               "take at once (its snapshot then comes in parts).")
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class ActionReply(ToolReply):
    """An action's outcome under the tool's own flag: {"clicked": true, "ref", "timestamp"} or the facts.

    Added to the seed's shape, only when they apply: `reResolved` {"from", "to", "locator"} when the acknowledged
    retry acted on the element that replaced the ref's, and `submitted` when browser_type also pressed Enter (false,
    with the facts that stopped the key, when it could not).
    """

    outcome: ActionOutcome
    flag: str
    submit: ActionOutcome | None = None

    def to_json(self) -> dict[str, Any]:
        reply = self.outcome.to_seed_json()
        own = next(iter(reply))
        answer = {self.flag: reply[own], **{key: value for key, value in reply.items() if key != own}}
        moved = getattr(self.outcome, "reResolved", None)
        if moved is not None:
            answer["reResolved"] = moved.to_json()
        if self.submit is not None:
            answer["submitted"] = self.submit.acted
            if not self.submit.acted:
                answer["observations"] = [item.model_dump(mode="json") for item in self.submit.observations]
        return answer


class KeyReply(ToolReply):
    """A key pressed on whatever had the focus (browser_press_key without a ref)."""

    pressed: bool = True
    key: str
    timestamp: float


class WaitReply(ToolReply):
    """Whether what browser_wait_for waited for happened within its timeout (not happening is an answer, not an
    error)."""

    ok: bool
    condition: str = Field(description="What was waited for, in words.")
    elapsedMs: int
    url: str = Field(description="The page URL when the wait ended.")
    message: str | None = Field(default=None, description="What to do next, when the condition was not met.")

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class ElementsReply(ToolReply):
    """Elements around a ref (ancestors, siblings, descendants), every field present (null when absent)."""

    elements: list[ElementInfo]

    def to_json(self) -> list[Any]:
        return [item.model_dump(mode="json") for item in self.elements]


class ObservationsReply(ToolReply):
    """Raw facts about an element, without acting."""

    observations: list[Observation]

    def to_json(self) -> list[Any]:
        return [item.model_dump(mode="json") for item in self.observations]


class PreflightReply(ToolReply):
    """Whether actions in a browser context check their target first."""

    ok: bool = True
    browserContext: str
    preflight: bool
