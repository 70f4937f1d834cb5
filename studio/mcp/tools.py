"""The MCP tools of `studio mcp` (seed 001): a thin adapter over the agent toolbelt (studio.toolbelt). Each tool
keeps its MCP name, parameters and description here and answers the toolbelt's reply as one JSON text block (and
the same object as structured content); a ToolError becomes {"error": {"type", "message"}} with isError set.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from studio.mcp.input_tools import InputTools
from studio.mcp.wire import ContextName, Ref, tool_result
from studio.toolbelt import BrowserContexts, Toolbelt

__all__ = ["INSTRUCTIONS", "BrowserTools", "tool_result"]

INSTRUCTIONS = """\
Preflight Studio drives a real Chromium for writing resilient Playwright tests. Facts, not interpretations.
- Work in named browser contexts: pass browserContext (any name, e.g. "default"). Each has its own cookies and \
page, and is opened by its first browser_navigate.
- browser_snapshot lists the page's meaningful elements, each with a ref like e42. Refs belong to the page they \
were read from: after a navigation or a re-render, take a new snapshot.
- get_ancestors / get_siblings / get_descendants show the structure around a ref, to scope locators by container \
(e.g. a product card with its heading text) instead of nth().
- browser_click, browser_dblclick, browser_hover, browser_type, browser_press_key (with a ref), \
browser_select_option, browser_check, browser_uncheck and browser_drag check the element before acting (race \
preflight). When something stands in the way they do not act and answer e.g. {"clicked": false, "observations": \
[...]}: raw facts such as another element covering \
the click point, a running animation, a detached element, a link that will navigate, a busy or disabled state. \
Interpret them and put the right wait into the test you write (e.g. covered by testId "loading-scrim" => expect \
the scrim to be hidden before clicking). Every fact's ref is the element acted on; an animation fact's \
animatedElement names the element running it (the target itself, or an ancestor such as a card fading in).
- To go ahead after reading the facts, call the same tool on the same ref again: the facts count as acknowledged, \
the action waits (up to 5 s) for transient conditions like overlays, animations and busy regions to clear, then \
acts. A link's navigation fact is reported once; the repeated click follows the link. When the page replaces the \
element (hydration, a re-render: the fact is attachment, isConnected false), the retry looks for its replacement \
by the old element's locator or by the containers your last snapshot showed it in, acts on it, and says so: \
reResolved {"from", "to", "locator"}, with ref the new element's. Without a container to tell it from look-alikes \
it is not guessed: take a new snapshot and use the new ref.
- browser_type with a trailing "\\n" (or submit: true) presses Enter after typing. browser_press_key without a ref \
presses on whatever has the focus (arrow keys in a game). browser_wait_for waits for a text, an element's state or \
the URL; browser_go_back is the Back button.
- A snapshot of a very large page comes in parts: the answer says truncated, with nextOffset; call browser_snapshot \
again with that offset, or get_descendants on a container's ref. A page too large to take at once (its \
elementCount is given) is read a part at a time, and stays open.
- observe_element_state reports all facts without acting. disable_preflight_observation makes actions act at once.
- Errors come back as {"error": {"type": ..., "message": ...}}; the message says what to do next. A page that \
stops answering (a script stuck in a busy loop) gives type "timeout" and is closed: browser_navigate opens it again. \
A call that runs out of time on a page that still answers also gives "timeout", and the page stays open."""

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=True)
ACTING = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=True)


class BrowserTools(InputTools):
    """The MCP face of one Toolbelt: every tool with its MCP signature (the acting ones in studio.mcp.input_tools)."""

    def __init__(self, contexts: BrowserContexts, belt: Toolbelt | None = None) -> None:
        self.contexts = contexts
        self.belt = belt or Toolbelt(contexts)

    def register(self, server: MCPServer) -> None:
        tools: list[tuple[Callable[..., Awaitable[CallToolResult]], ToolAnnotations]] = [
            (self.browser_navigate, ACTING), (self.browser_go_back, ACTING), (self.browser_snapshot, READ_ONLY),
            (self.browser_click, ACTING), (self.browser_dblclick, ACTING), (self.browser_hover, ACTING),
            (self.browser_type, ACTING), (self.browser_press_key, ACTING), (self.browser_select_option, ACTING),
            (self.browser_check, ACTING), (self.browser_uncheck, ACTING), (self.browser_drag, ACTING),
            (self.browser_wait_for, READ_ONLY), (self.get_ancestors, READ_ONLY), (self.get_siblings, READ_ONLY),
            (self.get_descendants, READ_ONLY), (self.observe_element_state, READ_ONLY),
            (self.enable_preflight_observation, READ_ONLY), (self.disable_preflight_observation, READ_ONLY),
        ]
        for fn, hints in tools:
            # One paragraph: the docstring's line breaks are only for this file's line length.
            description = " ".join(inspect.cleandoc(fn.__doc__ or "").split())
            server.add_tool(fn, name=fn.__name__, description=description, annotations=hints,
                            structured_output=False)

    async def browser_navigate(self, url: Annotated[str, Field(description="http(s) URL to open")],
                               browserContext: ContextName) -> CallToolResult:
        """Open a URL in a browser context (created on first use; re-opened if its page was closed). Waits for the
        load event. Returns {ok, url, title, status}: url is where the page ended up after redirects. Old refs of
        this context become stale: take a snapshot next."""
        return tool_result(await self.belt.navigate(url, browserContext))

    async def browser_go_back(self, browserContext: ContextName) -> CallToolResult:
        """Go back to the previous page in this context's history (as the browser's Back button; a hash route such
        as #/active goes back without a reload). Returns {ok, url, title, status}; status is null for a move within
        the page. Refs of a page that was left become stale: take a snapshot next."""
        return tool_result(await self.belt.go_back(browserContext))

    async def browser_snapshot(self, browserContext: ContextName,
                               offset: Annotated[int, Field(description="First line to return, for the next part of "
                                                                        "a large snapshot (default 0)")] = 0,
                               ) -> CallToolResult:
        """Snapshot of the current page: one line per meaningful element, indented by nesting, as
        `role "name" ref #testid [states]`. Returns {url, title, text, refCount}. Use the refs in the other tools;
        they stay valid until the page navigates or re-renders that element. A name cut short ends with "…" (a
        table row shows its first 60 characters): get_descendants on its ref gives the full text, cell by cell. A
        very large page comes in parts: then truncated is true, and nextOffset and note say how to get the rest; a
        page too large to take at once also gives its elementCount, and totalLines only with its last part."""
        return tool_result(await self.belt.snapshot(browserContext, offset))

    async def get_ancestors(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """The element's ancestors from its parent up to <body> (crossing shadow roots and frames), as a list of
        {ref, tag, role, name, testId, id, classes, childCount, depth} (null when absent). Use it to find a
        container (e.g. a product card with a testId) to scope a locator."""
        return tool_result(await self.belt.ancestors(ref, browserContext))

    async def get_siblings(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """The other children of the element's parent, as a list of {ref, tag, role, name, testId, id, classes,
        childCount, depth} (null when absent). Use it on a container to see how many look-alikes there are."""
        return tool_result(await self.belt.siblings(ref, browserContext))

    async def get_descendants(self, ref: Ref, browserContext: ContextName,
                              maxDepth: Annotated[int, Field(description="Levels below the element (default 3)")] = 3,
                              ) -> CallToolResult:
        """Elements inside the element, up to maxDepth levels down (at most 200), as a list of {ref, tag, role,
        name, testId, id, classes, childCount, depth} (null when absent)."""
        return tool_result(await self.belt.descendants(ref, browserContext, maxDepth))

    async def observe_element_state(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """Observe element state without performing an action — returns an array of raw DOM facts (attachment,
        coverage at the click point, animations, link navigation, viewport, input state, ARIA state, pointer
        events). Changes nothing on the page."""
        return tool_result(await self.belt.observe(ref, browserContext))

    async def enable_preflight_observation(self, browserContext: ContextName) -> CallToolResult:
        """Enable automatic element state observation before actions in this context (the default). Returns
        {ok, browserContext, preflight: true}."""
        return tool_result(await self.belt.set_preflight(browserContext, True))

    async def disable_preflight_observation(self, browserContext: ContextName) -> CallToolResult:
        """Disable pre-flight observation in this context: actions execute immediately, even on a covered or
        moving element (as a naive script would). Returns {ok, browserContext, preflight: false}."""
        return tool_result(await self.belt.set_preflight(browserContext, False))
