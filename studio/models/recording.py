"""Recorded steps: what the tester or the agent did, what was observed before, and what followed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from studio.models.locator import LocatorSpec
from studio.models.outcomes import Outcome
from studio.models.race import Observation

StepAction = Literal["navigate", "reload", "back", "click", "type", "fill", "hover", "select", "check", "press", "dblclick", "uncheck",
                     "drag",
                     # from written test cases (the playground), not from recordings:
                     "expect_visible", "expect_hidden", "expect_text", "expect_url", "upload",
                     # assertions the tester adds while recording (the Steps dock's assertion tools):
                     "expect_value", "expect_checked", "expect_count"]
StepOrigin = Literal["tester", "agent"]


class RequestRecord(BaseModel):
    """A request the step triggered (XHR/fetch/document), with its final status."""

    method: str
    url: str
    status: int | None = None
    resource_type: str = "fetch"


class LoadingSeen(BaseModel):
    """Something that told the tester to wait (a scrim over the page, a spinner, "Loading products…"), seen after
    the previous step and gone before this one: the exported test waits until it is gone, for as long as it lasted
    when recorded and more, even when the step itself then found nothing in its way."""

    text: str = ""
    test_id: str | None = None
    element_id: str | None = None
    role: str | None = None
    tag: str = ""
    covers: bool = False
    seconds: float = 0.0


class StepOutcome(BaseModel):
    """What the user could see change after the step."""

    url_before: str
    url_after: str
    status_texts: list[str] = Field(default_factory=list, description="New role=status (and live region) texts.")
    alert_texts: list[str] = Field(default_factory=list, description="New role=alert texts (errors, warnings).")
    title_after: str | None = None


class RecordedStep(BaseModel):
    """One action of a recording, with everything an exporter needs to write a resilient test step.

    Secret values (passwords, one-time codes) are never stored: `secret_env` names the environment variable
    the exported test reads instead.
    """

    session_id: str
    index: int
    at: float
    origin: StepOrigin = "agent"
    action: StepAction
    url: str = Field(description="The page URL when the step started (the target URL for navigate, the page "
                                 "reloaded for reload).")
    ref: str | None = None
    locator: LocatorSpec | None = None
    target: str | None = Field(default=None, description="What a person calls the target, e.g. 'the Next button' "
                                                          "(steps made from test cases).")
    value: str | None = None
    secret_env: str | None = None
    key: str | None = None
    reads_as: Literal["any_case", "exact_case"] | None = Field(default=None, description=(
        "expect_text made from a pilot verify: the text is compared as a person reads it (the inner text, "
        "whitespace collapsed), in any letter case or in exactly the expected one; None: the element's text "
        "content, letter case exact (an assertion step's)."))
    observations: list[Observation] = Field(default_factory=list)
    related_locators: dict[str, LocatorSpec] = Field(
        default_factory=dict, description="Locators of other refs the observations name, e.g. a covering scrim."
    )
    requests: list[RequestRecord] = Field(default_factory=list)
    loading_seen: list[LoadingSeen] = Field(
        default_factory=list, description="What the page showed while loading between the previous step and this "
        "one, gone by this one: the export waits for each to be gone.")
    outcome: StepOutcome | None = None
    outcomes: list[Outcome] = Field(
        default_factory=list, description="What the step changed, checked on the page right after it (the "
        "exporter's assertions); empty in recordings made before the recorder observed outcomes.")
