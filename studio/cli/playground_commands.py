"""Playground commands (seed 000): `studio preflight URL` and `studio playground {new-suite,new-cases,edit}`.

Both run a bounded browser preflight, recorded in the project; the playground ones then run their agent. Exit
codes: 0 completed, 1 failed, 2 bad input, 3 paused with questions (JSON on stdout; resume with --answers FILE),
4 stopped early (budget exhausted or cancelled), 5 the job runs in another process, 6 finished with nothing (a
preflight that found no control, a New Suite or New Cases that wrote no case: what it tried and why, each reason
with its next step, on stderr, and with --json as `outcome: "nothing"` with `tried` and `reasons`). Progress events
go to stderr as JSON lines unless --quiet. With --json every ending prints JSON on stdout: a completed preflight its
context_collection; every other ending the seed's `{"output", "context_collection"}`, where a job that did not
complete (failed, bad input, busy, stopped, paused) says how it ended and why in `output` (outcome, status,
exit_code, error, summary) and the error is also in context_collection.evidence.notes (and auth_state.blockers).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from studio.cli.browser_options import add_browser_options, browser_endpoint

if TYPE_CHECKING:
    from studio.models.context import JobKind

AGENTS: dict[str, JobKind] = {"new-suite": "new_testsuite", "new-cases": "new_test_case", "edit": "edit_test_case"}
ANSWERS_HELP = ("answers to the questions, as a JSON (or .yaml) file: {\"key\": \"value\", ...} or "
                "[{\"key\": ..., \"value\": ...}]; resumes the project's paused job, and answers later questions "
                "it covers. Include the login (credentials.email, credentials.password) on every run")


def _preflight(args: argparse.Namespace) -> int:
    from studio.cli.playground_run import JobCommand, run

    command = ["studio", "preflight", args.url, "--project", str(args.project)]
    command += ["--request", args.request] if args.request else []
    command += ["--try-forms"] if args.try_forms else []
    return run(JobCommand(kind="preflight", project=args.project, url=args.url, request=args.request,
                          answers_file=args.answers, job_id=args.job, as_json=args.json, quiet=args.quiet,
                          headed=args.headed, endpoint=browser_endpoint(args),
                          command=command + _budget_args(args), limits=_limits(args),
                          allow_file_urls=args.allow_file_urls, try_forms=args.try_forms))


def _playground(args: argparse.Namespace) -> int:
    from studio.cli.playground_run import JobCommand, run

    case_ids = [part.strip() for part in args.cases.split(",") if part.strip()] if args.cases else None
    command = ["studio", "playground", args.agent, "--project", str(args.project)]
    for option, value in (("--url", args.url), ("--area", args.area), ("--cases", args.cases)):
        command += [option, value] if value else []
    command += ["--try-forms"] if args.try_forms else []
    return run(JobCommand(kind=AGENTS[args.agent], project=args.project, url=args.url, request=args.area or "",
                          case_ids=case_ids, answers_file=args.answers, job_id=args.job, as_json=args.json,
                          quiet=args.quiet, headed=args.headed, endpoint=browser_endpoint(args),
                          command=command + _budget_args(args), limits=_limits(args),
                          allow_file_urls=args.allow_file_urls, try_forms=args.try_forms))


def _limits(args: argparse.Namespace) -> dict[str, float | None]:
    return {"max_steps": args.max_steps, "max_seconds": args.max_seconds, "max_tokens": args.max_tokens,
            "max_cost_usd": args.max_cost}


def _budget_args(args: argparse.Namespace) -> list[str]:
    """The budget flags as given, for the rerun line a paused job prints."""
    given = []
    for flag, value in (("--max-steps", args.max_steps), ("--max-seconds", args.max_seconds),
                        ("--max-tokens", args.max_tokens), ("--max-cost", args.max_cost)):
        given += [flag, f"{value:g}" if isinstance(value, float) else str(value)] if value is not None else []
    return given


def _positive(kind: Callable[[str], int | float]) -> Callable[[str], int | float]:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number; give a limit such as 60")
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text} must be above 0")
        return value
    return parse


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--project", type=Path, required=True, metavar="FILE",
                        help="the .studio project file (created when missing); the job is recorded there")
    parser.add_argument("--answers", type=Path, metavar="FILE", help=ANSWERS_HELP)
    parser.add_argument("--job", metavar="ID", help="the paused job to resume (default: the latest paused job "
                                                   "with the same kind, request and URL)")
    parser.add_argument("--quiet", action="store_true", help="no progress events (JSON lines) on stderr")
    parser.add_argument("--try-forms", action="store_true",
                        help="let the preflight send the app's forms with sample data (records named 'Sample ...'; it "
                             "deletes the ones it saved where the page lets it). Writes reach the app: use this on a "
                             "test or staging app only. Without it nothing is ever sent to the server")
    add_browser_options(parser)
    budget = parser.add_argument_group("job budget", "limits for this run (default: Settings › Model › Job budget); "
                                       "reaching one stops the job with exit code 4, keeping what it found")
    budget.add_argument("--max-steps", type=_positive(int), metavar="N", help="browser steps (page visits, clicks)")
    budget.add_argument("--max-seconds", type=_positive(float), metavar="S", help="wall-clock seconds")
    budget.add_argument("--max-tokens", type=_positive(int), metavar="N", help="model tokens")
    budget.add_argument("--max-cost", type=_positive(float), metavar="USD", help="model cost in US dollars")


def register(commands: argparse._SubParsersAction) -> None:
    preflight = commands.add_parser(
        "preflight", help="understand a web app in the browser (base URL, login, UI map, entry points, gaps)",
        description="Run a bounded browser preflight of the app at URL. Exit 0: completed; 3: paused with "
                    "questions (printed as JSON; answer them with --answers FILE); 4: budget exhausted; 6: finished "
                    "with nothing (no control found on any page it opened: what it tried and why, each reason with "
                    "its next step; with --json, outcome \"nothing\" with tried and reasons beside the "
                    "context_collection); 5: running in another process; 1: failed; 2: bad input.")
    preflight.add_argument("url", metavar="URL", help="where the app runs (a wrong deep link is fine)")
    preflight.add_argument("--request", default="", metavar="TEXT",
                           help='what the tests are for, e.g. "create test cases for the disputes wizard"')
    preflight.add_argument("--json", action="store_true", help="print the context_collection as JSON when completed "
                           "(its findings are the suspected defects); any other ending prints {\"output\": how it "
                           "ended and why (outcome, error, exit_code), \"context_collection\": ...}")
    _common(preflight)
    preflight.set_defaults(handler=_preflight)

    playground = commands.add_parser(
        "playground", help="create a test suite, create test cases, or edit stale cases (after a preflight)",
        description="Run a preflight, then the agent. Exit codes as for `studio preflight`; 6 when New Suite or "
                    "New Cases wrote no case (output.outcome is \"nothing\", with tried and reasons). Suspected "
                    "defects the preflight reported are in context_collection.findings.")
    agents = playground.add_subparsers(dest="agent", metavar="AGENT", required=True)
    for name, what in (("new-suite", "propose suites from the app's modules, ask which, create and fill them"),
                       ("new-cases", "create test cases for an area, gaps first, without duplicates"),
                       ("edit", "update the selected or impacted test cases after the app changed")):
        agent = agents.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        agent.add_argument("--url", metavar="URL",
                           help="where the app runs (default: the base URL the project's latest job resolved)")
        agent.add_argument("--area", metavar="TEXT", help='the area to work on, e.g. "disputes wizard"')
        agent.add_argument("--cases", metavar="IDS", help="comma-separated test case ids (for edit)")
        agent.add_argument("--json", action="store_true", help='print {"output": the result, "context_collection": '
                           '...} as JSON however the job ends (a failure too: output.outcome, output.error, '
                           'output.exit_code)')
        _common(agent)
        agent.set_defaults(handler=_playground)
