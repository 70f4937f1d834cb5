"""Reading a model's reply: a JSON answer checked against a pydantic model, or a call to one of the listed tools.

Each reader returns either the validated value or a problem sentence; the problem goes back to the model in a
repair prompt (seed 004: "strict schema validation, auto-repair common errors, retry with clarification prompt").
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from studio.llm.tools import ToolChoice, ToolSpec

T = TypeVar("T", bound=BaseModel)

# Models often wrap JSON in a Markdown fence despite being told not to; unwrapping it is a free repair.
_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n(.*?)\n?```\s*$", re.DOTALL)
MAX_ERRORS_SHOWN = 6

REPAIR_JSON = ("Your previous answer could not be used: {problem}. Answer again with only one JSON object that "
               "matches the schema in the system message.")
REPAIR_TOOL = "Error: {problem}. Call exactly one of these tools with valid arguments: {names}."


def describe_validation_error(error: ValidationError) -> str:
    """A short English account of what was wrong (field paths and messages), for the repair prompt and the log."""
    problems = []
    for item in error.errors(include_url=False, include_input=False)[:MAX_ERRORS_SHOWN]:
        if item["type"] == "json_invalid":
            return f"it was not valid JSON ({item['msg']})"
        where = ".".join(str(part) for part in item["loc"])
        problems.append(f"{where}: {item['msg']}" if where else item["msg"])
    more = error.error_count() - len(problems)
    if more > 0:
        problems.append(f"and {more} more")
    return "; ".join(problems)


def parse_structured(content: str | None, schema: type[T]) -> tuple[T | None, str]:
    """(value, "") when `content` is a JSON object valid for `schema`, else (None, the problem)."""
    if not content or not content.strip():
        return None, "it was empty"
    fenced = _FENCE.match(content)
    text = fenced.group(1) if fenced else content
    try:
        return schema.model_validate_json(text), ""
    except ValidationError as error:
        return None, describe_validation_error(error)


def parse_tool_call(message: Any, tools: list[ToolSpec]) -> tuple[ToolChoice | None, str]:
    """(choice, "") when the reply's first tool call names a listed tool with valid arguments, else (None, problem)."""
    calls = list(getattr(message, "tool_calls", None) or [])
    if not calls:
        return None, "you answered with text instead of calling a tool"
    call = calls[0]
    function = getattr(call, "function", None)
    if function is None:
        return None, "that was not a function call"
    name = str(function.name or "")
    spec = next((tool for tool in tools if tool.name == name), None)
    if spec is None:
        return None, f"there is no tool named {name[:64]!r}"
    try:
        args = spec.args.model_validate_json(function.arguments or "{}")
    except ValidationError as error:
        return None, f"the arguments for {name} are invalid: {describe_validation_error(error)}"
    return ToolChoice(name=name, args=args, call_id=call.id), ""


def tool_repair_messages(message: Any, problem: str, tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """The assistant's turn as sent, then the error as the answer to each of its tool calls (the API wants one each)."""
    names = ", ".join(tool.name for tool in tools)
    repair = REPAIR_TOOL.format(problem=problem, names=names)
    calls = [call for call in (getattr(message, "tool_calls", None) or []) if getattr(call, "function", None)]
    if not calls:
        return [{"role": "assistant", "content": message.content or ""}, {"role": "user", "content": repair}]
    turn: dict[str, Any] = {"role": "assistant", "content": message.content,
                            "tool_calls": [{"id": call.id, "type": "function",
                                            "function": {"name": call.function.name,
                                                         "arguments": call.function.arguments or "{}"}}
                                           for call in calls]}
    return [turn, *({"role": "tool", "tool_call_id": call.id, "content": repair} for call in calls)]
