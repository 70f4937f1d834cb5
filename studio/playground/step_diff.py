"""How a case changed between two versions, step by step: steps are matched by what they do, not by their number,
so a step that only got a new number is unchanged, a step that went elsewhere is moved, an edited step is changed
(with its old and new words), and the rest are added or removed. The same matching compares expected results."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from studio.models.testcase import CaseStep, TestCase

ChangeKind = Literal["unchanged", "moved", "changed", "added", "removed"]
WordKind = Literal["same", "removed", "added"]
STEP_FIELDS = ("action", "target", "locator", "url", "data", "expected")
SIMILAR = 0.5  # two steps at least this alike (by their words) are one step edited, not one removed and one added


@dataclass(frozen=True)
class ItemChange:
    """One item (a step or a line) of the newer version, or one the newer version dropped."""

    kind: ChangeKind
    old_index: int | None  # 0-based position before; None when added
    new_index: int | None  # 0-based position after; None when removed
    fields: tuple[str, ...] = ()  # what differs in a changed (or moved and edited) step
    direction: Literal["up", "down", ""] = ""  # where a moved item went among the items kept in place

    @property
    def old_number(self) -> int | None:
        return None if self.old_index is None else self.old_index + 1

    @property
    def new_number(self) -> int | None:
        return None if self.new_index is None else self.new_index + 1

    @property
    def renumbered(self) -> bool:
        """Kept in place among its neighbours, but under another number (steps were added or removed before it)."""
        return self.kind in ("unchanged", "changed") and self.old_index != self.new_index


@dataclass(frozen=True)
class StepChange(ItemChange):
    old: CaseStep | None = None
    new: CaseStep | None = None


@dataclass(frozen=True)
class LineChange(ItemChange):
    old: str | None = None
    new: str | None = None


@dataclass
class CaseDiff:
    """What changed from `before` to `after`: the plain fields, preconditions, steps and expected results."""

    fields: list[tuple[str, str, str]] = field(default_factory=list)  # (label, old, new) of what differs
    preconditions: list[LineChange] = field(default_factory=list)
    steps: list[StepChange] = field(default_factory=list)
    expected_results: list[LineChange] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many steps were renumbered, moved, changed, added and removed (the unchanged are not counted)."""
        found = {"renumbered": sum(1 for s in self.steps if s.kind == "unchanged" and s.renumbered)}
        for kind in ("moved", "changed", "added", "removed"):
            found[kind] = sum(1 for s in self.steps if s.kind == kind)
        return found


def normalised(text: str) -> str:
    return " ".join(text.lower().split())


def step_fields(step: CaseStep) -> dict[str, str]:
    """A step as the texts a tester reads, one per field."""
    return {"action": step.action, "target": step.target, "locator": step.locator.python() if step.locator else "",
            "url": step.url or "", "data": step.data or "", "expected": step.expected}


def step_key(step: CaseStep) -> str:
    """What a step does, whatever its number: its fields, normalised."""
    return " | ".join(normalised(text) for text in step_fields(step).values())


# Locator syntax every step shares says nothing about whether two steps are one: only the words count.
_BOILERPLATE = {"page", "get_by_role", "get_by_label", "get_by_text", "get_by_test_id", "get_by_placeholder",
                "locator", "filter", "has_text", "nth", "first", "name", "exact", "true", "false"}


def _words(text: str) -> list[str]:
    return [word for word in re.findall(r"\w+", text) if word not in _BOILERPLATE]


def similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, _words(a), _words(b), autojunk=False).ratio()


