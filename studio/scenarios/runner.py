"""Run one goal scenario (seed 004's loop): preconditions → navigate → observe → success/failure check → plan → act →
record, until success, failure or a constraint (steps, runtime, cost) ends it; postconditions always run.

Each scenario gets a fresh browser context (a saved signed-in state when session reuse is on and one exists), so runs
never share cookies by accident. Everything a run did is in its ScenarioResult and in the run's JSONL log.
"""

from __future__ import annotations

import inspect
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from playwright.async_api import Browser, BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from studio.scenarios.data_tools import DataToolError, DataTools
from studio.scenarios.expressions import parse_expression
from studio.scenarios.metrics import (
    StepTrace,
    backtracks,
    click_entropy,
    path_optimality,
    stagnation,
    time_to_first_action,
)
from studio.scenarios.observe import Observation, holds, node_selector, observe
from studio.llm import LanguageModel
from studio.scenarios.model_planner import CostExceeded, ModelPlanner
from studio.scenarios.planner import Action, DeterministicPlanner, credentials, redacted
from studio.scenarios.records import RunLog
from studio.scenarios.spec import REFERENCE, McpCall, Scenario, lookup

ACT_TIMEOUT_MS = 5_000


@dataclass
class ScenarioResult:
    scenario_id: str
    status: str = "failure"  # success | failure | error
    message: str = ""
    steps: int = 0
    duration: float = 0.0
    clicks: list[str] = field(default_factory=list)  # element ids clicked, in order (click entropy across runs)
    url_history: list[str] = field(default_factory=list)  # the page path after each step, from the start page
    hints_used: list[str] = field(default_factory=list)
    tokens: int = 0
    cost: float = 0.0
    ttfa: float | None = None
    reused_session: bool = False
    screenshots: list[str] = field(default_factory=list)

    def metrics(self, shortest: int | None = None) -> dict[str, Any]:
        return {"entropy": click_entropy(self.clicks), "backtracks": backtracks(self.url_history),
                "optimality": path_optimality(shortest, self.steps),
                "ttfa": self.ttfa, "hints": len(self.hints_used), "tokens": self.tokens}


