"""Typed errors for calls the SDK refuses before our tools run: arguments that do not fit a tool's input schema,
or a tool name that does not exist. Without this, those answers would be pydantic's text, not {"error": ...}.
"""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer


class TypedSchemaErrors:
    """Server middleware: rewrites the SDK's plain-text tool errors into {"error": {"type": "bad_input", ...}}."""

    def __init__(self, server: MCPServer) -> None:
        self.server = server
        self._validators: dict[str, Draft202012Validator] | None = None

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
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

    async def _sentence(self, tool: str, arguments: Any, sdk_text: str) -> str:
        if self._validators is None:
            self._validators = {item.name: Draft202012Validator(item.input_schema)
                                for item in await self.server.list_tools()}
        validator = self._validators.get(tool)
        if validator is None:
            return f"There is no tool {tool!r}. The tools are: {', '.join(sorted(self._validators))}."
        problems = sorted(f"{'.'.join(map(str, error.path)) + ': ' if error.path else ''}{error.message}"
                          for error in validator.iter_errors(arguments))
        if not problems:  # the SDK refused for a reason the schema does not show; pass its first line on
            problems = [sdk_text.splitlines()[0] if sdk_text else "the arguments were refused"]
        return f"{tool} was called with arguments that do not fit its input schema: {'; '.join(problems)}."


def _is_typed_error(text: str) -> bool:
    try:
        payload = json.loads(text)
    except ValueError:
        return False
    return isinstance(payload, dict) and isinstance(payload.get("error"), dict)