def _in_order(pairs: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The largest set of pairs whose new positions keep their old order (a longest increasing subsequence)."""
    best: list[list[tuple[int, int]]] = []  # the longest chain ending at each pair
    for pair in sorted(pairs):
        longest: list[tuple[int, int]] = []
        for chain in best:
            if chain[-1][1] < pair[1] and len(chain) > len(longest):
                longest = chain
        best.append([*longest, pair])
    result: list[tuple[int, int]] = []
    for chain in best:
        result = chain if len(chain) > len(result) else result
    return set(result)


def match(old: list[str], new: list[str], threshold: float = SIMILAR) -> list[ItemChange]:
    """Pair the items of two versions by their (normalised) text and order them as the newer version reads, each
    removed item after the kept item that preceded it."""
    opcodes = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    kinds: dict[int, tuple[int, ChangeKind]] = {}  # old index -> (new index, kind)
    loose_old: dict[int, int] = {}  # old index -> its block
    loose_new: dict[int, int] = {}
    for block, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            kinds.update({i1 + k: (j1 + k, "unchanged") for k in range(i2 - i1)})
        else:
            loose_old.update(dict.fromkeys(range(i1, i2), block))
            loose_new.update(dict.fromkeys(range(j1, j2), block))
    # The same text elsewhere: moved. Then the most alike pairs: edited (moved too when it left its place).
    for i in list(loose_old):
        j = min((j for j in loose_new if new[j] == old[i]), key=lambda j: abs(j - i), default=None)
        if j is not None:
            kinds[i] = (j, "moved")
            del loose_old[i], loose_new[j]
    scored = sorted(((similarity(old[i], new[j]) + (0.01 if loose_old[i] == loose_new[j] else 0), i, j)
                     for i in loose_old for j in loose_new), reverse=True)
    similar: list[tuple[int, int]] = []
    for score, i, j in scored:
        if score >= threshold and i in loose_old and j in loose_new:
            similar.append((i, j))
            del loose_old[i], loose_new[j]
    by_block: dict[int, list[tuple[int, int]]] = {}
    for i, j in similar:
        by_block.setdefault(_block_of(opcodes, i, j), []).append((i, j))
    for block, pairs in by_block.items():
        in_place = _in_order(pairs) if block >= 0 else set()
        for i, j in pairs:
            kinds[i] = (j, "changed" if (i, j) in in_place else "moved")
    anchors = [(i, j) for i, (j, kind) in kinds.items() if kind in ("unchanged", "changed")]

    def direction(i: int, j: int) -> Literal["up", "down", ""]:
        before = sum(1 for a, _ in anchors if a < i) - sum(1 for _, b in anchors if b < j)
        if before == 0:
            before = i - j
        return "up" if before > 0 else "down" if before < 0 else ""

    shown = sorted([ItemChange(kind, i, j, direction=direction(i, j) if kind == "moved" else "")
                    for i, (j, kind) in kinds.items()]
                   + [ItemChange("added", None, j) for j in loose_new], key=lambda c: c.new_index or 0)
    for i in sorted(loose_old):
        kept_before = [n for n, c in enumerate(shown) if c.kind in ("unchanged", "changed")
                       and c.old_index is not None and c.old_index < i]
        removed_before = [n for n, c in enumerate(shown) if c.kind == "removed" and (c.old_index or 0) < i]
        at = max([*kept_before, *removed_before], default=-1) + 1
        shown.insert(at, ItemChange("removed", i, None))
    return shown


def _block_of(opcodes: Sequence[tuple[str, int, int, int, int]], i: int, j: int) -> int:
    """The opcode block holding both old item `i` and new item `j`; -1 when they sit in different blocks."""
    for block, (_tag, i1, i2, j1, j2) in enumerate(opcodes):
        if i1 <= i < i2 and j1 <= j < j2:
            return block
    return -1


def diff_steps(before: list[CaseStep], after: list[CaseStep]) -> list[StepChange]:
    """The steps of `after` (and those it dropped), each with how it relates to `before`."""
    changes = []
    for change in match([step_key(s) for s in before], [step_key(s) for s in after]):
        old = before[change.old_index] if change.old_index is not None else None
        new = after[change.new_index] if change.new_index is not None else None
        fields: tuple[str, ...] = ()
        if old is not None and new is not None:
            old_fields, new_fields = step_fields(old), step_fields(new)
            fields = tuple(name for name in STEP_FIELDS if old_fields[name] != new_fields[name])
        changes.append(StepChange(change.kind, change.old_index, change.new_index, fields, change.direction, old,
                                  new))
    return changes


def diff_lines(before: list[str], after: list[str]) -> list[LineChange]:
    """Lines (preconditions, expected results) matched as steps are."""
    changes = []
    for change in match([normalised(line) for line in before], [normalised(line) for line in after]):
        old = before[change.old_index] if change.old_index is not None else None
        new = after[change.new_index] if change.new_index is not None else None
        changes.append(LineChange(change.kind, change.old_index, change.new_index, (), change.direction, old, new))
    return changes


def word_diff(old: str, new: str) -> list[tuple[WordKind, str]]:
    """`old` → `new` as runs of kept, removed and added text (spaces kept), for highlighting the words that changed."""
    a, b = re.findall(r"\s+|\w+|[^\w\s]", old), re.findall(r"\s+|\w+|[^\w\s]", new)
    runs: list[tuple[WordKind, str]] = []

    def put(kind: WordKind, text: str) -> None:
        if not text:
            return
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + text)
        else:
            runs.append((kind, text))

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            put("same", "".join(a[i1:i2]))
        else:
            put("removed", "".join(a[i1:i2]))
            put("added", "".join(b[j1:j2]))
    return runs


def diff_case(before: TestCase, after: TestCase) -> CaseDiff:
    fields = []
    for name, label in (("title", "Title"), ("priority", "Priority"), ("status", "Status"),
                        ("gap_type", "Gap type"), ("suite_id", "Suite")):
        old, new = getattr(before, name) or "", getattr(after, name) or ""
        if old != new:
            fields.append((label, str(old), str(new)))
    if before.tags != after.tags:
        fields.append(("Tags", ", ".join(before.tags), ", ".join(after.tags)))
    return CaseDiff(fields=fields, preconditions=diff_lines(before.preconditions, after.preconditions),
                    steps=diff_steps(before.steps, after.steps),
                    expected_results=diff_lines(before.expected_results, after.expected_results))
