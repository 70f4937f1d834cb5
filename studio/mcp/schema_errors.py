"""Typed errors for calls the SDK would refuse (or quietly mishandle) before our tools run: arguments a tool does not
take, arguments that do not fit its input schema, or a tool name that does not exist. Without this, the SDK drops an
unknown argument silently (its argument models ignore extra keys) and answers the rest with pydantic's text, not
{"error": ...}.
"""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel

from studio.mcp.tool_replies import failure
from studio.scenarios.data_tools import unknown_arguments


class TypedSchemaErrors:
    """Server middleware: refuses a tools/call with an argument the tool does not take (a sentence naming it and the
    ones it takes), publishes every input schema as closed (additionalProperties: false), and rewrites the SDK's
    plain-text tool errors into {"error": {"type": "bad_input", ...}}."""

    def __init__(self, server: MCPServer) -> None:
        self.server = server
        self._schemas: dict[str, dict[str, Any]] | None = None

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "tools/call":
            params = ctx.params or {}
            refusal = await self._unknown(str(params.get("name", "")), params.get("arguments") or {})
            if refusal is not None:
                return failure("bad_input", refusal)
        result = await call_next(ctx)
        if ctx.method == "tools/list":
            return _closed(result)
        if ctx.method != "tools/call" or not isinstance(result, dict) or not result.get("isError"):
            return result
        content = result.get("content") or [{}]
        text = content[0].get("text", "") if isinstance(content[0], dict) else ""
        if _is_typed_error(text):
            return result  # one of ours already
        params = ctx.params or {}
        sentence = await self._sentence(str(params.get("name", "")), params.get("arguments") or {}, text)
        payload = {"error": {"type": "bad_input", "message": sentence}}
        return {**result, "content": [{"type": "text", "text": json.dumps(payload)}], "structuredContent": payload}

    async def schemas(self) -> dict[str, dict[str, Any]]:
        """Every tool's input schema, by tool name."""
        if self._schemas is None:
            self._schemas = {item.name: item.input_schema for item in await self.server.list_tools()}
        return self._schemas

    async def _unknown(self, tool: str, arguments: Any) -> str | None:
        schema = (await self.schemas()).get(tool)
        if schema is None or not isinstance(arguments, dict):
            return None  # no such tool, or no object: the SDK refuses it, and the sentence comes after
        return unknown_arguments(tool, arguments, schema.get("properties", {}))

    async def _sentence(self, tool: str, arguments: Any, sdk_text: str) -> str:
        schemas = await self.schemas()
        if tool not in schemas:
            return f"There is no tool {tool!r}. The tools are: {', '.join(sorted(schemas))}."
        validator = Draft202012Validator(schemas[tool])
        problems = sorted(f"{'.'.join(map(str, error.path)) + ': ' if error.path else ''}{error.message}"
                          for error in validator.iter_errors(arguments))
        if not problems:  # the SDK refused for a reason the schema does not show; pass its first line on
            problems = [sdk_text.splitlines()[0] if sdk_text else "the arguments were refused"]
        return f"{tool} was called with arguments that do not fit its input schema: {'; '.join(problems)}."


def _closed(result: HandlerResult) -> HandlerResult:
    """A tools/list answer whose input schemas say that no other arguments are taken."""
    if isinstance(result, BaseModel):
        for tool in getattr(result, "tools", []):
            tool.input_schema = {**tool.input_schema, "additionalProperties": False}
    elif isinstance(result, dict):
        for tool in result.get("tools", []):
            if isinstance(tool, dict) and isinstance(tool.get("inputSchema"), dict):
                tool["inputSchema"] = {**tool["inputSchema"], "additionalProperties": False}
    return result


def _is_typed_error(text: str) -> bool:
    try:
        payload = json.loads(text)
    except ValueError:
        return False
    return isinstance(payload, dict) and isinstance(payload.get("error"), dict)
