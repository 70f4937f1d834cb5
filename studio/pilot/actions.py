"""What an AI writes into action.json: one action, or a batch of them (seed 003's Action and action batching).

The seed's ten action types plus `press` (a keyboard key on an element or on the focused one). A file that is not
valid JSON or does not fit the schema raises ActionFileError with a sentence naming the field, so the AI can fix it.
"""

from __future__ import annotations

import difflib
import json
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

ActionType = Literal["navigate", "click", "type", "select", "upload", "wait", "screenshot", "scroll", "hover",
                     "verify", "press"]
ACTION_TYPES: tuple[str, ...] = get_args(ActionType)
ExpectationType = Literal["visible", "hidden", "text", "url", "title", "count"]
EXPECTATION_TYPES: tuple[str, ...] = get_args(ExpectationType)

# What each action type cannot do without.
NEEDS_SELECTOR = {"click", "type", "select", "upload", "hover"}
NEEDS_VALUE = {"type", "select", "upload", "press"}


def _text(value: Any) -> Any:
    """Numbers become text: a model writes {"value": 14320} as often as {"value": "14320"}."""
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


class Expectation(BaseModel):
    """One check of a verify action: an element visible/hidden, a text in it (or in the page), the URL or title
    containing a value, or how many elements match. A text is compared as a person reads it — the rendered text
    (innerText, so CSS text-transform applies), whitespace collapsed — and in any letter case unless `caseSensitive`."""

    model_config = ConfigDict(extra="forbid")

    type: ExpectationType
    selector: str | None = None
    value: str | None = None
    caseSensitive: bool = Field(default=False, description=(
        "For a 'text' expectation: the letter case must match too ('STEP 1 OF 3' then does not match 'Step 1 of "
        "3'). By default it need not: a heading upper-cased by CSS reads the same to a person."))

    _coerce = field_validator("value", mode="before")(classmethod(lambda cls, v: _text(v)))

    @model_validator(mode="after")
    def _complete(self) -> Expectation:
        if self.type in ("visible", "hidden", "count") and not self.selector:
            raise ValueError(f"a '{self.type}' expectation needs a selector")
        if self.type in ("text", "url", "title", "count") and self.value is None:
            raise ValueError(f"a '{self.type}' expectation needs a value")
        if self.type == "count" and not str(self.value).isdigit():
            raise ValueError(f"a 'count' expectation's value is a whole number, not {self.value!r}")
        if self.caseSensitive and self.type != "text":
            raise ValueError(f"caseSensitive is for 'text' expectations; a '{self.type}' expectation has no letter "
                             "case to choose: leave it out")
        return self


class PilotAction(BaseModel):
    """One action (seed 003's Action): what to do, on which element, with which value; `duration` in milliseconds."""

    model_config = ConfigDict(extra="forbid")

    action: ActionType
    selector: str | None = None
    value: str | None = None
    url: str | None = None
    duration: float | None = Field(default=None, ge=0, le=120_000)
    description: str | None = None
    expect: list[Expectation] | None = None

    _coerce = field_validator("value", "url", "selector", mode="before")(classmethod(lambda cls, v: _text(v)))

    @model_validator(mode="after")
    def _complete(self) -> PilotAction:
        kind = self.action
        if kind in NEEDS_SELECTOR and not self.selector:
            raise ValueError(f"a '{kind}' action needs a selector")
        if kind in NEEDS_VALUE and self.value is None:
            what = {"type": "the text to enter", "select": "the option to choose",
                    "upload": "the file path, or paths separated by commas", "press": "the key, e.g. 'Enter'"}[kind]
            raise ValueError(f"a '{kind}' action needs a value ({what})")
        if kind == "navigate" and not (self.url or self.value):
            raise ValueError("a 'navigate' action needs a url")
        if kind == "wait" and self.duration is None and not self.selector:
            raise ValueError("a 'wait' action needs a duration (milliseconds) or a selector to wait for")
        if kind == "verify" and not self.expect:
            raise ValueError("a 'verify' action needs a non-empty expect list")
        return self

    def given(self) -> dict[str, Any]:
        """The action as the AI gave it (without the fields it left out, nor an expectation's caseSensitive: false)."""
        return self.model_dump(mode="json", exclude_none=True, exclude_defaults=True)


