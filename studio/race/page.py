"""RacePage: race preflight on one Playwright page — snapshot with refs, exploration, observation, actions."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from studio.models.race import OBSERVATIONS, ElementInfo, Observation, PageSnapshot, Rect
from studio.race.errors import RaceError, context_closed, unknown_ref
from studio.race.world import PAGE_TIMEOUT_S, IsolatedWorld

# Past this many elements a page is snapshotted in pieces when answers are read in parts: a whole walk of it takes
# seconds (200,000 elements: 6 s and more), and its snapshot is hundreds of answers long anyway.
LARGE_PAGE_ELEMENTS = 50_000
# One walk takes at most this share of the time the page is given to answer (the rest: handing the lines over).
WALK_SHARE = 0.5
# A piece's lines fill this share of an answer: the lines of the elements it stopped inside come on top.
PIECE_FILL = 0.9


class RacePage:
    """Everything seed 001 does on one page. Preflight observation before actions is on by default."""

    def __init__(self, page: Page, preflight: bool = True, first_ref: int = 1, timeout_s: float = PAGE_TIMEOUT_S) -> None:
        self.page = page
        self.world = IsolatedWorld(page, first_ref, timeout_s)
        self.preflight = preflight

    def _alive(self) -> None:
        if self.page.is_closed():
            raise context_closed()

    # -- reading the page ------------------------------------------------------------------------

    async def snapshot(self, offset: int = 0, part_chars: int | None = None) -> PageSnapshot:
        """A compact snapshot: one line per meaningful element with its ref, role, name, test id and states.

        Without `part_chars`, the whole page in one walk. With it (an agent reading answers of that size), no walk
        outlasts a share of the time the page is given to answer, and a page too large to take at once comes in
        pieces of about `part_chars` characters, the piece holding line `offset` (walked when first asked for):
        walking 200,000 elements at once took longer than that time, and the page was closed as if stuck.
        """
        self._alive()
        listened = await self.world.mark_click_listeners()
        if part_chars is None:
            result = await self.world.call("snapshot", listened, during="taking the snapshot")
            return PageSnapshot(url=result["url"], title=result["title"], text=result["text"],
                                refCount=result["refCount"])
        options = {"offset": offset, "partChars": int(part_chars * PIECE_FILL), "largePage": LARGE_PAGE_ELEMENTS,
                   "budgetMs": round(self.world.timeout_s * WALK_SHARE * 1000)}
        result = await self.world.call("snapshot", listened, options, during="taking the snapshot")
        if result.get("lost"):
            raise RaceError("bad_input", f"Line {offset} is no longer part of this page's snapshot (the page changed "
                                         "since the part before); call browser_snapshot without offset to start again.")
        return PageSnapshot(url=result["url"], title=result["title"], text=result["text"], refCount=result["refCount"],
                            first=result["first"], more=result["more"], elementCount=result["elements"])

    async def read(self, function: str, during: str, prelude: str = "", listeners: bool = False) -> Any:
        """Run a studio read script in the isolated world, beside the library: `prelude` (statements, e.g. a kit the
        script uses), then `function` (a function expression) called with one argument: whether the elements page
        scripts gave click listeners were handed to the library just before (`listeners`, as for a snapshot)."""
        self._alive()
        listened = await self.world.mark_click_listeners(during) if listeners else False
        expression = f"{prelude}\n;({function})({'true' if listened else 'false'})"
        return await self.world.evaluate(expression, during)

    async def info(self, ref: str) -> ElementInfo:
        return ElementInfo.model_validate((await self.world.with_ref("info", ref))["value"])

    async def ancestors(self, ref: str) -> list[ElementInfo]:
        """From the parent up to <body>, crossing shadow roots and frames."""
        result = await self.world.with_ref("ancestors", ref, during=f"reading the ancestors of {ref}")
        return [ElementInfo.model_validate(item) for item in result["value"]]

    async def siblings(self, ref: str) -> list[ElementInfo]:
        result = await self.world.with_ref("siblings", ref, during=f"reading the siblings of {ref}")
        return [ElementInfo.model_validate(item) for item in result["value"]]

    async def descendants(self, ref: str, max_depth: int = 3, limit: int = 200) -> list[ElementInfo]:
        if max_depth < 1 or limit < 1:
            raise RaceError("bad_input", "max_depth and limit must be at least 1.")
        result = await self.world.with_ref("descendants", ref, max_depth, limit, during=f"reading inside {ref}")
        return [ElementInfo.model_validate(item) for item in result["value"]]

    async def describe(self, ref: str) -> dict[str, Any]:
        """Role, name, label, text, box and the ancestor chain with heading texts (for locator synthesis)."""
        return (await self.world.with_ref("describe", ref))["value"]

    async def observe(self, ref: str) -> list[Observation]:
        """observe_element_state: every fact about the element, without acting and without changing the page."""
        result = await self._observe(ref, "state", f"observing {ref}")
        return self._observations(ref, result)

    async def observe_for_action(self, ref: str) -> tuple[list[Observation], dict | None]:
        """The facts that stand between an action and its success, and the click point (None off screen)."""
        result = await self._observe(ref, "action", f"checking {ref}")
        return self._observations(ref, result), result.get("point")

    async def _observe(self, ref: str, mode: str, during: str) -> dict:
        await self.world.prepare(ref)
        result = await self.world.call("observe", ref, mode, None, during=during)
        if isinstance(result, dict) and result.get("needsQuads"):
            # A transformed element cut by the viewport: its box's middle can be a corner it does not cover, so
            # hit-test and click where Playwright would, at the middle of its transformed quad.
            quads = await self.world.content_quads(ref, during)
            if quads:
                result = await self.world.call("observe", ref, mode, quads, during=during)
        return result

    def _observations(self, ref: str, result: dict) -> list[Observation]:
        if result.get("status") == "unknown":
            raise unknown_ref(ref)
        return OBSERVATIONS.validate_python(result["observations"])

    async def ref_for_selector(self, selector: str) -> tuple[ElementInfo, int]:
        """The first element matching a CSS selector, as a ref, and how many elements matched."""
        self._alive()
        result = await self.world.call("query", selector, during="finding the element")
        if result["status"] == "bad_selector":
            raise RaceError("bad_input", f"{selector!r} is not a valid CSS selector: {result['message']}")
        if result["status"] == "none":
            raise RaceError("no_match", f"No element matches {selector!r} on {self.page.url}.")
        return ElementInfo.model_validate(result["value"]), int(result["count"])

    async def pick(self, x: float, y: float) -> tuple[ElementInfo, Rect] | None:
        """The meaningful element (button, link, field…) under a point of the viewport, for the inspector."""
        self._alive()
        result = await self.world.call("pick", x, y, during="picking an element")
        if result["status"] != "ok":
            return None
        return ElementInfo.model_validate(result["value"]), Rect.model_validate(result["box"])

    async def rects(self, refs: list[str]) -> dict[str, Rect | None]:
        """Current boxes of refs (None for refs that are gone), for drawing highlights over the live view."""
        self._alive()
        result = await self.world.call("rects", [ref for ref in refs if ref])
        return {ref: Rect.model_validate(box) if box else None for ref, box in result.items()}

    async def live_texts(self) -> list[dict[str, str]]:
        """Texts of visible status/alert/live regions (toasts, form errors)."""
        self._alive()
        return await self.world.call("liveTexts", during="reading status messages")
