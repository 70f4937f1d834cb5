"""The preflight's output (seed 000's `context_collection`), field for field, and the job state around it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class AuthState(BaseModel):
    """Whether the app needs a login, what blocks progress, and hints on how to get in."""

    requires_login: bool = False
    blockers: list[str] = Field(default_factory=list)
    hints: str = ""


class Environment(BaseModel):
    """Tenant, workspace and role the browser is in, and feature flags where the app shows them."""

    tenant: str | None = None
    workspace: str | None = None
    role: str | None = None
    feature_flags: list[str] = Field(default_factory=list)


class EntryPoint(BaseModel):
    """A place in the app where the requested work starts, with how sure preflight is (0..1)."""

    label: str
    url: str | None = None
    click_path: str | None = None
    confidence: float = Field(ge=0, le=1)


class KeyPage(BaseModel):
    """A page of the UI map and how a user reaches it."""

    name: str
    url: str | None = None
    how_to_reach: str


class UIMap(BaseModel):
    """The top navigation and the key pages behind it."""

    top_nav: list[str] = Field(default_factory=list)
    key_pages: list[KeyPage] = Field(default_factory=list)


class FlowSummary(BaseModel):
    """A flow the browser walked through (e.g. a wizard), where it starts, and what was noticed."""

    flow_name: str
    entry_point: str
    notes: str = ""


class DetectedChange(BaseModel):
    """Something in the app that differs from what stored test cases expect, with short evidence."""

    type: str
    evidence: str
    impacted_testcase_ids: list[str] | None = None


class CoverageGap(BaseModel):
    """A missing kind of test (validation, permissions, …) and a concrete suggestion grounded in the page."""

    gap_type: str
    suggestion: str


class Question(BaseModel):
    """A critical question for the human (seed shape)."""

    title: str
    question: str
    info_needed: list[str]
    options: list[str] | None = None


SKIPPED = "(skipped)"
"""The value of an answer the tester skipped: "decide without my answer" (an empty answer means the same)."""


class Answer(BaseModel):
    """A human answer, keyed by the info it provides (a question's info_needed entry); SKIPPED when skipped."""

    key: str
    value: str


class Confidence(BaseModel):
    base_url: float = Field(default=0, ge=0, le=1)
    entry_points: float = Field(default=0, ge=0, le=1)
    coverage: float = Field(default=0, ge=0, le=1)


class Evidence(BaseModel):
    visited_urls: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


FindingKind = Literal["data_lost_on_reload", "count_disagrees", "control_does_nothing", "page_error",
                      "partial_validation", "other"]
FindingStatus = Literal["suspected", "confirmed", "dismissed"]


class Finding(BaseModel):
    """A suspected defect: behaviour users of such an app would not expect, seen in the browser. It is reported,
    never asserted as expected: a case written for it checks the expected behaviour and is marked "fails today"
    until the tester confirms or dismisses it."""

    kind: FindingKind
    summary: str = Field(description="One sentence: what was expected and what the browser showed instead.")
    page_url: str = ""
    evidence: list[str] = Field(default_factory=list, description="The steps taken and what each showed.")
    status: FindingStatus = "suspected"
    case_id: str | None = Field(default=None, description="The case that checks the expected behaviour, if any.")


class ContextCollection(BaseModel):
    """Seed 000's context_collection: everything preflight learned, handed to the main job as is."""

    resolved_base_url: str = ""
    auth_state: AuthState = Field(default_factory=AuthState)
    environment: Environment = Field(default_factory=Environment)
    candidate_entry_points: list[EntryPoint] = Field(default_factory=list)
    ui_map: UIMap = Field(default_factory=UIMap)
    discovered_flows_summary: list[FlowSummary] = Field(default_factory=list)
    detected_changes: list[DetectedChange] = Field(default_factory=list)
    coverage_gaps: list[CoverageGap] = Field(default_factory=list)
    questions: list[Question] = Field(default_factory=list)
    answers: list[Answer] = Field(default_factory=list)
    confidence: Confidence = Field(default_factory=Confidence)
    evidence: Evidence = Field(default_factory=Evidence)
    findings: list[Finding] = Field(default_factory=list)

    def answer(self, key: str) -> str | None:
        """The latest answer for `key`, or None."""
        for item in reversed(self.answers):
            if item.key == key:
                return item.value
        return None


QuestionKind = Literal["choice", "text", "secret"]


class PendingQuestion(BaseModel):
    """A question as the studio asks it: the seed's question plus why it is asked and how to answer."""

    key: str = Field(description="The answer key (the first of info_needed).")
    question: Question
    why: str
    kind: QuestionKind = "text"
    skippable: bool = True

    @classmethod
    def make(cls, key: str, title: str, question: str, why: str, options: list[str] | None = None,
             kind: QuestionKind | None = None, extra_keys: list[str] | None = None) -> PendingQuestion:
        seed = Question(title=title, question=question, info_needed=[key, *(extra_keys or [])], options=options)
        return cls(key=key, question=seed, why=why, kind=kind or ("choice" if options else "text"))


JobKind = Literal["preflight", "new_testsuite", "new_test_case", "edit_test_case"]
# interrupted: it was running when its process went away (killed, crashed); it can be resumed or discarded.
JobStatus = Literal["running", "paused", "completed", "failed", "cancelled", "budget_exhausted", "interrupted"]


class JobRecord(BaseModel):
    """A preflight or playground job as the project file keeps it, so a paused job resumes after a restart."""

    id: str
    kind: JobKind
    status: JobStatus
    request: str = ""
    start_url: str | None = None
    created_at: float
    updated_at: float
    context: ContextCollection = Field(default_factory=ContextCollection)
    pending: list[PendingQuestion] = Field(default_factory=list)
    state: dict = Field(default_factory=dict, description="Where the job stopped: finished objectives, cursors.")
    result: dict = Field(default_factory=dict)
    message: str = ""
