"""The statements of an export plan: a language-neutral test that both writers turn into code."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field

from studio.models.locator import LocatorSpec
from studio.models.testcase import SuspectedDefect


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


class Reload(_Statement):
    """Reload the page (a goto to the same URL would not, when the URL has a #fragment)."""

    kind: Literal["reload"] = "reload"


class GoBack(_Statement):
    """Go back to the page before (its document is fetched again unless the browser kept it)."""

    kind: Literal["go_back"] = "go_back"


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
    timeout_ms: int | None = None  # longer than Playwright's 5 s, for what took longer when it was recorded


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
    action: Literal["click", "dblclick", "fill", "press", "hover", "check", "uncheck", "select_option", "drag_to"] = Field(
        description="Playwright's Python method name; the TypeScript writer maps it.")
    text: str | None = Field(default=None, description="A literal argument: the fill value, key or option.")
    target: LocatorSpec | None = Field(default=None, description="drag_to: where the drag ends.")
    secret_env: str | None = Field(default=None, description="Read the argument from this environment variable.")
    wait: ResponseWait | None = None


class ExpectUrl(_Statement):
    """Wait until the page URL matches a regex (written identically in Python and JavaScript)."""

    kind: Literal["expect_url"] = "expect_url"
    pattern: str


class ExpectText(_Statement):
    """A locator's whole text (whitespace normalised), or a part of it when `contains`; in any letter case with
    `ignore_case`, and read as rendered (innerText: CSS text-transform applied, hidden text left out) with
    `inner_text`."""

    kind: Literal["expect_text"] = "expect_text"
    subject: Subject
    text: str
    contains: bool = False
    ignore_case: bool = False
    inner_text: bool = False


class ExpectTexts(_Statement):
    """The texts of every element a locator matches, in order (a board's cells, a short list)."""

    kind: Literal["expect_texts"] = "expect_texts"
    subject: Subject
    texts: list[str]


class ExpectCount(_Statement):
    """How many elements a locator matches."""

    kind: Literal["expect_count"] = "expect_count"
    subject: Subject
    count: int
    # An absence check (nothing added, a row gone) passes at once, before the app had its turn: the page draws two
    # frames first, so an app that renders on its next tick is checked after it did.
    after_frames: bool = False


class ExpectChecked(_Statement):
    """A checkbox, radio or switch is checked (or not)."""

    kind: Literal["expect_checked"] = "expect_checked"
    subject: Subject
    checked: bool = True


class ExpectValue(_Statement):
    """A field's value."""

    kind: Literal["expect_value"] = "expect_value"
    subject: Subject
    value: str


class ExpectNoPageErrors(_Statement):
    """No uncaught error was thrown by the page during the test (the writers listen from the test's start)."""

    kind: Literal["expect_no_page_errors"] = "expect_no_page_errors"


class Unchecked(_Statement):
    """The test checks nothing: it ends skipped with `reason`, so a run never reports it as passed (a test that
    cannot fail on a broken app is not a test)."""

    kind: Literal["unchecked"] = "unchecked"
    reason: str


Statement = Annotated[
    Union[Note, Unchecked, RequireEnv, Goto, Reload, GoBack, Declare, ExpectState, ExpectNoAttribute, Act, ExpectUrl,
          ExpectText, ExpectTexts, ExpectCount, ExpectChecked, ExpectValue, ExpectNoPageErrors],
    Field(discriminator="kind"),
]
# What a step's outcome is checked with (ExpectState doubles as a wait before an action; these are never waits).
CHECKS = (ExpectUrl, ExpectText, ExpectTexts, ExpectCount, ExpectChecked, ExpectValue, ExpectNoPageErrors)


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
    defect: SuspectedDefect | None = Field(default=None, description=(
        "The case checks expected behaviour the app does not show today: a suspected defect is written as expected "
        "to fail (strictly, so the run turns red once the app is fixed); a confirmed one as a plain, failing test."))

    @property
    def source(self) -> str:
        """Where the steps come from, in words: a recorded session, or a written test case ("case:<id>")."""
        if self.session_id.startswith(CASE_PREFIX):
            return f"test case {self.session_id.removeprefix(CASE_PREFIX)}"
        return f"session {self.session_id}"

    def _has(self, kind: type) -> bool:
        return any(isinstance(s, kind) for step in self.steps for s in step.statements)

    @property
    def uses_regex(self) -> bool:
        return self._has(ExpectUrl)

    @property
    def unchecked(self) -> bool:
        return self._has(Unchecked)

    @property
    def watches_page_errors(self) -> bool:
        return self._has(ExpectNoPageErrors)


def locator_label(locator: LocatorSpec) -> str:
    """The words a reader knows the element by: its accessible name, label, text or test id."""
    for link in reversed(locator.steps):
        if link.kind == "role":
            return link.name or link.role or ""
        if link.kind in ("test_id", "label", "placeholder", "text", "css") and link.value:
            return link.value
    return ""


def expected_failure(defect: SuspectedDefect) -> str:
    """Why a suspected defect's test is expected to fail, as its xfail / test.fail() reason."""
    return (f"Suspected defect, fails today: {defect.summary.rstrip('.')}. Confirm or dismiss it in Preflight Studio; "
            "once the app is fixed this test passes and the strict mark turns the run red: remove the mark then.")


def known_defect(defect: SuspectedDefect) -> str:
    """The comment above a confirmed defect's test (which fails until the app is fixed)."""
    return (f"Known defect, confirmed by the tester: {defect.summary.rstrip('.')}. This test checks the expected "
            "behaviour, so it fails until the app is fixed.")
