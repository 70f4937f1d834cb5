"""How the game browser presents itself (seed 002: `userAgent: 'GameEval TestAgent/1.0'`, a 1280×720 viewport).

The game is played on the tester's live page, so nothing here changes that page's size: the viewport is read and
reported. The user agent is the browser's own with the seed's agent appended (a server that knows Chrome keeps
treating it as Chrome, and a game's analytics can tell an evaluation from a player), set through the Chrome DevTools
session of the page's driver: it holds for the page's navigations, requests, fetches and workers as long as that
driver lives (a page the session replaces needs `identify` again), and `unidentify` gives the page its own back.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.browser.errors import BrowserError
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.runtime.live import LivePage

SEED_AGENT = "GameEval TestAgent/1.0"
SEED_VIEWPORT = (1280, 720)
CALL_TIMEOUT_S = 5.0


class IdentityError(BrowserError):
    """The page's user agent could not be set (the page went away, or does not answer)."""


@dataclass(frozen=True)
class Identity:
    """What the game's page says it is now: its user agent (and the one it had before), and its viewport."""

    user_agent: str
    own_user_agent: str
    viewport: tuple[int, int]

    @property
    def seed_viewport(self) -> bool:
        return self.viewport == SEED_VIEWPORT

    def note(self) -> str | None:
        """A sentence for the run's technical details when the viewport is not the seed's, else None."""
        if self.seed_viewport:
            return None
        return (f"The game was played in a {self.viewport[0]}×{self.viewport[1]} viewport (the live browser's), "
                f"not the {SEED_VIEWPORT[0]}×{SEED_VIEWPORT[1]} seed 002 names; scores of runs at other sizes may "
                "differ. Set the viewport in Settings to compare like with like.")


async def identify(live: LivePage) -> Identity:
    """Append ' GameEval TestAgent/1.0' to the user agent of the live page (navigator.userAgent and every request's
    User-Agent header, from now on) and read its viewport. Calling it again changes nothing. Raises IdentityError."""
    driver = _driver(live)
    try:
        current = str(await driver.evaluate("navigator.userAgent", during="reading the user agent",
                                            seconds=CALL_TIMEOUT_S))
        own = current.removesuffix(f" {SEED_AGENT}")
        agent = f"{own} {SEED_AGENT}"
        if current != agent:
            await driver.devtools("Emulation.setUserAgentOverride", {"userAgent": agent}, seconds=CALL_TIMEOUT_S)
        width, height = await driver.evaluate("[innerWidth, innerHeight]", during="reading the viewport",
                                              seconds=CALL_TIMEOUT_S)
    except RaceError as error:
        raise IdentityError(f"The game's page could not be given its test agent name: {error.message}") from error
    return Identity(user_agent=agent, own_user_agent=own, viewport=(int(width), int(height)))


async def unidentify(live: LivePage) -> None:
    """Give the live page its own user agent back (the tester goes on with the page after the run)."""
    try:
        await _driver(live).devtools("Emulation.setUserAgentOverride", {"userAgent": ""}, seconds=CALL_TIMEOUT_S)
    except (RaceError, IdentityError):
        pass  # the page is gone or stuck: there is nothing left to give back


def _driver(live: LivePage) -> PageDriver:
    try:
        return live.driver
    except RaceError as error:
        raise IdentityError(f"The game's page could not be given its test agent name: {error.message}") from error
