"""Who picks the next move while playing: the deterministic explorer (no model needed; the same seed and the same
game give the same moves), or a vision-capable chat model choosing from a closed set of tools on a screenshot, its
choice validated, with the explorer as the fallback whenever the model cannot answer."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field, create_model

from studio.llm.budget import Budget
from studio.llm.client import LanguageModel
from studio.llm.errors import ModelOutputInvalid, ModelUnavailable
from studio.llm.safety import Untrusted
from studio.llm.tools import ToolSpec
from studio.models.game import ControlDiscovery, ControlResponse

HOLDS = (1, 3, 6)  # presses of a key per move: a tap, a short hold, a long hold


@dataclass
class Move:
    """One move: a control (a key or something to click), how many presses, and why it was chosen."""

    control: ControlDiscovery
    presses: int
    reason: str

    @property
    def label(self) -> str:
        return move_label(self.control, self.presses)


def move_label(control: ControlDiscovery, presses: int = 1) -> str:
    if control.key:
        name = control.key.removeprefix("Key").removeprefix("Digit")
        return f"press {name}" + (f" ×{presses}" if presses > 1 else "")
    return f"click {control.description.split(' (')[0].split(':')[0][:40]}"


class Explorer:
    """Seeded, weighted choices: moves that changed the game are preferred, moves that did nothing are avoided."""

    def __init__(self, seed: int, moves: list[ControlDiscovery], responses: list[ControlResponse],
                 restarters: set[str]) -> None:
        self.rng = random.Random(seed)
        responded = {r.control for r in responses if r.responded}
        tried = {r.control for r in responses}
        self.moves = [m for m in moves if m.element_selector not in restarters]
        self.restarters = [m for m in moves if m.element_selector in restarters]
        # What answered is preferred; what was never tried is worth a try (it is not confirmed yet); what did
        # nothing when probed is tried rarely.
        self.weights = {m.element_selector: (3.0 if m.element_selector in responded
                                             else 1.0 if m.element_selector not in tried else 0.15) for m in moves}

    def next(self) -> Move | None:
        if not self.moves:
            return None
        weights = [self.weights[m.element_selector] for m in self.moves]
        control = self.rng.choices(self.moves, weights=weights, k=1)[0]
        presses = self.rng.choice(HOLDS) if control.key else 1
        weight = self.weights[control.element_selector]
        why = "it changed the game before" if weight >= 1.0 else "it has not changed the game yet (tried rarely)"
        return Move(control, presses, f"The explorer (seed-driven) chose {move_label(control, presses)}: {why}.")

    def restart(self, tried: int) -> Move | None:
        """A move to get a finished or stuck game going again, in turn."""
        if not self.restarters:
            return None
        control = self.restarters[tried % len(self.restarters)]
        return Move(control, 1, f"The game looks over or stuck; {move_label(control)} to start again.")

    def learn(self, control: ControlDiscovery, effective: bool) -> None:
        key = control.element_selector
        weight = self.weights.get(key, 1.0)
        self.weights[key] = min(6.0, weight * 1.2) if effective else max(0.05, weight * 0.7)


class PressKey(BaseModel):
    """Arguments of press_key (the key names are listed in the tool's schema)."""

    presses: int = Field(default=1, ge=1, le=8, description="how many times (held keys repeat)")


class ClickControl(BaseModel):
    """Arguments of click_control."""


class Wait(BaseModel):
    """Arguments of wait: watch the game for a moment without acting."""

    milliseconds: int = Field(ge=100, le=2000)


SYSTEM = ("You are a QA tester playing a browser game to evaluate it. Each turn you see a screenshot of the game and "
          "the controls that were found, with what probing showed each does. Choose exactly one next move that helps "
          "you learn the game and make progress (score, levels), and restart it when it is over.")


class ModelPilot:
    """Asks a vision-capable chat model for the next move; None when it cannot answer (the explorer then moves)."""

    def __init__(self, model: LanguageModel, budget: Budget, run_id: str, moves: list[ControlDiscovery],
                 responses: list[ControlResponse]) -> None:
        self.model = model
        self.budget = budget
        self.run_id = run_id
        self.moves = moves
        self.responses = {r.control: r for r in responses}
        self.failures = 0
        self.last_problem = ""
        keys = sorted({m.key for m in moves if m.key})
        clicks = {f"c{index}": m for index, m in enumerate(moves) if not m.key}
        self.clicks = clicks
        self.by_key = {m.key: m for m in moves if m.key}
        self.tools: list[ToolSpec] = []
        if keys:
            key_args: type[BaseModel] = create_model(
                "PressKeyArgs", __base__=PressKey,
                key=(Literal[tuple(keys)], Field(description="the key to press")))  # type: ignore[arg-type]
            self.tools.append(ToolSpec(name="press_key", description="Press one of the game's keys.", args=key_args))
        if clicks:
            click_args: type[BaseModel] = create_model(
                "ClickArgs", __base__=ClickControl,
                control=(Literal[tuple(clicks)], Field(description="the control's id")))  # type: ignore[arg-type]
            self.tools.append(ToolSpec(name="click_control", description="Click one of the listed controls.",
                                       args=click_args))
        self.tools.append(ToolSpec(name="wait", description="Watch the game without acting.", args=Wait))

    @property
    def usable(self) -> bool:
        return self.failures < 3 and len(self.tools) > 1

    def catalogue(self) -> str:
        lines = []
        for key, control in self.by_key.items():
            lines.append(f"- key {key}: {self._said(control)}")
        for ident, control in self.clicks.items():
            lines.append(f"- {ident}: {control.description} — {self._said(control)}")
        return "\n".join(lines)

    def _said(self, control: ControlDiscovery) -> str:
        response = self.responses.get(control.element_selector)
        if response is None:
            return "not probed"
        return "changed the game when probed" if response.responded else "did nothing when probed"

    async def next(self, png: bytes, page_text: str) -> Move | Literal["wait"] | None:
        parts: list[str | Untrusted] = [f"Controls:\n{self.catalogue()}", Untrusted(page_text[:1500], "the game page")]
        try:
            choice = await self.model.choose_tool("game: next move", SYSTEM, parts, self.tools, self.budget,
                                                  job_id=self.run_id, images=[png])
        except (ModelUnavailable, ModelOutputInvalid) as error:
            self.failures += 1
            self.last_problem = error.sentence
            return None
        self.failures = 0
        args = choice.args
        if choice.name == "press_key":
            control = self.by_key[getattr(args, "key")]
            presses = int(getattr(args, "presses", 1))
            return Move(control, presses, f"The model chose {move_label(control, presses)}.")
        if choice.name == "click_control":
            control = self.clicks[getattr(args, "control")]
            return Move(control, 1, f"The model chose {move_label(control)}.")
        return "wait"
