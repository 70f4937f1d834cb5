"""A job that finished without producing anything — a New Suite or New Cases that wrote no case, a preflight that
found no control — as the studio reports it: what it tried, and why nothing came out, each reason a sentence with
the tester's next step. Such a job never ends as a plain "done" (the CLI's exit code 6, a problem in the window)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

NOTHING: Literal["nothing"] = "nothing"  # job.result["outcome"] of a job that finished with nothing to show


class NothingReason(BaseModel):
    """One cause: what the browser showed (`seen`) or what stopped the job (`blocked`), and what the tester can do."""

    kind: Literal["seen", "blocked"]
    sentence: str
    next_step: str

    def said(self) -> str:
        """The reason with its next step, as one line."""
        return f"{self.sentence} Next: {self.next_step}"


class Tried(BaseModel):
    """What the job tried before it came out empty."""

    pages_visited: list[str] = Field(default_factory=list)
    controls_found: int = 0
    controls_tried: int = 0

    def sentence(self) -> str:
        """"It opened 2 pages (/, /about), found 3 controls there and tried 1 of them."."""
        pages = self.pages_visited
        shown = ", ".join(pages[:4]) + (f" and {len(pages) - 4} more" if len(pages) > 4 else "")
        opened = f"It opened {len(pages)} page{'s' if len(pages) != 1 else ''}" + (f" ({shown})" if pages else "")
        if not self.controls_found:
            return f"{opened} and found no control there to act on."
        found = f"{self.controls_found} control{'s' if self.controls_found != 1 else ''}"
        return f"{opened}, found {found} there and tried {self.controls_tried} of them."


class NothingProduced(BaseModel):
    """Why a job that finished produced nothing: `what` it did not produce, what it `tried`, and the `reasons`."""

    outcome: Literal["nothing"] = NOTHING
    what: str = Field(description='What did not come out, e.g. "wrote no test case" or "found no control".')
    tried: Tried
    reasons: list[NothingReason] = Field(default_factory=list)

    def headline(self, title: str) -> str:
        """"New Suite wrote no test case: It opened 1 page (/) and found no control there to act on."."""
        return f"{title} {self.what}. {self.tried.sentence()}"

    def summary(self, title: str) -> str:
        """The headline and every reason with its next step: the job's message and its result's summary."""
        return " ".join([self.headline(title), *(reason.said() for reason in self.reasons)])
