"""Re-resolving a replaced element: when the page replaces an element after its facts were reported (hydration, a
framework re-render), the acknowledged retry finds the replacement by locators made for the old one.

The locators come from one in-page description of the element, taken when its facts are first reported: its role
and name scoped by the containers it sits in (a product card with its heading). Each must name exactly one element
when it is used, resolved with Playwright's own engine; the element it finds gets a ref in the isolated world through
its position in the tree, so both worlds agree on which element it is. An element replaced before any action
reached it is found by what the last snapshot said of it (studio.race.snapshot_scopes).
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from pydantic import BaseModel, ConfigDict, Field

from studio.models.locator import LocatorSpec
from studio.race.errors import RaceError
from studio.race.locators import DOM_PATH_JS, own_candidates, resolve, scope_candidates, unique_and_same
from studio.race.page import RacePage
from studio.race.snapshot_scopes import MAX_CANDIDATES
from studio.race.snapshot_scopes import candidates as snapshot_candidates


class ReResolved(BaseModel):
    """An acknowledged retry acted on the replacement of its element: the stale ref, the new one, and the locator
    that found it (seed shape plus `reResolved: {"from", "to", "locator"}`)."""

    model_config = ConfigDict(populate_by_name=True)

    from_ref: str = Field(serialization_alias="from")
    to_ref: str = Field(serialization_alias="to")
    locator: str
    spec: LocatorSpec = Field(exclude=True, description="The locator that found the new element (for the recorder).")

    def to_json(self) -> dict[str, str]:
        return self.model_dump(mode="json", by_alias=True)


def path_selector(path: str) -> str | None:
    """A CSS selector for a tree position from domPath ("1/3/0"); None inside a shadow root, which CSS cannot
    express as a chain of children."""
    parts = path.split("/") if path else []
    if not parts or not all(part.isdigit() for part in parts):
        return None
    return ":root" + "".join(f" > :nth-child({int(part) + 1})" for part in parts)


class Rebinder:
    """The locators of refs whose facts were reported, and the search for an element's replacement."""

    def __init__(self, race: RacePage) -> None:
        self.race = race
        self._locators: dict[str, list[LocatorSpec]] = {}
        self._snapshot = ""  # the last snapshot's text: what its refs were, should they be replaced unseen

    def note_snapshot(self, text: str) -> None:
        self._snapshot = text

    def knows(self, ref: str) -> bool:
        """Whether there is a way to look for the element that replaced `ref`."""
        return ref in self._locators or bool(self._described(ref))

    def _described(self, ref: str) -> list[LocatorSpec]:
        return snapshot_candidates(self._snapshot, ref) if f" {ref}" in self._snapshot else []

    async def remember(self, ref: str) -> None:
        """Keep the ways to find the element again, from one in-page description of it (it may be replaced any
        moment: hydration does not wait). Container-scoped candidates come first, nearest container first (the
        card with its heading text, then the button); each must name exactly one element when it is used. The
        element's own locator alone is kept only when no container names it, and only if it names exactly this
        element now: otherwise a "Delete" could find the look-alike in another row.
        """
        if ref in self._locators:
            return
        try:
            described = await self.race.describe(ref)
        except RaceError:
            return  # gone already: there is nothing to describe
        own = [steps for _, steps in own_candidates(described)]
        found = [LocatorSpec(steps=scope + steps, strategy="scoped")
                 for ancestor in described.get("ancestors", []) for scope in scope_candidates(ancestor)
                 for steps in own]
        if not found:
            for strategy, steps in own_candidates(described):
                same, _ = await unique_and_same(resolve(self.race.page, steps), described["path"])
                if same:
                    found.append(LocatorSpec(steps=steps, strategy=strategy))
                    break
        if found:
            self._locators[ref] = found[:MAX_CANDIDATES]

    def forget(self, *refs: str) -> None:
        for ref in refs:
            self._locators.pop(ref, None)

    async def find(self, ref: str) -> tuple[str, ReResolved] | None:
        """The ref of the one element the old ref's locator names now, or None (no locator, none or several
        matches, or the same element)."""
        for spec in self._locators.get(ref) or self._described(ref):
            found = await self._resolve(ref, spec)
            if found is not None:
                return found
        return None

    async def _resolve(self, ref: str, spec: LocatorSpec) -> tuple[str, ReResolved] | None:
        locator = resolve(self.race.page, spec.steps)
        try:
            if await locator.count() != 1:
                return None
            path = await locator.evaluate(DOM_PATH_JS, timeout=1000)
        except PlaywrightError:
            return None  # it changed between the count and the evaluation: the caller looks again
        selector = path_selector(path)
        if selector is None:
            return None
        result = await self.race.world.call("query", selector, during=f"finding the element that replaced {ref}")
        if not isinstance(result, dict) or result.get("status") != "ok":
            return None
        found = str(result["value"]["ref"])
        if found == ref:
            return None
        self._locators[found] = [spec]
        return found, ReResolved(from_ref=ref, to_ref=found, locator=spec.python(), spec=spec)
