"""A scenario step's action on the page (seed 004's ui.act.*), with the race preflight of seed 001.

Every action goes through the one action layer, `PageDriver.do`: the target is checked first (still in the
document, visible, not covered, not moving, enabled) and acted on at the point that check hit-tested. The driver
tells facts once and acts on the acknowledged retry once what can clear has cleared (an overlay fading out, an
animation ending; a link's navigation fact is no obstacle), waiting as long as Playwright's own click would; so the
step does what it did before, and only a target that stays blocked is not acted on. Then the step says why: its
facts, and a sentence made of them, instead of a step that silently did nothing. Typing fills the field as
Playwright's fill does (dates and other special inputs included) and choosing an option picks it by its label.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from studio.models.race import ActionName
from studio.models.race import Observation as Fact
from studio.race.actions import INFORMATIONAL, RunOutcome
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.fact_lines import fact_line
from studio.scenarios.observe import node_selector
from studio.scenarios.planner import Action

ACT_TIMEOUT_MS = 5_000
SETTLE_S = 0.15  # quiet network this long after an action before the page counts as settled


def blocked(facts: list[Fact], reason: str = "") -> dict[str, Any]:
    """A step's `blocked` field: a sentence from the facts that stood in the way (else `reason`) and the facts."""
    said = "; ".join(fact_line(fact) for fact in facts if fact.type not in INFORMATIONAL)
    return {"reason": said or reason or "the action did not happen", "facts": [f.model_dump(mode="json")
                                                                             for f in facts]}


class PageActor:
    """Acts on one scenario page through its driver (which keeps the race engine's refs and facts told)."""

    def __init__(self, driver: PageDriver, timeout_ms: float = ACT_TIMEOUT_MS) -> None:
        self.driver, self.timeout_ms = driver, timeout_ms

    async def act(self, action: Action) -> dict[str, Any] | None:
        """Do `action`; None when it was done, else what stood in the way (the step's `blocked` field). A closed
        page raises RaceError(context_closed) (the run ends with an error)."""
        with self.driver.requests() as watch:
            try:
                outcome = await self._act(action)
            except RaceError as error:
                if error.kind == "context_closed":
                    raise
                outcome = {"reason": error.message, "error": error.kind, "facts": []}
            # What the action sent (a sign-in request, a search) is answered and drawn before the page is observed
            # again: an observation taken sooner shows the page before the step's effect, and the planner acts on it.
            await watch.quiet(SETTLE_S, self.timeout_ms / 1000)
        await self.driver.wait_for_load("load", self.timeout_ms)
        return outcome

    async def _act(self, action: Action) -> dict[str, Any] | None:
        if action.type == "ui.navigate":
            await self.driver.navigate(urljoin(self.driver.url, str(action.params.get("url"))), wait_until="load")
            return None
        target = node_selector(str(action.params.get("nodeId")))
        outcome: RunOutcome
        if action.type in ("ui.act.click", "ui.act.check"):
            name: ActionName = "click" if action.type == "ui.act.click" else (
                "check" if action.params.get("checked", True) else "uncheck")
            outcome = await self.driver.do(name, target, timeout_ms=self.timeout_ms)
        elif action.type == "ui.act.type":
            outcome = await self.driver.do("fill", target, value=str(action.params.get("text", "")),
                                           timeout_ms=self.timeout_ms)
            if outcome.acted and action.params.get("submit"):
                outcome = await self.driver.do("press", target, key="Enter", timeout_ms=self.timeout_ms)
        elif action.type == "ui.act.select":
            outcome = await self.driver.do("select", target, value=str(action.params.get("option", "")),
                                           timeout_ms=self.timeout_ms)
        else:
            return {"reason": f"{action.type} is not an action on the page", "facts": []}
        return None if outcome.acted else blocked(outcome.observations)
