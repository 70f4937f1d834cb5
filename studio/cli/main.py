"""The `studio` command: one engine, several front ends (GUI, CLI jobs, demo server, doctor, benchmarks)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import sys
from pathlib import Path

from studio import __version__


def _gui_module(name: str):
    # Qt lives only in studio.ui / studio.app; load it by name so the engine's import graph never reaches it.
    return importlib.import_module(f"studio.ui.{name}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="studio", description="Preflight Studio: explore a web app in a live browser and turn it into tests.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log details to stderr")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    gui = commands.add_parser("gui", help="open the studio window (the default)")
    gui.add_argument("--project", type=Path, help="open or create this .studio project file")
    gui.add_argument("--url", help="open this URL in the live browser")
    gui.add_argument("--screenshot", type=Path, metavar="PNG",
                     help="load the URL, wait for the first real frame, save a PNG of the window and exit")
    gui.add_argument("--headed", action="store_true", help="also show a real Chromium window")

    demo = commands.add_parser("demo", help="run the guided demo against the embedded demo app")
    demo.add_argument("--headless", action="store_true", help="stay in the terminal even when a display is present")
    demo.add_argument("--out", type=Path, default=Path("out/demo"), help="folder for demo.studio and summary.json (default: out/demo)")
    demo.add_argument("--seed", type=int, default=1, help="demo app seed (hydration delays, card order)")
    demo.add_argument("--jsonl", type=Path, help="also write every event as JSON lines to this file")
    demo.add_argument("--close-when-done", action="store_true", help="in the window: close it when the tour ends")

    doctor = commands.add_parser("doctor", help="check the browser, Qt, display and project-file support")
    doctor.add_argument("--json", action="store_true", help="print the report as JSON")
    doctor.add_argument("--no-launch", action="store_true", help="find the browser but do not start it")

    serve = commands.add_parser("serve-demo", help="serve the embedded demo app until Ctrl+C")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    serve.add_argument("--seed", type=int, default=1)

    bench = commands.add_parser("bench", help="measure performance and print JSON")
    bench.add_argument("target", choices=["live-view", "startup"])
    bench.add_argument("--json", action="store_true", help="print only the JSON result")
    bench.add_argument("--seconds", type=float, default=5.0, help="how long to measure (live-view)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    command = args.command or "gui"
    try:
        if command == "gui":
            return _gui_module("launcher").run_gui(
                project=getattr(args, "project", None), url=getattr(args, "url", None),
                screenshot=getattr(args, "screenshot", None), headed=getattr(args, "headed", False),
            )
        if command == "demo":
            from studio.cli import demo_command

            return demo_command.main(out=args.out, seed=args.seed, headless=args.headless, jsonl=args.jsonl,
                                     close_when_done=args.close_when_done)
        if command == "doctor":
            from studio.cli.doctor import print_report, run_doctor

            report = run_doctor(launch_browser=not args.no_launch)
            print_report(report, as_json=args.json)
            return 0 if report.ok else 2
        if command == "serve-demo":
            from studio.demo.server import DemoConfig, serve_forever

            asyncio.run(serve_forever(args.host, args.port, DemoConfig(seed=args.seed)))
            return 0
        if command == "bench":
            return _gui_module("bench").main(target=args.target, seconds=args.seconds, json_only=args.json)
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return 130
    raise AssertionError(f"unhandled command {command}")


if __name__ == "__main__":
    sys.exit(main())
