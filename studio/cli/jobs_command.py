"""`studio jobs`: the project's jobs with their state (an interrupted one is found out here too), and `discard`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from studio.store.errors import ProjectError
from studio.store.project import ProjectFile

BAD_INPUT, BUSY = 2, 5
CLOSABLE = ("paused", "interrupted")


def _open(path: Path | None) -> ProjectFile:
    if path is None:
        raise ProjectError(Path(), "Which project? Give it with --project FILE.")
    if not path.exists():
        raise ProjectError(path, f"The project file {path} does not exist. Check the path.")
    return ProjectFile.open(path)


def _on_project(work: Callable[[argparse.Namespace, ProjectFile], int]) -> Callable[[argparse.Namespace], int]:
    """A handler that opens the project (a sentence and exit 2 when it cannot), finds interrupted jobs, then works."""

    def handler(args: argparse.Namespace) -> int:
        try:
            project = _open(getattr(args, "project", None))
        except ProjectError as error:
            print(f"error: {error}", file=sys.stderr)
            return BAD_INPUT
        with project:
            project.jobs.sweep_interrupted()
            status = work(args, project)
            for sentence in project.rows.sentences():
                print(f"warning: {sentence}", file=sys.stderr)
            return status

    return handler


@_on_project
def _list(args: argparse.Namespace, project: ProjectFile) -> int:
    jobs = project.jobs.all()
    if args.json:
        print(json.dumps([{"id": j.id, "kind": j.kind, "status": j.status, "request": j.request,
                           "updated_at": j.updated_at, "message": j.message} for j in jobs], indent=2))
        return 0
    if not jobs:
        print(f"{project.path} has no jobs yet.")
    for job in jobs:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(job.updated_at / 1000))
        request = f" “{job.request}”" if job.request else ""
        print(f"{job.id}  {job.kind:<15} {job.status:<16} {when}{request}")
        if job.status in CLOSABLE and job.message:
            print(f"    {job.message}")
    return 0


@_on_project
def _discard(args: argparse.Namespace, project: ProjectFile) -> int:
    job = project.jobs.get(args.job)
    if job is None:
        print(f"error: {project.path} has no job {args.job}; `studio jobs --project {project.path}` lists them.",
              file=sys.stderr)
        return BAD_INPUT
    holder = project.leases.holder(job.id)
    if holder is not None:
        print(f"error: job {job.id} is running in another process (pid {holder.pid}); stop that process first.",
              file=sys.stderr)
        return BUSY
    if job.status not in CLOSABLE:
        print(f"error: job {job.id} is {job.status}; only paused or interrupted jobs can be discarded.",
              file=sys.stderr)
        return BAD_INPUT
    project.jobs.save(job.model_copy(update={"status": "cancelled", "pending": [],
                                             "message": "Discarded by the tester; what it found so far is kept."}))
    print(f"Discarded job {job.id}; what it found is kept in {project.path}.")
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    jobs = commands.add_parser(
        "jobs", help="list the project's preflight and playground jobs; discard a paused or interrupted one",
        description="List the jobs in a project with their status. A job whose process stopped while it ran "
                    "(killed, crashed) shows as interrupted: resume it with `studio preflight … --job ID` (or "
                    "`studio playground … --job ID`), or discard it.")
    # --project may come before or after the action; SUPPRESS keeps the action's parser from resetting it.
    jobs.add_argument("--project", type=Path, metavar="FILE", default=argparse.SUPPRESS, help="the .studio file")
    jobs.add_argument("--json", action="store_true", help="print the jobs as JSON")
    jobs.set_defaults(handler=_list)
    actions = jobs.add_subparsers(dest="action", metavar="ACTION")
    discard = actions.add_parser("discard", help="close a paused or interrupted job for good (what it found is kept)")
    discard.add_argument("job", metavar="ID")
    discard.add_argument("--project", type=Path, metavar="FILE", default=argparse.SUPPRESS, help="the .studio file")
    discard.set_defaults(handler=_discard)
