"""Test suites and test cases as first-class project records, with their version history."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from studio.models.locator import LocatorSpec
from studio.models.outcomes import Outcome

CaseStatus = Literal["draft", "active", "stale"]
Priority = Literal["P0", "P1", "P2", "P3"]
Origin = Literal["agent", "tester"]
DefectStatus = Literal["suspected", "confirmed"]
StepAction = Literal["navigate", "click", "dblclick", "fill", "select", "check", "press", "hover", "reload", "back",
                     "expect_visible", "expect_hidden", "expect_text", "expect_url", "upload", "drag"]


class CaseStep(BaseModel):
    """One step of a case: an action on a target the browser saw (with its locator), data, and what to expect."""

    action: StepAction
    target: str = Field(default="", description="What a person calls the target, e.g. 'the Next button'.")
    locator: LocatorSpec | None = None
    url: str | None = Field(default=None, description="For navigate / expect_url: a path relative to the base URL.")
    data: str | None = Field(default=None, description="Text to type, option to pick, key to press, or text to see.")
    drop: LocatorSpec | None = Field(default=None, description="For drag: the element the drag ends on.")
    expected: str = ""
    outcomes: list[Outcome] = Field(default_factory=list, description=(
        "What the browser saw this step change when the preflight tried it (the exporter asserts them)."))


class FieldSpec(BaseModel):
    """A form field as it was when a case was written, so a later preflight can tell what changed."""

    name: str
    type: str
    required: bool
    label: str = ""


class Grounding(BaseModel):
    """Where a case comes from: the page and preflight that showed its targets, and the form it expects."""

    page_url: str | None = None
    preflight_job_id: str | None = None
    entry_label: str | None = None
    form_fields: list[FieldSpec] = Field(default_factory=list)
    required_role: str | None = None


class SuspectedDefect(BaseModel):
    """The mark of a case written from a suspected defect: it checks the behaviour users expect, which the app did not
    show when the preflight tried it, so it fails today. The tester confirms the defect (the case stays, a known
    defect) or dismisses it (the case goes); until then it exports as expected to fail."""

    finding_key: str = Field(description="The finding's key (studio.preflight.findings.finding_key).")
    kind: str
    summary: str = Field(description="What was expected and what the browser showed instead.")
    status: DefectStatus = "suspected"

    @property
    def mark(self) -> str:
        """The mark in words, as the case form, the export and the Findings list say it."""
        if self.status == "confirmed":
            return f"Known defect (confirmed by the tester): {self.summary}"
        return f"Fails today: suspected defect — confirm or dismiss. {self.summary}"


class TestSuite(BaseModel):
    """A named group of cases for one module of the app."""

    __test__ = False  # not a pytest class

    id: str
    title: str
    description: str = ""
    module: str = ""
    created_at: float
    updated_at: float


class TestCase(BaseModel):
    """A test case: grounded steps and expected results, with status, priority, origin and version."""

    __test__ = False

    id: str
    suite_id: str | None = None
    title: str
    preconditions: list[str] = Field(default_factory=list)
    steps: list[CaseStep] = Field(default_factory=list)
    expected_results: list[str] = Field(default_factory=list)
    priority: Priority = "P2"
    tags: list[str] = Field(default_factory=list)
    gap_type: str | None = None
    status: CaseStatus = "draft"
    origin: Origin = "agent"
    version: int = 1
    grounding: Grounding = Field(default_factory=Grounding)
    updated_at: float = 0
    suspected_defect: SuspectedDefect | None = Field(default=None, description=(
        "Set when the case checks expected behaviour the app does not show today (a finding of the preflight)."))


class CaseVersion(BaseModel):
    """One saved version of a case, with who changed it and a one-line summary of the change."""

    case_id: str
    version: int
    at: float
    author: Origin
    summary: str
    case: TestCase


class CaseEdit(BaseModel):
    """An edit the EDIT agent proposes for one case: before, after and a before/after summary to review."""

    case_id: str
    before: TestCase
    after: TestCase
    summary: str
    reasons: list[str] = Field(default_factory=list)
