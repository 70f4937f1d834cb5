"""The agent toolbelt: the tools every agent acts through (the MCP server adapts them; the pilot, game and scenario
agents call them), their named browser contexts, and the one way to type a tester's answer into the app.

    contexts = BrowserContexts(runtime.fleet, pin=OriginPolicy([app_url]))     # or LiveContexts(LivePage(session))
    belt = Toolbelt(contexts)
    reply = await belt.navigate(url, "default")      # a ToolReply, or a ToolError with a next step
    reply = await belt.type("e12", "Buy milk\n", "default")   # fills, then presses Enter
"""

from studio.toolbelt.answers import AnswerRefused, type_answer
from studio.toolbelt.contexts import BrowserContexts, NamedContext
from studio.toolbelt.live_contexts import LiveContexts
from studio.toolbelt.recording import ProjectRecording
from studio.toolbelt.replies import (
    ActionReply,
    ElementsReply,
    KeyReply,
    NavigateReply,
    ObservationsReply,
    PreflightReply,
    SnapshotReply,
    ToolError,
    ToolReply,
    WaitReply,
)
from studio.toolbelt.tools import SNAPSHOT_MAX_CHARS, TOOL_TIMEOUT_S, Toolbelt

__all__ = [
    "SNAPSHOT_MAX_CHARS", "TOOL_TIMEOUT_S", "ActionReply", "AnswerRefused", "BrowserContexts", "ElementsReply",
    "KeyReply", "LiveContexts", "NamedContext", "NavigateReply", "ObservationsReply", "PreflightReply", "ProjectRecording",
    "SnapshotReply", "ToolError", "ToolReply", "Toolbelt", "WaitReply", "type_answer",
]
