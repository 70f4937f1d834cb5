"""The agent toolbelt (seed 001's tools): navigation, snapshots with refs, structure exploration, actions with race
preflight and raw observation, waits, in named browser contexts — each answering a pydantic reply or a ToolError.

Every agent calls these: the MCP server is a thin adapter over them, and the pilot, game and scenario agents use
them directly. The guard around every call (studio.toolbelt.guard) holds the context's lock, gives up after a
per-call timeout (closing a page that stopped answering), and turns every failure into a typed error with a next
step. The input tools are in studio.toolbelt.input_tools, browser_wait_for in studio.toolbelt.waits.
"""

from __future__ import annotations

from collections.abc import Awaitable

from playwright.async_api import Error as PlaywrightError

from studio.browser.errors import describe_navigation_failure
from studio.browser.urls import normalize_url
from studio.models.race import ElementInfo, PageSnapshot
from studio.race.errors import RaceError, context_closed
from studio.toolbelt.contexts import NamedContext
from studio.toolbelt.guard import SNAPSHOT_MAX_CHARS, TOOL_TIMEOUT_S, Reply
from studio.toolbelt.input_tools import InputTools
from studio.toolbelt.replies import (
    ElementsReply,
    NavigateReply,
    ObservationsReply,
    PreflightReply,
    SnapshotReply,
)
from studio.toolbelt.waits import WaitTools

__all__ = ["SNAPSHOT_MAX_CHARS", "TOOL_TIMEOUT_S", "Toolbelt"]


class Toolbelt(InputTools, WaitTools):
    """The tool functions, bound to the browser contexts of one agent connection."""

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
            return NavigateReply(url=entry.driver.page.url, title=await _title(entry), status=status,
                                 recordedSession=entry.session_id)

        return await self._run("browser_navigate", context, body, needs_page=False)

    async def go_back(self, context: str) -> Reply:
        async def body(entry: NamedContext) -> NavigateReply:
            before = entry.driver.page.url
            try:
                status = await entry.driver.go_back()
            except PlaywrightError as error:
                if not entry.alive:
                    raise context_closed(entry.name) from error
                raise RaceError("navigation_failed", f"Going back failed: {str(error).splitlines()[0]}") from error
            if status is None and entry.driver.page.url == before:
                raise RaceError("navigation_failed", f"There is no earlier page in browserContext {entry.name!r}'s "
                                                     "history to go back to.")
            return NavigateReply(url=entry.driver.page.url, title=await _title(entry), status=status,
                                 recordedSession=entry.session_id)

        return await self._with_page("browser_go_back", context, body)

    async def snapshot(self, context: str, offset: int = 0) -> Reply:
        async def body(entry: NamedContext) -> SnapshotReply:
            if offset < 0:
                raise RaceError("bad_input", f"offset is a line number of the snapshot, 0 or more; it was {offset}.")
            return self._part(await entry.driver.snapshot(offset, self.snapshot_max_chars), offset)

        return await self._with_page("browser_snapshot", context, body)

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

    def _part(self, snapshot: PageSnapshot, offset: int) -> SnapshotReply:
        """The whole snapshot, or the lines from `offset` that fit in one answer, with how to get the rest. Of a page
        too large to take at once (elementCount), `snapshot` is the piece holding line `offset`: its lines start at
        line `first`, and `more` says whether pieces follow (the snapshot's length is known only at its end)."""
        lines = snapshot.text.splitlines()
        whole = snapshot.elementCount is None
        if whole and offset == 0 and len(snapshot.text) <= self.snapshot_max_chars:
            return SnapshotReply(url=snapshot.url, title=snapshot.title, text=snapshot.text,
                                 refCount=snapshot.refCount)
        shown: list[str] = []
        size = 0
        for line in lines[offset - snapshot.first:]:
            if shown and size + len(line) + 1 > self.snapshot_max_chars:
                break
            shown.append(line)
            size += len(line) + 1
        end = offset + len(shown)
        known = snapshot.first + len(lines)  # the lines walked so far
        more = end < known or snapshot.more
        what = (f"The snapshot has {len(lines)} lines ({len(snapshot.text):,} characters)" if whole else
                f"The page is too large to take at once ({snapshot.elementCount:,} elements), so its snapshot comes "
                "in parts")
        note = (f"{what}; this answer shows lines {offset}–{max(offset, end - 1)}. "
                + (f"Call browser_snapshot with offset={end} for the next part, or get_descendants on a container's "
                   "ref to read one part of the page." if more else "This is the last part."))
        return SnapshotReply(url=snapshot.url, title=snapshot.title, text="\n".join(shown), refCount=snapshot.refCount,
                             truncated=more, offset=offset, nextOffset=end if more else None,
                             totalLines=None if snapshot.more else known, elementCount=snapshot.elementCount,
                             note=note)


async def _elements(call: Awaitable[list[ElementInfo]]) -> ElementsReply:
    return ElementsReply(elements=await call)


async def _title(entry: NamedContext) -> str:
    try:
        return await entry.driver.page.title()
    except PlaywrightError:
        return ""  # the page moved on again (a client-side redirect); the next snapshot shows where
