"""One look at the game: a frame of the play surface and what the page says (score, level, lives, game words), and
what changed between two looks."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from studio.game.frames import Frame
from studio.game.run_context import RunContext

OVER_WORDS = {"game over", "gameover", "you lose", "you lost", "you died", "try again", "play again"}
WIN_WORDS = {"you win", "you won", "victory", "level complete"}
WAITING_WORDS = {"press start", "press space", "press enter", "press any key", "click to start", "tap to start",
                 "click to play", "tap to play", "paused", "loading"}
SCORE_COUNTERS = ("score", "points", "coins")


@dataclass
class Look:
    """A frame of the play surface and the page's state at one moment."""

    frame: Frame
    state: dict[str, Any]
    at: float = field(default_factory=time.monotonic)
    standing: frozenset[str] = frozenset()  # game words the page showed from the start (its instructions)

    @property
    def words(self) -> set[str]:
        return set(self.state.get("words") or [])

    @property
    def counters(self) -> dict[str, int]:
        return dict(self.state.get("counters") or {})

    @property
    def over(self) -> bool:
        """An end screen: "game over", "play again"… shown now, and not part of what the page always says (its
        instructions: "press Enter to play again" is not the game being over)."""
        return bool((self.words - self.standing) & OVER_WORDS)

    @property
    def score(self) -> int | None:
        counters = self.counters
        return next((counters[name] for name in SCORE_COUNTERS if name in counters), None)


async def look(ctx: RunContext) -> Look:
    frame = await ctx.camera.frame(ctx.play_box())
    state = await ctx.probe.call("state") or {}
    scroll = state.get("scroll") or (0, 0)
    ctx.scroll = (float(scroll[0]), float(scroll[1]))
    return Look(frame, state, at=ctx.clock.now(), standing=ctx.standing_words)


@dataclass
class PageChange:
    """What the page's text did between two looks."""

    counters: dict[str, tuple[int, int]] = field(default_factory=dict)
    appeared: set[str] = field(default_factory=set)
    gone: set[str] = field(default_factory=set)
    text: bool = False
    url: bool = False

    @property
    def any(self) -> bool:
        return bool(self.counters or self.appeared or self.gone or self.text or self.url)

    def describe(self) -> str:
        parts = [f"{name} {old}→{new}" for name, (old, new) in self.counters.items()]
        parts += [f'"{word}" appeared' for word in sorted(self.appeared)]
        parts += [f'"{word}" went away' for word in sorted(self.gone)]
        if self.url:
            parts.append("the address changed")
        if self.text and not parts:
            parts.append("the page's text changed")
        return ", ".join(parts)


def page_change(before: Look, after: Look) -> PageChange:
    old, new = before.counters, after.counters
    counters = {name: (old[name], new[name]) for name in new if name in old and old[name] != new[name]}
    return PageChange(counters=counters, appeared=after.words - before.words, gone=before.words - after.words,
                      text=before.state.get("textSignature") != after.state.get("textSignature"),
                      url=before.state.get("url") != after.state.get("url"))
