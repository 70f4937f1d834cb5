"""What an edit renamed in a case (a route that moved, a page or control that got a new name), and the case's own
words brought along: the expected results, preconditions and step descriptions that name the old route or name say
the new one. Everything else, and every text naming neither, is left exactly as it was.

Routes match as whole paths ("/alerts" is not "/alerts-archive", "/api/alerts" or "/alerts/42"), names as whole
words, case as written; each text is reworded in one pass, so a new name that contains the old one is not renamed
twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from studio.models.testcase import TestCase

RenameKind = Literal["route", "name"]


@dataclass(frozen=True)
class Rename:
    """One thing the edit changed, as texts name it: a route (`/alerts` → `/notifications`) or a label."""

    kind: RenameKind
    old: str
    new: str

    def said(self) -> str:
        return f"{self.old} → {self.new}" if self.kind == "route" else f"'{self.old}' → '{self.new}'"


def route_moved(old: str, new: str) -> Rename | None:
    """A moved route worth rewording: not the root (a lone "/" in a sentence is rarely a route)."""
    return Rename("route", old, new) if old != new and len(old) > 1 else None


def renamed(old: str | None, new: str | None) -> Rename | None:
    """A renamed page or control; None when either name is unknown, or they do not differ."""
    old, new = (old or "").strip(), (new or "").strip()
    return Rename("name", old, new) if old and new and old != new and len(old) > 1 else None


def _pattern(rename: Rename, origin: str) -> str:
    old = re.escape(rename.old)
    if rename.kind == "route":
        # Preceded by nothing path-like (or by the case's own origin), followed by no more path.
        before = r"(?:^|(?<=[^\w/.\-])" + (f"|(?<={re.escape(origin)})" if origin else "") + ")"
        return before + old + r"(?![\w\-]|/[\w\-])"
    start = r"(?<!\w)" if rename.old[0].isalnum() or rename.old[0] == "_" else ""
    end = r"(?!\w)" if rename.old[-1].isalnum() or rename.old[-1] == "_" else ""
    return start + old + end


class Rewording:
    """The renames of one edited case, applied to any of its texts."""

    def __init__(self, renames: list[Rename], origin: str = "") -> None:
        unique = list(dict.fromkeys(renames))
        # Longest first: "Alerts centre" is renamed as a whole before "Alerts" could take its first word.
        self.renames = sorted(unique, key=lambda r: len(r.old), reverse=True)
        self.used: list[Rename] = []
        alternatives = [f"(?P<r{i}>{_pattern(r, origin)})" for i, r in enumerate(self.renames)]
        self._regex = re.compile("|".join(alternatives)) if alternatives else None

    def __call__(self, text: str) -> str:
        if self._regex is None or not text:
            return text
        return self._regex.sub(self._replace, text)

    def _replace(self, found: re.Match[str]) -> str:
        rename = self.renames[int(next(key for key, value in found.groupdict().items() if value is not None)[1:])]
        if rename not in self.used:
            self.used.append(rename)
        return rename.new


def reword_case(case: TestCase, renames: list[Rename | None]) -> list[Rename]:
    """Reword `case` in place; the renames that changed any of its texts (an empty list: it said neither).

    A step whose locator still targets a control by the old name keeps its words: that control was not renamed
    (a wizard's other "Next" buttons stay "Next" when one of them became "Continue")."""
    known = [r for r in renames if r is not None]
    parts = urlsplit(case.grounding.page_url or "")
    origin = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
    whole = Rewording(known, origin)
    case.expected_results = [whole(line) for line in case.expected_results]
    case.preconditions = [whole(line) for line in case.preconditions]
    used = list(whole.used)
    for step in case.steps:
        still = {(link.name or link.value or "") for link in step.locator.steps} if step.locator else set()
        reword = Rewording([r for r in known if r.kind == "route" or r.old not in still], origin)
        step.target, step.expected = reword(step.target), reword(step.expected)
        for outcome in step.outcomes:
            outcome.why = reword(outcome.why)
        used += [r for r in reword.used if r not in used]
    return used
