"""A run of many scenarios (`studio run`): scenario files by glob pattern, validated first (a bad file stops the run
before anything starts, with every problem); then run `parallel` at a time, each in its own browser context on the
runtime's browsers (the least busy browser server of several, or one browser here); one console line per scenario
(and one for a scenario run again because its browser went away) and the seed's summary; the JSONL log under `out`."""

from __future__ import annotations

import asyncio
import glob
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from studio.llm import LanguageModel
from studio.race.driver import PageDriver
from studio.scenarios.data_tools import DataToolError
from studio.scenarios.driver import DataSource, LocalScenarioPages, OpenPage, ScenarioPages
from studio.scenarios.metrics import median, visits
from studio.scenarios.navgraph import CrawlLimits, NavGraph, crawl, project_ui_map
from studio.scenarios.records import RunLog
from studio.scenarios.runner import ScenarioResult, ScenarioRunner, start_url
from studio.scenarios.spec import Scenario
from studio.scenarios.validation import Problem, check_scenario
from studio.wording import plural


class BatchError(Exception):
    """Nothing could run; str() says why and what to do."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


@dataclass
class BatchOptions:
    base_url: str
    out: Path
    parallel: int = 1
    fail_fast: bool = False
    session_reuse: bool = False
    repeat: int = 1
    model: LanguageModel | None = None  # None: the deterministic planner
    mcp_data: str | None = None  # an MCP-Data server for the data calls (None: the app's data endpoints directly)
    mcp_web: str | None = None  # an MCP-Web server whose browser runs the scenarios (None: a browser here)
    trace: bool = False  # a Playwright trace of every scenario run (OUT/artifacts/<id>-<n>/trace.zip)
    crawl: bool = True  # build the navigation graph (path optimality) with a crawl of the app
    crawl_limits: CrawlLimits = field(default_factory=CrawlLimits)
    project: Path | None = None  # a project file whose preflight UI map of the app adds to the graph


@dataclass
class BatchHooks:
    """How a front end takes part in a run: where the pages come from (the runtime's: LocalScenarioPages.on(runtime);
    none needed with --mcp-web), every record as it is written, each scenario's page as it opens, a stop asked for
    between steps, and the result of each scenario."""

    pages: LocalScenarioPages | None = None
    run_id: str | None = None
    record: Callable[[dict[str, Any]], None] | None = None
    page_opened: Callable[[PageDriver], None] | None = None
    should_stop: Callable[[], bool] = lambda: False
    scenario_ended: Callable[[ScenarioResult], None] | None = None


@dataclass
class BatchResult:
    run_id: str
    results: list[ScenarioResult] = field(default_factory=list)
    duration: float = 0.0
    log_path: Path | None = None
    stopped: bool = False
    graph: NavGraph | None = None

    @property
    def pass_rate(self) -> float:
        return sum(r.status == "success" for r in self.results) / len(self.results) if self.results else 0.0


def scenario_files(patterns: list[str]) -> list[Path]:
    """The scenario files the patterns name (globs, files or folders), in a stable order."""
    found: list[Path] = []
    for pattern in patterns:
        path = Path(pattern)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
        else:
            found += sorted(Path(p) for p in glob.glob(pattern, recursive=True) if p.endswith((".yaml", ".yml")))
    unique = list(dict.fromkeys(found))
    if not unique:
        raise BatchError(f"No scenario file matches {' '.join(patterns)}. Give .yaml files, folders or globs such "
                         "as 'scenarios/smoke/*.yaml'.")
    return unique


def load_all(files: list[Path]) -> list[Scenario]:
    scenarios, problems = [], []
    for path in files:
        scenario, found = check_scenario(path)
        problems += found
        if scenario is not None and not found:
            scenarios.append(scenario)
    if problems:
        raise BatchError(f"{plural(len(problems), 'problem')} in the scenario files; nothing was run. Fix them "
                         "(`studio validate` checks them) and run again.", problems)
    return scenarios


def clock() -> str:
    return datetime.now().strftime("%H:%M:%S")


async def run_batch(scenarios: list[Scenario], options: BatchOptions, say: Callable[[str], None],
                    hooks: BatchHooks | None = None) -> BatchResult:
    """Raises BatchError, before anything runs, when --mcp-data or --mcp-web names a server that does not answer, or
    when no pages were given; BrowserError when no browser can be started."""
    hooks = hooks or BatchHooks()
    remote = await mcp_servers(options)
    local = hooks.pages if remote.pages is None else None
    pages: ScenarioPages | None = remote.pages or local
    if pages is None:
        raise BatchError("No browser to run the scenarios in: give the runtime's pages (or --mcp-web).")
    if options.mcp_web and options.parallel > 1:
        say(f"note: the MCP-Web server has one browser context, so its scenarios run one at a time "
            f"(not {options.parallel}).")
        options.parallel = 1
    run_id = hooks.run_id or f"run_{uuid.uuid4().hex[:8]}"
    options.out.mkdir(parents=True, exist_ok=True)
    log = RunLog(options.out / "results.jsonl", run_id, sink=hooks.record)
    batch = BatchResult(run_id, log_path=log.path)
    queue = [s for s in scenarios for _ in range(max(1, options.repeat))]
    started = time.monotonic()
    say(f"[{clock()}] Starting run: {plural(len(queue), 'scenario')}" + (f", {options.parallel} at a time"
                                                                 if options.parallel > 1 else ""))
    gate = asyncio.Semaphore(max(1, options.parallel))
    stop = asyncio.Event()
    starts = list(dict.fromkeys(start_url(s, options.base_url) for s in scenarios))
    graph: NavGraph | None = None
    grown = False  # the graph grew after the scenarios (run_end then holds the whole graph)
    began = False
    runner: ScenarioRunner | None = None
    try:
        for sentence in await local.start() if local is not None else []:
            say(f"[{clock()}] {sentence}")
        crawl_pages = local.open_page if local is not None else None
        graph = await _graph_before(crawl_pages, starts, options, say)
        log.run_start([s.id for s in scenarios], graph.as_json())
        began = True
        runner = ScenarioRunner(pages, options.base_url, log, options.out, session_reuse=options.session_reuse,
                                model=options.model, data=remote.data, trace=options.trace)
        runner.page_opened, runner.stop_requested = hooks.page_opened, hooks.should_stop
        runner.retrying = lambda lost: say(f"[{clock()}] ↻ {lost.scenario_id}: {lost.message}; running it again on "
                                           "another browser")
        runner.keep_signed_in = options.crawl and local is not None

        async def one(scenario: Scenario) -> None:
            async with gate:
                if stop.is_set() or hooks.should_stop():
                    batch.stopped = batch.stopped or hooks.should_stop()
                    return
                result = await runner.run(scenario)
                batch.results.append(result)
                if hooks.scenario_ended is not None:
                    hooks.scenario_ended(result)
                mark = "✓" if result.status == "success" else "✗"
                said = f"[{clock()}] {mark} {scenario.id} ({result.steps} steps, {result.duration:.1f}s)"
                say(said if result.status == "success" else f"{said}: {result.message}")
                if options.fail_fast and result.status != "success":
                    stop.set()

        try:
            await asyncio.gather(*(one(s) for s in queue))
        except asyncio.CancelledError:
            batch.stopped = True
        if not batch.stopped:
            grown = await _graph_after(crawl_pages, graph, runner.signed_in_state, starts, batch.results, options,
                                       say)
    finally:
        if runner is not None and runner.signed_in_state is not None:
            runner.signed_in_state.unlink(missing_ok=True)  # a signed-in session kept only for the crawl
        if not began:
            log.run_start([s.id for s in scenarios], graph.as_json() if graph else None)
        batch.graph = graph
        batch.duration = round(time.monotonic() - started, 2)
        log.run_end(batch.pass_rate, batch.duration, graph.as_json() if graph is not None and grown else None)
        log.close()
    return batch


@dataclass
class RemoteServers:
    pages: ScenarioPages | None = None
    data: DataSource | None = None


async def mcp_servers(options: BatchOptions) -> RemoteServers:
    """The runner's pages and data calls on the MCP servers the options name, each checked to answer."""
    remote = RemoteServers()
    try:
        if options.mcp_data:
            from studio.scenarios.mcp_client import McpDataTools

            url = options.mcp_data
            async with McpDataTools(url):
                pass
            remote.data = lambda: McpDataTools(url)
        if options.mcp_web:
            from studio.scenarios.mcp_driver import McpScenarioPages

            web = McpScenarioPages(options.mcp_web)
            await web.check()
            remote.pages = web
    except DataToolError as error:
        raise BatchError(str(error)) from None
    return remote


