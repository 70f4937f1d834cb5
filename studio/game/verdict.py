"""Could the game be played at all? One sentence when it could not, and why, as a tester would say it: its own code
failed while loading, it never started, or nothing answered its controls. A game that could not be played scores
at most UNPLAYABLE_CAP overall, whatever its page does well otherwise (the five metrics keep their own scores and
the weighted average is kept beside the capped one), so a broken game can never read as fair or good.

The sentence rests on what phase 3 saw, never on the page's words alone: a control counts as answered only when its
effect on the game's surface or score was seen (probing.judge).
"""

from __future__ import annotations

from studio.models.game import GameEvidence
from studio.wording import plural

UNPLAYABLE_CAP = 35
PLAY_PURPOSES = ("play", "surface")


def verdict(e: GameEvidence) -> str:
    """'' when the game could be played; otherwise one sentence saying why it could not."""
    if not e.reachable or e.blank_page:
        return ""  # Phase 1 says so in the seed's words, and the load and visual scores are already 5–15
    answered = [r for r in e.responses if r.purpose in PLAY_PURPOSES and r.responded]
    if answered or e.score_changes:
        return ""
    if e.actions == 0 and "phase3" in e.phases_failed:
        if e.load_failures:  # the cause a tester looks for first
            return (f"The game's own code failed while loading ({e.load_failures[0]}), and gameplay exploration "
                    "never ran, so nothing showed the game could be played.")
        return "Gameplay exploration never ran, so nothing showed the game could be played."
    play = [r for r in e.responses if r.purpose in PLAY_PURPOSES]
    tried = [r for r in play if r.tried and r.expected] or [r for r in play if r.tried]  # as the controls score counts
    controls = plural(len(tried), "control") if tried else "controls"
    if e.load_failures:
        return (f"The game's own code failed while loading ({e.load_failures[0]}), and none of its {controls} "
                f"changed anything in {e.play_seconds:.0f} s: the game never ran.")
    if e.requires_interaction and not e.started:
        start = f'"{e.interaction_hint}"' if e.interaction_hint else "what its page says to do"
        return (f"The game never started: trying {start} changed nothing, and none of its {controls} changed "
                f"anything in {e.play_seconds:.0f} s.")
    if tried:
        names = ", ".join(r.label for r in tried[:4])
        return f"None of the game's {controls} ({names}) changed the game in {e.play_seconds:.0f} s of play."
    return "No control of the game was found that changed anything, so it could not be played."


def capped(weighted: int, sentence: str) -> int:
    """The overall score: the weighted average, at most UNPLAYABLE_CAP for a game that could not be played."""
    return min(weighted, UNPLAYABLE_CAP) if sentence else weighted
