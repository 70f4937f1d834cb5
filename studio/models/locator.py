"""LocatorSpec: a Playwright locator as data, so it can be checked live, stored, and written as Python or TypeScript."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

LocatorKind = Literal["role", "test_id", "label", "placeholder", "text", "css", "filter_text", "nth", "first"]
Strategy = Literal["role", "label", "placeholder", "text", "test_id", "scoped", "css", "nth"]


def _q(text: str) -> str:
    # JSON string literals are valid in both Python and TypeScript.
    return json.dumps(text, ensure_ascii=False)


class LocatorStep(BaseModel):
    """One link of a locator chain: a get_by_* call, a filter(has_text=…), an nth() or `first` (for a check that any
    of several matches shows a text, never to pick an element to act on)."""

    kind: LocatorKind
    role: str | None = None
    name: str | None = None
    value: str | None = None
    exact: bool = False
    index: int | None = None

    def python(self) -> str:
        exact = ", exact=True" if self.exact else ""
        match self.kind:
            case "role":
                name = f", name={_q(self.name)}{exact}" if self.name is not None else ""
                return f"get_by_role({_q(self.role or '')}{name})"
            case "test_id":
                return f"get_by_test_id({_q(self.value or '')})"
            case "label":
                return f"get_by_label({_q(self.value or '')}{exact})"
            case "placeholder":
                return f"get_by_placeholder({_q(self.value or '')}{exact})"
            case "text":
                return f"get_by_text({_q(self.value or '')}{exact})"
            case "css":
                return f"locator({_q(self.value or '')})"
            case "filter_text":
                return f"filter(has_text={_q(self.value or '')})"
            case "nth":
                return f"nth({self.index or 0})"
            case "first":
                return "first"
        raise ValueError(self.kind)

    def typescript(self) -> str:
        exact = ", exact: true" if self.exact else ""
        exact_opt = ", { exact: true }" if self.exact else ""
        match self.kind:
            case "role":
                name = f", {{ name: {_q(self.name)}{exact} }}" if self.name is not None else ""
                return f"getByRole({_q(self.role or '')}{name})"
            case "test_id":
                return f"getByTestId({_q(self.value or '')})"
            case "label":
                return f"getByLabel({_q(self.value or '')}{exact_opt})"
            case "placeholder":
                return f"getByPlaceholder({_q(self.value or '')}{exact_opt})"
            case "text":
                return f"getByText({_q(self.value or '')}{exact_opt})"
            case "css":
                return f"locator({_q(self.value or '')})"
            case "filter_text":
                return f"filter({{ hasText: {_q(self.value or '')} }})"
            case "nth":
                return f"nth({self.index or 0})"
            case "first":
                return "first()"
        raise ValueError(self.kind)


class LocatorSpec(BaseModel):
    """A locator chain starting at the page, with how it was chosen and whether it was unique when made."""

    steps: list[LocatorStep]
    strategy: Strategy
    unique: bool = True
    matches: int = Field(default=1, description="How many elements it matched when synthesized.")

    def python(self, page: str = "page") -> str:
        return ".".join([page] + [step.python() for step in self.steps])

    def typescript(self, page: str = "page") -> str:
        return ".".join([page] + [step.typescript() for step in self.steps])

    def __str__(self) -> str:
        return self.python()
