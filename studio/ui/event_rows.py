"""How each engine event reads in the Events table: where it came from, what kind it is, its status (an HTTP
status, a step, how a job ended) and a sentence."""

from __future__ import annotations

from dataclasses import dataclass, field

from studio.models.events import (
    CANCELLED_REQUEST,
    ConsoleEvent,
    EngineEvent,
    FindingReported,
    ItemProgress,
    MainJobCompleted,
    MainJobStarted,
    NavigationEvent,
    NetworkEvent,
    NoticeEvent,
    PageErrorEvent,
    PreflightCompleted,
    PreflightProgress,
    PreflightQuestion,
    PreflightStarted,
    ProgressEvent,
    ScreenshotEvent,
    SessionEnded,
    SessionStarted,
)
from studio.wording import plural

CATEGORIES = ("console", "network", "navigation", "progress", "job", "session")
COLUMNS = ("Time", "Source", "Kind", "Status", "Message")
COLUMN_TIPS = (
    "When it happened",
    "Where it came from: the page's console, its network requests, its navigations, a job, the session",
    ("What it is: a console message's level (log, warning, error), a request's type (document, fetch, script…), "
     "a job's step"),
    "A response's HTTP status (or failed, cancelled), a job's step or outcome, why a session ended",
    "What happened",
)

_JOB_KINDS = {
    "preflight_started": "preflight started", "preflight_progress": "preflight step", "preflight_question": "question",
    "preflight_completed": "preflight finished", "main_job_started": "job started", "item_progress": "item",
    "main_job_completed": "job finished", "finding_reported": "suspected defect",
}


@dataclass(frozen=True, slots=True)
class EventRow:
    """One line of the Events table; `stored` when the project file keeps its event (all but progress ticks)."""

    at: float
    category: str
    kind: str
    status: str
    message: str
    is_error: bool
    is_warning: bool
    stored: bool = True
    # What the text filter searches, lower-cased once rather than at every keystroke.
    haystack: str = field(default="", compare=False)

    @staticmethod
    def of(at: float, category: str, kind: str, status: str, message: str, is_error: bool = False,
           is_warning: bool = False, stored: bool = True) -> EventRow:
        return EventRow(at, category, kind, status, message, is_error, is_warning, stored,
                        f"{kind}\t{status}\t{message}".lower())


def _request_status(event: NetworkEvent) -> str:
    if event.status is not None:
        return str(event.status)
    return "cancelled" if event.failure == CANCELLED_REQUEST else "failed"


def row_for(event: EngineEvent) -> EventRow | None:
    """How an engine event reads in the table; None for events the dock does not show."""
    if isinstance(event, ConsoleEvent):
        where = f"  ({event.url}:{event.line})" if event.url else ""
        return EventRow.of(event.at, "console", event.level, "", event.text + where, event.level == "error",
                           event.level == "warning")
    if isinstance(event, PageErrorEvent):
        return EventRow.of(event.at, "console", "uncaught error", "", event.message, True)
    if isinstance(event, NetworkEvent):
        detail = f"  — {event.failure}" if event.failure else ""
        return EventRow.of(event.at, "network", event.resource_type, _request_status(event),
                           f"{event.method} {event.url}{detail}", event.failed)
    if isinstance(event, NavigationEvent):
        return EventRow.of(event.at, "navigation", "page", "", event.url)
    if isinstance(event, ProgressEvent):
        step = f"{event.step} of {event.total}" if event.total else f"step {event.step}"
        return EventRow.of(event.at, "progress", event.job, step, event.message, stored=False)
    if isinstance(event, NoticeEvent):
        return EventRow.of(event.at, "progress", "notice", event.level, event.message, event.level == "error",
                           event.level == "warning")
    if isinstance(event, ScreenshotEvent):
        return EventRow.of(event.at, "session", "screenshot", "", f"{event.label}  ({event.url})")
    if isinstance(event, SessionStarted):
        return EventRow.of(event.at, "session", "started", "",
                           f"{event.browser_version}, {'headless' if event.headless else 'headed'}, "
                           f"{event.viewport[0]}×{event.viewport[1]}")
    if isinstance(event, SessionEnded):
        return EventRow.of(event.at, "session", "ended", event.reason.replace("_", " "), event.message,
                           event.reason != "closed")
    return job_row(event)


def job_row(event: EngineEvent) -> EventRow | None:
    """Seed 000's job events, as a tester reads them."""
    row = None
    status = ""
    if isinstance(event, PreflightStarted):
        row = f"{event.request or 'a preflight'}" + (f" on {event.url}" if event.url else ""), False, False
    elif isinstance(event, PreflightProgress):
        row = f"[{event.objective}] {event.message}  (step {event.step} of at most {event.max_steps})", False, False
        status = f"step {event.step}"
    elif isinstance(event, PreflightQuestion):
        row = "asks: " + " · ".join(q.question for q in event.questions), False, True
    elif isinstance(event, PreflightCompleted):
        shown = ", ".join(f"{k} {v:.2f}" for k, v in event.confidence.model_dump().items())
        nothing = event.outcome == "nothing"
        row = (f"{event.steps} browser steps; confidence {shown}"
               + (f"; found nothing: {' '.join(event.reasons)}" if nothing else "")), nothing, False
        status = "nothing" if nothing else ""
    elif isinstance(event, FindingReported):
        row = f"suspected defect on {event.finding.page_url or 'the page'}: {event.finding.summary}", False, True
        status = event.finding.status
    elif isinstance(event, MainJobStarted):
        row = f"{event.kind}" + (f": {plural(event.total_items, 'item')}" if event.total_items else ""), False, False
    elif isinstance(event, ItemProgress):
        row = f"{event.index}/{event.total} {event.status}: {event.message or event.item}", False, False
        status = event.status
    elif isinstance(event, MainJobCompleted):
        nothing = getattr(event.summary, "outcome", "") == "nothing"
        row = f"{event.kind} {event.status}: {event.summary.summary}", event.status == "failed" or nothing, \
            event.status in ("cancelled", "budget_exhausted")
        status = "nothing" if nothing else event.status.replace("_", " ")
    if row is None:
        return None
    message, is_error, is_warning = row
    return EventRow.of(event.at, "job", _JOB_KINDS.get(event.type, event.type.replace("_", " ")), status, message,
                       is_error, is_warning)
