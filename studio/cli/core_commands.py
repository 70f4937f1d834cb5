"""Core commands: gui, demo, doctor, serve-demo, bench."""

from __future__ import annotations

import argparse
import asyncio
import errno
import inspect
import os
import sys
from collections.abc import Callable
from pathlib import Path

from studio.browser.launcher import ENDPOINT_ENV
from studio.browser.urls import normalize_url
from studio.cli.browser_options import ENDPOINT_HELP, browser_endpoint
from studio.cli.url_flag import add_allow_file_urls
from studio.cli.window import window


def _window_bench() -> Callable[..., int]:
    return window().bench()  # it runs in Qt: the window front end's


def _race_bench() -> Callable[..., int]:
    from studio.cli.race_bench import main

    return main


def _mcp_bench() -> Callable[..., int]:
    from studio.mcp.bench import main

    return main


def _preflight_bench() -> Callable[..., int]:
    from studio.preflight.bench import main

    return main


def _scenario_bench() -> Callable[..., int]:
    from studio.scenarios.bench import main

    return main


def _scale_bench() -> Callable[..., int]:
    from studio.scenarios.bench_scale import main

    return main


def _pilot_bench() -> Callable[..., int]:
    from studio.pilot.bench import main

    return main


def _game_bench() -> Callable[..., int]:
    from studio.game.bench import main

    return main


# target -> where its measuring main() comes from (loaded only when that bench runs)
BENCH_TARGETS: dict[str, Callable[[], Callable[..., int]]] = {
    "live-view": _window_bench, "startup": _window_bench, "race": _race_bench, "snapshot": _race_bench,
    "preflight": _preflight_bench, "mcp-click": _mcp_bench, "soak": _window_bench, "game": _game_bench,
    "scenarios": _scenario_bench, "pilot": _pilot_bench, "scale": _scale_bench,
}


def _gui(args: argparse.Namespace) -> int:
    _endpoint_for_this_process(args)
    # Qt lives only in studio.ui / studio.app: the window front end is installed by studio.entry.
    try:
        url = normalize_url(args.url, allow_files=args.allow_file_urls) if args.url else None
    except ValueError as error:
        print(f"error: {error}.", file=sys.stderr)
        return 2
    if args.project_file and args.project and args.project_file != args.project:
        print(f"error: two projects given ({args.project_file} and --project {args.project}); give one.",
              file=sys.stderr)
        return 2
    return window().run_gui(project=args.project_file or args.project, url=url, screenshot=args.screenshot,
                            headed=args.headed, storage_state=args.storage_state,
                            allow_file_urls=args.allow_file_urls, workspace=args.workspace, size=args.size)


def _endpoint_for_this_process(args: argparse.Namespace) -> None:
    """The window's sessions read the endpoint from settings and the environment: the flag goes into the latter
    for this process only, so it is never saved into the settings file."""
    endpoint = browser_endpoint(args) if args.browser_endpoint else None
    if endpoint:
        os.environ[ENDPOINT_ENV] = endpoint


def _demo(args: argparse.Namespace) -> int:
    from studio.cli import demo_command

    _endpoint_for_this_process(args)
    return demo_command.main(out=args.out, seed=args.seed, headless=args.headless, jsonl=args.jsonl,
                             close_when_done=args.close_when_done, endpoint=browser_endpoint(args))


def _doctor(args: argparse.Namespace) -> int:
    from studio.cli.doctor import print_report, run_doctor

    report = run_doctor(launch_browser=not args.no_launch, endpoint=browser_endpoint(args))
    print_report(report, as_json=args.json)
    return 0 if report.ok else 2


def _serve(args: argparse.Namespace) -> int:
    from studio.demo.server import DemoConfig, serve_forever

    try:
        asyncio.run(serve_forever(args.host, args.port, DemoConfig(seed=args.seed)))
    except OSError as error:
        where = f"{args.host}:{args.port}"
        reason = "that port is already in use" if error.errno == errno.EADDRINUSE else (error.strerror or str(error))
        print(f"error: cannot serve the demo app on {where}: {reason}. "
              "Choose another port with --port, or leave it out to use a free one.", file=sys.stderr)
        return 2
    return 0


