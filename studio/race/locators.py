"""Locator synthesis: the most stable Playwright locator for a ref, checked live with Playwright's own engine.

Order: role + name, then label / placeholder / text, then test id. When the target sits in a repeating item (a list
item, a table row, an article, a card whose siblings look alike), the item's own text scopes it, as a reader names
it: get_by_role("listitem").filter(has_text="Buy milk").get_by_role("checkbox") — also when the target alone is
unique but says nothing of the item (a "Delete" button shown only on the hovered row). Otherwise a target that is
not unique is scoped by the nearest unique ancestor (a test id narrowed by its heading text, or a named landmark),
e.g. get_by_test_id("product-card").filter(has_text="iPhone 15 Pro").get_by_role("button", name="Add to Cart").
nth() is the last resort, used only when no unique scope exists.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from studio.models.locator import LocatorSpec, LocatorStep, Strategy
from studio.race.page import RacePage
from studio.race.volatility import volatility

# Roles whose accessible name makes a good container scope.
SCOPE_ROLES = {"region", "navigation", "form", "dialog", "article", "listitem", "row", "group", "table",
               "complementary", "banner", "contentinfo", "main", "search", "tabpanel"}
# Same algorithm as domPath() in the page library, run in the main world on what a locator matched.
DOM_PATH_JS = """el => {
  const parts = [];
  for (let node = el; node; ) {
    const parent = node.parentElement || (node.parentNode && node.parentNode.host ? node.parentNode : null);
    if (!parent) break;
    if (parent.host) { parts.push('s' + [...parent.children].indexOf(node)); node = parent.host; continue; }
    parts.push([...parent.children].indexOf(node));
    node = parent;
  }
  return parts.reverse().join('/');
}"""
# Roles that are often unique on a page without a name (landmarks) or are worth trying unnamed (fields).
UNNAMED_OK = {"banner", "main", "contentinfo", "navigation", "complementary", "search", "textbox", "searchbox",
              "combobox", "checkbox", "radio", "slider", "spinbutton"}
# Roles of the items of a list, table, feed or menu: one of many alike, told apart by its text.
ITEM_ROLES = {"listitem", "row", "article", "option", "treeitem", "menuitem"}
_CLASS_WORD = re.compile(r"[A-Za-z][A-Za-z_-]{2,40}")
ANCESTORS_TO_SCOPE = 6  # how far up a repeating item is looked for


def resolve(page: Page | Locator, steps: list[LocatorStep]) -> Locator:
    """Build the live Playwright locator a LocatorSpec describes."""
    current: Any = page
    for step in steps:
        match step.kind:
            case "role":
                kwargs = {"name": step.name, "exact": step.exact} if step.name is not None else {}
                current = current.get_by_role(step.role, **kwargs)
            case "test_id":
                current = current.get_by_test_id(step.value)
            case "label":
                current = current.get_by_label(step.value, exact=step.exact)
            case "placeholder":
                current = current.get_by_placeholder(step.value, exact=step.exact)
            case "text":
                current = current.get_by_text(step.value, exact=step.exact)
            case "css":
                current = current.locator(step.value)
            case "filter_text":
                current = current.filter(has_text=step.value)
            case "nth":
                current = current.nth(step.index or 0)
            case "first":
                current = current.first
    return current


def own_candidates(described: dict) -> list[tuple[Strategy, list[LocatorStep]]]:
    """Ways to name the element itself, most stable first."""
    found: list[tuple[Strategy, list[LocatorStep]]] = []
    role, name = described.get("role"), described.get("name")
    if role and role not in ("generic", "presentation", "none") and name:
        found.append(("role", [LocatorStep(kind="role", role=role, name=name, exact=True)]))
        found.append(("role", [LocatorStep(kind="role", role=role, name=name)]))
    if described.get("label"):
        found.append(("label", [LocatorStep(kind="label", value=described["label"], exact=True)]))
    if described.get("placeholder"):
        found.append(("placeholder", [LocatorStep(kind="placeholder", value=described["placeholder"], exact=True)]))
    text = described.get("text")
    # Numbers are data (a cart count, a price) that change between runs; a test id names the element better.
    data_like = any(ch.isdigit() for ch in text or "") and described.get("testId")
    if (text and not data_like and not described.get("inputType") and len(text) <= 60
            and role not in ("textbox", "combobox", "listbox")):
        found.append(("text", [LocatorStep(kind="text", value=text, exact=True)]))
    if described.get("testId"):
        found.append(("test_id", [LocatorStep(kind="test_id", value=described["testId"])]))
    if role and role in UNNAMED_OK:
        # Also when the page library found a name: Playwright may compute none (a checkbox beside a bare <label>).
        found.append(("role", [LocatorStep(kind="role", role=role)]))
    return found


def scope_candidates(ancestor: dict) -> list[list[LocatorStep]]:
    """Ways to name a container uniquely."""
    found: list[list[LocatorStep]] = []
    heading = ancestor.get("headingText")
    if ancestor.get("testId"):
        if heading:
            found.append([LocatorStep(kind="test_id", value=ancestor["testId"]), LocatorStep(kind="filter_text", value=heading)])
        found.append([LocatorStep(kind="test_id", value=ancestor["testId"])])
    if ancestor.get("role") in SCOPE_ROLES and ancestor.get("name"):
        found.append([LocatorStep(kind="role", role=ancestor["role"], name=ancestor["name"], exact=True)])
    if ancestor.get("id") and not any(ch.isdigit() for ch in ancestor["id"]):
        found.append([LocatorStep(kind="css", value=f"#{ancestor['id']}")])
    return found


async def unique_and_same(locator: Locator, path: str) -> tuple[bool, int]:
    """Whether the locator matches exactly one element, and that element is the ref's (same tree position)."""
    try:
        count = await locator.count()
        if count != 1:
            return False, count
        return await locator.evaluate(DOM_PATH_JS, timeout=1000) == path, 1
    except PlaywrightError:
        return False, 0


