"""`studio export`: write a recorded session, or test cases, of a project file as a Playwright test project."""

from __future__ import annotations

import argparse
import sys
from studio.wording import plural
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.export import ExportResult
    from studio.models.recording import RecordedStep
    from studio.models.testcase import TestCase
    from studio.store.project import ProjectFile


def _export(args: argparse.Namespace) -> int:
    # Imported here: every `studio` command registers this parser, and the exporter (esprima) is slow to load.
    from studio.export import ExportError
    from studio.store.errors import ProjectError
    from studio.store.project import ProjectFile

    if args.pilot is not None:
        if args.project is not None:
            return _refuse("--pilot exports a pilot session folder; it takes no --project.")
        return _export_pilot(args)
    if args.project is None:
        return _refuse("Give the project file with --project FILE (or a pilot session folder with --pilot DIR).")
    try:
        with ProjectFile.open(args.project, writable=False) as project:
            try:
                if args.cases is not None:
                    return _export_cases(args, project)
                steps = project.steps(args.session)
                known = [session.id for session in project.sessions()]
            finally:
                for sentence in project.rows.sentences():
                    print(f"warning: {sentence}", file=sys.stderr)
    except ProjectError as error:
        return _refuse(str(error))
    except ExportError as error:
        return _refuse(str(error))
    return _export_session(args, steps, known)


def _export_session(args: argparse.Namespace, steps: list[RecordedStep], known: list[str]) -> int:
    from studio.export import ExportError, export_session

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
    return _report(result)


def _export_pilot(args: argparse.Namespace) -> int:
    from studio.export import ExportError, export_session
    from studio.pilot.recording import RecordingError, load_recording, verdict
    from studio.pilot.to_steps import pilot_steps

    try:
        recording = load_recording(args.pilot)
        steps = pilot_steps(recording)
        result = export_session(steps, args.lang, args.out, title=args.title or recording.goal or None)
    except (RecordingError, ExportError) as error:
        return _refuse(str(error))
    outcomes = [verdict(o) for item in recording.files for o in item.outcomes or []]
    left = len(outcomes) - outcomes.count("ok")
    print(f"Exported pilot session {args.pilot.name} ({plural(outcomes.count('ok'), 'successful action')}; {left} failed, "
          f"blocked or refused, left out with a comment) as {args.lang} to {result.out}:")
    return _report(result)


def _export_cases(args: argparse.Namespace, project: ProjectFile) -> int:
    from studio.export import export_cases
    from studio.export.from_cases import case_base_url

    chosen = _chosen_cases(args.cases, project.cases.cases())
    if isinstance(chosen, str):
        return _refuse(chosen)
    if args.title and len(chosen) == 1:
        chosen = [chosen[0].model_copy(update={"title": args.title})]
    bases = {case.id: case_base_url(project, case) for case in chosen}
    result = export_cases(chosen, lambda case: bases[case.id], args.lang, args.out)
    print(f"Exported {len(chosen)} case{'s' if len(chosen) != 1 else ''} ({', '.join(c.id for c in chosen)}) as "
          f"{args.lang} to {result.out}:")
    return _report(result)


def _chosen_cases(wanted: str, cases: list[TestCase]) -> list[TestCase] | str:
    """The cases `--cases` names (all, or ids separated by commas), or a sentence saying what is wrong."""
    if not cases:
        return "The project has no test cases yet, so there is nothing to export. Create some in the Playground first."
    if wanted.strip().lower() == "all":
        return cases
    ids = [part.strip() for part in wanted.split(",") if part.strip()]
    by_id = {case.id: case for case in cases}
    unknown = [case_id for case_id in ids if case_id not in by_id]
    if unknown or not ids:
        listing = ", ".join(by_id)
        named = ", ".join(repr(case_id) for case_id in unknown) or "no case"
        return f"The project has no case {named}. Known cases: {listing}; or give --cases all."
    return [by_id[case_id] for case_id in dict.fromkeys(ids)]


def _report(result: ExportResult) -> int:
    for path in result.files:
        print(f"  {path}")
    if result.env_vars:
        print(f"Set {', '.join(result.env_vars)} before running the test (see README.md).")
    return 0


def _refuse(sentence: str) -> int:
    print(sentence, file=sys.stderr)
    return 2


def register(commands: argparse._SubParsersAction) -> None:
    export = commands.add_parser("export", help="write a recorded session, test cases or a pilot session as a "
                                                "Playwright test (Python or TypeScript)")
    export.add_argument("--project", type=Path, metavar="FILE", help="the .studio project file (for --session, --cases)")
    source = export.add_mutually_exclusive_group(required=True)
    source.add_argument("--session", metavar="ID", help="the recorded session to export")
    source.add_argument("--cases", metavar="all|ID,…", help="test cases to export: all, or case ids separated by "
                                                            "commas (one test file each)")
    source.add_argument("--pilot", type=Path, metavar="DIR", help="a pilot session folder (exploration-<epoch ms>) "
                                                                "to export: its successful actions, verify as "
                                                                "assertions")
    export.add_argument("--lang", choices=["python", "typescript"], required=True,
                        help="pytest-playwright (python) or @playwright/test (typescript)")
    export.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="a new or empty folder, or an earlier export to update")
    export.add_argument("--title", help="the test's title (default: made from the steps, or the case's title)")
    export.set_defaults(handler=_export)
