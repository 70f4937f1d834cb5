"""`studio game URL --project P`: evaluate a browser game in four phases and score it (seed 002).

Prints each phase's result and the five scores with the weighted overall; `--json` prints the seed's result shapes
(Phase1Result … Phase4Result) with the run id. Progress events go to stderr as JSON lines unless --quiet. Exit codes:
0 completed, 1 failed (the reason in one sentence on stderr), 2 bad input (nothing ran), 4 stopped early (cancelled
or out of time; partial scores are kept), 5 the run is held by another process; 130 / 143 after Ctrl+C / SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from studio.cli.browser_options import ENDPOINT_HELP, browser_endpoint

if TYPE_CHECKING:
    from studio.models.game import GameRun, InputSchema
    from studio.store.project import ProjectFile

COMPLETED, FAILED, BAD_INPUT, STOPPED, BUSY = 0, 1, 2, 4, 5
INTERRUPTED_BY: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}


def _game(args: argparse.Namespace) -> int:
    from studio.game.input_schema import GameUrlError, InputSchemaError, game_url, load_input_schema
    from studio.store.errors import ProjectError
    from studio.store.game import GameStore
    from studio.store.project import ProjectFile

    try:
        url = game_url(args.url)
        schema = load_input_schema(args.input_schema) if args.input_schema else None
        project = ProjectFile.open_or_create(args.project)
    except (GameUrlError, InputSchemaError, ProjectError) as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    try:
        for swept in GameStore(project.db).sweep_interrupted():
            print(f"Game run {swept.id} ({swept.url}) was interrupted earlier; it is recorded as failed.",
                  file=sys.stderr)
        return _run(args, project, url, schema)
    finally:
        project.close()


def _run(args: argparse.Namespace, project: ProjectFile, url: str, schema: InputSchema | None) -> int:
    from studio.browser.errors import BrowserError
    from studio.store.leases import JobLocked

    try:
        run = asyncio.run(_drive(args, project, url, schema))
    except JobLocked as error:
        print(f"error: {error}", file=sys.stderr)
        return BUSY
    except _Stopped as stopped:
        print(f"Stopped by {signal.Signals(stopped.signum).name}; the run was recorded as failed and what it found "
              f"is kept in {args.project}.", file=sys.stderr)
        return INTERRUPTED_BY.get(stopped.signum, FAILED)
    except BrowserError as error:
        print(f"error: {error}", file=sys.stderr)
        return FAILED
    if run is None:
        print("error: the evaluation ended before it started; see the log (studio -v game ...).", file=sys.stderr)
        return FAILED
    if args.json:
        print(json.dumps(run.seed_results(), indent=2))
    else:
        print(report(run, args.project))
    if run.status == "completed":
        if run.message:
            print(f"note: {run.message}", file=sys.stderr)
        return COMPLETED
    print(f"error: {run.message}", file=sys.stderr)
    return STOPPED if run.end_reason in ("cancelled", "budget_exhausted") else FAILED


class _Stopped(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


async def _drive(args: argparse.Namespace, project: ProjectFile, url: str,
                 schema: InputSchema | None) -> GameRun | None:
    from studio.game import GameEvaluation, GameOptions
    from studio.models.events import EngineEvent, JobEvent
    from studio.runtime import EngineRuntime
    from studio.settings import load_settings

    limits = {"max_seconds": args.max_seconds, "max_steps": args.max_steps, "max_tokens": args.max_tokens,
              "max_cost_usd": args.max_cost}
    runtime = EngineRuntime(load_settings(), project, budget_limits=limits)
    if not args.quiet:
        def write(event: EngineEvent) -> None:
            sys.stderr.write(event.model_dump_json(exclude={"png"}) + "\n")
            sys.stderr.flush()

        runtime.bus.subscribe(write, JobEvent)
    options = GameOptions(seed=args.seed, use_model=not args.no_model)
    if args.max_seconds is not None:
        # A short time budget makes a short exploration: the four phases share it, scoring keeps its part.
        window = max(3.0, min(options.max_explore_s, args.max_seconds * 0.7))
        options = options.model_copy(update={"max_explore_s": window,
                                             "min_explore_s": min(options.min_explore_s, window),
                                             "no_progress_s": min(options.no_progress_s, max(5.0, window / 2))})
    main = asyncio.current_task()
    assert main is not None
    stopped: list[int] = []

    def stop(signum: int) -> None:
        stopped.append(signum)
        main.cancel()

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop, signal.SIGTERM)
    try:
        async with runtime:
            endpoint = browser_endpoint(args)
            await runtime.start_browser(headless=not args.headed, label="studio game",
                                        **({"browser_endpoint": endpoint} if endpoint else {}))
            evaluation = await GameEvaluation.on(runtime, url, input_schema=schema, options=options)
            return await runtime.jobs.run(evaluation)
    except asyncio.CancelledError:
        if stopped:
            raise _Stopped(stopped[0]) from None
        raise
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def report(run: GameRun, project: Path) -> str:
    """Each phase's result and the scores, for a person at the terminal."""
    from studio.models.game import METRIC_TITLES, METRIC_WEIGHTS, PHASE_TITLES

    lines = [f"Game evaluation of {run.url} (run {run.id}): {run.status}"]
    for number, outcome in enumerate(run.phases, start=1):
        took = f" in {outcome.seconds:.1f} s" if outcome.seconds is not None else ""
        lines.append(f"Phase {number} · {PHASE_TITLES[outcome.phase]} — {outcome.status}{took}"
                     + (f": {outcome.message}" if outcome.message else ""))
        lines += [f"    {line}" for line in _phase_lines(run, outcome.phase)]
    if run.phase4 is not None and run.phase4.metrics:
        scoring = {"rubric": "built-in rubric", "model": f"model {run.ai_model}",
                   "technical_only": "built-in rubric, technical-only (the model's answer was not usable)"}
        lines.append(f"Scores ({scoring[run.scoring]}):")
        for metric in run.phase4.metrics:
            lines.append(f"  {METRIC_TITLES[metric.name]:<26} {metric.score:>3}  (weight {METRIC_WEIGHTS[metric.name]}%)"
                         f"  {metric.justification}")
        lines.append(f"  {'Overall':<26} {run.phase4.overallScore:>3}")
    lines.append(f"Saved in {project} (screenshots, actions, decisions and logs); use --json for the phase results.")
    return "\n".join(lines)


