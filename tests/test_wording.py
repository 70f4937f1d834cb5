"""Counts read as finished sentences (issue 22): "1 run", "8 cases", never "8 case(s)" in anything the studio says."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from studio.wording import agree, plural

STUDIO = Path(__file__).resolve().parents[1] / "studio"
HEDGED = re.compile(r"[A-Za-z]\(s\)")


def test_plural_agrees_with_its_count():
    assert plural(1, "run") == "1 run" and plural(8, "case") == "8 cases" and plural(0, "scenario file") == \
        "0 scenario files"
    assert plural(2, "category") == "2 categories" and plural(3, "match") == "3 matches" and plural(2, "day") == \
        "2 days"
    assert plural(2, "person", "people") == "2 people"
    assert agree(1, "was", "were") == "was" and agree(3, "was", "were") == "were"


def test_no_string_the_studio_says_hedges_a_plural():
    hedged = []
    for path in STUDIO.rglob("*.py"):
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        for token in tokens:
            if token.type == tokenize.STRING and not token.string.startswith(('"""', "'''")):
                text = token.string.replace("http(s)", "")
                if HEDGED.search(text):
                    hedged.append(f"{path.relative_to(STUDIO.parent)}:{token.start[0]}: {token.string[:80]}")
    assert hedged == []
