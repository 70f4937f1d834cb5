"""PageState: one bounded reading of what a user sees (the outcome probe's answer), and how two readings differ.

The recorder reads the page before and after each step; the differences — items that came or went, a counter or a
status that changed — are what the step did, and become its outcomes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from studio.race.errors import RaceError
from studio.race.page import RacePage
from studio.resources import resource_path


class NodeFacts(BaseModel):
    """How a locator can name a node: tag, role, aria-label, test id, id, classes that say what it is, data words."""

    path: str
    tag: str
    role: str | None = None
    label: str | None = None
    testId: str | None = None
    id: str | None = None
    classes: list[str] = Field(default_factory=list)
    data: dict[str, str] = Field(default_factory=dict)
    landmark: bool = False


class Item(BaseModel):
    """One item of a collection: its whole text, the short text that tells it apart (its key), and where it is."""

    text: str
    key: str
    path: str


class Collection(NodeFacts):
    """A parent whose children repeat (list items, rows, cards, cells); `items` are the visible ones, in order."""

    itemTag: str
    itemRole: str | None = None
    itemClasses: list[str] = Field(default_factory=list)
    total: int = Field(description="Children of the item tag, hidden ones included (what a locator counts).")
    items: list[Item] = Field(default_factory=list)
    ancestry: list[NodeFacts] = Field(default_factory=list)

    @property
    def keys(self) -> list[str]:
        return [item.key for item in self.items]


class Holder(NodeFacts):
    """An element holding one short text: a counter, a status line, a score, a badge inside a list item."""

    text: str
    live: bool = False
    item: str | None = Field(default=None, description="The path of the collection item it is inside, if any.")
    ancestry: list[NodeFacts] = Field(default_factory=list)


class PageState(BaseModel):
    """The probe's reading of one document."""

    url: str
    title: str = ""
    document: str = Field(default="", description="Tells documents apart: a reload or a new page changes it.")
    heading: Holder | None = None
    collections: list[Collection] = Field(default_factory=list)
    holders: list[Holder] = Field(default_factory=list)
    truncated: bool = False

    @property
    def place(self) -> str:
        """scheme://host/path: two readings at one place show the same page (a reload, a search's new results)."""
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}{parts.path}"


@lru_cache(maxsize=1)
def _probe_source() -> str:
    return resource_path("race", "outcome_probe.js").read_text(encoding="utf-8")


async def read_page_state(race: RacePage) -> PageState | None:
    """The page as a user sees it now; None when it cannot be read (it is navigating, closed or stuck)."""
    if race.page.is_closed():
        return None
    try:
        found = await race.world.evaluate(f"{_probe_source()}\nglobalThis.__pfsOutcomes.read()",
                                          during="reading what the step changed")
    except RaceError:
        return None
    return PageState.model_validate(found) if isinstance(found, dict) else None


async def holder_at(race: RacePage, x: float, y: float) -> Holder | None:
    """The element holding one short text under a point of the viewport (CSS pixels), if any."""
    if race.page.is_closed():
        return None
    try:
        found = await race.world.evaluate(f"{_probe_source()}\nglobalThis.__pfsOutcomes.holderAt({x}, {y})",
                                          during="reading the text under the pointer")
    except RaceError:
        return None
    return Holder.model_validate(found) if isinstance(found, dict) else None


@dataclass(frozen=True)
class CollectionChange:
    """One collection read before and after a step, with the item keys that came and went. A collection that was
    not shown before the step (real list apps hide an empty list and its footer) `appeared`: everything in it came
    with the step; one that is no longer shown `vanished`: everything in it went."""

    before: Collection
    after: Collection
    added: list[str]
    removed: list[str]
    appeared: bool = False
    vanished: bool = False

    @property
    def reordered(self) -> bool:
        """Same number of items, texts moved or changed in place (a board after a move, an edited item)."""
        return len(self.before.items) == len(self.after.items) and (
            [i.text for i in self.before.items] != [i.text for i in self.after.items])


def same_document(before: PageState, after: PageState) -> bool:
    return before.document == after.document


def _emptied(collection: Collection) -> Collection:
    return collection.model_copy(update={"items": [], "total": 0})


def changed_collections(before: PageState, after: PageState) -> list[CollectionChange]:
    """Collections of `after` that differ from the same collection in `before` (matched by tree position and tag),
    with those that appeared and, in the same document, those that vanished. A reload or a new page is not compared
    for vanished lists: what a reload keeps is asked separately, and never taken as what the app should do."""
    if before.place != after.place:
        return []
    earlier = {(c.path, c.tag, c.itemTag): c for c in before.collections}
    changes = []
    for now in after.collections:
        then = earlier.pop((now.path, now.tag, now.itemTag), None)
        if then is None:
            if now.items:
                changes.append(CollectionChange(_emptied(now), now, now.keys, [], appeared=True))
            continue
        old, new = Counter(then.keys), Counter(now.keys)
        change = CollectionChange(then, now, list((new - old).elements()), list((old - new).elements()))
        if change.added or change.removed or change.reordered:
            changes.append(change)
    if same_document(before, after):
        changes += [CollectionChange(then, _emptied(then), [], then.keys, vanished=True)
                    for then in earlier.values() if then.items]
    return changes


def changed_holders(before: PageState, after: PageState) -> list[tuple[Holder | None, Holder]]:
    """Holders whose text changed or that appeared, in the same document: (before or None, after)."""
    if not same_document(before, after):
        return []
    earlier = {(h.path, h.tag): h for h in before.holders}
    changes: list[tuple[Holder | None, Holder]] = []
    for now in after.holders:
        then = earlier.get((now.path, now.tag))
        if then is None or then.text != now.text:
            changes.append((then, now))
    return changes


def drifted(after_last_step: PageState | None, before_this_step: PageState) -> set[str]:
    """Paths of holders whose text changed while nobody acted (a clock, a ticker): never assert those."""
    if after_last_step is None or not same_document(after_last_step, before_this_step):
        return set()
    earlier = {h.path: h.text for h in after_last_step.holders}
    return {h.path for h in before_this_step.holders if h.path in earlier and earlier[h.path] != h.text}