def _phase_lines(run: GameRun, phase: str) -> list[str]:
    if phase == "phase1" and run.phase1 is not None:
        return [f"requires interaction: {'yes' if run.phase1.requiresInteraction else 'no'}",
                *[f"- {error}" for error in run.phase1.errors[:5]]]
    if phase == "phase2" and run.phase2 is not None and run.phase2.success:
        return [f"{len(run.phase2.controls)} controls; hypothesis: {run.phase2.hypothesis}"]
    if phase == "phase3" and run.phase3 is not None and (run.phase3.actionsTaken or run.phase3.screenshotCount):
        return [f"{run.phase3.actionsTaken} actions, {run.phase3.screenshotCount} screenshots; {run.findings}"]
    return []


def _positive(kind: Callable[[str], int | float]) -> Callable[[str], int | float]:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or value <= 0:
            raise argparse.ArgumentTypeError(f"{text} must be a finite number above 0")
        return value
    return parse


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("the seed must be 0 or more")
    return value


def register(commands: argparse._SubParsersAction) -> None:
    game = commands.add_parser(
        "game", help="evaluate a browser game: load, controls, gameplay, scores (seed 002)",
        description="Play a browser game in four phases (load & validation, control discovery, gameplay "
                    "exploration, evaluation & scoring) and score it on five weighted metrics. Exit 0: completed; "
                    "1: failed; 2: bad input; 4: stopped early; 5: held by another process.")
    game.add_argument("url", metavar="URL", help="the game's address (http or https)")
    game.add_argument("--project", type=Path, required=True, metavar="FILE",
                      help="the .studio project file (created when missing); the run is recorded there")
    game.add_argument("--input-schema", type=Path, metavar="FILE",
                      help='optional JSON (at most 10 KB) naming the controls, e.g. {"controls": {"movement": '
                           '["W", "A", "S", "D"], "actions": ["Space"]}, "objectives": "…"}')
    game.add_argument("--json", action="store_true", help="print the four phases' results and the run id as JSON")
    game.add_argument("--seed", type=_seed, default=0, help="the explorer's seed: the same seed plays the same moves")
    game.add_argument("--no-model", action="store_true", help="play and score without the configured model")
    game.add_argument("--quiet", action="store_true", help="no progress events (JSON lines) on stderr")
    game.add_argument("--headed", action="store_true", help="show the Chromium window (needs a display)")
    game.add_argument("--browser-endpoint", metavar="URL", help=ENDPOINT_HELP)
    budget = game.add_argument_group("budget", "limits for this run (default: the game's own time and steps, the "
                                               "model's tokens and dollars from Settings › Model)")
    budget.add_argument("--max-seconds", type=_positive(float), metavar="S",
                        help="wall-clock seconds for the whole run; a short budget makes a short exploration")
    budget.add_argument("--max-steps", type=_positive(int), metavar="N", help="browser actions")
    budget.add_argument("--max-tokens", type=_positive(int), metavar="N", help="model tokens")
    budget.add_argument("--max-cost", type=_positive(float), metavar="USD", help="model cost in US dollars")
    game.set_defaults(handler=_game)
