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
# A board's states: `4×4: 2 · · · / · 4 · · / …` (· an empty cell, a cell with a space or a mark of the line quoted).
BOARD = re.compile(r"(?:^|, )\d+×\d+: (?P<cells>.*)$")
BOARD_CELL = re.compile(r'"(?:[^"\\]|\\.)*"|\S+')


@dataclass
class SnapshotLine:
    """One element line of a snapshot."""

    ref: str
    role: str
    name: str
    depth: int
    states: str
    chrome: bool

    @property
    def board(self) -> list[list[str]] | None:
        """A board line's cells row by row ('' for an empty one; the rows shown when the line is cut short), or None
        for any other line: `div "Board" e6 [4×4: 2 · · · / …]` is a board of the page's, read as a person reads it."""
        found = BOARD.search(self.states)
        if found is None:
            return None
        rows: list[list[str]] = [[]]
        for cell in BOARD_CELL.findall(found.group("cells")):
            if cell == "…":
                break
            if cell == "/":
                rows.append([])
            else:
                rows[-1].append("" if cell == "·" else json.loads(cell) if cell.startswith('"') else cell)
        return [row for row in rows if row]


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
