"""Counts in words: "1 case", "8 cases", never "8 case(s)", which reads as unfinished in every sentence it is in."""

from __future__ import annotations

# Words whose plural is not the word and an "s".
_IRREGULAR = {"match": "matches", "category": "categories", "entry": "entries", "status": "statuses",
              "child": "children", "box": "boxes", "search": "searches", "is": "are", "was": "were"}


def plural(count: int | float, noun: str, plural_form: str | None = None) -> str:
    """`count` and `noun` in agreement: plural(1, "case") is "1 case", plural(8, "stored case") "8 stored cases"."""
    return f"{count} {noun if count == 1 else (plural_form or plural_of(noun))}"


def agree(count: int | float, one: str, many: str) -> str:
    """The verb that agrees with `count`: agree(1, "was", "were") is "was"."""
    return one if count == 1 else many


def plural_of(noun: str) -> str:
    """The plural of `noun` (its last word: "stored case" -> "stored cases")."""
    head, _, last = noun.rpartition(" ")
    word = _IRREGULAR.get(last) or (last[:-1] + "ies" if last.endswith("y") and last[-2:-1] not in "aeiou"
                                    else last + "es" if last.endswith(("s", "x", "ch", "sh")) else last + "s")
    return f"{head} {word}" if head else word
