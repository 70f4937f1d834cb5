"""Bounds on YAML a user or a colleague hands the studio (scenario files, answers files): a few hundred bytes of
aliases can stand for gigabytes once expanded (a "billion laughs"), and thousands of nested levels end in a
RecursionError. The event stream is read first, without building anything, counting the values the text stands
for once every alias is expanded; a file past a bound is refused with the line where it went past, in one
sentence."""

from __future__ import annotations

import yaml

MAX_VALUES = 100_000  # values once aliases are expanded: a scenario or an answers file holds a few hundred
MAX_DEPTH = 64  # a scenario is a few levels deep


class YamlTooComplex(ValueError):
    """The text goes past a bound; `line` and `column` (1-based) say where, the message says which."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line, self.column = line, column


def check_bounds(text: str, max_values: int = MAX_VALUES, max_depth: int = MAX_DEPTH) -> None:
    """Raise YamlTooComplex when `text` stands for more than `max_values` values once its aliases are expanded, or
    nests deeper than `max_depth`; yaml.YAMLError for text that is not YAML (the caller says that as it does)."""
    sizes: dict[str, int] = {}  # anchor -> the values its node stands for
    open_: list[tuple[str | None, int]] = []  # the collections being read: their anchor and values so far
    total = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        mark = event.start_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_) >= max_depth:
                raise YamlTooComplex(f"it is nested too deeply (more than {max_depth} levels); a scenario or an "
                                     "answers file is a few levels deep", line, column)
            open_.append((event.anchor, 1))
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, count = open_.pop()
        elif isinstance(event, yaml.ScalarEvent):
            anchor, count = event.anchor, 1
        elif isinstance(event, yaml.AliasEvent):
            anchor, count = None, sizes.get(event.anchor or "", 1)
        else:
            continue
        if anchor:
            sizes[anchor] = count
        if open_:
            open_[-1] = (open_[-1][0], open_[-1][1] + count)
        else:
            total += count
        if total + sum(values for _, values in open_) > max_values:
            raise YamlTooComplex(f"its aliases stand for more than {max_values:,} values once expanded, far more "
                                 "than the file holds; write the values out instead", line, column)