def _port(text: str) -> int:
    """An argparse type: a TCP port number, 0 meaning any free port."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0-65535; 0 picks a free one)")
    return port


MIN_WINDOW = (800, 500)  # the smallest window the docks fit in


def _window_size(text: str) -> tuple[int, int]:
    """An argparse type: a window size such as 1366x768."""
    width, _, height = text.lower().replace("×", "x").partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a window size: give width x height, e.g. 1366x768 or "
                                         "1920x1080") from None
    if not (MIN_WINDOW[0] <= size[0] <= 7680 and MIN_WINDOW[1] <= size[1] <= 4320):
        raise argparse.ArgumentTypeError(f"{text} is outside the sizes the window takes ({MIN_WINDOW[0]}x"
                                         f"{MIN_WINDOW[1]} to 7680x4320)")
    return size


def _bench(args: argparse.Namespace) -> int:
    measure = BENCH_TARGETS[args.target]()
    options = {"target": args.target, "seconds": args.seconds, "json_only": args.json}
    if args.minutes is not None:
        if "minutes" not in inspect.signature(measure).parameters:
            print(f"--minutes does not apply to `studio bench {args.target}`.", file=sys.stderr)
            return 2
        options["minutes"] = args.minutes
    if args.runs is not None:
        if "runs" not in inspect.signature(measure).parameters:
            print(f"--runs does not apply to `studio bench {args.target}`.", file=sys.stderr)
            return 2
        if args.runs < 1:
            print("--runs must be 1 or more.", file=sys.stderr)
            return 2
        options["runs"] = args.runs
    if args.sizes is not None:
        if "sizes" not in inspect.signature(measure).parameters:
            print(f"--sizes does not apply to `studio bench {args.target}`.", file=sys.stderr)
            return 2
        try:
            sizes = tuple(int(part) for part in args.sizes.split(","))
        except ValueError:
            sizes = ()
        if not sizes or min(sizes) < 1:
            print(f"--sizes must be page sizes separated by commas, e.g. 100,1000; it was {args.sizes!r}.",
                  file=sys.stderr)
            return 2
        options["sizes"] = sizes
    return measure(**options)


def register(commands: argparse._SubParsersAction) -> None:
    gui = commands.add_parser("gui", help="open the studio window (the default)")
    gui.add_argument("project_file", nargs="?", type=Path, metavar="PROJECT",
                     help="open or create this .studio project file (as --project does)")
    gui.add_argument("--project", type=Path, help="open or create this .studio project file")
    gui.add_argument("--url", help="open this URL in the live browser")
    gui.add_argument("--screenshot", type=Path, metavar="PNG",
                     help="load the URL, wait for the first real frame, save a PNG of the window and exit")
    gui.add_argument("--workspace", metavar="NAME", help="show this workspace (Explore, Playground, …)")
    gui.add_argument("--size", type=_window_size, metavar="WxH", help="the window's size, e.g. 1366x768")
    gui.add_argument("--headed", action="store_true", help="also show a real Chromium window")
    gui.add_argument("--browser-endpoint", metavar="URL", help=ENDPOINT_HELP)
    gui.add_argument("--storage-state", type=Path, metavar="JSON",
                     help="start signed in from a login state saved with Session > Save Login State")
    add_allow_file_urls(gui)
    gui.set_defaults(handler=_gui)

    demo = commands.add_parser("demo", help="run the guided demo against the embedded demo app")
    demo.add_argument("--headless", action="store_true", help="stay in the terminal even when a display is present")
    demo.add_argument("--out", type=Path, default=Path("out/demo"),
                      help="folder for demo.studio and summary.json (default: out/demo)")
    demo.add_argument("--seed", type=int, default=1, help="demo app seed (hydration delays, card order)")
    demo.add_argument("--jsonl", type=Path, help="also write every event as JSON lines to this file")
    demo.add_argument("--browser-endpoint", metavar="URL", help=ENDPOINT_HELP)
    demo.add_argument("--close-when-done", action="store_true", help="in the window: close it when the tour ends")
    demo.set_defaults(handler=_demo)

    doctor = commands.add_parser("doctor", help="check the browser, Qt, display and project-file support")
    doctor.add_argument("--json", action="store_true", help="print the report as JSON")
    doctor.add_argument("--browser-endpoint", metavar="URL", help=ENDPOINT_HELP)
    doctor.add_argument("--no-launch", action="store_true", help="find the browser but do not start it")
    doctor.set_defaults(handler=_doctor)

    serve = commands.add_parser("serve-demo", help="serve the embedded demo app until Ctrl+C")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=0, help="port (default: a free one)")
    serve.add_argument("--seed", type=int, default=1)
    serve.set_defaults(handler=_serve)

    bench = commands.add_parser("bench", help="measure performance and print JSON")
    bench.add_argument("target", choices=list(BENCH_TARGETS))
    bench.add_argument("--json", action="store_true", help="print only the JSON result")
    bench.add_argument("--seconds", type=float, default=5.0, help="how long to measure (live-view)")
    bench.add_argument("--minutes", type=float, help="how long to soak (soak: default 30; 0.5 is a quick run)")
    bench.add_argument("--runs", type=int, help="how many runs to measure (startup, preflight, snapshot: default 3; "
                                                "race: samples per element, default 30; mcp-click: clicks per session, "
                                                "default 20; scenarios: runs of each scenario for repeatability, "
                                                "default 20; pilot: single-action batches, default 20; scale: "
                                                "scenario runs on each set of browser servers, default 20)")
    bench.add_argument("--sizes", help="snapshot: interactive elements per generated page, e.g. 100,1000 "
                                       "(default 100,1000,5000); scale: browser servers per set (default 1,2,4)")
    bench.set_defaults(handler=_bench)
