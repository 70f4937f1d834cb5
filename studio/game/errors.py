"""Seed 002's error translation: every failure reaches the tester as one sentence in the seed's style, never a stack
trace or an internal code; what happened underneath is kept in the run's technical details (the developer view).
"""

from __future__ import annotations

import traceback

from studio.models.game import PHASE_TIMEOUTS_S, PHASE_TITLES

NOT_ACCESSIBLE = "The game URL could not be accessed. Please check the URL is correct."
BLANK_PAGE = ("The game page loaded but showed nothing (a blank page). The game may have failed to start; check that "
              "it opens in a normal browser.")
LOAD_TIMEOUT = ("The game did not finish loading within 30 seconds. Please check that it loads in a normal browser, "
                "then try again.")
NO_CONTROLS = ("We couldn't find any way to control the game (no buttons, keys or clickable areas). The game may "
               "require specific interactions we couldn't detect; an input schema naming its controls helps.")
NO_PROGRESS = ("The AI agent couldn't make progress playing the game. The game may require specific interactions we "
               "couldn't detect.")
MODEL_UNAVAILABLE = ("The AI evaluation service is temporarily unavailable. Please try again in a few minutes; these "
                     "scores come from the built-in rubric.")
MODEL_UNUSABLE = ("The AI evaluation service gave no usable scores, so these scores come from the built-in rubric "
                  "(technical-only scoring).")
BROWSER_STOPPED = "The browser stopped during the evaluation. Please run the evaluation again."
SCORING_FAILED = ("The evaluation could not finish scoring the game. The results found so far were saved; please run "
                  "the evaluation again.")
CANCELLED = "The evaluation was stopped before it finished. What it found so far is kept."

_BY_KIND = {
    "not_accessible": NOT_ACCESSIBLE,
    "blank_page": BLANK_PAGE,
    "load_timeout": LOAD_TIMEOUT,
    "no_controls": NO_CONTROLS,
    "no_progress": NO_PROGRESS,
    "model_unavailable": MODEL_UNAVAILABLE,
    "model_unusable": MODEL_UNUSABLE,
    "browser_stopped": BROWSER_STOPPED,
    "scoring_failed": SCORING_FAILED,
    "cancelled": CANCELLED,
}


class GamePhaseError(Exception):
    """A phase could not do its work; `kind` picks the sentence the tester reads, `detail` is for the developer."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(detail or kind)
        self.kind = kind
        self.detail = detail or kind


def sentence(kind: str, phase: str = "") -> str:
    """The tester's sentence for a kind of failure (a phase's timeout or an unknown kind gets a generic one)."""
    if kind in _BY_KIND:
        return _BY_KIND[kind]
    title = PHASE_TITLES.get(phase, "The evaluation")
    if kind == "timeout":
        if phase == "phase1":
            return LOAD_TIMEOUT
        if phase == "phase3":
            return NO_PROGRESS
        seconds = PHASE_TIMEOUTS_S.get(phase, 60)
        return (f"{title} took longer than its {seconds:g} seconds and was stopped. The evaluation went on with the "
                "evidence it had.")
    return f"Something went wrong during {title}. The evaluation went on with the evidence it had."


def translate(error: BaseException, phase: str) -> tuple[str, str, str]:
    """(kind, the tester's sentence, the technical detail) for any error a phase raised."""
    if isinstance(error, GamePhaseError):
        return error.kind, sentence(error.kind, phase), error.detail
    if isinstance(error, TimeoutError):
        return "timeout", sentence("timeout", phase), f"{PHASE_TITLES.get(phase, phase)} timed out"
    from studio.browser.errors import SessionClosedError

    if isinstance(error, SessionClosedError):
        return "browser_stopped", BROWSER_STOPPED, f"{type(error).__name__}: {error}"
    detail = "".join(traceback.format_exception(type(error), error, error.__traceback__)).strip()
    return "unexpected", sentence("unexpected", phase), detail[-4000:]
