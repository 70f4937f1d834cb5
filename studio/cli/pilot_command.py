"""`studio pilot URL`: open a page and hand it to an AI through files (seed 003's file protocol).

The AI reads observation.json in the session folder and writes action.json; the command runs until a batch says
"done": true, --max-steps actions ran, or Ctrl+C (a clean stop: status DONE and report.json written). The defaults are
the seed's: session folders under ./fe-pilot-sessions/, the screenshot in observation.json in base64, every action of
a batch run even after one failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli.browser_options import add_browser_options, browser_endpoint
from studio.pilot.files import SESSIONS_DIR
from studio.wording import plural


def _pilot(args: argparse.Namespace) -> int:
    if args.replay is not None:
        if args.url is not None:
            print("error: give a URL to start a session, or --replay DIR to replay one, not both.", file=sys.stderr)
            return 2
        from studio.cli.pilot_replay import replay

        return replay(args)
    if args.out is not None:
        print("error: --out is for --replay (the folder the replay's own session is written into).", file=sys.stderr)
        return 2
    if args.url is None:
        print("error: give the URL to open (studio pilot URL), or --replay DIR.", file=sys.stderr)
        return 2
    import asyncio
    import signal

    from studio.browser.errors import BrowserError
    from studio.browser.urls import normalize_url
    from studio.pilot.session import PilotEvent, PilotOptions, PilotSession
    from studio.race.errors import RaceError
    from studio.runtime import EngineRuntime
    from studio.runtime.live import LivePage
    from studio.settings import load_settings

    try:
        url = normalize_url(args.url, allow_files=args.allow_file_urls)
    except ValueError as error:
        print(f"error: {error}.", file=sys.stderr)
        return 2
    if args.max_steps < 1:
        print("error: --max-steps must be at least 1.", file=sys.stderr)
        return 2
    endpoint = browser_endpoint(args)
    try:
        origins = [normalize_url(origin) for origin in args.allow_origin]
    except ValueError as error:
        print(f"error: --allow-origin: {error}.", file=sys.stderr)
        return 2
    options = PilotOptions(goal=args.goal, max_steps=args.max_steps, origins=origins,
                           allow_file_urls=args.allow_file_urls,
                           upload_dir=str(args.upload_dir.resolve()) if args.upload_dir else None,
                           screenshot="path" if args.screenshot == "path" else "base64")

    def tell(event: PilotEvent) -> None:
        if event.kind in ("warning", "error"):
            print(f"{event.kind}: {event.data}", file=sys.stderr, flush=True)
        elif event.kind == "observation":
            print(f"observation {event.data['stepNumber']}: {event.data['currentUrl']}", file=sys.stderr, flush=True)

    async def pilot() -> int:
        async with EngineRuntime(load_settings(), None, record=False) as runtime:
            overrides = {"browser_endpoint": endpoint} if endpoint else {}
            session = await runtime.start_browser(headless=not args.headed, label="studio pilot", **overrides)
            await session.goto(url)
            pilot = PilotSession(LivePage(session).driver, Path(args.sessions_dir), options, tell)
            loop = asyncio.get_running_loop()
            for name in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(name, pilot.stop)
            print(f"Session folder: {pilot.folder.resolve()}\n"
                  f"Read observation.json there and write action.json, e.g.\n"
                  '  {"reasoning": "…", "actions": [{"action": "click", "selector": "text=Next"}]}\n'
                  'Every action of a batch runs, even after one failed ("stopOnError": true stops at the first).\n'
                  'A batch with "done": true ends the session; so does Ctrl+C.', flush=True)
            report = await pilot.run()
        print(f"Done ({report.endReason}): {plural(report.actionsExecuted, 'action')} executed, {report.actionsFailed} "
              f"failed, {report.actionsRefused} refused. Report: {pilot.folder.resolve() / 'report.json'}", flush=True)
        return 0

    try:
        return asyncio.run(pilot())
    except (BrowserError, RaceError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


def register(commands: argparse._SubParsersAction) -> None:
    pilot = commands.add_parser(
        "pilot", help="let an AI drive a page through observation.json / action.json files (or replay a session)",
        description="Open URL and hand the page to an AI through files (the pilot protocol): the AI reads "
                    "observation.json in the session folder and writes action.json. Every action goes through the "
                    "race preflight, so a blocked one reports its facts in the next observation. Every action of a "
                    "batch runs even after one failed, unless the batch says \"stopOnError\": true; a third identical "
                    "action in a row is not run and is the observation's error. action.json stays in the folder "
                    "(a copy goes to actions/) until the AI writes the next one. Runs until a batch says \"done\": "
                    "true, --max-steps actions ran, or Ctrl+C.")
    pilot.add_argument("url", metavar="URL", nargs="?", help="the page to open (leave out with --replay)")
    pilot.add_argument("--replay", type=Path, metavar="DIR",
                       help="replay the session folder DIR in a fresh browser and compare each action's outcome "
                            "with the recorded one (exit 0 when all match, 1 otherwise)")
    pilot.add_argument("--out", type=Path, metavar="DIR",
                       help="with --replay: keep the replay's own session folder in DIR (never over the original)")
    pilot.add_argument("--goal", default="", metavar="TEXT", help="what the AI should reach (in every observation)")
    pilot.add_argument("--sessions-dir", default=SESSIONS_DIR, metavar="DIR",
                       help=f"where session folders (exploration-<epoch ms>/) are made (default ./{SESSIONS_DIR}, "
                            "as the seed's)")
    pilot.add_argument("--max-steps", type=int, default=50, metavar="N",
                       help="stop after this many executed actions (default 50)")
    pilot.add_argument("--screenshot", choices=("base64", "path"), default="base64",
                       help="how observation.json carries the page's screenshot: base64, the PNG itself (default, as "
                            "the seed's), or path, the relative path of its file in screenshots/ (a much smaller "
                            "observation; the file is written either way)")
    pilot.add_argument("--upload-dir", type=Path, metavar="DIR",
                       help="the folder upload actions take files from (default: the session folder's uploads/); "
                            "no other file on this machine is ever sent")
    pilot.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="another origin the AI may open and type on (repeatable); by default only the start "
                            "page's, so a page the AI reads cannot send it, or what it types, elsewhere")
    add_browser_options(pilot)
    pilot.set_defaults(handler=_pilot)
