"""Game time for Phase 3. A game that draws with requestAnimationFrame is stepped: its frames run only when the
evaluator lets them, each 1/60 s of game time later, spread over the same real time (resources/game/page_probe.js).
The moves then meet the game at the same frames on every run, however busy the machine is, so the same seed gives the
same measurements. A game that does not animate (a turn-based board) keeps real time.

`now()` is game time while stepping (real time otherwise); `wait(s)` lets `s` of game time pass."""

from __future__ import annotations

import asyncio
import logging
import time

from studio.game.eyes import EyesError, PageProbe

log = logging.getLogger(__name__)

FRAME_S = 1 / 60
WATCH_S, WATCH_ROUNDS = 0.1, 5  # how long start() looks for the game's animation frames


class GameClock:
    """The game's time as Phase 3 measures it."""

    def __init__(self, probe: PageProbe) -> None:
        self.probe = probe
        self.stepping = False
        self._base = 0.0  # the monotonic clock when stepping began: game time goes on from there
        self._game_s = 0.0  # game seconds stepped since
        self._page_base_ms = 0.0  # the page's game clock when ours read zero

    def now(self) -> float:
        """Seconds: game time while stepping (continuing the monotonic clock from when stepping began), the
        monotonic clock otherwise."""
        return self._base + self._game_s if self.stepping else time.monotonic()

    async def start(self) -> bool:
        """Step the game from now on, when it draws with animation frames; True when it is stepped."""
        if self.stepping:
            return True
        try:
            before = int((await self.probe.call("state") or {}).get("frames") or 0)
            for _ in range(WATCH_ROUNDS):  # a loaded machine can go a while between two frames
                await asyncio.sleep(WATCH_S)
                after = int((await self.probe.call("state") or {}).get("frames") or 0)
                if after > before:
                    break
            else:
                log.info("no animation frame in %.1f s: the game keeps real time", WATCH_ROUNDS * WATCH_S)
                return False
            self._base, self._game_s = time.monotonic(), 0.0
            self.stepping = bool(await self.probe.call("stepping", True))
            if self.stepping:
                await self._rebase()
        except EyesError as error:
            log.info("the game keeps real time: %s", error)
            self.stepping = False
        return self.stepping

    async def stop(self) -> None:
        """Give the game back its real time (the tester watching it sees it run on)."""
        if not self.stepping:
            return
        self.stepping = False
        try:
            await self.probe.call("stepping", False)
        except EyesError as error:  # the page went away: nothing to give back
            log.info("could not give the game its real time back: %s", error)

    async def sync(self) -> None:
        """Catch up with frames the page ran by itself (a key or button release lets two run: page_probe.js)."""
        if not self.stepping:
            return
        try:
            page_ms = await self.probe.call("gameTime")
        except EyesError:
            return
        self._follow(page_ms)

    async def wait(self, seconds: float) -> None:
        """Let `seconds` of game time pass (stepped frames over as much real time, or a plain sleep)."""
        if not self.stepping:
            await asyncio.sleep(seconds)
            return
        frames = max(1, round(seconds / FRAME_S))
        try:
            reply = await self.probe.call("run", frames, round(seconds * 1000)) or {}
        except EyesError as error:
            log.info("stepping the game: %s", error)
            await asyncio.sleep(seconds)
            reply = {"stepping": True}
        self._game_s += frames * FRAME_S
        if reply.get("stepping", False):
            self._follow(reply.get("now"))
        else:
            # A new document (a reload, a restart by navigation) runs in real time again: step it too.
            try:
                await self.probe.call("stepping", True)
                await self._rebase()
            except EyesError:
                self.stepping = False

    def _follow(self, page_ms: object) -> None:
        """Game time is at least as far as the page's game clock (`page_ms`, when the page said it) has gone."""
        if isinstance(page_ms, (int, float)):
            self._game_s = max(self._game_s, (page_ms - self._page_base_ms) / 1000)

    async def _rebase(self) -> None:
        """Tie the page's game clock (milliseconds, from its own origin) to ours."""
        page_ms = await self.probe.call("gameTime")
        if isinstance(page_ms, (int, float)):
            self._page_base_ms = page_ms - self._game_s * 1000
