"""The MCP tools of `studio mcp` (seed 001): navigation, snapshots with refs, structure exploration, actions with race
preflight and raw observation, in named browser contexts.

Every tool answers with one JSON text block (and the same object as structured content). Anything that goes wrong
is an answer too — {"error": {"type", "message"}} with isError set — never a traceback or a hang.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from playwright.async_api import Error as PlaywrightError
from pydantic import Field

from studio.browser.errors import first_line
from studio.mcp.contexts import ContextCollection, NamedContext
from studio.models.race import ActionOutcome, ElementInfo
from studio.race.errors import RaceError, context_closed

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
Preflight Studio drives a real Chromium for writing resilient Playwright tests. Facts, not interpretations.
- Work in named browser contexts: pass browserContext (any name, e.g. "default"). Each has its own cookies and \
page, and is opened by its first browser_navigate.
- browser_snapshot lists the page's meaningful elements, each with a ref like e42. Refs belong to the page they \
were read from: after a navigation or a re-render, take a new snapshot.
- get_ancestors / get_siblings / get_descendants show the structure around a ref, to scope locators by container \
(e.g. a product card with its heading text) instead of nth().
- browser_click / browser_type check the element before acting (race preflight). When something stands in the way \
they do not act and answer {"clicked": false, "observations": [...]}: raw facts such as another element covering \
the click point, a running animation, a detached element, a link that will navigate, a busy or disabled state. \
Interpret them and put the right wait into the test you write (e.g. covered by testId "loading-scrim" => expect \
the scrim to be hidden before clicking). Every fact's ref is the element acted on; an animation fact's \
animatedElement names the element running it (the target itself, or an ancestor such as a card fading in).
- To go ahead after reading the facts, call the same tool on the same ref again: the facts count as acknowledged, \
the action waits (up to 5 s) for transient conditions like overlays, animations and busy regions to clear, then \
acts. A link's navigation fact is reported once; the repeated click follows the link. A detached element never \
comes back: take a new snapshot and use the new ref.
- observe_element_state reports all facts without acting. disable_preflight_observation makes actions act at once.
- Errors come back as {"error": {"type": ..., "message": ...}}; the message says what to do next. A page that \
stops answering (a script stuck in a busy loop) gives type "timeout" and is closed: browser_navigate opens it again."""

Ref = Annotated[str, Field(description="Element reference from browser_snapshot, e.g. 'e42'")]
ContextName = Annotated[str, Field(description="Browser context name, e.g. 'default'; each name has its own cookies "
                                               "and page")]
# Above everything a tool may wait for on purpose (a 20 s navigation, 5 s for blockers to clear, the recorder's
# wait for requests): past it the page is stuck, and the agent gets a typed answer instead of a hang.
TOOL_TIMEOUT_S = 60.0
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=True)
ACTING = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=True)


def tool_result(payload: dict[str, Any] | list[Any], is_error: bool = False) -> CallToolResult:
    """One compact JSON text block; objects are also given as structured content."""
    text = json.dumps(payload, ensure_ascii=False)
    structured = payload if isinstance(payload, dict) else None
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured,
                          is_error=is_error)


def action_reply(outcome: ActionOutcome, flag: str) -> dict[str, Any]:
    """The seed's answer shape under the tool's own flag: {"typed": true, "ref", "timestamp"} for browser_type."""
    reply = outcome.to_seed_json()
    own = next(iter(reply))
    return {flag: reply[own], **{key: value for key, value in reply.items() if key != own}}


def elements(items: list[ElementInfo]) -> list[dict[str, Any]]:
    """Every item with the same keys, nulls included, as observations are: an agent can read a field blindly."""
    return [item.model_dump(mode="json") for item in items]


