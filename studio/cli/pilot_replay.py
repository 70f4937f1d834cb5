"""`studio pilot --replay DIR`: replay a pilot session from its folder in a fresh browser and compare outcomes."""

from __future__ import annotations

import argparse
import sys

from studio.cli.browser_options import browser_endpoint
from studio.wording import plural


def replay(args: argparse.Namespace) -> int:
    import asyncio

    from studio.browser.errors import BrowserError
    from studio.pilot.recording import RecordingError, load_recording
    from studio.pilot.replay import Replayer, ReplayResult
    from studio.race.errors import RaceError
    from studio.runtime import EngineRuntime
    from studio.runtime.live import LivePage
    from studio.settings import load_settings

    try:
        recording = load_recording(args.replay)
    except RecordingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    endpoint = browser_endpoint(args)

    def say(line: str) -> None:
        print(line, flush=True)

    async def run() -> ReplayResult:
        async with EngineRuntime(load_settings(), None, record=False) as runtime:
            overrides = {"browser_endpoint": endpoint} if endpoint else {}
            session = await runtime.start_browser(headless=not args.headed, label="studio pilot --replay",
                                                  **overrides)
            print(f"Replaying {args.replay} ({plural(len(recording.files), 'action file')}) from {recording.start_url}",
                  flush=True)
            return await Replayer(LivePage(session).driver, recording, say, args.out).run()

    try:
        result = asyncio.run(run())
    except RecordingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (BrowserError, RaceError) as error:  # no browser, or the start URL cannot be opened
        print(f"error: {error}", file=sys.stderr)
        return 1
    for note in result.notes:
        print(f"note: {note}")
    print(result.summary())
    if result.differences:
        print("Differences:")
        for found in result.differences:
            print(f"  {found.line()}")
    if result.folder is not None:
        print(f"The replay's own session folder: {result.folder.resolve()}")
    return 0 if not result.differences else 1
