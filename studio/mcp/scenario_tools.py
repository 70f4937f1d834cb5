"""Seed 004's MCP-Web endpoints as MCP tools, by the seed's names and parameters: ui.navigate, ui.observe, ui.query,
ui.inspect_tree, ui.act.click / type / check, ui.wait, ui.capture.screenshot, session.save / session.load (the
MCP-Data half is studio.mcp.data_server_tools). One browser and one browser context at a time: the first ui.navigate
opens it, ui.navigate with fresh=true (a scenario's start) or session.load with a saved state replaces it with a new
one. Nodes are the UINodes of ui.observe, with the seed's six roles (link, button, textbox, checkbox, heading, region)
and the precise ARIA role as `ariaRole` when it differs (a radio is a checkbox, a select a textbox that ui.act.type
chooses an option of); an action names a nodeId.

Pages come from the runtime (`runtime.open_page`, on its browser or the configured browser server) and every action
goes through the one action layer as `studio run`'s steps do (PageDriver.do's sequence, with the race preflight): a
click that something stands in the way of is tried once more after what can clear has cleared, then — the seed's
recovery — done anyway with `force: true`, and the reply says `forced`. The reply names what stood in the way
(`facts`, the preflight's raw facts, and `reason`, a sentence made of them), whether it cleared or not.
`ui.act.click {force: false}` is the studio's stricter option: a click that stays blocked is refused with the facts."""

from __future__ import annotations

import asyncio
import base64
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, cast

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field, ValidationError

from studio.browser.contexts import ContextOptions
from studio.browser.errors import BrowserError
from studio.mcp.tool_replies import ACT, READ, failure, reply
from studio.models.race import ActionName
from studio.race.actions import INFORMATIONAL
from studio.race.driver import PageDriver, WaitUntil, blocked_sentence
from studio.race.errors import RaceError
from studio.runtime import EngineRuntime
from studio.scenarios.observe import Observation, UINode, holds, node_selector, observe, seed_node, seed_role
from studio.scenarios.spec import Condition

ACT_TIMEOUT_S = 5.0
SETTLE_S = 0.15  # quiet network this long after an action before it counts as done
WAITS = ("load", "domcontentloaded", "networkidle", "commit")
NodeId = Annotated[str, Field(description="A node id from ui.observe (its test id when it has one, else n1, n2, …)")]


