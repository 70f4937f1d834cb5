"""Locator candidates for a ref from the snapshot the agent read it in: what the element was (role and name, test id)
and which containers it sat in (a product card with its heading, a named list item or region).

When the page replaced an element before any action reached it (hydration finished between the snapshot and the
click), nothing can be asked of the element any more; the snapshot still says what it was. Only container-scoped
candidates are made: a "Delete" named by itself could be the look-alike in another row.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from studio.models.locator import LocatorSpec, LocatorStep
from studio.race.locators import SCOPE_ROLES

# One snapshot line: `  role "name" e42 #testid [states]` (the page library's format; name and test id optional).
_LINE = re.compile(r'^(?P<indent> *)(?P<role>[^\s"]+)(?: (?P<name>"(?:[^"\\]|\\.)*"))? (?P<ref>e\d+)(?: #(?P<testid>\S+))?')
# Roles a target is named by (get_by_role); snapshot lines of other elements show a tag or a structural role.
TARGET_ROLES = {"button", "link", "checkbox", "radio", "textbox", "searchbox", "combobox", "listbox", "option",
                "slider", "spinbutton", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem"}
MAX_CANDIDATES = 12  # each costs a count() while the retry waits


@dataclass
class _Line:
    depth: int
    role: str
    name: str | None
    ref: str
    test_id: str | None


def _parse(text: str) -> list[_Line]:
    lines = []
    for raw in text.splitlines():
        found = _LINE.match(raw)
        if found is None or raw.startswith("#"):
            continue
        name = json.loads(found["name"]) if found["name"] else None
        lines.append(_Line(len(found["indent"]), found["role"], name, found["ref"], found["testid"]))
    return lines


def _own(line: _Line) -> list[list[LocatorStep]]:
    found = []
    if line.role in TARGET_ROLES and line.name:
        found.append([LocatorStep(kind="role", role=line.role, name=line.name, exact=True)])
    if line.test_id:
        found.append([LocatorStep(kind="test_id", value=line.test_id)])
    return found


def _scopes(ancestor: _Line, block: list[_Line]) -> list[list[LocatorStep]]:
    heading = next((line.name for line in block if line.role.startswith("heading") and line.name), None)
    found = []
    if ancestor.test_id and heading:
        found.append([LocatorStep(kind="test_id", value=ancestor.test_id), LocatorStep(kind="filter_text", value=heading)])
    if ancestor.role in SCOPE_ROLES and ancestor.name:
        found.append([LocatorStep(kind="role", role=ancestor.role, name=ancestor.name, exact=True)])
    return found


def candidates(snapshot_text: str, ref: str) -> list[LocatorSpec]:
    """Container-scoped locators for `ref` as the snapshot describes it, nearest container first; [] when the
    snapshot does not list the ref or gives nothing to scope it by."""
    lines = _parse(snapshot_text)
    index = next((i for i, line in enumerate(lines) if line.ref == ref), None)
    if index is None:
        return []
    own = _own(lines[index])
    found: list[LocatorSpec] = []
    depth = lines[index].depth
    for i in range(index - 1, -1, -1):
        ancestor = lines[i]
        if ancestor.depth >= depth:
            continue
        depth = ancestor.depth
        end = next((j for j in range(i + 1, len(lines)) if lines[j].depth <= ancestor.depth), len(lines))
        for scope in _scopes(ancestor, lines[i + 1:end]):
            found.extend(LocatorSpec(steps=scope + steps, strategy="scoped") for steps in own)
    return found[:MAX_CANDIDATES]