async def _graph_before(open_page: OpenPage | None, starts: list[str], options: BatchOptions,
                        say: Callable[[str], None]) -> NavGraph:
    """The navigation graph before the scenarios: the project's UI map and a public crawl from the start pages. A
    crawl that fails is said, and the run goes on with the transitions the runs make."""
    graph = NavGraph()
    if options.project is not None:
        try:
            found = project_ui_map(str(options.project), options.base_url)
        except Exception as error:  # noqa: BLE001 - a project we cannot read costs its UI map, never the run
            say(f"[{clock()}] The project's UI map could not be read ({_first_line(error)}); it is left out.")
            found = None
        if found is not None:
            graph.add(found)
    if not options.crawl or open_page is None:
        skipped = ("crawl skipped (--no-crawl)" if not options.crawl
                   else "crawl skipped (the browser is the MCP-Web server's)")
        graph.note = "; ".join(n for n in (graph.note, skipped) if n)
    else:
        try:
            graph.add(await crawl(open_page, options.base_url, starts, options.crawl_limits))
        except Exception as error:  # noqa: BLE001 - the crawl is an aid: the run goes on without it
            graph.note = "; ".join(n for n in (graph.note, f"crawl failed: {_first_line(error)}") if n)
            say(f"[{clock()}] The navigation crawl failed ({_first_line(error)}); path optimality uses only the "
                "transitions the runs make" + (" and the UI map." if graph.edges else "."))
            return graph
    if graph.note:
        say(f"[{clock()}] Navigation graph: {graph.note}")
    return graph


