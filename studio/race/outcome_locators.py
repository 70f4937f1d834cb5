"""Locators for what a step changed — a counter, a list's items, one item by its text — each checked with Playwright's
own engine on the live page before the recorder keeps it, so an exported assertion points where the recorder looked.

Generic, by structure: test id, id, aria-label, role, data attributes and classes that say what a node is, scoped by
a landmark or a named ancestor; never positions.
"""

from __future__ import annotations

import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from studio.models.locator import LocatorSpec, LocatorStep, Strategy
from studio.race.locators import DOM_PATH_JS, resolve, unique_and_same
from studio.race.page_state import Collection, NodeFacts

_SIMPLE_ID = re.compile(r"[A-Za-z][A-Za-z_-]*")
# Roles a locator may name without a name when only one such element is on the page.
_UNNAMED_ROLES = {"status", "alert", "log", "list", "table", "grid", "main", "navigation", "complementary", "listbox",
                  "feed", "tablist", "menu", "tree", "timer", "marquee", "progressbar", "banner", "contentinfo"}
Candidate = tuple[Strategy, list[LocatorStep]]


def _css(value: str) -> LocatorStep:
    return LocatorStep(kind="css", value=value)


def _own(node: NodeFacts) -> list[Candidate]:
    found: list[Candidate] = []
    if node.testId:
        found.append(("test_id", [LocatorStep(kind="test_id", value=node.testId)]))
    if node.id and _SIMPLE_ID.fullmatch(node.id):
        found.append(("css", [_css(f"#{node.id}")]))
    if node.label and not any(ch.isdigit() for ch in node.label):
        if node.role:
            found.append(("role", [LocatorStep(kind="role", role=node.role, name=node.label, exact=True)]))
        found.append(("label", [LocatorStep(kind="label", value=node.label, exact=True)]))
    if node.role in _UNNAMED_ROLES:
        found.append(("role", [LocatorStep(kind="role", role=node.role)]))
    for name, value in node.data.items():
        found.append(("css", [_css(f"{node.tag}[{name}='{value}']")]))
    for name in node.classes[:3]:
        found.append(("css", [_css(f"{node.tag}.{name}")]))
    return found


def node_candidates(node: NodeFacts, ancestry: list[NodeFacts]) -> list[Candidate]:
    """Ways to name `node`, most stable first: its own, then within an ancestor that has a name of its own."""
    found = _own(node)
    inner = [f"{node.tag}.{name}" for name in node.classes[:2]] or [node.tag]
    for ancestor in ancestry[:3]:
        for name in ancestor.classes[:2]:
            found += [("css", [_css(f".{name} {css}")]) for css in inner]
        for _, scope in _own(ancestor)[:2]:
            found += [("scoped", scope + steps) for _, steps in _own(node)[:3]]
            found += [("scoped", scope + [_css(css)]) for css in inner]
    landmark = next((a for a in ancestry if a.landmark and a.role), None)
    if landmark is not None and node.role:
        scope = [LocatorStep(kind="role", role=landmark.role, name=landmark.label, exact=True) if landmark.label
                 else LocatorStep(kind="role", role=landmark.role)]
        found.append(("scoped", scope + [LocatorStep(kind="role", role=node.role)]))
    return found


async def node_locator(page: Page, node: NodeFacts, ancestry: list[NodeFacts]) -> LocatorSpec | None:
    """The first candidate that Playwright resolves to exactly this node; None when none does."""
    seen: set[str] = set()
    for strategy, steps in node_candidates(node, ancestry):
        spec = LocatorSpec(steps=steps, strategy=strategy)
        if spec.python() in seen:
            continue
        seen.add(spec.python())
        unique, _ = await unique_and_same(resolve(page, steps), node.path)
        if unique:
            return spec
    return None


async def matched_paths(page: Page, steps: list[LocatorStep]) -> list[str] | None:
    """Tree positions of everything a locator matches now (None when Playwright cannot evaluate it)."""
    try:
        return await resolve(page, steps).evaluate_all(f"els => els.map({DOM_PATH_JS})")
    except PlaywrightError:
        return None


async def items_locator(page: Page, collection: Collection) -> tuple[LocatorSpec, int] | None:
    """A locator for every visible item of the collection and nothing else, with how many it matches now."""
    item_css = collection.itemTag + "".join(f".{name}" for name in collection.itemClasses[:1])
    subs: list[tuple[list[LocatorStep], bool]] = []
    if collection.itemRole:
        subs.append(([LocatorStep(kind="role", role=collection.itemRole)], True))
    subs.append(([_css(f":scope > {item_css}")], False))
    candidates: list[tuple[list[LocatorStep], bool]] = []
    container = await node_locator(page, collection, collection.ancestry)
    if container is not None:
        candidates += [(container.steps + sub, visible_only) for sub, visible_only in subs]
    candidates += [([_css(f"{collection.tag}.{name} > {item_css}")], False) for name in collection.classes[:2]]
    wanted = {item.path for item in collection.items}
    for steps, visible_only in candidates:
        paths = await matched_paths(page, steps)
        if paths is None:
            continue
        # A role locator sees the visible items only; a CSS one sees hidden items too (the collection's total).
        exact = set(paths) == wanted if visible_only else wanted <= set(paths) and len(paths) == collection.total
        if exact:
            return LocatorSpec(steps=steps, strategy="scoped" if container else "css"), len(paths)
    return None


async def keyed_locator(page: Page, collection: Collection, items: LocatorSpec | None,
                        key: str) -> tuple[LocatorSpec, int] | None:
    """Items of the collection whose text contains `key`, e.g. get_by_role("listitem").filter(has_text="Buy milk"),
    and how many there are now; only when nothing outside the collection matches."""
    candidates: list[list[LocatorStep]] = []
    if collection.itemRole:
        candidates.append([LocatorStep(kind="role", role=collection.itemRole)])
    if items is not None:
        candidates.append(items.steps)
    inside = collection.path + "/"
    for base in candidates:
        steps = [*base, LocatorStep(kind="filter_text", value=key)]
        paths = await matched_paths(page, steps)
        if paths is not None and all(path.startswith(inside) for path in paths):
            return LocatorSpec(steps=steps, strategy="scoped"), len(paths)
    return None


async def text_locator(page: Page, text: str, path: str | None = None) -> LocatorSpec | None:
    """get_by_text(text, exact=True) when it finds exactly one element (that one, when a path is given)."""
    steps = [LocatorStep(kind="text", value=text, exact=True)]
    if path is None:
        try:
            return LocatorSpec(steps=steps, strategy="text") if await resolve(page, steps).count() == 1 else None
        except PlaywrightError:
            return None
    unique, _ = await unique_and_same(resolve(page, steps), path)
    return LocatorSpec(steps=steps, strategy="text") if unique else None


async def heading_locator(page: Page, text: str) -> LocatorSpec | None:
    """The page's heading by its role and name, when it is the only one with that name."""
    steps = [LocatorStep(kind="role", role="heading", name=text, exact=True)]
    try:
        return LocatorSpec(steps=steps, strategy="role") if await resolve(page, steps).count() == 1 else None
    except PlaywrightError:
        return None
