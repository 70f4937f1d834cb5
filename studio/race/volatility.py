"""Texts a test must not assert because they differ from run to run: times, dates, generated ids, progress messages.

A test that can flake is worse than none, so anything that looks like one of these is left out of the exported
assertions, with the reason said in a comment. What changes by itself while nobody acts (a clock, a rotating banner)
is found by the recorder itself (it compares the page between steps); these rules cover what one reading cannot tell.
"""

from __future__ import annotations

import re

_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?\s*([ap]\.?m\.?)?\b", re.IGNORECASE), "it looks like a time of day"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b"), "it looks like a date"),
    (re.compile(r"\b(just now|today|yesterday|tomorrow|\d+\s*(sec|second|min|minute|hour|day|week|month|year)s?"
                r"\s+ago|in\s+\d+\s*(sec|second|min|minute|hour|day)s?)\b", re.IGNORECASE), "it is a relative time"),
    (re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(,\s*\d{4})?\b", re.IGNORECASE),
     "it looks like a date"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE), "it looks like a generated id"),
    # Ten or more letters and digits with three digits or more: "lz3k9a8b2c", not "iPhone15Pro".
    (re.compile(r"\b(?=(?:[a-z]*\d){3})(?=[0-9]*[a-z])[0-9a-z]{10,}\b", re.IGNORECASE), "it looks like a generated id"),
    (re.compile(r"\b\d{6,}\b"), "it holds a long number (an id, a timestamp or an amount that changes)"),
    (re.compile(r"(…|\.\.\.)\s*$"), "it is a progress message, gone again by the time a check runs"),
)


def volatility(text: str) -> str | None:
    """Why `text` would make a flaky assertion, or None when it is safe to assert."""
    for pattern, reason in _RULES:
        if pattern.search(text):
            return reason
    return None
