import pytest

from studio.race.actions import ActionRunner
from studio.race.page import RacePage


@pytest.fixture
async def race(page):
    return RacePage(page)


@pytest.fixture
async def runner(race):
    return ActionRunner(race, timeout_ms=4000)


def ref_of(snapshot_text: str, fragment: str) -> str:
    """The ref on the first snapshot line containing `fragment`."""
    for line in snapshot_text.splitlines():
        if fragment in line and not line.startswith("#"):
            for word in line.split():
                if word.startswith("e") and word[1:].isdigit():
                    return word
    raise AssertionError(f"{fragment!r} not in snapshot:\n{snapshot_text}")


def ref_after(snapshot_text: str, anchor: str, fragment: str) -> str:
    """The ref of the first line containing `fragment` after the line containing `anchor`."""
    lines = snapshot_text.splitlines()
    start = next(i for i, line in enumerate(lines) if anchor in line)
    return ref_of("\n".join(lines[start:]), fragment)
