"""`studio run PATTERN… (--demo | --base-url URL)`: goal scenarios as a job of the runtime (BatchJob), on its fleet
of browsers — one launched here, or Playwright browser servers (`--browser-endpoint URL`, repeatable, or
`--browser-endpoints FILE`), each scenario placed on the least busy one and run once more elsewhere when its server
goes away. One console line per scenario, the seed's summary, the JSONL log, the HTML report and summary.json (what
the seed's CI comment reads) under --out.
Exit 0: every scenario passed; 1: some did not (or no browser could be used); 2: bad input; 130 after Ctrl+C."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.llm import LanguageModel
    from studio.scenarios.batch import BatchOptions
    from studio.scenarios.job import BatchJob
    from studio.scenarios.spec import Scenario

VALID, INVALID, BAD_INPUT = 0, 1, 2
# The seed's MCP server addresses, taken by --mcp-web / --mcp-data given without one.
MCP_WEB_DEFAULT, MCP_DATA_DEFAULT = "http://localhost:7001", "http://localhost:7002"
OPENAI_BASE_URL = "https://api.openai.com/v1"  # --openai-key's endpoint when Settings › Model names none


def browser_endpoints(flags: list[str] | None, listing: str | None) -> list[str]:
    """The endpoints of --browser-endpoint (each given) and of --browser-endpoints FILE (one a line; blank lines and
    `#` comments skipped), in order, each once. Raises ValueError with a sentence when the file cannot be used."""
    found = [flag.strip() for flag in flags or [] if flag.strip()]
    if listing is not None:
        try:
            text = Path(listing).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"the endpoints file {listing} cannot be read ({getattr(error, 'strerror', None) or error})"
                             ". Give a text file with one ws:// address a line.") from None
        listed = [line.split(" #", 1)[0].strip() for line in text.splitlines()]
        listed = [line for line in listed if line and not line.startswith("#")]
        if not listed:
            raise ValueError(f"the endpoints file {listing} lists no endpoint (one ws://HOST:PORT/ a line).")
        found += listed
    return list(dict.fromkeys(found))


def _run(args: argparse.Namespace) -> int:
    import asyncio

    from studio.browser.errors import BrowserError
    from studio.scenarios.batch import BatchError, BatchOptions, load_all, scenario_files

    try:
        scenarios = load_all(scenario_files(args.patterns))
    except BatchError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    if args.openai_key is not None and args.no_model:
        print("error: --openai-key and --no-model contradict each other: give the key to plan with the model, or "
              "--no-model to plan without one.", file=sys.stderr)
        return BAD_INPUT
    for flag, value in (("--mcp-web", args.mcp_web), ("--mcp-data", args.mcp_data)):
        if value is not None and not value.startswith(("http://", "https://")):
            print(f"error: {flag} takes an http(s) address, and {value!r} is not one. Give {flag} after the "
                  f"scenario files (alone it means {MCP_WEB_DEFAULT if flag == '--mcp-web' else MCP_DATA_DEFAULT}), "
                  f"or write {flag}=URL.", file=sys.stderr)
            return BAD_INPUT
    if bool(args.demo) == bool(args.base_url):
        print("error: say where the app runs: --demo (the embedded demo, served here) or --base-url URL.",
              file=sys.stderr)
        return BAD_INPUT
    try:
        endpoints = browser_endpoints(args.browser_endpoint, args.browser_endpoints)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    demo = None
    if args.demo:
        from studio.demo.server import DemoServerThread

        demo = DemoServerThread()
        base_url = demo.start()
    else:
        base_url = args.base_url
    options = BatchOptions(base_url=base_url, out=Path(args.out), parallel=args.parallel, fail_fast=args.fail_fast,
                           session_reuse=args.session_reuse, repeat=args.repeat, trace=args.trace,
                           mcp_data=args.mcp_data, mcp_web=args.mcp_web, crawl=not args.no_crawl,
                           project=Path(args.project) if args.project else None)
    try:
        job = asyncio.run(_batch_job(args, scenarios, options, endpoints))
    except BrowserError as error:
        print(f"error: {error}", file=sys.stderr)
        return INVALID
    except KeyboardInterrupt:
        print("Stopped; the scenarios that finished are in the results.", file=sys.stderr)
        return 130
    finally:
        if demo is not None:
            demo.stop()
    if job.error is not None or job.failure is not None:
        print(f"error: {job.error or job.failure}", file=sys.stderr)
        return BAD_INPUT if isinstance(job.error, BatchError) else INVALID  # BatchError: an MCP server does not answer
    return _summary(job, Path(args.out))


async def _batch_job(args: argparse.Namespace, scenarios: list[Scenario], options: BatchOptions,
                     endpoints: list[str]) -> BatchJob:
    """Run the batch as a job of a runtime built for this command (its browsers closed when it ends)."""
    from studio.runtime import EngineRuntime
    from studio.scenarios.driver import LocalScenarioPages
    from studio.scenarios.job import BatchJob
    from studio.settings import load_settings

    options.model = _model(args)
    try:
        async with EngineRuntime(load_settings(), headless=not args.headed, browser_endpoints=endpoints) as runtime:
            job = BatchJob(scenarios, options, lambda line: print(line, flush=True), LocalScenarioPages.on(runtime))
            await runtime.jobs.run(job)
            return job
    finally:
        if options.model is not None:
            await options.model.aclose()


def _summary(job: BatchJob, out: Path) -> int:
    from studio.scenarios.batch import summary
    from studio.scenarios.report import ReportError, write_report
    from studio.scenarios.run_summary import SummaryError, write_summary

    batch = job.batch
    assert batch is not None
    try:
        report, _differences = write_report(batch.log_path, out / "index.html", []) if batch.log_path \
            else (None, [])
    except ReportError:
        report = None  # nothing finished: the summary says so
    if batch.log_path is not None:
        try:
            write_summary(batch.log_path, report, stopped=batch.stopped, run_id=batch.run_id)
        except (SummaryError, OSError) as error:
            print(f"warning: summary.json could not be written ({error}).", file=sys.stderr)
    for line in summary(batch):
        print(line)
    if report is not None:
        print(f"Reports: {report}")
    return VALID if batch.results and batch.pass_rate == 1.0 and not batch.stopped else INVALID


def _model(args: argparse.Namespace) -> LanguageModel | None:
    """The model the settings configure (with --model's name), None with --no-model or none configured."""
    from studio.llm import LanguageModel
    from studio.settings import load_settings

    if args.no_model:
        return None
    wanted = load_settings().llm
    if args.model:
        wanted = wanted.model_copy(update={"model": args.model})
    key = (args.openai_key or "").strip() or None  # kept in memory only: never written to a file or a log
    if key is not None and not wanted.base_url:
        wanted = wanted.model_copy(update={"base_url": OPENAI_BASE_URL})
    model = LanguageModel.from_settings(wanted, key)
    if model is None and args.model:
        print(f"warning: --model {args.model} was given but no model endpoint is configured (Settings › Model); the "
              "deterministic planner runs.", file=sys.stderr)
    return model


def register_run(commands: argparse._SubParsersAction) -> None:
    run = commands.add_parser(
        "run", help="run goal scenarios (YAML) with the scenario agent",
        description="Run goal scenarios: each in a fresh browser context, an agent reaches its goal from its start "
                    "URL (no model: the deterministic planner). One line per scenario, then the summary; the JSONL "
                    "log goes to OUT/results.jsonl, the report to OUT/index.html and the summary (pass rate, median "
                    "steps, total cost) to OUT/summary.json. Exit 0: every scenario passed; 1: some did not; 2: bad "
                    "input.")
    run.add_argument("patterns", nargs="+", metavar="PATTERN", help="scenario files, folders or globs")
    where = run.add_mutually_exclusive_group()
    where.add_argument("--demo", action="store_true", help="serve the embedded demo app here and run against it")
    where.add_argument("--base-url", metavar="URL", help="where the app runs (scenario start URLs are resolved "
                                                         "against it)")
    run.add_argument("--parallel", type=int, default=1, metavar="N", help="scenarios at once (default 1)")
    run.add_argument("--repeat", type=int, default=1, metavar="N", help="run each scenario N times (default 1)")
    run.add_argument("--fail-fast", action="store_true", help="stop starting scenarios after the first failure")
    run.add_argument("--session-reuse", action="store_true",
                     help="reuse a test user's signed-in session across scenarios (falls back to signing in)")
    run.add_argument("--headless", action="store_true", help="no browser window (the default)")
    run.add_argument("--headed", action="store_true", help="show the browser window")
    run.add_argument("--browser-endpoint", metavar="URL", action="append",
                     help="run the browsers on a remote Playwright browser server (ws://HOST:PORT/, from `playwright "
                          "run-server --unsafe`); repeat it for several servers: each scenario goes to the least busy "
                          "one, and one whose server goes away runs once more on another (default: "
                          "$STUDIO_BROWSER_ENDPOINT, else Settings, else a browser here)")
    run.add_argument("--browser-endpoints", metavar="FILE",
                     help="a file listing browser servers, one ws:// address a line (# comments), with any "
                          "--browser-endpoint")
    run.add_argument("--trace", action="store_true",
                     help="keep a Playwright trace of every scenario run (OUT/artifacts/<id>-<n>/trace.zip; open it "
                          "with `playwright show-trace`); a scenario's capture: [trace_always] asks for its own")
    run.add_argument("--out", default="out", metavar="DIR",
                     help="where results.jsonl, the report, sessions and artifacts (screenshots, traces) go "
                          "(default out)")
    run.add_argument("--mcp-data", metavar="URL", nargs="?", const=MCP_DATA_DEFAULT,
                     help="make the pre- and postconditions' data.* / auth.* calls on this MCP-Data server "
                          f"(`studio mcp --data-tools --http HOST:PORT`; the flag alone: {MCP_DATA_DEFAULT}) "
                          "instead of the app's data endpoints")
    run.add_argument("--mcp-web", metavar="URL", nargs="?", const=MCP_WEB_DEFAULT,
                     help="drive the browser of this MCP-Web server (`studio mcp --web-tools --http HOST:PORT`; the "
                          f"flag alone: {MCP_WEB_DEFAULT}) through its ui.* and session.* tools instead of a "
                          "browser here; its scenarios run one at a time")
    run.add_argument("--no-crawl", action="store_true",
                     help="skip the crawl of the app before the scenarios (path optimality then uses only the "
                          "transitions the runs make, and the UI map of --project)")
    run.add_argument("--project", metavar="FILE.studio",
                     help="a project whose preflight UI map of this app adds its page links to the navigation graph")
    model = run.add_mutually_exclusive_group()
    model.add_argument("--model", metavar="NAME", help="the model to plan with, at the endpoint Settings › Model "
                                                      "configures (default: the configured model; none: the "
                                                      "deterministic planner)")
    model.add_argument("--no-model", action="store_true", help="plan without a model even when one is configured")
    run.add_argument("--openai-key", metavar="KEY",
                     help="plan with the model using this API key, at the endpoint Settings › Model configures, else "
                          f"OpenAI's ({OPENAI_BASE_URL}); kept in memory only, never written to the project, logs, "
                          "results, report or summary (default: $OPENAI_API_KEY, else the system keyring, for the "
                          "configured endpoint)")
    run.set_defaults(handler=_run)
