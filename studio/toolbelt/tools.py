"""The agent toolbelt (seed 001's tools): navigation, snapshots with refs, structure exploration, actions with race
preflight and raw observation, in named browser contexts — each answering a pydantic reply or a ToolError.

Every agent calls these: the MCP server is a thin adapter over them, and the pilot, game and scenario agents use
them directly. The guard around every call holds the context's lock, gives up after a per-call timeout (closing a
page that stopped answering), and turns every failure into a typed error with a next step.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError

from studio.browser.errors import describe_navigation_failure, first_line
from studio.browser.origins import OriginPolicy
from studio.browser.urls import normalize_url
from studio.models.race import ActionName, ElementInfo, PageSnapshot
from studio.race.errors import RaceError, context_closed
from studio.toolbelt.contexts import BrowserContexts, NamedContext
from studio.toolbelt.replies import (
    ActionReply,
    ElementsReply,
    NavigateReply,
    ObservationsReply,
    PreflightReply,
    SnapshotReply,
    ToolError,
    ToolReply,
)

log = logging.getLogger(__name__)

# Above everything a tool may wait for on purpose (a 20 s navigation, 5 s for blockers to clear, the recorder's
# wait for requests): past it the page is stuck, and the agent gets a typed answer instead of a hang.
TOOL_TIMEOUT_S = 60.0
# One answer stays readable for a model (~15k tokens); a larger snapshot is given in parts.
SNAPSHOT_MAX_CHARS = 60_000

Reply = ToolReply  # a successful reply or a ToolError (itself a ToolReply)


class Toolbelt:
    """The tool functions, bound to the browser contexts of one agent connection."""

    def __init__(self, contexts: BrowserContexts, tool_timeout_s: float = TOOL_TIMEOUT_S,
                 snapshot_max_chars: int = SNAPSHOT_MAX_CHARS) -> None:
        self.contexts = contexts
        self.tool_timeout_s = tool_timeout_s
        self.snapshot_max_chars = snapshot_max_chars

    # -- the tools -------------------------------------------------------------------------------

    async def navigate(self, url: str, context: str) -> Reply:
        async def body() -> NavigateReply:
            try:
                target = normalize_url(url, allow_files=self.contexts.allow_file_urls)
            except ValueError as error:
                raise RaceError("bad_input", f"{error}.") from error
            entry = await self.contexts.for_navigation(context)
            try:
                status = await entry.driver.navigate(target)
            except PlaywrightError as error:
                if not entry.alive:
                    raise context_closed(entry.name) from error
                raise RaceError("navigation_failed", str(describe_navigation_failure(target, error))) from error
            try:
                title = await entry.driver.page.title()
            except PlaywrightError:
                title = ""  # the page moved on again (a client-side redirect); the next snapshot shows where
            return NavigateReply(url=entry.driver.page.url, title=title, status=status,
                                 recordedSession=entry.session_id)

        return await self._run("browser_navigate", context, body, needs_page=False)

    async def snapshot(self, context: str, offset: int = 0) -> Reply:
        async def body(entry: NamedContext) -> SnapshotReply:
            if offset < 0:
                raise RaceError("bad_input", f"offset is a line number of the snapshot, 0 or more; it was {offset}.")
            return self._part(await entry.driver.race.snapshot(), offset)

        return await self._with_page("browser_snapshot", context, body)

    async def click(self, ref: str, context: str) -> Reply:
        return await self._with_page("browser_click", context, lambda entry: self._act(entry, "click", ref, "clicked"))

    async def type(self, ref: str, text: str, context: str) -> Reply:
        async def body(entry: NamedContext) -> ActionReply:
            self._check_pin(entry, "browser_type")
            return await self._act(entry, "fill", ref, "typed", value=text)

        return await self._with_page("browser_type", context, body)

    async def ancestors(self, ref: str, context: str) -> Reply:
        return await self._with_page("get_ancestors", context,
                                     lambda entry: _elements(entry.driver.race.ancestors(ref)))

    async def siblings(self, ref: str, context: str) -> Reply:
        return await self._with_page("get_siblings", context,
                                     lambda entry: _elements(entry.driver.race.siblings(ref)))

    async def descendants(self, ref: str, context: str, max_depth: int = 3) -> Reply:
        async def body(entry: NamedContext) -> ElementsReply:
            if max_depth < 1:
                raise RaceError("bad_input", f"maxDepth must be 1 or more (levels below {ref}); it was {max_depth}.")
            return ElementsReply(elements=await entry.driver.race.descendants(ref, max_depth=max_depth))

        return await self._with_page("get_descendants", context, body)

    async def observe(self, ref: str, context: str) -> Reply:
        async def body(entry: NamedContext) -> ObservationsReply:
            return ObservationsReply(observations=await entry.driver.observe(ref))

        return await self._with_page("observe_element_state", context, body)

    async def set_preflight(self, context: str, enabled: bool) -> Reply:
        tool = "enable_preflight_observation" if enabled else "disable_preflight_observation"

        async def body() -> PreflightReply:
            return PreflightReply(browserContext=context, preflight=self.contexts.set_preflight(context, enabled))

        return await self._run(tool, context, body, needs_page=False)

    # -- parts of the tools ----------------------------------------------------------------------

    async def _act(self, entry: NamedContext, action: ActionName, ref: str, flag: str,
                   value: str | None = None) -> ActionReply:
        return ActionReply(outcome=await entry.driver.act(action, ref, value=value), flag=flag)

    def _part(self, snapshot: PageSnapshot, offset: int) -> SnapshotReply:
        """The whole snapshot, or the lines from `offset` that fit in one answer, with how to get the rest."""
        lines = snapshot.text.splitlines()
        if offset == 0 and len(snapshot.text) <= self.snapshot_max_chars:
            return SnapshotReply(**snapshot.model_dump())
        shown: list[str] = []
        size = 0
        for line in lines[offset:]:
            if shown and size + len(line) + 1 > self.snapshot_max_chars:
                break
            shown.append(line)
            size += len(line) + 1
        end = offset + len(shown)
        more = end < len(lines)
        note = (f"The snapshot has {len(lines)} lines ({len(snapshot.text):,} characters); this answer shows lines "
                f"{offset}–{max(offset, end - 1)}. "
                + (f"Call browser_snapshot with offset={end} for the next part, or get_descendants on a container's "
                   "ref to read one part of the page." if more else "This is the last part."))
        return SnapshotReply(url=snapshot.url, title=snapshot.title, text="\n".join(shown), refCount=snapshot.refCount,
                             truncated=more, offset=offset, nextOffset=end if more else None, totalLines=len(lines),
                             note=note)

    def _check_pin(self, entry: NamedContext, tool: str) -> None:
        """Typing is refused on pages outside the pinned origins: answers never leave the app they belong to."""
        pin = self.contexts.pin
        url = entry.driver.page.url
        if pin is None or pin.allows(url):
            return
        allowed = ", ".join(sorted(pin.allowed_origins))
        raise RaceError("origin_refused", f"{tool} refused: the page is on {OriginPolicy.origin_of(url) or url}, "
                                          f"not on the app's origin ({allowed}). Text is only typed into the app's "
                                          "own pages; navigate back to the app first.")

    # -- the guard around every tool -------------------------------------------------------------

    async def _with_page(self, tool: str, name: str,
                         work: Callable[[NamedContext], Awaitable[ToolReply]]) -> Reply:
        return await self._run(tool, name, lambda: work(self.contexts.get(name)))

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
        """A page that stopped answering answers nothing later either: close it, so a navigation starts afresh."""
        closed = await self.contexts.close_stuck_page(name)
        then = (f"That page was closed; call browser_navigate with browserContext {name!r} to open a fresh one."
                if closed else "Call browser_navigate to open the page again.")
        return ToolError.of("timeout", f"{tool} gave up after {seconds:g} s: the page did not answer (a script on it "
                                       f"may be stuck in a busy loop). {then}")


async def _elements(call: Awaitable[list[ElementInfo]]) -> ElementsReply:
    return ElementsReply(elements=await call)


def _closed(error: PlaywrightError) -> bool:
    text = str(error)
    return "has been closed" in text or "Target closed" in text


def _internal(tool: str, error: BaseException) -> ToolError:
    log.error("%s failed unexpectedly", tool, exc_info=error)
    return ToolError.of("internal", f"{tool} failed unexpectedly: {first_line(error)}. The server log (stderr) has "
                                    "the details; try again, or re-open the page with browser_navigate.")
