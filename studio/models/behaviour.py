"""What the preflight learnt a page does by trying it: each behaviour is the steps that reach a state, the step tried
there, and what the browser saw it change (outcomes with live-checked locators).

Cases are written from behaviours: their steps are the steps tried, their checks what was seen — nothing guessed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from studio.models.testcase import CaseStep

BehaviourKind = Literal["add", "blank_refused", "edit", "toggle", "remove", "view", "page_action", "search",
                        "persist", "route", "save", "refused", "select", "key", "reorder"]


class Behaviour(BaseModel):
    """One thing a page was seen to do, reproducible from a fresh browser by `setup` then `steps`."""

    kind: BehaviourKind
    name: str = Field(description="What a tester calls it, e.g. \"Enter in 'What needs to be done?' adds an item\".")
    page: str = Field(description="The page's path (its catalogue's).")
    setup: list[CaseStep] = Field(default_factory=list, description="From a fresh browser to the state it needs.")
    steps: list[CaseStep] = Field(default_factory=list, description="What was tried; each step keeps its outcomes.")
    summary: str = Field(default="", description="What was seen, in one sentence.")


    @property
    def asserted(self) -> int:
        """How many checks its steps carry (a behaviour with none is not worth a case)."""
        return sum(1 for step in self.steps for outcome in step.outcomes
                   if outcome.kind not in ("skipped", "page_errors", "expected"))