class WebTools:
    """The tools of `studio mcp --web-tools`: the app at `app_url`, on pages of `runtime` (closed with it)."""

    def __init__(self, runtime: EngineRuntime, app_url: str, states: Path | None = None) -> None:
        self.runtime, self.app_url = runtime, app_url.rstrip("/") + "/"
        # Saved states and screenshots go to a private folder (never the current one, which may be a repository).
        self.states = states or Path(tempfile.mkdtemp(prefix="studio-scenario-states-"))
        self.page: PageDriver | None = None
        self.last: Observation | None = None

    def register(self, server: MCPServer) -> None:
        web: list[tuple[str, Callable[..., Awaitable[CallToolResult]], ToolAnnotations]] = [("ui.navigate", self.navigate, ACT), ("ui.observe", self.observe, READ), ("ui.query", self.query, READ),
               ("ui.inspect_tree", self.inspect_tree, READ), ("ui.act.click", self.click, ACT),
               ("ui.act.type", self.type, ACT), ("ui.act.check", self.check, ACT), ("ui.wait", self.wait, READ),
               ("ui.capture.screenshot", self.screenshot, READ), ("session.save", self.session_save, READ),
               ("session.load", self.session_load, ACT)]
        for name, fn, hints in web:
            server.add_tool(fn, name=name, description=" ".join((fn.__doc__ or "").split()), annotations=hints,
                            structured_output=False)

    @property
    def contexts(self) -> int:
        """The browser contexts open (one at most), for GET /health."""
        return 0 if self.page is None or self.page.closed else 1

    async def close(self) -> None:
        page, self.page = self.page, None
        if page is not None:
            await page.close()
        await self.runtime.aclose()

    # -- browser ---------------------------------------------------------------------------------------

    async def _page(self, state: Path | None = None, fresh: bool = False) -> PageDriver:
        """The one page (a fresh context with `state` when `fresh`, or when there is none or it closed)."""
        if fresh or self.page is None or self.page.closed:
            if self.page is not None:
                await self.page.close()
                self.page = None
            self.page = await self.runtime.open_page(ContextOptions(viewport=(1280, 720), storage_state=state))
        return self.page

    async def navigate(self, url: Annotated[str, Field(description="A URL or a path of the app")],
                       waitUntil: Annotated[str, Field(description="load | domcontentloaded | networkidle")] = "load",
                       fresh: Annotated[bool, Field(description="First replace the browser context with a new, "
                                                                "empty one (a scenario's start)")] = False,
                       ) -> CallToolResult:
        """Navigate to URL (a path is resolved against the app). Returns {ok, currentUrl}."""
        if waitUntil not in WAITS:
            return failure("input", f"waitUntil must be one of {', '.join(WAITS)}, not {waitUntil!r}.")
        target = url if "://" in url else self.app_url + url.lstrip("/")
        try:
            page = await self._page(fresh=fresh)
            await page.navigate(target, wait_until=cast(WaitUntil, waitUntil))
        except (RaceError, BrowserError) as error:
            return failure("navigation", f"{target} could not be opened: {error}")
        return reply({"ok": True, "currentUrl": page.url})

    async def observe(self, viewport: Annotated[bool | dict[str, int], Field(description=(
                          "Only nodes in the viewport: true for the page's (1280x720), or a {width, height} of the "
                          "top-left part to keep (default: all visible ones)"))] = False) -> CallToolResult:
        """The current UI state: the top 50 visible interactive elements as UINodes with test ids, then the page's
        headings (role "heading") and landmarks and named regions (role "region"), each node with parentId and
        children (ids of nodes). Returns {nodes[], url, title, headings}."""
        page = await self._page()
        self.last = observation = await observe(page)
        width, height = (1280, 720) if not isinstance(viewport, dict) else (viewport.get("width", 1280),
                                                                             viewport.get("height", 720))
        nodes = [n for n in observation.nodes if not viewport
                 or (0 <= n.bounds.get("y", 0) < height and n.bounds.get("x", 0) < width)]
        return reply({"nodes": [seed_node(n) for n in nodes], "url": observation.url,
                      "title": observation.title, "headings": observation.headings})

    async def query(self, role: Annotated[str | None, Field(description=(
                        "The seed's role (link, button, textbox, checkbox, heading, region) or a precise ARIA role "
                        "(radio, combobox, …: a node's ariaRole)"))] = None,
                    name: str | None = None, text: str | None = None,
                    selector: Annotated[str | None, Field(description="A CSS selector")] = None) -> CallToolResult:
        """Find elements among the observed nodes by role (the seed's or the precise ARIA one), name (substring) or
        text; or by CSS selector. Returns {nodes[]}."""
        page = await self._page()
        self.last = observation = await observe(page, limit=200)
        nodes = observation.nodes
        if selector:
            ids = await page.evaluate_on(selector, "(els) => els.map((e) => e.getAttribute('data-pfs-node'))"
                                                   ".filter(Boolean)", every=True)
            if ids is None:
                return failure("selector", f"{selector!r} is not a usable CSS selector.")
            nodes = [n for n in nodes if n.id in ids]
        if role:
            nodes = [n for n in nodes if role in (n.role, seed_role(n.role, n.href))]
        for wanted in (name, text):
            if wanted:
                nodes = [n for n in nodes if wanted.casefold() in n.name.casefold()]
        return reply({"nodes": [seed_node(n) for n in nodes]})

    async def inspect_tree(self, landmark: str | None = None,
                           maxDepth: Annotated[int, Field(ge=1, le=5)] = 2) -> CallToolResult:
        """The page's hierarchy: `nodes`, the UINodes nested by parentId/children (regions, headings and the
        interactive elements in them, maxDepth levels deep), and `landmarks` (header, nav, main, footer,
        complementary) with the nodes in each. Returns {tree}."""
        page = await self._page()
        observation = await observe(page, limit=200)
        tree: dict[str, list[dict[str, Any]]] = {}
        for node in observation.nodes:
            place = node.landmark or "page"
            if landmark and place != landmark:
                continue
            entry = _entry(node) if maxDepth > 1 else {"id": node.id}
            tree.setdefault(place, []).append(entry)
        by_id = {node.id: node for node in observation.nodes}

        def nested(node: UINode, depth: int) -> dict[str, Any]:
            entry = _entry(node)
            if node.children and depth < maxDepth:
                entry["children"] = [nested(by_id[child], depth + 1) for child in node.children if child in by_id]
            return entry

        roots = [node for node in observation.nodes if node.parentId is None
                 and (not landmark or node.landmark == landmark)]
        return reply({"tree": {"title": observation.title, "nodes": [nested(node, 1) for node in roots],
                               "landmarks": tree}})

    async def _act(self, node_id: str | None, selector: str | None, verb: str,
                   steps: list[tuple[ActionName, str | None, str | None]], force: bool = False) -> CallToolResult:
        """Do `steps` (action, value, key) on the node (or selector) through the action layer; the reply names the
        facts that stood in the way. A step still blocked after they had time to clear fails with them as a
        sentence — with `force`, it is done anyway (the seed's force: true) and the reply says `forced`."""
        if not node_id and not selector:
            return failure("input", f"{verb} needs nodeId (from ui.observe) or selector.")
        target = node_selector(node_id) if node_id else selector or ""
        forced, facts = False, []
        try:
            page = await self._page()
            if await page.count(target) == 0:
                return failure("stale", f"No element {'with nodeId ' + node_id if node_id else selector!r} is on "
                                        "the page now: call ui.observe and use a current nodeId.")
            with page.requests() as watch:
                for action, value, key in steps:
                    outcome = await page.do(action, target, value=value, key=key, force=force,
                                            timeout_ms=ACT_TIMEOUT_S * 1000)
                    facts += outcome.told
                    if not outcome.acted:
                        return failure("action", f"{verb} did not happen: {blocked_sentence(outcome.observations)}.")
                    forced = forced or outcome.forced
                # What the action sent (a sign-in request) is answered and drawn before the agent looks again.
                await watch.quiet(SETTLE_S, ACT_TIMEOUT_S)
        except (RaceError, BrowserError) as error:
            return failure("action", f"{verb} did not happen: {error}")
        await page.wait_for_load("load", timeout_ms=ACT_TIMEOUT_S * 1000)
        answer: dict[str, Any] = {"ok": True, "traceId": uuid.uuid4().hex[:12], "url": page.url, "forced": forced,
                                  "facts": [fact.model_dump(mode="json") for fact in facts]}
        if any(fact.type not in INFORMATIONAL for fact in facts):
            answer["reason"] = blocked_sentence(facts)
        return reply(answer)

    async def click(self, nodeId: NodeId | None = None,
                    selector: Annotated[str | None, Field(description="A CSS selector, when no nodeId")] = None,
                    force: Annotated[bool, Field(description=(
                        "Retry a click that stays blocked with force: true (the default, as the seed does); false "
                        "refuses it with the facts instead"))] = True,
                    ) -> CallToolResult:
        """Click a node, with the race preflight: what stands in the way (an overlay, an animation) is waited out,
        and a click still blocked after that is retried with force: true, which `forced` says. Returns {ok, traceId,
        forced, facts} (facts: what stood in the way, with `reason` as a sentence)."""
        return await self._act(nodeId, selector, "the click", [("click", None, None)], force=force)

    async def type(self, nodeId: NodeId, text: str, clear: bool = True,
                   submit: Annotated[bool, Field(description="Press Enter after typing")] = False) -> CallToolResult:
        """Type text into a field (replacing its value unless clear is false), with the race preflight; on a
        select (role textbox, ariaRole combobox) it chooses the option with that label or value. Returns {ok, traceId,
        facts}."""
        tag = await (await self._page()).evaluate_on(node_selector(nodeId), "(el) => el.tagName")
        typing: ActionName = "select" if tag == "SELECT" else "fill" if clear else "type"
        steps: list[tuple[ActionName, str | None, str | None]] = [(typing, text, None)]
        if submit:
            steps.append(("press", None, "Enter"))
        return await self._act(nodeId, None, "typing", steps)

    async def check(self, nodeId: NodeId, checked: bool = True) -> CallToolResult:
        """Check or uncheck a checkbox, radio or switch, with the race preflight. Returns {ok, traceId, facts}."""
        return await self._act(nodeId, None, "checking", [("check" if checked else "uncheck", None, None)])

    async def wait(self, condition: Annotated[dict[str, Any], Field(description=(
            "One scenario condition: {url_contains}, {heading_text} or {element_visible: {testId | role+name | "
            "text}}"))], timeout: Annotated[float, Field(gt=0, le=60_000, description="ms")] = 5_000,
                   ) -> CallToolResult:
        """Wait until the condition holds. Returns {ok, elapsed} (ok false when the time ran out)."""
        try:
            wanted = Condition.model_validate(condition)
        except ValidationError as error:
            return failure("input", f"condition is not a scenario condition ({error.errors()[0]['msg']}).")
        page = await self._page()
        started = time.monotonic()
        while True:
            try:
                held = await holds(page, await observe(page), wanted)
            except RaceError as error:
                if error.kind in ("context_closed", "page_unresponsive"):
                    return failure("page", f"The page cannot be read: {error}")
                held = False  # between documents: look again
            if held:
                try:  # the nodes as they are now (the page may have changed since it was observed)
                    self.last = await observe(page)
                except RaceError:
                    pass  # between documents: the next ui.observe tells
                return reply({"ok": True, "elapsed": round((time.monotonic() - started) * 1000)})
            if (time.monotonic() - started) * 1000 > timeout:
                return reply({"ok": False, "elapsed": round((time.monotonic() - started) * 1000)})
            await asyncio.sleep(0.1)

    async def screenshot(self, fullPage: bool = False) -> CallToolResult:
        """A PNG of the page. Returns {base64, path}."""
        page = await self._page()
        self.states.mkdir(parents=True, exist_ok=True)
        path = self.states / f"screenshot-{uuid.uuid4().hex[:8]}.png"
        try:
            png = await page.screenshot(path=path, full_page=fullPage)
        except RaceError as error:
            return failure("page", f"No screenshot: {error}")
        return reply({"base64": base64.b64encode(png).decode("ascii"), "path": str(path)})

    async def session_save(self, name: str) -> CallToolResult:
        """Save the browser's state (cookies, storage) as Playwright storageState. Returns {stateId, path}."""
        if self.page is None:
            return failure("state", "No browser context yet: ui.navigate first.")
        path = self.states / f"{Path(name).name}.json"
        try:
            await self.page.save_state(path)
        except RaceError as error:
            return failure("state", f"The state could not be saved: {error}")
        return reply({"stateId": Path(name).name, "path": str(path)})

    async def session_load(self, stateId: str) -> CallToolResult:
        """Start a fresh browser context with a saved state. Returns {ok}."""
        path = self.states / f"{Path(stateId).name}.json"
        if not path.exists():
            return failure("state", f"No saved state {stateId!r}: session.save it first.")
        await self._page(state=path, fresh=True)
        return reply({"ok": True})


def _entry(node: UINode) -> dict[str, Any]:
    """A node of ui.inspect_tree: its id, the seed's role (with ariaRole when the precise one differs), its name."""
    shown = seed_node(node)
    return {key: shown[key] for key in ("id", "role", "ariaRole", "name") if key in shown}