class BrowserTools:
    """The tool functions, bound to the contexts of one MCP connection."""

    def __init__(self, contexts: ContextCollection, tool_timeout_s: float = TOOL_TIMEOUT_S) -> None:
        self.contexts = contexts
        self.tool_timeout_s = tool_timeout_s

    def register(self, server: MCPServer) -> None:
        tools: list[tuple[Callable[..., Awaitable[CallToolResult]], ToolAnnotations]] = [
            (self.browser_navigate, ACTING), (self.browser_snapshot, READ_ONLY), (self.browser_click, ACTING),
            (self.browser_type, ACTING), (self.get_ancestors, READ_ONLY), (self.get_siblings, READ_ONLY),
            (self.get_descendants, READ_ONLY), (self.observe_element_state, READ_ONLY),
            (self.enable_preflight_observation, READ_ONLY), (self.disable_preflight_observation, READ_ONLY),
        ]
        for fn, annotations in tools:
            # One paragraph: the docstring's line breaks are only for this file's line length.
            description = " ".join(inspect.cleandoc(fn.__doc__ or "").split())
            server.add_tool(fn, name=fn.__name__, description=description, annotations=annotations,
                            structured_output=False)

    # -- tools -----------------------------------------------------------------------------------

    async def browser_navigate(self, url: Annotated[str, Field(description="http(s) URL to open")],
                               browserContext: ContextName) -> CallToolResult:
        """Open a URL in a browser context (created on first use; re-opened if its page was closed). Waits for the
        load event. Returns {ok, url, title, status}: url is where the page ended up after redirects. Old refs of
        this context become stale: take a snapshot next."""

        async def body() -> dict:
            checked = self.contexts.checked_url(url)
            entry = await self.contexts.for_navigation(browserContext)
            return await entry.navigate(checked)

        return await self._run("browser_navigate", browserContext, body, needs_page=False)

    async def browser_snapshot(self, browserContext: ContextName) -> CallToolResult:
        """Snapshot of the current page: one line per meaningful element, indented by nesting, as
        `role "name" ref #testid [states]`. Returns {url, title, text, refCount}. Use the refs in the other tools;
        they stay valid until the page navigates or re-renders that element. A name cut short ends with "…" (a
        table row shows its first 60 characters): get_descendants on its ref gives the full text, cell by cell."""
        return await self._with_page("browser_snapshot", browserContext,
                                     lambda entry: _dump(entry.race.snapshot()))

    async def browser_click(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """Click an element by reference, with race preflight. Returns {"clicked": true, "ref", "timestamp"}, or
        {"clicked": false, "observations": [...]} with raw facts (coverage, animation, attachment, navigation,
        input/aria state) when something stands in the way — nothing was clicked then. Calling browser_click on the
        same ref again with the same facts acknowledges them: it waits up to 5 s for transient conditions to clear
        and clicks. A link reports its navigation once; the repeated click follows it."""
        return await self._with_page("browser_click", browserContext,
                                     lambda entry: _act(entry, "click", ref, "clicked"))

    async def browser_type(self, ref: Ref,
                           text: Annotated[str, Field(description="The text the field will contain afterwards")],
                           browserContext: ContextName) -> CallToolResult:
        """Type text into a field by reference, with race preflight. Fill semantics: the field's current content is
        replaced by `text` (an empty text clears it). Returns {"typed": true, "ref", "timestamp"}, or
        {"typed": false, "observations": [...]} with facts (detached, disabled, readonly, busy) — nothing was
        typed then; calling again on the same ref acknowledges them and waits for transient ones to clear."""
        return await self._with_page("browser_type", browserContext,
                                     lambda entry: _act(entry, "fill", ref, "typed", value=text))

    async def get_ancestors(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """The element's ancestors from its parent up to <body> (crossing shadow roots and frames), as a list of
        {ref, tag, role, name, testId, id, classes, childCount, depth} (null when absent). Use it to find a
        container (e.g. a product card with a testId) to scope a locator."""
        return await self._with_page("get_ancestors", browserContext,
                                     lambda entry: _list(entry.race.ancestors(ref)))

    async def get_siblings(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """The other children of the element's parent, as a list of {ref, tag, role, name, testId, id, classes,
        childCount, depth} (null when absent). Use it on a container to see how many look-alikes there are."""
        return await self._with_page("get_siblings", browserContext,
                                     lambda entry: _list(entry.race.siblings(ref)))

    async def get_descendants(self, ref: Ref, browserContext: ContextName,
                              maxDepth: Annotated[int, Field(description="Levels below the element (default 3)")] = 3,
                              ) -> CallToolResult:
        """Elements inside the element, up to maxDepth levels down (at most 200), as a list of {ref, tag, role,
        name, testId, id, classes, childCount, depth} (null when absent)."""

        async def descendants(entry: NamedContext) -> list[dict[str, Any]]:
            if maxDepth < 1:
                raise RaceError("bad_input", f"maxDepth must be 1 or more (levels below {ref}); it was {maxDepth}.")
            return elements(await entry.race.descendants(ref, max_depth=maxDepth))

        return await self._with_page("get_descendants", browserContext, descendants)

    async def observe_element_state(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """Observe element state without performing an action — returns an array of raw DOM facts (attachment,
        coverage at the click point, animations, link navigation, viewport, input state, ARIA state, pointer
        events). Changes nothing on the page."""

        async def observe(entry: NamedContext) -> list:
            return [item.model_dump(mode="json") for item in await entry.race.observe(ref)]

        return await self._with_page("observe_element_state", browserContext, observe)

    async def enable_preflight_observation(self, browserContext: ContextName) -> CallToolResult:
        """Enable automatic element state observation before actions in this context (the default). Returns
        {ok, browserContext, preflight: true}."""
        return await self._run("enable_preflight_observation", browserContext,
                               lambda: _preflight(self.contexts, browserContext, True), needs_page=False)

    async def disable_preflight_observation(self, browserContext: ContextName) -> CallToolResult:
        """Disable pre-flight observation in this context: actions execute immediately, even on a covered or
        moving element (as a naive script would). Returns {ok, browserContext, preflight: false}."""
        return await self._run("disable_preflight_observation", browserContext,
                               lambda: _preflight(self.contexts, browserContext, False), needs_page=False)

    # -- the guard around every tool -------------------------------------------------------------

    async def _with_page(self, tool: str, name: str, work: Callable[[NamedContext], Awaitable[Any]]) -> CallToolResult:
        return await self._run(tool, name, lambda: work(self.contexts.get(name)))

    async def _run(self, tool: str, name: str, body: Callable[[], Awaitable[Any]],
                   needs_page: bool = True) -> CallToolResult:
        """Run a tool body under its context's lock, turning every failure into a typed error answer."""
        try:
            async with self.contexts.lock(name):
                try:
                    return tool_result(await asyncio.wait_for(body(), self.tool_timeout_s))
                except TimeoutError:
                    return await self._stuck(tool, name, self.tool_timeout_s)
                except RaceError as error:
                    if error.kind != "timeout":
                        raise
                    return await self._stuck(tool, name, self.contexts.page_timeout_s)
        except RaceError as error:
            return tool_result(error.to_json(), is_error=True)
        except PlaywrightError as error:
            if needs_page and _closed(error):
                return tool_result(context_closed(name).to_json(), is_error=True)
            return _internal(tool, error)
        except Exception as error:  # a bug of ours: the agent gets a sentence, the log gets the traceback
            return _internal(tool, error)

    async def _stuck(self, tool: str, name: str, seconds: float) -> CallToolResult:
        """A page that stopped answering answers nothing later either: close it, so a navigation starts afresh."""
        closed = await self.contexts.close_stuck_page(name)
        then = (f"That page was closed; call browser_navigate with browserContext {name!r} to open a fresh one."
                if closed else "Call browser_navigate to open the page again.")
        message = (f"{tool} gave up after {seconds:g} s: the page did not answer (a script on it may be stuck in a "
                   f"busy loop). {then}")
        return tool_result({"error": {"type": "timeout", "message": message}}, is_error=True)


async def _dump(snapshot_call: Awaitable[Any]) -> dict:
    return (await snapshot_call).model_dump(mode="json")


async def _list(call: Awaitable[list[ElementInfo]]) -> list[dict[str, Any]]:
    return elements(await call)


async def _act(entry: NamedContext, action: Any, ref: str, flag: str, value: str | None = None) -> dict:
    return action_reply(await entry.act(action, ref, value=value), flag)


async def _preflight(contexts: ContextCollection, name: str, enabled: bool) -> dict:
    state = contexts.set_preflight(name, enabled)
    return {"ok": True, "browserContext": name, "preflight": state}


def _closed(error: PlaywrightError) -> bool:
    text = str(error)
    return "has been closed" in text or "Target closed" in text


def _internal(tool: str, error: BaseException) -> CallToolResult:
    log.error("%s failed unexpectedly", tool, exc_info=error)
    message = (f"{tool} failed unexpectedly: {first_line(error)}. The server log (stderr) has the details; "
               "try again, or re-open the page with browser_navigate.")
    return tool_result({"error": {"type": "internal", "message": message}}, is_error=True)
