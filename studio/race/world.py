"""The studio's in-page library in an isolated world of a page's main frame.

Page scripts cannot see or alter it. A new document (navigation, reload) destroys the world; it is
re-created on the next call, and refs keep counting up, so a ref from an old document can never name
an element of the new one: the engine knows it is stale.
"""

from __future__ import annotations

import asyncio
import json
import re
from functools import lru_cache
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from studio.race.errors import (
    RaceError,
    context_closed,
    navigated_during,
    page_unresponsive,
    removed_ref,
    stale_ref,
    unknown_ref,
)
from studio.resources import resource_path

WORLD_NAME = "preflight-studio"
# A check takes milliseconds; a page whose main thread is stuck (a busy loop) never answers, so give up.
PAGE_TIMEOUT_S = 10.0
_CONTEXT_LOST = ("Cannot find context with specified id", "Execution context was destroyed",
                 "Cannot find default execution context", "Inspected target navigated or closed")
_CLOSED = ("Target page, context or browser has been closed", "Target closed", "Session closed",
           "has been closed", "Browser has been closed")
_REF = re.compile(r"^e(\d+)$")


# Page scripts' listeners that make an element clickable (a world cannot see them; CDP can).
CLICK_EVENTS = frozenset({"click", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart"})
# How many listening elements one snapshot hands to the library: resolving each costs a CDP round trip, and a page
# with more is one whose controls are buttons and links anyway (a listener on every row's button).
LISTENER_LIMIT = 200
LISTENER_DOCUMENT_LIMIT = 3000  # elements; a larger document is not walked for listeners
_OBJECTS = "preflight-studio-objects"
_LISTENING = "preflight-studio-listening"  # handles of listening elements, kept until the next snapshot
_DOCUMENT = "preflight-studio-document"  # the document's handle, gone with its world


@lru_cache(maxsize=1)
def library_source() -> str:
    """The library and its snapshot, installed together in one evaluation."""
    return "\n".join(resource_path("race", name).read_text(encoding="utf-8")
                     for name in ("page_library.js", "page_snapshot.js"))


class IsolatedWorld:
    """Calls `globalThis.__pfs.<function>(...)` in the page's isolated world, one CDP round trip per call."""

    def __init__(self, page: Page, first_ref: int = 1, timeout_s: float = PAGE_TIMEOUT_S) -> None:
        self.page = page
        self.timeout_s = timeout_s  # how long one call may wait for the page to answer
        self.documents = 0  # how many documents the world has been installed in
        self.generation = 0  # counts documents going away; a change means the page navigated meanwhile
        self._cdp: CDPSession | None = None
        self._context_id: int | None = None
        self._floor = first_ref  # the first ref number of the current document
        self._document: tuple[int, str] | None = None  # (world context id, the document's object id)
        self._next = first_ref  # the next ref number the library will issue

    @property
    def next_ref(self) -> int:
        """The number of the next ref; a page that replaces this one starts here, so old refs stay stale."""
        return self._next

    async def call(self, function: str, *args: Any, during: str = "checking the page") -> Any:
        """Run a library function; a lost document is re-installed once for calls that name no ref."""
        expression = f"globalThis.__pfs.{function}({', '.join(json.dumps(arg) for arg in args)})"
        names_a_ref = any(isinstance(arg, str) and _REF.match(arg) for arg in args)
        return await self.evaluate(expression, during, names_a_ref=names_a_ref)

    async def evaluate(self, expression: str, during: str = "checking the page", names_a_ref: bool = False) -> Any:
        """Run an expression in the world (another studio script, e.g. the recorder's outcome probe, brings its own
        source); the same retries and errors as `call`."""
        for attempt in (1, 2):
            context_id = await self._ensure()
            try:
                reply = await self._send(
                    "Runtime.evaluate",
                    {"expression": expression, "contextId": context_id, "returnByValue": True}, during,
                )
            except PlaywrightError as error:
                text = str(error)
                if any(marker in text for marker in _CLOSED) or self.page.is_closed():
                    raise context_closed() from error
                if any(marker in text for marker in _CONTEXT_LOST):
                    self._context_id = None
                    if names_a_ref or attempt == 2:
                        raise navigated_during(during) from error
                    continue
                raise RaceError("bad_input", f"The page could not run the check: {text.splitlines()[0]}") from error
            if "exceptionDetails" in reply:
                details = reply["exceptionDetails"]
                message = details.get("exception", {}).get("description") or details.get("text", "error")
                raise RaceError("bad_input", f"The in-page check failed: {message.splitlines()[0]}")
            value = reply.get("result", {}).get("value")
            if isinstance(value, dict) and isinstance(value.get("next"), int):
                self._next = max(self._next, value["next"])
            return value
        raise AssertionError("unreachable")

    async def mark_click_listeners(self, during: str = "finding clickable elements") -> bool:
        """Hand the library the elements that page scripts gave click listeners (DOMDebugger.getEventListeners), for
        the next snapshot to list as clickable; False when none listens (or the page moved on meanwhile)."""
        context_id = await self._ensure()
        try:
            # A document past a few thousand elements is not walked: the walk costs seconds there, and the
            # snapshot's pointer-cursor rule finds the clickables of such pages well enough.
            size = await self._send("Runtime.evaluate", {"expression": "document.getElementsByTagName('*').length",
                                                        "contextId": context_id, "returnByValue": True}, during)
            if int(size.get("result", {}).get("value") or 0) > LISTENER_DOCUMENT_LIMIT:
                return False
            if self._document is None or self._document[0] != context_id:
                # The page's own document (its main world: the page's listeners are registered there), read without
                # piercing into other worlds and frames (a piercing walk crashed renderers of pages mid-hydration).
                reply = await self._send("Runtime.evaluate", {"expression": "document", "objectGroup": _DOCUMENT},
                                         during)
                self._document = (context_id, reply["result"]["objectId"])
            # One call at a time: the last snapshot's handles are released before the document is walked again.
            await self._release(_LISTENING)
            found = await self._send("DOMDebugger.getEventListeners", {"objectId": self._document[1], "depth": -1,
                                                                       "pierce": False}, during)
            nodes = list(dict.fromkeys(
                item["backendNodeId"] for item in found.get("listeners", [])
                if item.get("type") in CLICK_EVENTS and item.get("backendNodeId")))[:LISTENER_LIMIT]
            if not nodes:
                return False
            resolved = await asyncio.gather(*(
                self._send("DOM.resolveNode", {"backendNodeId": node, "executionContextId": context_id,
                                               "objectGroup": _LISTENING}, during) for node in nodes),
                return_exceptions=True)
            handles = [{"objectId": item["object"]["objectId"]} for item in resolved
                       if isinstance(item, dict) and item.get("object", {}).get("objectId")]
            marked = await self._send("Runtime.callFunctionOn", {
                "functionDeclaration": "function (...nodes) { return globalThis.__pfs.markClickListeners("
                                       "nodes.filter((node) => node && node.nodeType === 1)); }",
                "executionContextId": context_id, "arguments": handles, "returnByValue": True}, during)
            return bool(marked.get("result", {}).get("value"))
        except PlaywrightError:
            return False

    async def content_quads(self, ref: str, during: str = "measuring the element") -> list[list[float]] | None:
        """The transformed boxes (DOM.getContentQuads, as Playwright clicks them) of what a click on `ref` aims at:
        the element, or the label of a control drawn by it. None when it has none or the page moved on."""
        context_id = await self._ensure()
        try:
            reply = await self._send("Runtime.evaluate", {
                "expression": f"globalThis.__pfs.clickTargetOf({json.dumps(ref)})", "contextId": context_id,
                "objectGroup": _OBJECTS}, during)
            object_id = reply.get("result", {}).get("objectId")
            if not object_id:
                return None
            quads = await self._send("DOM.getContentQuads", {"objectId": object_id}, during)
            return quads.get("quads") or None
        except PlaywrightError:
            return None
        finally:
            await self._release(_OBJECTS)

    async def _release(self, group: str) -> None:
        try:
            await self._send("Runtime.releaseObjectGroup", {"objectGroup": group}, "releasing page objects")
        except (PlaywrightError, RaceError):
            pass  # a closed page or a gone document has released them already

    def check_ref(self, ref: str) -> None:
        """Raise the right RaceError for a ref that cannot belong to the current document."""
        match = _REF.match(ref or "")
        if not match:
            raise RaceError("bad_input", f"{ref!r} is not a ref; refs look like 'e42' and come from a snapshot.")
        number = int(match.group(1))
        if number >= self._next:
            raise unknown_ref(ref)
        if number < self._floor:
            raise stale_ref(ref)

    async def prepare(self, ref: str) -> None:
        """Make sure `ref` can belong to the current document, re-installing the world if the page moved on."""
        self.check_ref(ref)
        await self._ensure()
        self.check_ref(ref)  # the document may have changed since the ref was issued

    async def with_ref(self, function: str, ref: str, *args: Any, during: str = "checking the page") -> Any:
        """Call a ref-taking library function and turn its status into a value or a RaceError."""
        await self.prepare(ref)
        result = await self.call(function, ref, *args, during=during)
        status = result.get("status") if isinstance(result, dict) else None
        if status == "unknown":
            raise unknown_ref(ref)
        if status == "gone":
            raise removed_ref(ref)
        return result

    async def _send(self, method: str, params: dict | None = None, during: str = "checking the page") -> Any:
        """One CDP command, bounded: a page stuck in a busy loop would otherwise never answer."""
        if self._cdp is None:
            raise RuntimeError(f"{method} sent before the CDP session was opened (_ensure opens it)")
        try:
            return await asyncio.wait_for(self._cdp.send(method, params), self.timeout_s)
        except TimeoutError as error:
            raise page_unresponsive(during, self.timeout_s) from error

    def _on_context_destroyed(self, params: dict) -> None:
        if params.get("executionContextId") == self._context_id:
            self._context_id = None
            self.generation += 1

    def _on_contexts_cleared(self, _params: dict) -> None:
        self._context_id = None
        self.generation += 1

    async def _ensure(self) -> int:
        if self._context_id is not None:
            return self._context_id
        if self.page.is_closed():
            raise context_closed()
        try:
            if self._cdp is None:
                self._cdp = await self.page.context.new_cdp_session(self.page)
                # Learn at once when our document goes away, so a ref of the old page is known to be stale
                # before it is ever sent to the new one.
                self._cdp.on("Runtime.executionContextDestroyed", self._on_context_destroyed)
                self._cdp.on("Runtime.executionContextsCleared", self._on_contexts_cleared)
                await self._send("Runtime.enable", during="connecting to the page")
            tree = await self._send("Page.getFrameTree", during="connecting to the page")
            frame_id = tree["frameTree"]["frame"]["id"]
            world = await self._send(
                "Page.createIsolatedWorld",
                {"frameId": frame_id, "worldName": WORLD_NAME, "grantUniveralAccess": True}, "connecting to the page",
            )
            context_id = world["executionContextId"]
            await self._send("Runtime.evaluate", {"expression": library_source(), "contextId": context_id},
                             "installing the checks in the page")
            await self._send(
                "Runtime.evaluate",
                {"expression": f"globalThis.__pfs.setStart({self._next})", "contextId": context_id, "returnByValue": True},
                "installing the checks in the page",
            )
        except PlaywrightError as error:
            if self.page.is_closed() or any(marker in str(error) for marker in _CLOSED):
                raise context_closed() from error
            raise RaceError("navigated", f"The page is changing documents; try again. ({str(error).splitlines()[0]})") from error
        self._context_id = context_id
        self._floor = self._next
        self.documents += 1
        return context_id
