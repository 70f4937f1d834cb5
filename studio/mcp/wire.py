"""How the MCP tools answer on the wire, and the parameters they share: a toolbelt reply becomes one compact JSON
text block (objects also as structured content); a ToolError becomes {"error": {"type", "message"}} with isError."""

from __future__ import annotations

import json
from typing import Annotated

from mcp.types import CallToolResult, TextContent
from pydantic import Field

from studio.toolbelt import ToolError, ToolReply

Ref = Annotated[str, Field(description="Element reference from browser_snapshot, e.g. 'e42'")]
ContextName = Annotated[str, Field(description="Browser context name, e.g. 'default'; each name has its own cookies "
                                               "and page")]


def tool_result(reply: ToolReply) -> CallToolResult:
    """One compact JSON text block; objects are also given as structured content."""
    payload = reply.to_json()
    text = json.dumps(payload, ensure_ascii=False)
    structured = payload if isinstance(payload, dict) else None
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured,
                          is_error=isinstance(reply, ToolError))
