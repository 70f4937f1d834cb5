"""Seed 002's per-phase retries: two more tries with exponential backoff for the browser's failures, none for what
the game does."""

from __future__ import annotations

import pytest

from studio.browser.errors import PageUnresponsive
from studio.game.errors import GamePhaseError
from studio.game.eyes import EyesError
from studio.game.retries import browser_failure, with_retries
from studio.race.errors import RaceError


def failing(errors: list[BaseException]):
    calls: list[int] = []

    async def attempt() -> str:
        calls.append(1)
        if errors:
            raise errors.pop(0)
        return "done"

    return attempt, calls


async def test_a_browser_failure_is_tried_again_twice_with_growing_waits():
    attempt, calls = failing([EyesError("the page could not be read"), RaceError("context_closed", "gone")])
    waits: list[float] = []

    async def before(number: int, delay: float, error: BaseException) -> None:
        waits.append(delay)

    assert await with_retries(attempt, backoff_s=0.01, before_retry=before) == "done"
    assert len(calls) == 3 and waits == [0.01, 0.02]


async def test_a_third_browser_failure_is_the_phases_failure():
    attempt, calls = failing([EyesError("a"), EyesError("b"), EyesError("c")])
    with pytest.raises(EyesError, match="c"):
        await with_retries(attempt, backoff_s=0.001)
    assert len(calls) == 3


@pytest.mark.parametrize("error", [PageUnresponsive("http://x/", "reading", 5.0), GamePhaseError("no_controls"),
                                   TimeoutError(), RaceError("bad_input", "no")])
async def test_what_the_game_does_is_never_retried(error):
    attempt, calls = failing([error])
    assert not browser_failure(error)
    with pytest.raises(type(error)):
        await with_retries(attempt, backoff_s=0.001)
    assert len(calls) == 1