def resolve_references(value: Any, variables: dict[str, Any]) -> Any:
    """`${name.field}` replaced by the stored value (a whole-string reference keeps the value's type)."""
    if isinstance(value, str):
        whole = REFERENCE.fullmatch(value)
        if whole:
            return _lookup(variables, whole.group(1), whole.group(2))
        return REFERENCE.sub(lambda m: str(_lookup(variables, m.group(1), m.group(2))), value)
    if isinstance(value, dict):
        return {key: resolve_references(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve_references(item, variables) for item in value]
    return value


def _lookup(variables: dict[str, Any], name: str, path: str) -> Any:
    value = lookup(variables, name, path)
    if value is None:
        raise KeyError(f"${{{name}{path}}} has no value (the precondition storing {name!r} returned none)")
    return value


def _signed_in_as(variables: dict[str, Any]) -> str:
    """The name a signed-in state is kept under: its test user's, so a state is only reused for the same user."""
    user = credentials(variables)
    return f"authenticated-{re.sub(r'[^A-Za-z0-9]+', '-', str(user['email']))}" if user else "authenticated"


def start_url(scenario: Scenario, base_url: str) -> str:
    """The scenario's start URL on the app under test: its path and query, resolved against `base_url`."""
    given = urlsplit(scenario.context.start_url)
    path = given.path or "/"
    return urljoin(base_url if base_url.endswith("/") else base_url + "/",
                   path.lstrip("/") + (f"?{given.query}" if given.query else ""))


class ScenarioRunner:
    """Runs scenarios on one Browser against the app at `base_url`, writing to `log` and artifacts under `out`."""

    def __init__(self, browser: Browser, base_url: str, log: RunLog, out: Path, session_reuse: bool = False,
                 model: LanguageModel | None = None) -> None:
        self.browser, self.base_url, self.log, self.out = browser, base_url, log, out
        self.session_reuse = session_reuse
        self.model = model  # None: the deterministic planner
        self.saved_states: dict[str, Path] = {}  # session.save names -> storage state files
        self.keep_signed_in = False  # keep the first signed-in state a successful run ends with (for a crawl)
        self.signed_in_state: Path | None = None

    async def run(self, scenario: Scenario) -> ScenarioResult:
        result = ScenarioResult(scenario.id)
        started = time.monotonic()
        self.log.scenario_start(scenario.id)
        variables: dict[str, Any] = {}
        context: BrowserContext | None = None
        try:
            async with DataTools(self.base_url) as data:
                try:
                    load = await self._calls(scenario.preconditions, data, variables, None)
                    context = await self._context(scenario, load or self._reusable(scenario, variables), result)
                    page = await context.new_page()
                    await self._reach_goal(scenario, page, variables, result, started)
                except (DataToolError, KeyError, PlaywrightError) as error:
                    result.status, result.message = "error", str(error).splitlines()[0]
                finally:
                    try:
                        await self._calls(scenario.postconditions, data, variables, context)
                    except (DataToolError, KeyError, PlaywrightError) as error:
                        if result.status == "success":
                            result.status, result.message = "error", f"a postcondition failed: {error}"
                    if result.status == "success" and context is not None and (
                            self.session_reuse or scenario.context.session_reuse):
                        key = _signed_in_as(variables)
                        self.saved_states[key] = await self._save_state(context, key)
                    if (result.status == "success" and context is not None and self.keep_signed_in
                            and self.signed_in_state is None and credentials(variables)):
                        self.signed_in_state = await self._save_state(context, "signed-in-for-crawl")
        finally:
            if context is not None:
                await context.close()
            result.duration = round(time.monotonic() - started, 2)
            self.log.scenario_end(scenario.id, result)
        return result

    async def _context(self, scenario: Scenario, load: str | None, result: ScenarioResult) -> BrowserContext:
        viewport = {"width": scenario.context.viewport.width, "height": scenario.context.viewport.height}
        state = self.saved_states.get(load or "")
        result.reused_session = state is not None
        return await self.browser.new_context(viewport=viewport,  # type: ignore[arg-type]
                                              storage_state=str(state) if state else None)

    def _reusable(self, scenario: Scenario, variables: dict[str, Any]) -> str | None:
        """The signed-in state saved for this scenario's test user, when session reuse is on (the seed's fast path;
        a state that no longer works sends the browser to the sign-in page, and the planner signs in again)."""
        if not (self.session_reuse or scenario.context.session_reuse):
            return None
        key = _signed_in_as(variables)
        return key if key in self.saved_states else None

    async def _save_state(self, context: BrowserContext, name: str) -> Path:
        folder = self.out / "sessions"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.json"
        await context.storage_state(path=str(path))
        return path

    async def _calls(self, calls: list[McpCall], data: DataTools, variables: dict[str, Any],
                     context: BrowserContext | None) -> str | None:
        """Run pre- or postconditions; returns a session.load name to start the browser with."""
        load = None
        for call in calls:
            try:
                params = resolve_references(call.params, variables)
                if call.mcp == "session.load":
                    load = str(params.get("stateId") or params.get("name") or "")
                    value: Any = {"ok": load in self.saved_states}
                elif call.mcp == "session.save":
                    name = str(params.get("name") or "session")
                    if context is None:
                        raise KeyError("session.save needs a browser, and none was started")
                    self.saved_states[name] = path = await self._save_state(context, name)
                    value = {"stateId": name, "path": str(path)}
                elif call.mcp.startswith(("data.", "auth.")):
                    value = await data.call(call.mcp, params)
                else:
                    raise KeyError(f"{call.mcp} acts on the page; use it as a step of the goal, not a {call.name!r} "
                                   "condition")
            except (DataToolError, KeyError, PlaywrightError):
                if call.on_failure == "ignore":
                    continue
                raise
            if call.store_as:
                variables[call.store_as] = value
        return load

    async def _reach_goal(self, scenario: Scenario, page: Page, variables: dict[str, Any], result: ScenarioResult,
                          started: float) -> None:
        limits = scenario.constraints
        await page.goto(start_url(scenario, self.base_url), wait_until="load")
        loaded_at = time.monotonic()
        planner: DeterministicPlanner | ModelPlanner = (
            ModelPlanner(scenario, variables, self.model) if self.model is not None
            else DeterministicPlanner(scenario, variables))
        triggers = [(trigger, parse_expression(trigger.when)) for trigger in scenario.hints.triggers]
        traces: list[StepTrace] = []
        result.url_history.append(urlsplit(page.url).path)
        while True:
            observation = await observe(page)
            if await self._met(page, observation, scenario):
                result.status, result.message = "success", "the goal's success conditions hold"
                return
            failed = [c for c in scenario.goal.failure.conditions if await holds(page, observation, c)]
            if failed:
                result.status, result.message = "failure", f"a failure condition holds: {failed[0].describe()}"
                return
            if result.steps >= limits.max_steps:
                result.message = f"the goal was not reached within max_steps ({limits.max_steps})"
                return
            if time.monotonic() - started > limits.max_runtime_s:
                result.message = f"the goal was not reached within max_runtime_s ({limits.max_runtime_s:g} s)"
                return
            if result.cost > limits.max_cost_usd:
                result.message = f"the run cost ${result.cost:.2f}, over max_cost_usd (${limits.max_cost_usd:g})"
                return
            signals = stagnation(traces)
            env = {"stagnation": signals.level, "steps": result.steps, "repeated_clicks": signals.repeated_clicks,
                   "same_url_visits": signals.same_url_visits, "no_progress_steps": signals.no_progress_steps,
                   "circular_navigation": int(signals.circular_navigation), "elapsed_s": time.monotonic() - started,
                   "cost_usd": result.cost, "hints_used": len(result.hints_used)}
            for trigger, condition in triggers:
                if trigger.text not in result.hints_used and condition.evaluate(env):
                    result.hints_used.append(trigger.text)
            try:
                planned = planner.next_action(observation, result.hints_used)
                action = await planned if inspect.isawaitable(planned) else planned
            except CostExceeded as error:
                result.message = f"the model's budget ran out (max_cost_usd ${limits.max_cost_usd:g}): {error}"
                return
            finally:
                if isinstance(planner, ModelPlanner):
                    result.tokens, result.cost = planner.tokens, round(planner.cost, 6)
            if action is None:
                result.message = "nothing on the page matches the goal any more (the planner has no next action)"
                return
            before = (page.url, len(observation.nodes), tuple(n.name for n in observation.nodes[:20]))
            await self._act(page, observation, action)
            planner.remember(observation, action)
            result.steps += 1
            if action.type == "ui.act.click":
                result.clicks.append(str(action.params["nodeId"]))
                if result.ttfa is None:
                    result.ttfa = time_to_first_action(loaded_at, time.monotonic())
            after = await observe(page)
            changed = before != (page.url, len(after.nodes), tuple(n.name for n in after.nodes[:20]))
            traces.append(StepTrace(urlsplit(page.url).path, str(action.params.get("nodeId"))
                                    if action.type == "ui.act.click" else None, changed))
            result.url_history.append(urlsplit(page.url).path)
            self.log.step(result.steps, redacted(action, observation), observation, action.reasoning,
                          result.hints_used, scenario.id)

    async def _met(self, page: Page, observation: Observation, scenario: Scenario) -> bool:
        success = scenario.goal.success
        checks = [await holds(page, observation, c) for c in success.conditions]
        return all(checks) if success.mode == "all" else any(checks)

    async def _act(self, page: Page, observation: Observation, action: Action) -> None:
        target = page.locator(node_selector(str(action.params.get("nodeId"))))
        try:
            if action.type == "ui.act.click":
                await target.click(timeout=ACT_TIMEOUT_MS)
            elif action.type == "ui.act.type":
                await target.fill(str(action.params.get("text", "")), timeout=ACT_TIMEOUT_MS)
                if action.params.get("submit"):
                    await target.press("Enter", timeout=ACT_TIMEOUT_MS)
            elif action.type == "ui.act.select":
                await target.select_option(label=str(action.params.get("option", "")), timeout=ACT_TIMEOUT_MS)
            elif action.type == "ui.act.check":
                await target.set_checked(bool(action.params.get("checked", True)), timeout=ACT_TIMEOUT_MS)
            elif action.type == "ui.navigate":
                await page.goto(urljoin(page.url, str(action.params.get("url"))), wait_until="load")
        except PlaywrightError:
            return  # a step that did nothing: stagnation shows it, and the planner tries something else
        try:
            await page.wait_for_load_state("load", timeout=ACT_TIMEOUT_MS)
        except PlaywrightError:
            pass

