"""What a step changed, as the recorder saw it: each outcome names a locator checked live on the page right after the
step, and the state it had then, so the exporter can write it as a web-first assertion without guessing.

The recorder keeps only outcomes that held on the page when it looked; what it saw but judged too volatile to assert
(a clock, a generated id) is kept as a SkippedOutcome with the reason, so a reviewer sees it was read and dropped.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field

from studio.models.locator import LocatorSpec


class _Outcome(BaseModel):
    why: str = Field(default="", description="What was seen, in words, e.g. 'Buy milk was added to the list'.")


class TextOutcome(_Outcome):
    """An element's whole text after the step: a counter, a status line, a score, a value echoed on the next page."""

    kind: Literal["text"] = "text"
    locator: LocatorSpec
    text: str
    before: str | None = Field(default=None, description="Its text before the step; None when it was not shown.")


class VisibleOutcome(_Outcome):
    """An element shown (a new item, the page's heading) or no longer shown (a button that went away) after the step."""

    kind: Literal["visible"] = "visible"
    locator: LocatorSpec
    visible: bool = True


class CountOutcome(_Outcome):
    """How many elements a locator matched after the step: items with a text, or every item of a list."""

    kind: Literal["count"] = "count"
    locator: LocatorSpec
    count: int


class TextsOutcome(_Outcome):
    """The texts of every item of a small collection, in order (a board's cells, a short list): the whole picture."""

    kind: Literal["texts"] = "texts"
    locator: LocatorSpec
    texts: list[str]


class CheckedOutcome(_Outcome):
    """The checked state of the checkbox, radio or switch the step acted on."""

    kind: Literal["checked"] = "checked"
    locator: LocatorSpec
    checked: bool


class ValueOutcome(_Outcome):
    """The value of the field the step acted on, when the step changed it (Enter clears a new-item field)."""

    kind: Literal["value"] = "value"
    locator: LocatorSpec
    value: str


class PageErrorsOutcome(_Outcome):
    """Uncaught errors the page threw during the step (empty: it threw none while recording, so a test may expect so)."""

    kind: Literal["page_errors"] = "page_errors"
    messages: list[str] = Field(default_factory=list)


class ExpectedOutcome(_Outcome):
    """An expected result written in words (a test case's), for the exporter to assert when it names something it can
    check, or to comment on when it does not."""

    kind: Literal["expected"] = "expected"
    text: str


class SkippedOutcome(_Outcome):
    """A change the recorder saw and chose not to assert; `why` says why (it looks like a time, it changed by itself)."""

    kind: Literal["skipped"] = "skipped"
    text: str


Outcome = Annotated[
    Union[TextOutcome, VisibleOutcome, CountOutcome, TextsOutcome, CheckedOutcome, ValueOutcome, PageErrorsOutcome,
          ExpectedOutcome, SkippedOutcome],
    Field(discriminator="kind"),
]
ASSERTABLE = (TextOutcome, VisibleOutcome, CountOutcome, TextsOutcome, CheckedOutcome, ValueOutcome)
