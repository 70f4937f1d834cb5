"""Run one goal scenario (seed 004's loop): preconditions → navigate → observe → success/failure check → plan → act →
record, until success, failure or a constraint (steps, runtime, cost) ends it; postconditions always run.

Each scenario gets a fresh browser context (a saved signed-in state when session reuse is on and one exists), so runs
never share cookies by accident. Everything a run did is in its ScenarioResult and in the run's JSONL log.
"""

from __future__ import annotations

import inspect
import logging
import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from studio.browser.errors import BrowserError, first_line
from studio.browser.fleet import FleetMember
from studio.llm import LanguageModel
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.scenarios.capture import ARTIFACTS, RunCapture
from studio.scenarios.data_tools import DataToolError, DataTools
from studio.scenarios.driver import DataCalls, DataSource, LocalScenarioPage, ScenarioPage, ScenarioPages
from studio.scenarios.expressions import parse_expression
from studio.scenarios.metrics import (
    StepTrace,
    backtracks,
    click_entropy,
    page_backtracks,
    stagnation,
    time_to_first_action,
)
from studio.scenarios.model_planner import CostExceeded, ModelPlanner
from studio.scenarios.observe import Observation
from studio.scenarios.planner import DeterministicPlanner, credentials, redacted
from studio.scenarios.records import RunLog
from studio.scenarios.spec import REFERENCE, Condition, McpCall, Scenario, lookup
from studio.scenarios.validation import ENV

log = logging.getLogger(__name__)

MAX_LATE_LOOKS = 3


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
    screenshots: list[str] = field(default_factory=list)  # relative to the log's folder, in the order taken
    trace: str | None = None  # the kept Playwright trace, relative to the log's folder
    dom_snapshot: str | None = None  # the page's HTML on success (dom_snapshot_on_success), relative
    run_number: int = 1  # the n-th run of this scenario in the batch (its artifacts folder is <id>-<n>)
    browser: str | None = None  # where its page ran (an endpoint, a browser's path, an MCP-Web server)
    retried_from: str | None = None  # the browser a first try was lost with, when this is the retry
    lost: FleetMember | None = field(default=None, repr=False)  # the fleet's browser that went away under it

    def metrics(self) -> dict[str, Any]:
        """The run's own metrics, the seed's first; `optimality` and `transitionOptimality` need the navigation graph
        and the other runs, so the log fills them in (RunLog.scenario_end)."""
        return {"entropy": click_entropy(self.clicks), "backtracks": backtracks(self.url_history),
                "optimality": None, "ttfa": self.ttfa, "hints": len(self.hints_used), "tokens": self.tokens,
                "pageBacktracks": page_backtracks(self.url_history), "transitionOptimality": None}


