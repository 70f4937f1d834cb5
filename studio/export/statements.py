"""The statements of an export plan: a language-neutral test that both writers turn into code."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field

from studio.models.locator import LocatorSpec


class Subject(BaseModel):
    """What a statement acts on or checks: the page (no locator), a locator, or a locator named by a variable."""

    locator: LocatorSpec | None = None
    variable: str | None = Field(default=None, description="snake_case; each writer cases it for its language.")


class _Statement(BaseModel):
    why: str | None = Field(default=None, description="Written as a comment above the statement.")


class Note(_Statement):
    """A comment on its own (its `why`): an observation that needs no code, said so a reviewer sees it was read."""

    kind: Literal["note"] = "note"


class RequireEnv(_Statement):
    """Fail early, with a sentence, when an environment variable the test reads is not set."""

    kind: Literal["require_env"] = "require_env"
    name: str


class Goto(_Statement):
    """Open a URL: a path relative to the base URL when it is on the recording's origin."""

    kind: Literal["goto"] = "goto"
    url: str


class Declare(_Statement):
    """Name a locator the step uses more than once, or one too long to read inline."""

    kind: Literal["declare"] = "declare"
    variable: str
    locator: LocatorSpec


class ExpectState(_Statement):
    """A web-first assertion that waits for a locator to reach a state."""

    kind: Literal["expect_state"] = "expect_state"
    subject: Subject
    state: Literal["hidden", "visible", "enabled", "editable"]


class ExpectNoAttribute(_Statement):
    """Wait until a locator no longer has an attribute value, e.g. aria-busy="true"."""

    kind: Literal["expect_no_attribute"] = "expect_no_attribute"
    subject: Subject
    name: str
    value: str


class ResponseWait(BaseModel):
    """The backend response an action triggers, matched by URL path and method; status is the recorded one."""

    path: str
    method: str
    status: int | None = None
    ordinal: int = Field(default=1, description="1 for the test's first response wait, 2 for the next…")


class Act(_Statement):
    """The recorded action itself, optionally wrapped so the test waits for the response it causes."""

    kind: Literal["act"] = "act"
    subject: Subject
    action: Literal["click", "fill", "press", "hover", "check", "select_option"] = Field(
        description="Playwright's Python method name; the TypeScript writer maps it.")
    text: str | None = Field(default=None, description="A literal argument: the fill value, key or option.")
    secret_env: str | None = Field(default=None, description="Read the argument from this environment variable.")
    wait: ResponseWait | None = None


class ExpectUrl(_Statement):
    """Wait until the page URL matches a regex (written identically in Python and JavaScript)."""

    kind: Literal["expect_url"] = "expect_url"
    pattern: str


Statement = Annotated[
    Union[Note, RequireEnv, Goto, Declare, ExpectState, ExpectNoAttribute, Act, ExpectUrl],
    Field(discriminator="kind"),
]


class StepPlan(BaseModel):
    """The statements written for one recorded step (index None: the test's preamble)."""

    index: int | None
    statements: list[Statement]


CASE_PREFIX = "case:"  # session ids of steps made from a test case (studio.playground.case_steps)


class ExportPlan(BaseModel):
    """A whole test: its title, where it was recorded, its steps and the environment variables it reads."""

    title: str
    session_id: str
    origin: str | None = Field(description="scheme://host:port the recording ran on; the default base URL.")
    steps: list[StepPlan]
    env_vars: list[str] = Field(default_factory=list)

    @property
    def source(self) -> str:
        """Where the steps come from, in words: a recorded session, or a written test case ("case:<id>")."""
        if self.session_id.startswith(CASE_PREFIX):
            return f"test case {self.session_id.removeprefix(CASE_PREFIX)}"
        return f"session {self.session_id}"

    @property
    def uses_regex(self) -> bool:
        return any(isinstance(s, ExpectUrl) for step in self.steps for s in step.statements)


def locator_label(locator: LocatorSpec) -> str:
    """The words a reader knows the element by: its accessible name, label, text or test id."""
    for link in reversed(locator.steps):
        if link.kind == "role":
            return link.name or link.role or ""
        if link.kind in ("test_id", "label", "placeholder", "text", "css") and link.value:
            return link.value
    return ""
