"""Origins (scheme://host:port): which ones an agent may open on its own, and which ones a job is pinned to.

A job is pinned to the origin the tester gave (and the ones they confirmed): the agent does not wander off it
without asking, and answers such as passwords and one-time codes are only ever typed into its pages.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


class OriginPolicy:
    """The origins (scheme://host:port) an agent may navigate to on its own; anything else asks the user first."""

    def __init__(self, allowed_origins: Iterable[str]) -> None:
        self._allowed: set[str] = set()
        for origin in allowed_origins:
            self.allow(origin)

    def __repr__(self) -> str:
        return f"OriginPolicy({sorted(self._allowed)!r})"

    @property
    def allowed_origins(self) -> frozenset[str]:
        return frozenset(self._allowed)

    @staticmethod
    def origin_of(url: str) -> str | None:
        """"https://app.example:8443" for any URL on that origin; None for non-web or malformed URLs."""
        try:
            parts = urlsplit(url.strip())
            port = parts.port
        except ValueError:  # e.g. a port outside 0..65535
            return None
        scheme = parts.scheme.lower()
        if scheme not in _DEFAULT_PORTS or not parts.hostname:
            return None
        host = parts.hostname.lower()
        if ":" in host:
            host = f"[{host}]"
        if port is None or port == _DEFAULT_PORTS[scheme]:
            return f"{scheme}://{host}"
        return f"{scheme}://{host}:{port}"

    def allow(self, origin_or_url: str) -> None:
        """Add an origin (after the user confirmed it, or the job's resolved base URL)."""
        origin = self.origin_of(origin_or_url)
        if origin is None:
            raise ValueError(f"{origin_or_url!r} is not an http(s) address, so it has no origin to allow.")
        self._allowed.add(origin)

    def allows(self, url: str) -> bool:
        """True when the agent may open `url` without asking: an allowed origin, or the blank page."""
        if url.strip() == "about:blank":
            return True
        return self.origin_of(url) in self._allowed

    def needs_confirmation(self, url: str) -> str | None:
        """None when `url` is allowed; else the question to put to the user before the agent may open it."""
        if self.allows(url):
            return None
        shown = url if len(url) <= 200 else url[:200] + "…"
        allowed = ", ".join(sorted(self._allowed)) or "no site yet"
        origin = self.origin_of(url)
        if origin is None:
            return (f"The agent wants to open {shown}, which is not a web address of the app under test "
                    f"({allowed}). Let it open this address?")
        return (f"The agent wants to leave the app under test ({allowed}) for {origin} ({shown}). "
                f"Let it open {origin}?")
