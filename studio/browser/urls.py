"""URL handling for what a tester types: which URLs the studio opens (one policy for every front end), and paths."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")

# The one URL policy of every front end (CLI, MCP, GUI, preflight): web pages always; local files and inline
# documents only on request, since a page opened from them ends up in recordings, exports and model prompts.
ALLOW_FILES_FLAG = "--allow-file-urls"
LOCAL_SCHEMES = ("file", "data")
POLICY = (f"only http and https pages (and about:blank) are opened, and file: and data: URLs only when the "
          f"command was started with {ALLOW_FILES_FLAG}")


def normalize_url(text: str, allow_files: bool = False) -> str:
    """Turn typed text into a URL the studio may open ('localhost:8000/x' -> 'http://localhost:8000/x').

    Raises ValueError with a sentence for anything else: file: and data: URLs are refused unless `allow_files`.
    """
    candidate = text.strip()
    if not candidate:
        raise ValueError("Type a URL, for example http://127.0.0.1:8000/")
    shown = candidate if len(candidate) <= 80 else candidate[:77] + "..."
    host_and_port = re.match(r"^[\w.-]+:\d", candidate) is not None  # 'localhost:8000' has no scheme
    scheme = "" if host_and_port or not _SCHEME.match(candidate) else candidate.split(":", 1)[0].lower()
    if candidate.lower() == "about:blank":
        return "about:blank"
    if scheme in LOCAL_SCHEMES:
        if allow_files:
            return candidate
        raise ValueError(f"{shown!r} is a {'local file' if scheme == 'file' else 'data:'} URL; {POLICY}")
    if not scheme:
        candidate = "http://" + candidate
    parts = urlsplit(candidate)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"{shown!r} uses the {parts.scheme}: scheme; {POLICY}")
    if not parts.hostname:
        raise ValueError(f"{shown!r} has no host name; try http://127.0.0.1:8000/")
    if " " in parts.netloc:
        raise ValueError(f"{shown!r} has a space in the host name")
    return candidate


def is_allowed(url: str, allow_files: bool = False) -> bool:
    """Whether the URL policy lets an absolute URL found on a page or in a stored case be opened."""
    try:
        normalize_url(url, allow_files=allow_files)
    except ValueError:
        return False
    return True


def path_of(url: str) -> str:
    """The path (with query) of a URL, as shown in summaries: 'http://h/a?b=1' -> '/a?b=1'."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def local_part(url: str) -> str:
    """Path, query and fragment: everything the base URL does not decide ('http://h/a?b=1#/2' -> '/a?b=1#/2')."""
    fragment = urlsplit(url).fragment
    return path_of(url) + (f"#{fragment}" if fragment else "")