async def synthesize(race: RacePage, ref: str) -> LocatorSpec:
    """The most stable locator for `ref` that Playwright resolves to exactly that element."""
    described = await race.describe(ref)
    path = described["path"]
    page = race.page
    own = own_candidates(described)
    item = await _repeating_item(page, described["ancestors"][:ANCESTORS_TO_SCOPE])
    for strategy, steps in own:
        if item is not None and not _names_item(steps, item[1]):
            continue  # "Delete" alone says nothing of which item; the item's text does
        unique, _ = await unique_and_same(resolve(page, steps), path)
        if unique:
            return LocatorSpec(steps=steps, strategy=strategy)
    if item is not None:
        for _, steps in own:
            unique, _ = await unique_and_same(resolve(page, item[0] + steps), path)
            if unique:
                return LocatorSpec(steps=item[0] + steps, strategy="scoped")
        for strategy, steps in own:  # the item scope did not single it out: the target's own locator after all
            unique, _ = await unique_and_same(resolve(page, steps), path)
            if unique:
                return LocatorSpec(steps=steps, strategy=strategy)

    for ancestor in described["ancestors"]:
        for scope in scope_candidates(ancestor):
            scope_locator = resolve(page, scope)
            try:
                if await scope_locator.count() != 1:
                    continue
            except PlaywrightError:
                continue
            for _, steps in own:
                unique, _ = await unique_and_same(resolve(scope_locator, steps), path)
                if unique:
                    return LocatorSpec(steps=scope + steps, strategy="scoped")

    # No unique scope: fall back to position among the matches of the best own candidate.
    for _, steps in own or [("css", [LocatorStep(kind="css", value=described["tag"])])]:
        locator = resolve(page, steps)
        try:
            count = await locator.count()
        except PlaywrightError:
            continue
        for index in range(min(count, 200)):
            same, _ = await unique_and_same(locator.nth(index), path)
            if same:
                return LocatorSpec(steps=steps + [LocatorStep(kind="nth", index=index)], strategy="nth",
                                   unique=False, matches=count)
    tag_steps = [LocatorStep(kind="css", value=described["tag"])]
    return LocatorSpec(steps=tag_steps, strategy="css", unique=False, matches=0)


def _item_scopes(ancestor: dict) -> list[tuple[list[LocatorStep], bool]]:
    """How a repeating item could be named, narrowed by its own text; the flag: it must repeat to count as an item."""
    key = ancestor.get("headingText")
    if not key or volatility(key):
        return []
    found: list[tuple[list[LocatorStep], bool]] = []
    if ancestor.get("testId"):
        found.append(([LocatorStep(kind="test_id", value=ancestor["testId"])], True))
    if ancestor.get("role") in ITEM_ROLES:
        found.append(([LocatorStep(kind="role", role=ancestor["role"])], False))
    for name in ancestor.get("classes") or []:
        if _CLASS_WORD.fullmatch(name):
            found.append(([LocatorStep(kind="css", value=f"{ancestor['tag']}.{name}")], True))
    return [(steps + [LocatorStep(kind="filter_text", value=key)], repeats) for steps, repeats in found]


async def _repeating_item(page: Page, ancestors: list[dict]) -> tuple[list[LocatorStep], str] | None:
    """The nearest ancestor that is one item of many and that its text names uniquely: its scope steps and that text.
    By test id first, then by role, then by a class its siblings share (the weakest sign of "one of many")."""
    scopes = [(ancestor, steps, repeats) for ancestor in ancestors for steps, repeats in _item_scopes(ancestor)]
    scopes.sort(key=lambda scope: _scope_rank(scope[1]))  # stable: nearest first within a rank
    for ancestor, steps, must_repeat in scopes:
        try:
            if await resolve(page, steps).count() != 1:
                continue
            if must_repeat and await resolve(page, steps[:-1]).count() < 2:
                continue
        except PlaywrightError:
            continue
        return steps, ancestor["headingText"]
    return None


def _scope_rank(steps: list[LocatorStep]) -> int:
    return {"test_id": 0, "role": 1}.get(steps[0].kind, 2)


def _names_item(steps: list[LocatorStep], key: str) -> bool:
    """Whether the target's own locator already says which item it is in (a link named "Dune" in the Dune row)."""
    words = " ".join(filter(None, (link.name or link.value for link in steps))).casefold()
    return bool(words) and key.casefold() in words