class MissingValue(KeyError):
    """A reference or a pre- or postcondition that has nothing to work with; str() is the sentence (a KeyError's
    own str() would show it in quotes)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def resolve_references(value: Any, variables: dict[str, Any]) -> Any:
    """`${name.field}` replaced by the stored value (a whole-string reference keeps the value's type)."""
    if isinstance(value, str):
        whole = REFERENCE.fullmatch(value)
        if whole:
            return _lookup(variables, whole.group(1), whole.group(2))
        return _filled_text(value, variables)
    if isinstance(value, dict):
        return {key: resolve_references(item, variables) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve_references(item, variables) for item in value]
    return value


def with_values(scenario: Scenario, variables: dict[str, Any]) -> Scenario:
    """The scenario with `${name.field}` and `${env.NAME}` in its start URL and in its goal's success and failure
    conditions replaced by their values, as text (`url_contains: /orders/${order.id}`, a heading naming the stored
    user). The goal's description and the hints stay as written: they go to the model, which never sees the test
    user's credentials (the planners fill those in when they type). MissingValue names a reference with no value."""
    def text(value: Any) -> Any:
        if isinstance(value, str):
            return _filled_text(value, variables)
        return {key: text(item) for key, item in value.items()} if isinstance(value, dict) else value

    def conditions(given: list[Condition]) -> list[Condition]:
        return [Condition.model_validate(text(c.model_dump(exclude_none=True))) for c in given]

    goal = scenario.goal
    return scenario.model_copy(update={
        "context": scenario.context.model_copy(update={"start_url": text(scenario.context.start_url)}),
        "goal": goal.model_copy(update={
            "success": goal.success.model_copy(update={"conditions": conditions(goal.success.conditions)}),
            "failure": goal.failure.model_copy(update={"conditions": conditions(goal.failure.conditions)})}),
    })


def _filled_text(value: str, variables: dict[str, Any]) -> str:
    """Every `${…}` in `value` replaced by its value as text."""
    return REFERENCE.sub(lambda m: str(_lookup(variables, m.group(1), m.group(2))), value)


def _lookup(variables: dict[str, Any], name: str, path: str) -> Any:
    if name == ENV:
        return _environment(path)
    value = lookup(variables, name, path)
    if value is None:
        raise MissingValue(f"${{{name}{path}}} has no value (the precondition storing {name!r} returned none)")
    return value


def _environment(path: str) -> str:
    """`${env.NAME}`: the environment variable NAME, as text; MissingValue with a sentence when it is unset."""
    names = [part for part in path.split(".") if part]
    if len(names) != 1:
        raise MissingValue(f"${{{ENV}{path}}} does not name one environment variable; write ${{{ENV}.NAME}}")
    value = os.environ.get(names[0])
    if value is None:
        raise MissingValue(f"${{{ENV}.{names[0]}}} needs the environment variable {names[0]}, which is not set; "
                           f"set it before the run (export {names[0]}=...)")
    return value


def _signed_in_as(variables: dict[str, Any]) -> str:
    """The name a signed-in state is kept under: its test user's, so a state is only reused for the same user."""
    user = credentials(variables)
    return f"authenticated-{re.sub(r'[^A-Za-z0-9]+', '-', str(user['email']))}" if user else "authenticated"


def start_url(scenario: Scenario, base_url: str) -> str:
    """The scenario's start URL on the app under test: its path and query, resolved against `base_url`; an address
    on an origin the scenario's context names (a sign-in service) is opened as it is."""
    if scenario.context.origins and any(scenario.context.start_url.strip().startswith(origin + suffix)
                                        for origin in scenario.context.origins for suffix in ("/", "?", "#")):
        return scenario.context.start_url.strip()
    given = urlsplit(scenario.context.start_url)
    path = given.path or "/"
    return urljoin(base_url if base_url.endswith("/") else base_url + "/",
                   path.lstrip("/") + (f"?{given.query}" if given.query else ""))


class ScenarioRunner:
    """Runs scenarios on pages from `pages` against the app at `base_url`, writing to `log` and artifacts under `out`
    (`data`: the data calls' client, default DataTools on the app; `trace`: a Playwright trace of every run, besides
    the ones the scenarios' capture asks for).

    A run whose browser went away (a browser server that stopped) is run once more on another browser when the
    pages can place it elsewhere; the log says so (a scenario_retry record, and `retriedFrom` on its end)."""

    def __init__(self, pages: ScenarioPages, base_url: str, log: RunLog, out: Path, session_reuse: bool = False,
                 model: LanguageModel | None = None, data: DataSource | None = None, trace: bool = False) -> None:
        self.pages, self.base_url, self.log, self.out = pages, base_url, log, out
        self.data: DataSource = data or (lambda: DataTools(self.base_url))
        self.session_reuse = session_reuse
        self.trace = trace
        self.runs: dict[str, int] = {}  # scenario id -> runs started, numbering each run's artifacts folder
        self.model = model  # None: the deterministic planner
        self.saved_states: dict[str, Path] = {}  # session.save names -> storage state files
        self.page_opened: Callable[[PageDriver], None] | None = None  # the studio shows each scenario's page live
        self.retrying: Callable[[ScenarioResult], None] | None = None  # told when a lost run is run again
        self.stop_requested: Callable[[], bool] = lambda: False  # checked before every step (the tester's Cancel)
        self.keep_signed_in = False  # keep the first signed-in state a successful run ends with (for a crawl)
        self.signed_in_state: Path | None = None

    async def run(self, scenario: Scenario) -> ScenarioResult:
        number = self.runs[scenario.id] = self.runs.get(scenario.id, 0) + 1
        self.log.scenario_start(scenario.id, number)
        result = await self._attempt(scenario, number)
        lost_on = result.lost
        if lost_on is not None and self.pages.can_move(lost_on) and not self.stop_requested():
            self.log.scenario_retry(scenario.id, result)
            if self.retrying is not None:
                self.retrying(result)
            retried_from = result.browser
            result = await self._attempt(scenario, number, exclude=[lost_on])
            result.retried_from = retried_from
        self.log.scenario_end(scenario.id, result)
        return result

    async def _attempt(self, scenario: Scenario, number: int, exclude: Iterable[FleetMember] = ()) -> ScenarioResult:
        """One try of the scenario on a fresh page: preconditions, the goal loop, postconditions, captures."""
        result = ScenarioResult(scenario.id, run_number=number)
        capture = RunCapture(scenario, self.out / ARTIFACTS / f"{scenario.id}-{number}", self.log.path.parent,
                             trace=self.trace)
        started = time.monotonic()
        variables: dict[str, Any] = {}
        page: ScenarioPage | None = None
        try:
            async with self.data() as data:
                try:
                    load = await self._calls(scenario.preconditions, data, variables, None)
                    scenario = with_values(scenario, variables)
                    page = await self._open(scenario, load or self._reusable(scenario, variables), result, exclude)
                    await capture.start(page)
                    if self.page_opened is not None and isinstance(page, LocalScenarioPage):
                        self.page_opened(page.driver)
                    await self._reach_goal(scenario, page, variables, result, started, capture)
                except (DataToolError, KeyError, RaceError, BrowserError) as error:
                    result.status, result.message = "error", first_line(error)
                except Exception as error:  # noqa: BLE001 - one run's failure ends that run, never the batch
                    if page is None or not await page.went_away():
                        log.exception("scenario %s failed", scenario.id)
                    result.status, result.message = "error", f"{type(error).__name__}: {first_line(error)}"
                finally:
                    await self._lost(page, result)
                    result.dom_snapshot = await capture.end(page, result.status)
                    try:
                        await self._calls(scenario.postconditions, data, variables, page)
                    except (DataToolError, KeyError, RaceError) as error:
                        if result.status == "success":
                            result.status, result.message = "error", f"a postcondition failed: {error}"
                    await self._keep_states(scenario, page, variables, result)
        finally:
            if page is not None:
                result.trace = await capture.stop(page, result.status)
                await page.close()
            result.screenshots = list(capture.screenshots)
            result.duration = round(time.monotonic() - started, 2)
        return result

    async def _lost(self, page: ScenarioPage | None, result: ScenarioResult) -> None:
        """A run that did not succeed because its browser went away says so, and where."""
        if page is None or result.status == "success" or not await page.went_away():
            return
        said = f" ({result.message})" if result.message else ""
        result.status, result.message = "error", f"the browser at {page.where} went away during the run{said}"
        result.lost = page.member

    async def _keep_states(self, scenario: Scenario, page: ScenarioPage | None, variables: dict[str, Any],
                           result: ScenarioResult) -> None:
        """A successful run's signed-in state: for session reuse, and the first one for a signed-in crawl."""
        if result.status != "success" or page is None:
            return
        try:
            if self.session_reuse or scenario.context.session_reuse:
                key = _signed_in_as(variables)
                self.saved_states[key] = await self._save_state(page, key)
            if self.keep_signed_in and self.signed_in_state is None and credentials(variables):
                self.signed_in_state = await self._save_state(page, "signed-in-for-crawl")
        except (RaceError, DataToolError, KeyError) as error:  # the next run signs in again
            log.warning("the signed-in state of %s could not be saved: %s", scenario.id, error)

    async def _open(self, scenario: Scenario, load: str | None, result: ScenarioResult,
                    exclude: Iterable[FleetMember]) -> ScenarioPage:
        viewport = (scenario.context.viewport.width, scenario.context.viewport.height)
        state = self.saved_states.get(load or "")
        result.reused_session = state is not None
        page = await self.pages.open(viewport, state, exclude)
        result.browser = page.where or None
        return page

    def _reusable(self, scenario: Scenario, variables: dict[str, Any]) -> str | None:
        """The signed-in state saved for this scenario's test user, when session reuse is on (the seed's fast path;
        a state that no longer works sends the browser to the sign-in page, and the planner signs in again)."""
        if not (self.session_reuse or scenario.context.session_reuse):
            return None
        key = _signed_in_as(variables)
        return key if key in self.saved_states else None

    async def _save_state(self, page: ScenarioPage, name: str) -> Path:
        folder = self.out / "sessions"
        folder.mkdir(parents=True, exist_ok=True)
        return await page.save_state(folder / f"{name}.json")

    async def _calls(self, calls: list[McpCall], data: DataCalls, variables: dict[str, Any],
                     context: ScenarioPage | None) -> str | None:
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
                        raise MissingValue("session.save needs a browser, and none was started")
                    self.saved_states[name] = path = await self._save_state(context, name)
                    value = {"stateId": name, "path": str(path)}
                elif call.mcp.startswith(("data.", "auth.")):
                    value = await data.call(call.mcp, params)
                else:
                    raise MissingValue(f"{call.mcp} acts on the page; use it as a step of the goal, not a {call.name!r} "
                                   "condition")
            except (DataToolError, KeyError, RaceError):
                if call.on_failure == "ignore":
                    continue
                raise
            if call.store_as:
                variables[call.store_as] = value
        return load

    async def _reach_goal(self, scenario: Scenario, page: ScenarioPage, variables: dict[str, Any],
                          result: ScenarioResult, started: float, capture: RunCapture) -> None:
        limits = scenario.constraints
        await page.goto(start_url(scenario, self.base_url))
        loaded_at = time.monotonic()
        planner: DeterministicPlanner | ModelPlanner = (
            ModelPlanner(scenario, variables, self.model) if self.model is not None
            else DeterministicPlanner(scenario, variables))
        triggers = [(trigger, parse_expression(trigger.when)) for trigger in scenario.hints.triggers]
        traces: list[StepTrace] = []
        result.url_history.append(urlsplit(page.url).path)
        late = 0  # observations in a row the page left before the action (bounded: a page that never settles)
        while True:
            observation = await page.observe()
            if await self._met(page, observation, scenario):
                result.status, result.message = "success", "the goal's success conditions hold"
                return
            failed = [c for c in scenario.goal.failure.conditions if await page.holds(observation, c)]
            if failed:
                result.status, result.message = "failure", f"a failure condition holds: {failed[0].describe()}"
                return
            if self.stop_requested():
                result.message = "stopped by the tester before the goal was reached"
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
            if page.url != observation.url and late < MAX_LATE_LOOKS:
                # The page moved on after it was observed (a navigation the last step started late, e.g. after a
                # sign-in request): look again instead of acting on elements that are gone.
                late += 1
                continue
            late = 0
            before = (page.url, len(observation.nodes), tuple(n.name for n in observation.nodes[:20]))
            acted_at = time.monotonic()  # the seed's timestamp(first_click): when the click is made, not done
            blocked = await page.act(observation, action)  # what stood in the way, when it could not be done
            planner.remember(observation, action)
            result.steps += 1
            if action.type == "ui.act.click":
                result.clicks.append(str(action.params["nodeId"]))
                if result.ttfa is None:
                    result.ttfa = time_to_first_action(loaded_at, acted_at)
            after = await page.observe()
            changed = before != (page.url, len(after.nodes), tuple(n.name for n in after.nodes[:20]))
            traces.append(StepTrace(urlsplit(page.url).path, str(action.params.get("nodeId"))
                                    if action.type == "ui.act.click" else None, changed))
            result.url_history.append(urlsplit(page.url).path)
            self.log.step(result.steps, redacted(action, observation), observation, action.reasoning,
                          result.hints_used, scenario.id, run_number=result.run_number, blocked=blocked,
                          screenshot=await capture.step(page, result.steps))

    async def _met(self, page: ScenarioPage, observation: Observation, scenario: Scenario) -> bool:
        success = scenario.goal.success
        checks = [await page.holds(observation, c) for c in success.conditions]
        return all(checks) if success.mode == "all" else any(checks)
