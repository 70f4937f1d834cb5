"""The `when:` expressions of progressive hints: comparisons of the run's signals with numbers, joined with and / or
/ not and parentheses — "stagnation >= 5", "steps >= 30 and no_progress_steps > 3", "circular_navigation".

Parsed once (a scenario with a bad expression is refused at validation, with the reason), evaluated after every step
against the run's signals. Nothing else is evaluated: an expression is never Python.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

# What an expression may name: the stagnation signals (seed 004), and the run's own counters.
SIGNALS = {
    "stagnation": "the largest of the stagnation signals below (steps without progress, repeats)",
    "steps": "steps taken so far",
    "repeated_clicks": "clicks on an element already clicked, in the last 10 steps",
    "same_url_visits": "steps that came back to a URL already visited, in the last 10 steps",
    "no_progress_steps": "steps in a row that changed neither the URL nor the page",
    "circular_navigation": "1 when the last pages visited form a cycle (A → B → A), else 0",
    "elapsed_s": "seconds since the scenario started",
    "cost_usd": "model cost so far, in US dollars",
    "hints_used": "hints given so far",
}
OPERATORS: dict[str, Callable[[float, float], bool]] = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}
TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d+)?)|(?P<op>>=|<=|==|!=|>|<)|(?P<paren>[()])|(?P<name>[A-Za-z_]\w*)"
                   r"|(?P<bad>\S))")


class ExpressionError(ValueError):
    """An expression that cannot be read; str() says where and why."""


@dataclass(frozen=True)
class Node:
    kind: str  # "cmp", "name", "and", "or", "not"
    parts: tuple = ()

    def evaluate(self, signals: Mapping[str, float]) -> bool:
        if self.kind == "cmp":
            name, op, number = self.parts
            return OPERATORS[op](float(signals.get(name, 0)), number)
        if self.kind == "name":
            return bool(signals.get(self.parts[0], 0))
        if self.kind == "not":
            return not self.parts[0].evaluate(signals)
        results = (part.evaluate(signals) for part in self.parts)
        return all(results) if self.kind == "and" else any(results)


def parse_expression(text: str) -> Node:
    """The expression's tree; raises ExpressionError naming the problem (an unknown signal with the signals known)."""
    tokens = _tokens(text)
    if not tokens:
        raise ExpressionError("the expression is empty; write a comparison such as 'stagnation >= 5'")
    parser = _Parser(text, tokens)
    node = parser.expression()
    if parser.position < len(tokens):
        raise ExpressionError(f"unexpected {tokens[parser.position][1]!r} in {text!r}")
    return node


def _tokens(text: str) -> list[tuple[str, str]]:
    found = []
    for match in TOKEN.finditer(text):
        kind = match.lastgroup
        value = match.group(kind) if kind else ""
        if kind == "bad":
            raise ExpressionError(f"{value!r} cannot be read in {text!r}; use >=, <=, >, <, ==, !=, and, or, not")
        if kind == "name" and value in ("and", "or", "not"):
            kind = value
        if kind:
            found.append((kind, value))
    return found


class _Parser:
    def __init__(self, text: str, tokens: list[tuple[str, str]]) -> None:
        self.text, self.tokens, self.position = text, tokens, 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise ExpressionError(f"{self.text!r} ends too early")
        self.position += 1
        return token

    def expression(self) -> Node:
        parts = [self.term()]
        while (token := self.peek()) is not None and token[0] == "or":
            self.take()
            parts.append(self.term())
        return parts[0] if len(parts) == 1 else Node("or", tuple(parts))

    def term(self) -> Node:
        parts = [self.factor()]
        while (token := self.peek()) is not None and token[0] == "and":
            self.take()
            parts.append(self.factor())
        return parts[0] if len(parts) == 1 else Node("and", tuple(parts))

    def factor(self) -> Node:
        kind, value = self.take()
        if kind == "not":
            return Node("not", (self.factor(),))
        if kind == "paren" and value == "(":
            inner = self.expression()
            if self.peek() != ("paren", ")"):
                raise ExpressionError(f"a parenthesis is not closed in {self.text!r}")
            self.take()
            return inner
        if kind != "name":
            raise ExpressionError(f"expected a signal name where {value!r} is, in {self.text!r}")
        if value not in SIGNALS:
            near = difflib.get_close_matches(value, SIGNALS, n=1)
            hint = f"did you mean {near[0]!r}?" if near else f"known: {', '.join(SIGNALS)}"
            raise ExpressionError(f"unknown signal {value!r} in {self.text!r}; {hint}")
        token = self.peek()
        if token is None or token[0] != "op":
            return Node("name", (value,))
        self.take()
        kind, number = self.take()
        if kind != "number":
            raise ExpressionError(f"{value} {token[1]} must be followed by a number, not {number!r}, in {self.text!r}")
        return Node("cmp", (value, token[1], float(number)))
