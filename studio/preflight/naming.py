"""Names of areas (pages, modules, suites) from what stays put: a heading that reads as a name and is the same after a
reload, the document title cleaned of separators, the address — never a balance ("$0.00"), a score, or a word the page
draws at random on each load."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from studio.models.catalog import PageCatalog

_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
# What titles put between their parts, and stray punctuation at their ends (": Todo", "Todo | ", "— Shop").
_EDGES = re.compile(r"^[\s:|·•—–\-/,;.]+|[\s:|·•—–\-/,;]+$")


def looks_like_name(text: str) -> bool:
    """Words rather than a value: two letters at least, and letters are most of what is written (not "$0.00",
    "12:30", "Q3 2024")."""
    written = re.sub(r"\s+", "", text or "")
    letters = len(_LETTER.findall(written))
    return letters >= 2 and letters * 2 >= len(written)


def page_heading(headings: list[str]) -> str:
    """The page's heading as a name: the first of its headings (level 1 first) that reads as one; "" if none."""
    return next((text for text in headings if looks_like_name(text)), "")


def clean_title(title: str) -> str:
    """A document title without the separators an empty part leaves (": Todo" → "Todo"); "" when no name is left."""
    cleaned = _EDGES.sub("", title or "").strip()
    return cleaned if looks_like_name(cleaned) else ""


def stable_heading(catalog: PageCatalog, earlier: PageCatalog | None) -> str:
    """The page's heading as a name, among the headings an earlier load of the same page showed too (a heading that
    differs after a reload — a random word, a count — is no name)."""
    if earlier is None:
        return page_heading(catalog.headings)
    before = set(earlier.headings)
    return page_heading([text for text in catalog.headings if text in before])


def area_name(catalog: PageCatalog, fallback: str = "Home") -> str:
    """What to call a page's area: its heading, else its title, else the words of its address, else `fallback`."""
    if catalog.heading and looks_like_name(catalog.heading):
        return catalog.heading
    title = clean_title(catalog.title)
    if title:
        return title
    path = urlsplit(catalog.url).path if catalog.url else catalog.path
    words = [w for w in re.split(r"[^A-Za-z0-9]+", path or "") if w and not w.isdigit()]
    return " ".join(words).capitalize() or fallback
