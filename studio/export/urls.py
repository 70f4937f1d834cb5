"""URLs in exported tests: relative to the recording's origin, and matched by path so any base URL works."""

from __future__ import annotations

from urllib.parse import urlsplit

from studio.browser.urls import path_of
from studio.export.literals import regex_escape


def origin_of(url: str) -> str | None:
    """scheme://host:port of an http(s) URL, or None for about:blank and friends."""
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return None


def local_part(url: str) -> str:
    """Path, query and fragment: everything the base URL does not decide."""
    fragment = urlsplit(url).fragment
    return path_of(url) + (f"#{fragment}" if fragment else "")


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