class ActionBatch(BaseModel):
    """The content of action.json: the actions to run in order, why, whether to stop at the first failure, and
    whether the AI considers the goal reached once they ran (`done`). As the seed's batches, every action runs even
    after one failed; `"stopOnError": true` stops the batch at its first failure."""

    model_config = ConfigDict(extra="forbid")

    reasoning: str | None = None
    actions: list[PilotAction] = Field(default_factory=list)
    stopOnError: bool = Field(default=False, description=(
        "Stop at the first action that fails (the actions after it do not run). Default false: every action runs, "
        "as in the seed's batches."))
    done: bool = False

    @model_validator(mode="after")
    def _something(self) -> ActionBatch:
        if not self.actions and not self.done:
            raise ValueError("the batch has no actions (give at least one, or \"done\": true to end the session)")
        return self


class ActionFileError(ValueError):
    """action.json cannot be used; the message is a sentence naming the field (or the line and column)."""


def parse_action_file(text: str) -> ActionBatch:
    """The batch in an action file's text (a batch object, a single action object, or a list of actions)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ActionFileError(f"action.json is not valid JSON: {error.msg} at line {error.lineno}, column "
                              f"{error.colno}.") from None
    except RecursionError:
        raise ActionFileError("action.json is nested too deeply to read: an action batch is "
                              "{\"actions\": [{\"action\": \"click\", ...}]}, two levels deep.") from None
    except ValueError as error:  # Python's own limits, e.g. a number of more than 4300 digits
        raise ActionFileError(f"action.json cannot be read: {error}.") from None
    single = isinstance(data, dict) and "actions" not in data and "action" in data
    if isinstance(data, list):
        data = {"actions": data}
    elif single:
        data = {"actions": [data]}
    elif not isinstance(data, dict):
        raise ActionFileError("action.json must hold an object: {\"actions\": [...]} or one action "
                              "{\"action\": \"click\", ...}.")
    try:
        return ActionBatch.model_validate(data)
    except ValidationError as error:
        problems = [_problem(item, single) for item in error.errors()]
        message = "; ".join(dict.fromkeys(problems))
        raise ActionFileError(message if message.endswith(("?", ".")) else message + ".") from None


def _where(loc: tuple[int | str, ...], single: bool) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    if single and text.startswith("actions[0]"):
        text = text.removeprefix("actions[0]").lstrip(".") or "action"
    return text or "action.json"


def _suggest(given: object, choices: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(str(given), choices, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else f" (one of: {', '.join(choices)})"


def _problem(item: Any, single: bool) -> str:
    loc, kind, given = tuple(item["loc"]), item["type"], item.get("input")
    where = _where(loc, single)
    field = loc[-1] if loc else ""
    if kind == "literal_error" and field == "action":
        return f"{where}: {given!r} is not an action type" + _suggest(given, ACTION_TYPES)
    if kind == "literal_error" and field == "type":
        return f"{where}: {given!r} is not an expectation type" + _suggest(given, EXPECTATION_TYPES)
    if kind == "extra_forbidden":
        owners: dict[str, type[BaseModel]] = {"expect": Expectation, "actions": PilotAction}
        owner = owners.get(next((str(p) for p in reversed(loc[:-1]) if isinstance(p, str)), ""), ActionBatch)
        if single and owner is ActionBatch:
            owner = PilotAction
        return f"{where}: is not a field" + _suggest(field, list(owner.model_fields))
    if kind == "missing":
        return f"{where}: is required"
    if kind == "value_error":
        return f"{where}: {item['msg'].removeprefix('Value error, ')}"
    return f"{where}: {item['msg']}"
