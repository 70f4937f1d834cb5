"""URL handling for what a tester types into the URL bar."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def normalize_url(text: str) -> str:
    """Turn typed text into a URL: 'localhost:8000/x' -> 'http://localhost:8000/x'; raises ValueError when hopeless."""
    candidate = text.strip()
    if not candidate:
        raise ValueError("Type a URL, for example http://127.0.0.1:8000/")
    if candidate.startswith(("about:", "data:", "file:")):
        return candidate
    if not _SCHEME.match(candidate) or re.match(r"^[\w.-]+:\d", candidate):
        candidate = "http://" + candidate
    parts = urlsplit(candidate)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"{text.strip()!r} uses the {parts.scheme}: scheme; only http and https pages can be explored")
    if not parts.hostname:
        raise ValueError(f"{text.strip()!r} has no host name; try http://127.0.0.1:8000/")
    if " " in parts.netloc:
        raise ValueError(f"{text.strip()!r} has a space in the host name")
    return candidate


def path_of(url: str) -> str:
    """The path (with query) of a URL, as shown in summaries: 'http://h/a?b=1' -> '/a?b=1'."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
