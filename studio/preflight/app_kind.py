"""What kind of app a page is, when it is evidently a game: a large canvas or a board of cells that the page listens
to the keyboard for, a score, game words ("New Game", "Game over"). A game is better served by game evaluation
(it plays and scores it) than by form-and-list test cases, and the tester is told so.

Keyboard listeners are read, not guessed: Chrome DevTools' DOMDebugger.getEventListeners on the window, the
document, the body and the first canvas.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from studio.preflight.keyboard import read_keyboard
from studio.race.driver import PageDriver

BIG_CANVAS_SHARE = 0.15  # of the window
BOARD_CELLS = 9
GAME_EVALUATION = "Game evaluation plays a game and scores it (load, visuals, controls, playability, technical health)."


class AppKind(BaseModel):
    """The preflight's verdict on what a page is, with what it saw."""

    kind: str = Field(description="'game', or 'app' when nothing says game.")
    evidence: list[str] = Field(default_factory=list)

    @property
    def is_game(self) -> bool:
        return self.kind == "game"

    def sentence(self, where: str) -> str:
        if not self.is_game:
            return f"{where} looks like an ordinary web app."
        return (f"{where} looks like a browser game ({'; '.join(self.evidence)}). {GAME_EVALUATION} Test cases of "
                "forms and lists fit it less.")


async def keyboard_listeners(driver: PageDriver, timeout_s: float = 5.0) -> list[str]:
    """Where the page listens to the keyboard, e.g. ['keydown on the document']; [] when it does not or cannot be
    read (another browser than Chromium, a page that stopped answering)."""
    return (await read_keyboard(driver, timeout_s)).where


def classify(signals: dict[str, Any], keys: list[str]) -> AppKind:
    """A game when a play surface (a large canvas, a board) comes with a way to play or keep score."""
    evidence: list[str] = []
    canvases = [c for c in signals.get("canvases") or [] if c.get("share", 0) >= BIG_CANVAS_SHARE
                or (c.get("width", 0) >= 200 and c.get("height", 0) >= 200)]
    for canvas in canvases[:1]:
        evidence.append(f"a {canvas['width']}×{canvas['height']} canvas")
    board = int(signals.get("board") or 0)
    if board >= BOARD_CELLS:
        evidence.append(f"a board of {board} cells")
    surface = bool(evidence)
    if keys:
        evidence.append("keyboard listeners (" + ", ".join(keys) + ")")
    if signals.get("score"):
        evidence.append(f"a score ('{signals['score']}')")
    words = signals.get("words") or []
    if words:
        evidence.append("game words (" + ", ".join(words[:4]) + ")")
    play = bool(keys or signals.get("score") or words)
    if surface and play and (keys or len(evidence) >= 3):
        return AppKind(kind="game", evidence=evidence)
    return AppKind(kind="app", evidence=evidence)