async def _graph_after(open_page: OpenPage | None, graph: NavGraph, state: Path | None, starts: list[str],
                       results: list[ScenarioResult], options: BatchOptions, say: Callable[[str], None]) -> bool:
    """A signed-in crawl when the public one was turned away from pages and a run ended signed in; True when it ran
    (its edges added to `graph`)."""
    if not options.crawl or open_page is None or not graph.gated or state is None:
        return False
    seen = [options.base_url.rstrip("/") + page for r in results for page in visits(r.url_history)]
    seeds = list(dict.fromkeys([*starts, *sorted(graph.gated), *seen]))
    try:
        signed = await crawl(open_page, options.base_url, seeds, options.crawl_limits, storage_state=str(state),
                             public=set(graph.pages))
    except Exception as error:  # noqa: BLE001 - the crawl is an aid: the run goes on without it
        say(f"[{clock()}] The signed-in navigation crawl failed ({_first_line(error)}); the graph has the public "
            "crawl and the runs' transitions only.")
        return False
    graph.add(signed)
    say(f"[{clock()}] Navigation graph: {signed.note}")
    return True


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def summary(batch: BatchResult) -> list[str]:
    passed = sum(r.status == "success" for r in batch.results)
    total = len(batch.results)
    steps = median([r.steps for r in batch.results])
    duration = median([r.duration for r in batch.results])
    return ["", "Summary:", f"  Pass Rate: {batch.pass_rate:.0%} ({passed}/{total})",
            f"  Median Steps: {steps:g}" if steps is not None else "  Median Steps: -",
            f"  Median Duration: {duration:.1f}s" if duration is not None else "  Median Duration: -",
            f"  Total Cost: ${sum(r.cost for r in batch.results):.2f}", "",
            f"Results: {batch.log_path}"]
