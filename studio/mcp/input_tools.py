"""The MCP input tools of `studio mcp`: click, double-click, hover, type, key presses, select, check/uncheck, drag and
waits — each a thin adapter over the toolbelt's tool of the same purpose, with its MCP name, parameters and
description."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.types import CallToolResult
from pydantic import Field

from studio.mcp.wire import ContextName, Ref, tool_result
from studio.toolbelt import Toolbelt


class InputTools:
    """The acting tools; `belt` is the Toolbelt of the connection."""

    belt: Toolbelt

    async def browser_click(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """Click an element by reference, with race preflight. Returns {"clicked": true, "ref", "timestamp"}, or
        {"clicked": false, "observations": [...]} with raw facts (coverage, animation, attachment, navigation,
        input/aria state) when something stands in the way — nothing was clicked then. Calling browser_click on the
        same ref again with the same facts acknowledges them: it waits up to 5 s for transient conditions to clear
        and clicks. If the page replaced the element (a re-render, hydration: the fact is attachment with
        isConnected false), that retry finds the new element by the old one's locator, or by the containers the
        last snapshot showed it in, and clicks it: the answer then has reResolved {"from", "to", "locator"} and ref
        is the new element's. A link reports its navigation once; the repeated click follows it."""
        return tool_result(await self.belt.click(ref, browserContext))

    async def browser_dblclick(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """Double-click an element by reference (e.g. a label that opens an inline editor), with race preflight.
        Returns {"doubleClicked": true, "ref", "timestamp"}, or {"doubleClicked": false, "observations": [...]} with
        the facts that stand in the way (as browser_click)."""
        return tool_result(await self.belt.dblclick(ref, browserContext))

    async def browser_hover(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """Move the mouse over an element by reference (menus, tooltips and buttons shown on hover appear; take a
        snapshot next to see them), with race preflight. Returns {"hovered": true, "ref", "timestamp"}, or
        {"hovered": false, "observations": [...]} (as browser_click)."""
        return tool_result(await self.belt.hover(ref, browserContext))

    async def browser_type(self, ref: Ref,
                           text: Annotated[str, Field(description="The text the field will contain afterwards; a "
                                                                  "trailing newline presses Enter after typing")],
                           browserContext: ContextName,
                           submit: Annotated[bool, Field(description="Press Enter after typing (as a trailing "
                                                                     "newline in text does)")] = False,
                           ) -> CallToolResult:
        """Type text into a field by reference, with race preflight. Fill semantics: the field's current content is
        replaced by `text` (an empty text clears it). A trailing "\\n" in text, or submit: true, then presses Enter
        in the field (to add a to-do, send a search, save an inline edit). Returns {"typed": true, "ref",
        "timestamp"} (plus "submitted": true when Enter was pressed), or {"typed": false, "observations": [...]}
        with facts (detached, disabled, readonly, busy) — nothing was typed then; calling again on the same ref
        acknowledges them and waits for transient ones to clear. "typed": true with "submitted": false and
        observations means the text is in but Enter was not pressed: browser_press_key Enter on the ref does it."""
        return tool_result(await self.belt.type(ref, text, browserContext, submit=submit))

    async def browser_press_key(self, key: Annotated[str, Field(description=(
                                    "Key name as in Playwright, with modifiers joined by '+': 'Enter', 'Escape', "
                                    "'Tab', 'ArrowLeft', 'Control+A', 'Shift+Tab', 'a'"))],
                                browserContext: ContextName,
                                ref: Annotated[str | None, Field(description=(
                                    "Element to press it in (focused first), from browser_snapshot; omit to press "
                                    "on whatever has the focus, or the page itself (e.g. arrow keys in a game)"))]
                                = None,
                                ) -> CallToolResult:
        """Press a key, with modifiers. With ref: race preflight on that element, which is focused first; returns
        {"pressed": true, "ref", "timestamp"} or {"pressed": false, "observations": [...]} (as browser_click). Without
        ref: the key goes to the focused element or the page; returns {"pressed": true, "key", "timestamp"}. A key
        that types a character counts as typing: refused outside the app's origins and into password fields (use
        browser_type there)."""
        return tool_result(await self.belt.press_key(key, browserContext, ref=ref))

    async def browser_select_option(self, ref: Ref,
                                    value: Annotated[str, Field(description="The option to choose: its value or its "
                                                                            "visible text")],
                                    browserContext: ContextName) -> CallToolResult:
        """Choose an option of a <select> by reference, with race preflight. Returns {"selected": true, "ref",
        "timestamp"}, or {"selected": false, "observations": [...]}; an option that does not exist is an error that
        lists the options."""
        return tool_result(await self.belt.select_option(ref, value, browserContext))

    async def browser_check(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """Check a checkbox or radio by reference, with race preflight; nothing happens if it is checked already.
        Returns {"checked": true, "ref", "timestamp"}, or {"checked": false, "observations": [...]}; an error says
        when the click did not change its state."""
        return tool_result(await self.belt.check(ref, browserContext))

    async def browser_uncheck(self, ref: Ref, browserContext: ContextName) -> CallToolResult:
        """Uncheck a checkbox by reference, with race preflight; nothing happens if it is unchecked already.
        Returns {"unchecked": true, "ref", "timestamp"}, or {"unchecked": false, "observations": [...]}."""
        return tool_result(await self.belt.uncheck(ref, browserContext))

    async def browser_drag(self, startRef: Annotated[str, Field(description="Element to drag, from browser_snapshot")],
                           endRef: Annotated[str, Field(description="Element to drop it on, from browser_snapshot")],
                           browserContext: ContextName) -> CallToolResult:
        """Drag one element onto another with the mouse, with race preflight on both (each fact's ref names the
        element it is about). Returns {"dragged": true, "ref", "timestamp"}, or {"dragged": false, "observations":
        [...]}. Calling it again with the same refs and facts acknowledges them: it waits up to 5 s for transient
        conditions to clear, then drags."""
        return tool_result(await self.belt.drag(startRef, endRef, browserContext))

    async def browser_wait_for(
        self,
        browserContext: ContextName,
        text: Annotated[str | None, Field(description="Wait until this text is visible (case-insensitive)")] = None,
        textGone: Annotated[str | None, Field(description="Wait until no visible element shows this text")] = None,
        ref: Annotated[str | None, Field(description="Wait until this element is visible or hidden (see state)")]
        = None,
        state: Annotated[Literal["visible", "hidden"], Field(description="For ref: the state to wait for")]
        = "visible",
        url: Annotated[str | None, Field(description=(
            "Wait until the URL matches: a glob ('**/dashboard'), a whole URL, or a part of it ('#/active')"))] = None,
        timeout: Annotated[int, Field(description="Milliseconds to wait at most (default 5000, at most 30000)")]
        = 5000,
    ) -> CallToolResult:
        """Wait for one thing — give exactly one of text, textGone, ref (with state) or url — as a Playwright test
        waits before its next step. Returns {"ok": true, "condition", "elapsedMs", "url"}, or {"ok": false, ...,
        "message"} when it did not happen in time (an answer, not an error). A removed element counts as hidden."""
        return tool_result(await self.belt.wait_for(browserContext, text=text, text_gone=textGone, ref=ref,
                                                    state=state, url=url, timeout_ms=timeout))
