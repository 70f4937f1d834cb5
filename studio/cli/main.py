"""The `studio` command: one engine, several front ends (GUI, CLI jobs, demo server, doctor, benchmarks).

Each command lives in its own module with `register(commands)`, which adds its subparser and sets
`handler(args) -> int`; this module only assembles them.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from studio import DISTRIBUTION, installed_version

# Modules under studio.cli that register commands, in the order `studio --help` lists them.
COMMAND_MODULES = ("core_commands", "export_command", "race_commands", "playground_commands", "jobs_command",
                   "game_commands", "scenario_commands", "pilot_command", "project_commands", "browser_command")


class _PrintVersion(argparse.Action):
    """`studio --version`: `preflight-studio X.Y.Z`, the installed version, looked up only when asked."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(f"{DISTRIBUTION} {installed_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="studio", description="Preflight Studio: explore a web app in a live browser and turn it into tests.")
    parser.add_argument("--version", action=_PrintVersion, help="print the installed version and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="log details to stderr")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"studio.cli.{name}").register(commands)
    return parser


PROJECT_SUFFIX = ".studio"


def opening_a_project(argv: list[str]) -> list[str]:
    """A project file given on its own (`studio q3.studio`: what a launcher, a double-click on a file or a macOS
    document event passes) opens in the window: `studio gui q3.studio`."""
    positional = [arg for arg in argv if not arg.startswith("-")]
    if len(positional) == 1 and positional[0].lower().endswith(PROJECT_SUFFIX) and positional == argv[-1:]:
        return [*argv[:-1], "gui", argv[-1]]
    return argv


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = opening_a_project(list(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.command is None:
        # Plain `studio` (top-level options only) opens the window.
        args = parser.parse_args([*argv, "gui"])
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
