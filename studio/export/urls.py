"""URLs in exported tests: relative to the recording's origin, and matched by path so any base URL works."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from studio.browser.urls import local_part
from studio.export.literals import regex_escape
from studio.race.volatility import volatility

_ID_SEGMENT = re.compile(r"\d+")


def origin_of(url: str) -> str | None:
    """scheme://host:port of an http(s) URL, or None for about:blank and friends."""
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return None


def relative_url(url: str, origin: str | None) -> str:
    """The local part when `url` is on the recording's origin, so the configured base URL picks the host."""
    if origin is None or origin_of(url) != origin:
        return url
    return local_part(url)


def url_pattern(url: str) -> str:
    """A regex matching the page URL by its local part, anchored at the end: '/dashboard$'."""
    return regex_escape(local_part(url)) + "$"


def same_local_part(a: str, b: str) -> bool:
    return urlsplit(a).path == urlsplit(b).path


def check_pattern(url: str) -> str:
    """url_pattern for a check of where a step led: path segments that are record ids (numbers, generated ids) match
    any value, since a rerun creates other records (/items/13 today, /items/14 next time)."""
    parts = urlsplit(url)
    segments = [r"[^/?#]+" if _ID_SEGMENT.fullmatch(segment) or (segment and volatility(segment)) else regex_escape(segment)
                for segment in parts.path.split("/")]
    rest = local_part(url)[len(parts.path or "/"):] if parts.path else local_part(url)[1:]
    return "/".join(segments) + regex_escape(rest) + "$"
