"""What the test-case editor needs besides widgets: a tester's locator text read back into a LocatorSpec, and a
one-line summary of what a save changed (the version history shows it). No Qt here."""

from __future__ import annotations

import ast

from studio.models.locator import LocatorKind, LocatorSpec, LocatorStep, Strategy
from studio.models.testcase import CaseStep, TestCase

_SIMPLE: dict[str, LocatorKind] = {"get_by_test_id": "test_id", "get_by_label": "label",
                                   "get_by_placeholder": "placeholder", "get_by_text": "text", "locator": "css"}
_STRATEGY: dict[str, Strategy] = {"role": "role", "test_id": "test_id", "label": "label", "placeholder": "placeholder",
                                  "text": "text", "css": "css"}


class LocatorTextError(ValueError):
    """Locator text that is not a Playwright locator chain the studio can store."""


def _constant(node: ast.expr, what: str) -> object:
    if not isinstance(node, ast.Constant):
        raise LocatorTextError(f"{what} must be a literal (a quoted string, a number or True).")
    return node.value


def _link(name: str, args: list[ast.expr], keywords: dict[str, ast.expr]) -> LocatorStep:
    exact = bool(_constant(keywords["exact"], "exact")) if "exact" in keywords else False
    if name == "get_by_role":
        if len(args) != 1:
            raise LocatorTextError("get_by_role takes the role first, e.g. get_by_role(\"button\", name=\"Next\").")
        name_value = _constant(keywords["name"], "name") if "name" in keywords else None
        return LocatorStep(kind="role", role=str(_constant(args[0], "The role")),
                           name=None if name_value is None else str(name_value), exact=exact)
    if name in _SIMPLE:
        if len(args) != 1:
            raise LocatorTextError(f"{name} takes one quoted value.")
        return LocatorStep(kind=_SIMPLE[name], value=str(_constant(args[0], "Its value")), exact=exact)
    if name == "filter":
        if "has_text" not in keywords:
            raise LocatorTextError("filter needs has_text=\"…\".")
        return LocatorStep(kind="filter_text", value=str(_constant(keywords["has_text"], "has_text")))
    if name == "nth":
        index = _constant(args[0], "nth's index") if args else None
        if not isinstance(index, int):
            raise LocatorTextError("nth takes a whole number, e.g. nth(0).")
        return LocatorStep(kind="nth", index=index)
    raise LocatorTextError(f"{name}() is not a locator call the studio knows; use get_by_role, get_by_label, "
                           "get_by_test_id, get_by_text, get_by_placeholder, locator, filter or nth.")


def parse_locator(text: str) -> LocatorSpec | None:
    """Read `page.get_by_role("button", name="Next", exact=True)`-style text; None for empty text."""
    text = text.strip()
    if not text:
        return None
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError as error:
        raise LocatorTextError(f"This is not Python: {error.msg}.") from None
    links: list[LocatorStep] = []
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        links.append(_link(node.func.attr, list(node.args), keywords))
        node = node.func.value
    if not (isinstance(node, ast.Name) and node.id == "page") or not links:
        raise LocatorTextError("A locator starts at the page, e.g. page.get_by_role(\"button\", name=\"Next\").")
    links.reverse()
    kinds = {link.kind for link in links}
    strategy: Strategy = ("nth" if "nth" in kinds else "scoped" if "filter_text" in kinds
                          else _STRATEGY.get(links[0].kind, "css"))
    return LocatorSpec(steps=links, strategy=strategy)


# -- what a save changed ------------------------------------------------------------------------------------

_STEP_FIELDS = ("action", "target", "locator", "url", "data", "expected")


def _step_changes(before: list[CaseStep], after: list[CaseStep]) -> list[str]:
    parts: list[str] = []
    if len(after) > len(before):
        added = len(after) - len(before)
        parts.append(f"added {added} step{'s' if added > 1 else ''}")
    elif len(after) < len(before):
        removed = len(before) - len(after)
        parts.append(f"removed {removed} step{'s' if removed > 1 else ''}")
    changed = [index + 1 for index, (old, new) in enumerate(zip(before, after)) if old != new]
    if len(changed) == 1 and len(before) == len(after):
        index = changed[0]
        old, new = before[index - 1], after[index - 1]
        what = [name for name in _STEP_FIELDS if getattr(old, name) != getattr(new, name)]
        parts.append(f"changed step {index}'s {' and '.join(what)}")
    elif changed and len(before) == len(after) and sorted(before, key=repr) == sorted(after, key=repr):
        parts.append("reordered the steps")
    elif changed:
        parts.append(f"edited step{'s' if len(changed) > 1 else ''} {', '.join(map(str, changed[:6]))}")
    return parts


def _list_change(name: str, before: list[str], after: list[str]) -> str | None:
    if before == after:
        return None
    added = [item for item in after if item not in before]
    removed = [item for item in before if item not in after]
    if added and not removed:
        return f"added {len(added)} {name}"
    if removed and not added:
        return f"removed {len(removed)} {name}"
    return f"edited the {name}"


def change_summary(before: TestCase | None, after: TestCase) -> str:
    """A sentence for the version history, e.g. "Priority P2 → P1; changed step 3's data"; "" when nothing changed."""
    if before is None:
        return f"Created by the tester with {len(after.steps)} step{'s' if len(after.steps) != 1 else ''}."
    parts: list[str] = []
    if before.title != after.title:
        parts.append(f"renamed to '{after.title}'")
    for name, label in (("priority", "priority"), ("status", "status"), ("gap_type", "gap type"),
                        ("suite_id", "suite")):
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            parts.append(f"{label} {old or 'none'} → {new or 'none'}")
    parts += _step_changes(before.steps, after.steps)
    for name, label in (("preconditions", "preconditions"), ("expected_results", "expected results"),
                        ("tags", "tags")):
        change = _list_change(label, getattr(before, name), getattr(after, name))
        if change:
            parts.append(change)
    if not parts:
        return ""
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."
