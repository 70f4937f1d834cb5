"""The snapshot's element lines as data: ref, role, name, depth, states, and whether a line sits in the site's
chrome (its header, navigation or footer). The snapshot (resources/race/page_snapshot.js) writes one line per
element an agent acts on or reads: `  button "Add" e12 #add-btn [clickable, disabled]`."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

LINE = re.compile(r'^(?P<indent> *)(?P<role>[^\s"]+)(?: (?P<name>"(?:[^"\\]|\\.)*"))? (?P<ref>e\d+)'
                  r'(?: #(?P<testid>\S+))?(?: \[(?P<states>.*)\])?$')
CHROME = {"banner", "navigation", "contentinfo"}  # site chrome around a page's content


@dataclass
class SnapshotLine:
    """One element line of a snapshot."""

    ref: str
    role: str
    name: str
    depth: int
    states: str
    chrome: bool


def parse_snapshot(text: str) -> list[SnapshotLine]:
    """The snapshot's element lines, each with whether it sits in the site's chrome (header, navigation, footer)."""
    lines: list[SnapshotLine] = []
    trail: list[tuple[int, str]] = []
    for raw in text.splitlines():
        if raw.startswith("#"):
            continue
        match = LINE.match(raw)
        if match is None:
            continue
        depth = len(match.group("indent"))
        while trail and trail[-1][0] >= depth:
            trail.pop()
        role = match.group("role")
        chrome = any(parent in CHROME for _, parent in trail) or role in CHROME
        name = json.loads(match.group("name")) if match.group("name") else ""
        lines.append(SnapshotLine(match.group("ref"), role, name, depth, match.group("states") or "", chrome))
        trail.append((depth, role))
    return lines
