"""The game agent's hands: every navigation, key press and click goes through the agent toolbelt, on the page the
tester watches in the live view (the runtime's browser session), with race preflight before each click.

The toolbelt normally drives browser contexts of its own; LiveContexts gives it the live session's page as one named
context instead, and follows the session when its page is replaced (a popup, a stuck page closed).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from studio.browser.origins import OriginPolicy
from studio.race.driver import PageDriver
from studio.runtime.live import LivePage
from studio.toolbelt import LiveContexts, Toolbelt
from studio.toolbelt.replies import ActionReply, NavigateReply, SnapshotReply, ToolError, ToolReply

CONTEXT = "game"
KEY_GAP_S = 0.045  # between the presses of a held key: a keyboard's auto-repeat


@dataclass
class Touch:
    """What one action did: whether it happened, its reply's gist, and how long it took."""

    done: bool
    said: str
    seconds: float


class GameHands:
    """Navigate, read the page, press keys and click controls — through the Toolbelt only."""

    def __init__(self, live: LivePage, url: str) -> None:
        self.contexts = LiveContexts(live, pin=OriginPolicy([url]))
        self.belt = Toolbelt(self.contexts)

    @property
    def driver(self) -> PageDriver:
        return self.contexts.get(CONTEXT).driver

    async def navigate(self, url: str) -> NavigateReply | ToolError:
        reply = await self.belt.navigate(url, CONTEXT)
        assert isinstance(reply, (NavigateReply, ToolError))
        return reply

    async def snapshot(self) -> SnapshotReply | ToolError:
        reply = await self.belt.snapshot(CONTEXT)
        assert isinstance(reply, (SnapshotReply, ToolError))
        return reply

    async def press(self, key: str, times: int = 1) -> Touch:
        """Press `key` on whatever has the focus, `times` times a keyboard's repeat apart (holding it)."""
        started = time.monotonic()
        for index in range(max(1, times)):
            if index:
                await asyncio.sleep(KEY_GAP_S)
            reply = await self.belt.press_key(key, CONTEXT)
            if isinstance(reply, ToolError):
                return Touch(False, reply.error.message, time.monotonic() - started)
        return Touch(True, f"pressed {key}" + (f" {times} times" if times > 1 else ""), time.monotonic() - started)

    async def click(self, ref: str) -> Touch:
        """Click `ref`; when its facts stand in the way (an overlay fading, an animation), click again, which
        acknowledges them, as the toolbelt's rules say."""
        started = time.monotonic()
        said = ""
        for _ in range(2):
            reply = await self.belt.click(ref, CONTEXT)
            if isinstance(reply, ToolError):
                return Touch(False, reply.error.message, time.monotonic() - started)
            assert isinstance(reply, ActionReply)
            if reply.outcome.acted:
                return Touch(True, f"clicked {ref}", time.monotonic() - started)
            said = "; ".join(item.type for item in reply.outcome.observations) or "not clicked"
        return Touch(False, f"the click on {ref} was stopped ({said})", time.monotonic() - started)

    def reply_text(self, reply: ToolReply) -> str:
        return reply.error.message if isinstance(reply, ToolError) else ""
