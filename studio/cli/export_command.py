"""`studio export`: write a recorded session of a project file as a Playwright test project."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path



def _export(args: argparse.Namespace) -> int:
    # Imported here: every `studio` command registers this parser, and the exporter (esprima) is slow to load.
    from studio.export import ExportError, export_session
    from studio.store.errors import ProjectError
    from studio.store.project import ProjectFile

    try:
        with ProjectFile.open(args.project, writable=False) as project:
            steps = project.steps(args.session)
            known = [session.id for session in project.sessions()]
    except ProjectError as error:
        return _refuse(str(error))
    if not steps:
        if args.session not in known:
            listing = ", ".join(known) if known else "none yet"
            return _refuse(f"{args.project} has no session {args.session!r}. Known sessions: {listing}.")
        return _refuse(f"Session {args.session!r} has no recorded steps, so there is nothing to export. "
                       "Record some steps in it first.")
    try:
        result = export_session(steps, args.lang, args.out, title=args.title)
    except ExportError as error:
        return _refuse(str(error))
    print(f"Exported {len(steps)} steps of session {args.session} as {args.lang} to {result.out}:")
    for path in result.files:
        print(f"  {path}")
    if result.env_vars:
        print(f"Set {', '.join(result.env_vars)} before running the test (see README.md).")
    return 0


def _refuse(sentence: str) -> int:
    print(sentence, file=sys.stderr)
    return 2


def register(commands: argparse._SubParsersAction) -> None:
    export = commands.add_parser("export", help="write a recorded session as a Playwright test (Python or TypeScript)")
    export.add_argument("--project", type=Path, required=True, metavar="FILE", help="the .studio project file")
    export.add_argument("--session", required=True, metavar="ID", help="the recorded session to export")
    export.add_argument("--lang", choices=["python", "typescript"], required=True,
                        help="pytest-playwright (python) or @playwright/test (typescript)")
    export.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="a new or empty folder, or an earlier export to update")
    export.add_argument("--title", help="the test's title (default: made from the steps)")
    export.set_defaults(handler=_export)
