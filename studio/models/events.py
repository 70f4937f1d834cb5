"""Typed engine events. Every engine capability reports progress as one of these on the EventBus."""

from __future__ import annotations

import time
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from studio.models.context import Confidence, Finding, PendingQuestion


def _now_ms() -> float:
    return time.time() * 1000.0


class EngineEvent(BaseModel):
    """Base of every event: a type tag, a wall-clock timestamp in ms and the browser session it belongs to."""

    model_config = ConfigDict(frozen=True)

    type: str
    at: float = Field(default_factory=_now_ms)
    session_id: str | None = None


class SessionStarted(EngineEvent):
    """A browser session launched and its first page is open."""

    type: Literal["session_started"] = "session_started"
    browser_path: str
    browser_version: str
    headless: bool
    viewport: tuple[int, int]
    user_agent: str


SessionEndReason = Literal["closed", "page_closed", "page_crashed", "browser_disconnected", "error"]


class SessionEnded(EngineEvent):
    """A browser session is over; `reason` says why and `message` says it to the user."""

    type: Literal["session_ended"] = "session_ended"
    reason: SessionEndReason
    message: str


class NavigationEvent(EngineEvent):
    """The main frame committed a navigation to `url`."""

    type: Literal["navigation"] = "navigation"
    url: str
    title: str | None = None


class ConsoleEvent(EngineEvent):
    """A console message; `level` follows Playwright's message type (log, info, warning, error, debug, ...)."""

    type: Literal["console"] = "console"
    level: str
    text: str
    url: str | None = None
    line: int | None = None


class PageErrorEvent(EngineEvent):
    """An uncaught exception in the page."""

    type: Literal["page_error"] = "page_error"
    message: str
    url: str | None = None


# Chromium's failure text for a request the page or a navigation cancelled: recorded, but not a failure.
CANCELLED_REQUEST = "net::ERR_ABORTED"


class NetworkEvent(EngineEvent):
    """A finished request: a response (with status) or a failure (with `failure` text)."""

    type: Literal["network"] = "network"
    method: str
    url: str
    resource_type: str
    status: int | None = None
    failure: str | None = None
    duration_ms: float | None = None

    @property
    def failed(self) -> bool:
        return is_failed_request(self.status, self.failure)


def is_failed_request(status: int | None, failure: str | None) -> bool:
    """A failed request: a server error or client error status, or a failure other than a cancellation."""
    return (failure is not None and failure != CANCELLED_REQUEST) or (status is not None and status >= 400)


class ScreenshotEvent(EngineEvent):
    """A PNG screenshot of the page, kept as evidence."""

    type: Literal["screenshot"] = "screenshot"
    label: str
    url: str
    width: int
    height: int
    png: bytes = Field(repr=False)


class ProgressEvent(EngineEvent):
    """A long job moved one step: `step` of `total` (total 0 when unknown)."""

    type: Literal["progress"] = "progress"
    job: str
    step: int
    total: int
    message: str


class NoticeEvent(EngineEvent):
    """A sentence for the user (info, warning or error), with a next step where there is one."""

    type: Literal["notice"] = "notice"
    level: Literal["info", "warning", "error"]
    message: str


class JobEvent(EngineEvent):
    """Base of the events of one job (seed 000's preflight_* and main_job_*): front ends and the store follow a job
    by subscribing to this type and reading `job_id`."""

    job_id: str


class PreflightStarted(JobEvent):
    """Seed 000: a preflight began for a request."""

    type: Literal["preflight_started"] = "preflight_started"
    request: str
    url: str | None = None


class PreflightProgress(JobEvent):
    """Seed 000: the preflight moved on (an objective, a page visited), within its step budget."""

    type: Literal["preflight_progress"] = "preflight_progress"
    objective: str
    message: str
    step: int
    max_steps: int


class AskedQuestion(BaseModel):
    """One question of a paused job as the event carries it: the seed's question with its key, why and kind."""

    key: str
    why: str
    kind: str
    title: str
    question: str
    info_needed: list[str]
    options: list[str] | None = None

    @classmethod
    def of(cls, pending: PendingQuestion) -> AskedQuestion:
        return cls(key=pending.key, why=pending.why, kind=pending.kind, **pending.question.model_dump())


class PreflightQuestion(JobEvent):
    """Seed 000: the preflight paused to ask the human (at most two questions)."""

    type: Literal["preflight_question"] = "preflight_question"
    questions: list[AskedQuestion]


class PreflightCompleted(JobEvent):
    """Seed 000: the preflight finished; its context_collection is stored with the job."""

    type: Literal["preflight_completed"] = "preflight_completed"
    confidence: Confidence
    steps: int
    seconds: float
    outcome: str = Field(default="completed", description=(
        "completed; nothing (it finished but found no control: `reasons` say why); or how it ended otherwise."))
    reasons: list[str] = Field(default_factory=list, description="Why nothing came out, each with its next step.")


class FindingReported(JobEvent):
    """A suspected defect was found (or found again, with more evidence): the tester confirms or dismisses it."""

    type: Literal["finding_reported"] = "finding_reported"
    key: str
    finding: Finding


class MainJobStarted(JobEvent):
    """Seed 000: a playground agent (new suite, new cases, edit cases) started."""

    type: Literal["main_job_started"] = "main_job_started"
    kind: str
    total_items: int = 0


class ItemProgress(JobEvent):
    """Seed 000: one item (a suite, a case) of the main job was done, skipped or failed."""

    type: Literal["item_progress"] = "item_progress"
    item: str
    index: int
    total: int
    status: str
    message: str = ""


class MainJobSummary(BaseModel):
    """What a main job ended with: the sentence, and the ids it made (the job's `result` keeps the whole result)."""

    model_config = ConfigDict(extra="allow")

    summary: str = ""
    suites: list[str] = Field(default_factory=list)
    cases: list[str] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class MainJobCompleted(JobEvent):
    """Seed 000: the main job ended (completed, cancelled, budget exhausted or failed) with a summary."""

    type: Literal["main_job_completed"] = "main_job_completed"
    kind: str
    status: str
    summary: MainJobSummary


AnyEvent = Annotated[
    Union[
        SessionStarted,
        SessionEnded,
        NavigationEvent,
        ConsoleEvent,
        PageErrorEvent,
        NetworkEvent,
        ScreenshotEvent,
        ProgressEvent,
        NoticeEvent,
        PreflightStarted,
        PreflightProgress,
        PreflightQuestion,
        PreflightCompleted,
        FindingReported,
        MainJobStarted,
        ItemProgress,
        MainJobCompleted,
    ],
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[AnyEvent] = TypeAdapter(AnyEvent)


def event_to_json(event: EngineEvent) -> str:
    """One JSON line for an event; binary payloads are left out (they live in the project file)."""
    return event.model_dump_json(exclude={"png"})
