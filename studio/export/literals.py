"""Literals and names both writers share: string and regex literals, identifiers cased for each language."""

from __future__ import annotations

import json
import keyword
import re
import textwrap

# Words neither language may use as a variable, plus the names the generated tests already use.
_JS_RESERVED = {
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
    "enum", "export", "extends", "false", "finally", "for", "function", "if", "implements", "import", "in",
    "instanceof", "interface", "let", "new", "null", "package", "private", "protected", "public", "return",
    "static", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
    "yield", "await", "async", "arguments", "eval", "undefined",
}
TAKEN_NAMES = {"page", "expect", "test", "re", "os", "process", "r", "response", "response_info",
               "response_promise"}
_REGEX_SPECIAL = set("\\^$.|?*+()[]{}")


_LINE_BREAKING = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


def string_literal(text: str) -> str:
    """A double-quoted literal valid in Python and in JavaScript (JSON strings are both)."""
    return json.dumps(text, ensure_ascii=False)


def comment_lines(text: str, width: int) -> list[str]:
    """Comment text wrapped to `width`, with every character that could end a comment line made a space."""
    return textwrap.wrap(_LINE_BREAKING.sub(" ", text), width=max(width, 20), break_long_words=False,
                         break_on_hyphens=False)


def regex_escape(text: str) -> str:
    """Escape regex metacharacters with a backslash only, so the pattern means the same in Python and JavaScript."""
    return "".join("\\" + ch if ch in _REGEX_SPECIAL else ch for ch in text)


def python_regex(pattern: str) -> str:
    """`re.compile(r"…")`, falling back to a plain literal when a raw string cannot hold the pattern."""
    if '"' in pattern or pattern.endswith("\\") or _LINE_BREAKING.search(pattern):
        return f"re.compile({string_literal(pattern)})"
    return f're.compile(r"{pattern}")'


def javascript_regex(pattern: str) -> str:
    """A /…/ regex literal; a slash that is not already escaped is escaped for the literal."""
    if _LINE_BREAKING.search(pattern):
        return f"new RegExp({string_literal(pattern)})"
    return "/" + re.sub(r"(?<!\\)/", r"\\/", pattern) + "/"


def words(text: str) -> list[str]:
    """Lower-case ASCII words of a label, e.g. "Add to Cart" -> ["add", "to", "cart"]."""
    return re.findall(r"[a-z0-9]+", text.casefold())


def snake_case(parts: list[str]) -> str:
    return "_".join(parts)


def camel_case(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def is_reserved(snake: str) -> bool:
    return (keyword.iskeyword(snake) or snake in TAKEN_NAMES or camel_case(snake) in _JS_RESERVED
            or camel_case(snake) in TAKEN_NAMES)


class NameBook:
    """Hands out variable names that are unique within one test and legal in both languages."""

    def __init__(self) -> None:
        self._used: set[str] = set()

    def claim(self, label: str, fallback: str = "target") -> str:
        parts = words(label)[:5] or [fallback]
        base = snake_case(parts)
        if base[0].isdigit() or is_reserved(base):
            base = f"{fallback}_{base}"
        name, n = base, 2
        while name in self._used:
            name, n = f"{base}_{n}", n + 1
        self._used.add(name)
        return name


def sentence_start(text: str) -> str:
    """Capitalize the first letter only: 'the "Email" field' -> 'The "Email" field'."""
    return text[:1].upper() + text[1:]
