"""ToolGuard: what runs around every tool of the toolbelt — the context's lock, a per-call timeout that closes a page
which stopped answering, the pinned origins for typing, and typed errors with a next step instead of tracebacks."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError

from studio.browser.errors import first_line
from studio.race.errors import RaceError, context_closed
from studio.race.typing_rules import check_pinned
from studio.toolbelt.contexts import BrowserContexts, NamedContext
from studio.toolbelt.replies import ToolError, ToolReply

log = logging.getLogger(__name__)

# Above everything a tool may wait for on purpose (a 20 s navigation, 5 s for blockers to clear, a 30 s
# browser_wait_for, the recorder's wait for requests): past it the page is stuck, and the agent gets a typed answer
# instead of a hang.
TOOL_TIMEOUT_S = 60.0
# One answer stays readable for a model (~15k tokens); a larger snapshot is given in parts.
SNAPSHOT_MAX_CHARS = 60_000

Reply = ToolReply  # a successful reply or a ToolError (itself a ToolReply)


class ToolGuard:
    """The guard every tool runs in, bound to the browser contexts of one agent connection."""

    def __init__(self, contexts: BrowserContexts, tool_timeout_s: float = TOOL_TIMEOUT_S,
                 snapshot_max_chars: int = SNAPSHOT_MAX_CHARS) -> None:
        self.contexts = contexts
        self.tool_timeout_s = tool_timeout_s
        self.snapshot_max_chars = snapshot_max_chars

    def _check_pin(self, entry: NamedContext, tool: str, url: str | None = None) -> None:
        """Typing is refused on pages (or frames: `url`) outside the pinned origins: answers never leave the app
        they belong to (the driver's typing rules, said in the tool's name)."""
        check_pinned(self.contexts.pin, url or entry.driver.page.url, tool)

    async def _with_page(self, tool: str, name: str,
                         work: Callable[[NamedContext], Awaitable[ToolReply]]) -> Reply:
        async def body() -> ToolReply:
            entry = self.contexts.get(name)
            await entry.driver.settle()  # the last action's step is recorded before anything reads the page
            return await work(entry)

        return await self._run(tool, name, body)

    async def _run(self, tool: str, name: str, body: Callable[[], Awaitable[ToolReply]],
                   needs_page: bool = True) -> Reply:
        """Run a tool body under its context's lock, turning every failure into a typed error."""
        try:
            async with self.contexts.lock(name):
                try:
                    return await asyncio.wait_for(body(), self.tool_timeout_s)
                except TimeoutError:
                    return await self._stuck(tool, name, self.tool_timeout_s)
                except RaceError as error:
                    if error.kind != "timeout":
                        raise
                    return await self._stuck(tool, name, self.contexts.page_timeout_s)
        except RaceError as error:
            return ToolError.of(error.kind, error.message)
        except PlaywrightError as error:
            if needs_page and _closed(error):
                error_info = context_closed(name)
                return ToolError.of(error_info.kind, error_info.message)
            return _internal(tool, error)
        except Exception as error:  # a bug of ours: the agent gets a sentence, the log gets the traceback
            return _internal(tool, error)

    async def _stuck(self, tool: str, name: str, seconds: float) -> ToolError:
        """A page that stopped answering answers nothing later either: close it, so a navigation starts afresh. One
        that still answers a one-line question is large or slow, not stuck: it stays open."""
        elements = await self.contexts.still_answers(name)
        if elements is not None:
            return ToolError.of("timeout", f"{tool} gave up after {seconds:g} s on a page that still answers (it has "
                                           f"{elements:,} elements), so the page stays open: try again, or work on "
                                           "a smaller part of it (get_descendants on a container's ref).")
        closed = await self.contexts.close_stuck_page(name)
        then = (f"That page was closed; call browser_navigate with browserContext {name!r} to open a fresh one."
                if closed else "Call browser_navigate to open the page again.")
        return ToolError.of("timeout", f"{tool} gave up after {seconds:g} s: the page did not answer (a script on it "
                                       f"may be stuck in a busy loop). {then}")


def _closed(error: PlaywrightError) -> bool:
    text = str(error)
    return "has been closed" in text or "Target closed" in text


def _internal(tool: str, error: BaseException) -> ToolError:
    log.error("%s failed unexpectedly", tool, exc_info=error)
    return ToolError.of("internal", f"{tool} failed unexpectedly: {first_line(error)}. The server log (stderr) has "
                                    "the details; try again, or re-open the page with browser_navigate.")
