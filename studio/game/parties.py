"""Whose fault is a failed request or an error: the game's own (its scripts and assets, from its own site), a third
party's (adverts, analytics, web fonts, embeds from other sites, which fail with no network) or the browser's (the
favicon it asks for by itself). Only the game's own count against its load and stability; the others are reported
apart, as a tester would say "the page's environment", not "the game".

    party("https://cdn.adnet.invalid/ads.js", "http://127.0.0.1:8000/")   # "third_party"
"""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

Party = Literal["game", "third_party", "browser"]
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}
SCRIPT_SUFFIXES = (".js", ".mjs", ".wasm")


def party(url: str | None, game_url: str) -> Party:
    """Who a request to `url` (or an error raised from it) belongs to, for a game served at `game_url`."""
    if not url:
        return "game"
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome", "chrome-extension", "devtools"):
        return "game"
    if parts.path.rstrip("/").endswith("/favicon.ico") and not parts.query:
        return "browser"
    host, home = (parts.hostname or "").lower(), (urlsplit(game_url).hostname or "").lower()
    if not host or host == home or (host in LOOPBACK and home in LOOPBACK):
        return "game"
    if _site(host) == _site(home):
        return "game"  # a sibling host of the same site (cdn.game.example for play.game.example)
    return "third_party"


def _site(host: str) -> str:
    """The host's last two labels (game.example), or the host itself for an address or a one-label name."""
    labels = host.split(".")
    if len(labels) <= 2 or labels[-1].isdigit():
        return host
    return ".".join(labels[-2:])


def is_script(url: str, resource_type: str = "") -> bool:
    """A request for code: the game's logic when it is the game's own."""
    return resource_type == "script" or urlsplit(url).path.lower().endswith(SCRIPT_SUFFIXES)
