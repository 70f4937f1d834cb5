"""Race errors as the window says them: the engine's sentences name an agent's next step (take a snapshot, use its
refs), which the window has no button for; here the next step is the tester's (pick the element again)."""

from __future__ import annotations

import re

from studio.race.errors import RaceError

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
PICK_AGAIN = "Pick the element in the page (Ctrl+Shift+C), then try again."
_NEXT_STEP = {
    "unknown_ref": PICK_AGAIN,
    "stale_ref": PICK_AGAIN,
    "navigated": "Wait until the page has loaded, then try again.",
}


def for_the_window(error: RaceError) -> str:
    """The error's sentences without the ones about snapshots, with the tester's next step when one was dropped."""
    sentences = _SENTENCE.split(error.message.strip())
    kept = [sentence for sentence in sentences if "snapshot" not in sentence.casefold()]
    if len(kept) == len(sentences):
        return error.message
    return " ".join(kept + [_NEXT_STEP.get(error.kind, "Try again.")])
