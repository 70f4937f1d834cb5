"""Goal scenarios (seed 004): the YAML "Enhanced Schema" as models — a goal an agent reaches in the browser, with the
preconditions that set up its data (MCP-Data calls whose results are stored for `${name.field}` references), the
success and failure conditions checked after every step, its constraints, progressive hints, what to capture and
collect, postconditions that always run, and metadata.

The field names are the seed's contract; unknown keys are refused (validation.py says which key was meant).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from studio.scenarios.expressions import ExpressionError, parse_expression

SCHEMA_VERSION = "0.1"

# The seed's MCP endpoints: MCP-Web's, then MCP-Data's.
WEB_ENDPOINTS = ("ui.navigate", "ui.observe", "ui.query", "ui.inspect_tree", "ui.act.click", "ui.act.type",
                 "ui.act.check", "ui.wait", "ui.capture.screenshot", "session.save", "session.load")
DATA_ENDPOINTS = ("data.user.create", "data.user.login", "data.user.get", "data.reset", "data.flags.set",
                  "data.clock.freeze", "auth.impersonate")
ENDPOINTS = WEB_ENDPOINTS + DATA_ENDPOINTS
Endpoint = Literal["ui.navigate", "ui.observe", "ui.query", "ui.inspect_tree", "ui.act.click", "ui.act.type",
                   "ui.act.check", "ui.wait", "ui.capture.screenshot", "session.save", "session.load",
                   "data.user.create", "data.user.login", "data.user.get", "data.reset", "data.flags.set",
                   "data.clock.freeze", "auth.impersonate"]
Capture = Literal["screenshot_on_step", "screenshot_on_success", "screenshot_on_failure", "dom_snapshot_on_success",
                  "trace_always", "trace_on_failure"]
Signal = Literal["click_entropy", "backtrack_count", "path_optimality", "time_to_first_action", "hint_usage_count",
                 "token_efficiency"]
SCENARIO_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Viewport(_Strict):
    width: int = Field(default=1280, ge=200, le=7680)
    height: int = Field(default=720, ge=200, le=4320)


class ScenarioContext(_Strict):
    """Where the goal starts: the platform (web), the start URL (a path is resolved against --base-url or the demo),
    the viewport, and whether a saved signed-in session may be reused.

    The start URL is a path on the app under test, or an http(s) URL of it on this machine (the seed's
    `http://localhost:5173/login` is a dev server's address: its path is opened on --base-url). An address on
    another host is opened as it is only when `origins` (the studio's addition) names its origin; anything else —
    file:, javascript:, data:, a browser page — is refused when the file is read, with its line."""

    platform: Literal["web"] = "web"
    # Before start_url, whose check reads it.
    origins: list[str] = Field(default_factory=list, description=(
        "origins (scheme://host[:port]) besides the app's that start_url may be on, e.g. a sign-in service"))
    start_url: str = Field(min_length=1)
    viewport: Viewport = Field(default_factory=Viewport)
    session_reuse: bool = False

    @field_validator("origins")
    @classmethod
    def _web_origins(cls, origins: list[str]) -> list[str]:
        for given in origins:
            if _origin(given) is None:
                raise ValueError(f"{given!r} is not an http(s) origin such as https://sso.example.com")
        return [_origin(given) or given for given in origins]

    @field_validator("start_url")
    @classmethod
    def _start_on_the_app(cls, start_url: str, info: ValidationInfo) -> str:
        given = start_url.strip()
        scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", given)
        if given.startswith("//") or (scheme and scheme.group(1).lower() not in ("http", "https")):
            what = "a scheme-relative address" if given.startswith("//") else f"a {scheme.group(1).lower()}: URL" \
                if scheme else "it"
            raise ValueError(f"it must be a path on the app under test (e.g. /login) or an http(s) URL of "
                             f"it; {what} cannot be a scenario's start page")
        if scheme is None:
            return start_url  # a path, resolved against the app under test
        origin = _origin(given)
        if origin is None:
            raise ValueError(f"{given!r} is not a well-formed http(s) URL")
        if not _on_this_machine(origin) and origin not in info.data.get("origins", []):
            raise ValueError(f"it is on {origin}, another origin than the app under test; name it in "
                             f"context.origins to start there, or give a path (e.g. {_path_of(given)})")
        return start_url


def _origin(url: str) -> str | None:
    """scheme://host[:port] of an http(s) URL (default port left out), or None."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    default = {"http": 80, "https": 443}[parts.scheme.lower()]
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname.lower()
    return f"{parts.scheme.lower()}://{host}" + ("" if port in (None, default) else f":{port}")


def _on_this_machine(origin: str) -> bool:
    host = origin.split("://", 1)[1].rsplit(":", 1)[0] if "]" not in origin else origin.split("[", 1)[1].split("]")[0]
    return host in ("localhost", "::1") or host.startswith("127.")


def _path_of(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


class McpCall(_Strict):
    """A precondition or postcondition: one MCP call, its result stored under `store_as` for later references."""

    name: str = Field(min_length=1)
    mcp: Endpoint
    params: dict[str, Any] = Field(default_factory=dict)
    store_as: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    on_failure: Literal["fail", "ignore"] = "fail"


class ElementRef(_Strict):
    """An element by its test id, by its role and accessible name, or by its visible text."""

    testId: str | None = None  # noqa: N815 (the seed's field name)
    role: str | None = None
    name: str | None = None
    text: str | None = None

    @model_validator(mode="after")
    def _one_way(self) -> ElementRef:
        ways = [self.testId is not None, self.role is not None, self.text is not None]
        if sum(ways) != 1:
            raise ValueError("an element is found one way: by testId, by role (with name), or by text")
        if self.name is not None and self.role is None:
            raise ValueError("name goes with role (role: button, name: Continue)")
        return self


class Condition(_Strict):
    """One condition: exactly one of url_contains, heading_text or element_visible."""

    url_contains: str | None = None
    heading_text: str | None = None
    element_visible: ElementRef | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Condition:
        if sum(v is not None for v in (self.url_contains, self.heading_text, self.element_visible)) != 1:
            raise ValueError("a condition is exactly one of url_contains, heading_text or element_visible")
        return self

    def describe(self) -> str:
        if self.url_contains is not None:
            return f"the URL contains {self.url_contains!r}"
        if self.heading_text is not None:
            return f"a heading reads {self.heading_text!r}"
        ref = self.element_visible
        assert ref is not None
        if ref.testId is not None:
            return f"the element with test id {ref.testId!r} is visible"
        if ref.role is not None:
            return f"a {ref.role}" + (f" named {ref.name!r}" if ref.name else "") + " is visible"
        return f"the text {ref.text!r} is visible"


class Success(_Strict):
    mode: Literal["any", "all"] = "any"
    conditions: list[Condition] = Field(min_length=1)


class Failure(_Strict):
    conditions: list[Condition] = Field(default_factory=list)


class Goal(_Strict):
    description: str = Field(min_length=1)
    success: Success
    failure: Failure = Field(default_factory=Failure)


class Constraints(_Strict):
    max_steps: int = Field(default=40, gt=0, le=1000)
    max_runtime_s: float = Field(default=240, gt=0)
    max_cost_usd: float = Field(default=0.50, ge=0)


class HintTrigger(_Strict):
    """A hint given once, when its expression over the run's signals (stagnation, steps, ...) first holds."""

    when: str
    text: str = Field(min_length=1)

    @field_validator("when")
    @classmethod
    def _expression(cls, value: str) -> str:
        try:
            parse_expression(value)
        except ExpressionError as error:
            raise ValueError(str(error)) from None
        return value


class Hints(_Strict):
    mode: Literal["progressive"] = "progressive"
    triggers: list[HintTrigger] = Field(default_factory=list)


def _default_capture() -> list[Capture]:
    return ["screenshot_on_failure"]


def _default_signals() -> list[Signal]:
    return ["click_entropy", "backtrack_count", "path_optimality", "time_to_first_action", "hint_usage_count"]


class Observability(_Strict):
    capture: list[Capture] = Field(default_factory=_default_capture)
    log_level: Literal["debug", "info", "warning", "error"] = "info"


class Signals(_Strict):
    collect: list[Signal] = Field(default_factory=_default_signals)


class Metadata(_Strict):
    priority: Literal["P0", "P1", "P2", "P3"] = "P2"
    tags: list[str] = Field(default_factory=list)
    owner: str = ""


class Scenario(_Strict):
    """One goal scenario file."""

    version: Literal["0.1"] = "0.1"
    id: str = Field(pattern=SCENARIO_ID.pattern)
    name: str = Field(min_length=1)
    description: str = ""
    context: ScenarioContext
    preconditions: list[McpCall] = Field(default_factory=list)
    goal: Goal
    constraints: Constraints = Field(default_factory=Constraints)
    hints: Hints = Field(default_factory=Hints)
    observability: Observability = Field(default_factory=Observability)
    signals: Signals = Field(default_factory=Signals)
    postconditions: list[McpCall] = Field(default_factory=list)
    metadata: Metadata = Field(default_factory=Metadata)


def references(value: Any) -> list[tuple[str, str]]:
    """The `${name.field}` references in a value (nested lists and mappings too): (name, ".field.path")."""
    if isinstance(value, str):
        return [(m.group(1), m.group(2)) for m in REFERENCE.finditer(value)]
    if isinstance(value, dict):
        return [ref for item in value.values() for ref in references(item)]
    if isinstance(value, list):
        return [ref for item in value for ref in references(item)]
    return []


def lookup(variables: dict[str, Any], name: str, path: str) -> Any:
    """The value `${name.path}` refers to, or None. A stored `{"user": {...}}` (what data.user.get returns) is
    looked into as well, so `${testUser.email}` works whichever data call stored the user."""
    value: Any = variables.get(name)
    for part in [p for p in path.split(".") if p]:
        if isinstance(value, dict) and part not in value and isinstance(value.get("user"), dict):
            value = value["user"]
        value = value.get(part) if isinstance(value, dict) else None
    return value
