"""Expected results written in words (a test case's) as assertions, when they name something a test can check.

A quoted text ("Dispute filed", “Saved”) must be visible; a page path (/disputes/confirm) must be where the test
ends up. An expected result naming neither becomes a comment that quotes it and says why it is not checked, so an
export never drops one silently.
"""

from __future__ import annotations

import re

from studio.export.literals import regex_escape
from studio.export.statements import ExpectState, ExpectUrl, Note, Statement, Subject
from studio.models.locator import LocatorSpec, LocatorStep
from studio.race.volatility import volatility

# Double quotes of any kind; single quotes only as a pair around words (not the apostrophe in "user's").
_QUOTED = re.compile(r"\"([^\"]{1,120})\"|“([^”]{1,120})”|«\s*([^»]{1,120}?)\s*»|(?<![\w])'([^']{1,120})'(?![\w])")
# A page path as its own word: "/disputes/confirm", "/" (not a date's slash, not part of a URL's host).
_PATH = re.compile(r"(?<![\w/.:])(/(?:[A-Za-z0-9._~%!$&()*+,;=:@/-]*[A-Za-z0-9_~/-])?)(?![\w/])")
MAX_TEXTS = 3


def quoted_texts(text: str) -> list[str]:
    return [next(group for group in match.groups() if group).strip() for match in _QUOTED.finditer(text)]


def expectation_checks(expected: str, asserted_by_steps: list[str]) -> list[Statement]:
    """Assertions for one expected result, or one comment saying why it could not be asserted."""
    expected = " ".join(expected.split())
    if not expected:
        return []
    said = f"Expected: {expected}"
    texts = [t for t in dict.fromkeys(quoted_texts(expected)) if t]
    checked_elsewhere = [t for t in texts if any(t.casefold() in other.casefold() for other in asserted_by_steps)]
    statements: list[Statement] = []
    for text in [t for t in texts if t not in checked_elsewhere][:MAX_TEXTS]:
        if reason := volatility(text):
            statements.append(Note(why=f'{said} — "{text}" is not checked: {reason}.'))
            continue
        # .first: the text may be shown in several places; the case asks that it is shown.
        locator = LocatorSpec(strategy="text", steps=[LocatorStep(kind="text", value=text),
                                                      LocatorStep(kind="first")])
        statements.append(ExpectState(subject=Subject(locator=locator), state="visible",
                                      why=said if not statements else None))
    if statements or checked_elsewhere:
        return statements or [Note(why=f"{said} — checked by the expect step above.")]
    paths = _PATH.findall(expected)
    if paths:
        # The path from the site's root, with any query or fragment after it.
        return [ExpectUrl(pattern="://[^/]+" + regex_escape(paths[0]) + r"(?:[?#].*)?$", why=said)]
    if any(other and other.casefold() in expected.casefold() for other in asserted_by_steps):
        return [Note(why=f"{said} — checked by the expect step above.")]
    return [Note(why=f'Expected result not asserted: "{expected}" names no text to see (in quotes) and no page '
                     "path, so there is nothing this test can check for it. Quote the text the page shows, or add "
                     "an expect step.")]
