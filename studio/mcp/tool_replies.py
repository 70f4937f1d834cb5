"""How the goal scenarios' MCP tools answer: the JSON as text and as structured content, or an error object
{"error": {"type", "message"}} with isError set."""

from __future__ import annotations

import json
from typing import Any

from mcp.types import CallToolResult, TextContent, ToolAnnotations

READ = ToolAnnotations(read_only_hint=True, open_world_hint=True)
ACT = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=True)


def reply(value: dict[str, Any], error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(value, ensure_ascii=False))],
                          structured_content=value, is_error=error)


def failure(kind: str, message: str) -> CallToolResult:
    return reply({"error": {"type": kind, "message": message}}, error=True)
