"""A scenario step's action on the page (seed 004's ui.act.*), with the race preflight of seed 001.

Clicks and checks go through studio.race.actions.ActionRunner: the target is checked first (still in the document,
visible, not covered, not moving, enabled) and clicked at the point that check hit-tested. The runner tells facts
once and acts on the acknowledged retry once what can clear has cleared (an overlay fading out, an animation
ending; a link's navigation fact is no obstacle), waiting as long as Playwright's own click would; so the step does
what it did before, and only a target that stays blocked is not clicked. Then the step says why: its facts, and a
sentence made of them, instead of a step that silently did nothing. Typing and choosing an option stay Playwright's
fill and select_option (they set dates and other special inputs that keystrokes cannot); when one fails, the
preflight's facts about the field say why.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from studio.models.race import ActionName
from studio.models.race import Observation as Fact
from studio.race.actions import INFORMATIONAL, ActionRunner, relevant
from studio.race.errors import RaceError
from studio.race.fact_lines import fact_line
from studio.race.page import RacePage
from studio.race.recorder import RequestWatch
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
    """Acts on one scenario page; keeps the race engine's state (refs, facts already told) for the page's life."""

    def __init__(self, page: Page, timeout_ms: float = ACT_TIMEOUT_MS) -> None:
        self.page, self.timeout_ms = page, timeout_ms
        self.race = RacePage(page)
        self.runner = ActionRunner(self.race, timeout_ms=timeout_ms)

    async def act(self, action: Action) -> dict[str, Any] | None:
        """Do `action`; None when it was done, else what stood in the way (the step's `blocked` field). A closed
        page raises (the run ends with an error)."""
        with RequestWatch(self.race) as watch:
            try:
                outcome = await self._act(action)
            except RaceError as error:
                if error.kind == "context_closed":
                    raise
                outcome = {"reason": error.message, "error": error.kind, "facts": []}
            except PlaywrightError as error:
                if self.page.is_closed():
                    raise
                outcome = blocked([], str(error).splitlines()[0])
            # What the action sent (a sign-in request, a search) is answered and drawn before the page is observed
            # again: an observation taken sooner shows the page before the step's effect, and the planner acts on it.
            await watch.quiet(SETTLE_S, self.timeout_ms / 1000)
        try:
            await self.page.wait_for_load_state("load", timeout=self.timeout_ms)
        except PlaywrightError:
            pass
        return outcome

    async def _act(self, action: Action) -> dict[str, Any] | None:
        if action.type == "ui.navigate":
            await self.page.goto(urljoin(self.page.url, str(action.params.get("url"))), wait_until="load")
            return None
        selector = node_selector(str(action.params.get("nodeId")))
        if action.type in ("ui.act.click", "ui.act.check"):
            name: ActionName = "click" if action.type == "ui.act.click" else (
                "check" if action.params.get("checked", True) else "uncheck")
            ref = (await self.race.ref_for_selector(selector))[0].ref
            outcome = await self.runner.run(name, ref)
            if not outcome.acted:  # told once; the acknowledged retry waits for what can clear, then acts
                outcome = await self.runner.run(name, ref)
            return None if outcome.acted else blocked(outcome.observations)
        target = self.page.locator(selector)
        try:
            if action.type == "ui.act.type":
                await target.fill(str(action.params.get("text", "")), timeout=self.timeout_ms)
                if action.params.get("submit"):
                    await target.press("Enter", timeout=self.timeout_ms)
            elif action.type == "ui.act.select":
                await target.select_option(label=str(action.params.get("option", "")), timeout=self.timeout_ms)
            else:
                return {"reason": f"{action.type} is not an action on the page", "facts": []}
        except PlaywrightError as error:
            if self.page.is_closed():
                raise
            kind: ActionName = "fill" if action.type == "ui.act.type" else "select"
            ref = (await self.race.ref_for_selector(selector))[0].ref
            return blocked(relevant(kind, (await self.race.observe_for_action(ref))[0]),
                           str(error).splitlines()[0])
        return None
