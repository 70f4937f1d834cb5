"""Drive one playground job (a preflight, or a preflight and then an agent) from the terminal.

The job runs in a headless browser and is recorded in the project. Questions the answers file already answers
are answered on the spot; other questions pause the job (it stays in the project) and the command exits with 3.
A later run with `--answers` resumes the project's paused job of the same kind, request and URL.

Exit codes: 0 completed, 1 failed, 2 bad input (nothing was changed), 3 paused with questions, 4 stopped early
(budget exhausted or cancelled; what was done is kept).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path

from studio.browser.errors import BrowserError, first_line
from studio.browser.session import BrowserSession
from studio.browser.urls import normalize_url
from studio.cli import job_report
from studio.cli.answers_file import AnswersFileError, load_answers
from studio.events import EventBus
from studio.llm.client import LanguageModel
from studio.models.context import Answer, JobKind, JobRecord
from studio.models.events import JOB_EVENT_TYPES, EngineEvent, PreflightStarted
from studio.playground import Playground
from studio.preflight.run import SECRET_KEYS
from studio.settings import load_settings
from studio.store.errors import ProjectError
from studio.store.project import ProjectFile
from studio.store.recorder import ProjectRecorder

log = logging.getLogger(__name__)

FAILED, BAD_INPUT = 1, 2
# A resumed job signs in again in its new browser; passwords are never in the project, so they come from the file.
LOGIN_KEYS = {"credentials.email", *SECRET_KEYS}


class Refused(Exception):
    """Bad input found before the job ran; the sentence goes to stderr and the command exits with 2."""


@dataclass
class JobCommand:
    """One `studio preflight` / `studio playground ...` invocation."""

    kind: JobKind
    project: Path
    url: str | None = None
    request: str = ""
    case_ids: list[str] | None = None
    answers_file: Path | None = None
    job_id: str | None = None  # the paused job to resume (default: the latest one matching the command)
    as_json: bool = False
    quiet: bool = False
    headed: bool = False
    command: list[str] = field(default_factory=list)  # the command line to run again, without --answers
    limits: dict[str, float | None] = field(default_factory=dict)  # --max-* flags over the settings' budgets
    allow_file_urls: bool = False


def run(cmd: JobCommand) -> int:
    """Run the command to its exit code; every expected problem is a sentence on stderr, never a traceback."""
    try:
        answers = load_answers(cmd.answers_file) if cmd.answers_file else {}
        url = _normalized(cmd.url, cmd.allow_file_urls) if cmd.url else None
        if url is None and not cmd.project.exists():
            raise Refused(f"The project file {cmd.project} does not exist, so no base URL is known. Give one with "
                          f"--url URL, or run `studio preflight URL --project {cmd.project}` first.")
        project = ProjectFile.open_or_create(cmd.project)
    except (AnswersFileError, ProjectError, Refused) as error:
        return _refuse(error)
    try:
        try:
            url = url or last_base_url(project)
            _check_cases(project, cmd.case_ids)
        except Refused as error:
            return _refuse(error)
        try:
            stored = paused_job(project, cmd, url) if cmd.answers_file or cmd.job_id else None
        except Refused as error:
            return _refuse(error)
        if stored is not None and not any(q.key in answers for q in stored.pending):
            return job_report.report(cmd, stored, unanswered_in=cmd.answers_file)  # no browser needed to say so
        seen: list[str] = [stored.id] if stored else []
        try:
            job = asyncio.run(_drive(cmd, project, url, answers, stored, seen))
        except KeyboardInterrupt:
            _fail(project, seen, "Stopped with Ctrl+C; what was found so far is kept.", status="cancelled")
            raise
        except BrowserError as error:
            return _fail(project, seen, str(error))
        except Exception as error:  # an engine bug: say it in a sentence, keep the traceback for --verbose
            log.info("the job failed", exc_info=True)
            return _fail(project, seen, f"The job failed unexpectedly: {first_line(error)} "
                                        "(run `studio -v ...` for the details).")
        return job_report.report(cmd, job, asked_again=_asked_again(job, answers))
    finally:
        project.close()


async def _drive(cmd: JobCommand, project: ProjectFile, url: str, answers: dict[str, str],
                 stored: JobRecord | None, seen: list[str]) -> JobRecord:
    bus = EventBus()
    if not cmd.quiet:
        bus.subscribe(_write_jsonl)
    bus.subscribe(lambda event: seen.append(event.job_id), PreflightStarted)  # type: ignore[attr-defined]
    recorder = ProjectRecorder(project, bus)
    settings = load_settings()
    session = BrowserSession(bus, settings.session_options(headless=not cmd.headed, label=f"studio {cmd.kind}",
                                                           allow_file_urls=cmd.allow_file_urls))
    model: LanguageModel | None = None
    try:
        await session.start()
        model = LanguageModel.from_settings(settings.llm, sink=project.llm_calls.add)
        budgets = settings.budgets.overridden(**cmd.limits)
        playground = Playground(session, project, model=model, budget=budgets.main,
                                preflight_budget=budgets.preflight)
        job = stored or await playground.start(cmd.kind, url, request=cmd.request, case_ids=cmd.case_ids)
        given: set[str] = set()
        while job.status == "paused":
            keys = [q.key for q in job.pending]
            if not any(key in answers and key not in given for key in keys):
                break  # a question the file does not answer, or asked again after its answer did not work
            job = await _resume(playground, job, answers, keys)
            given.update(key for key in keys if key in answers)
        return job
    finally:
        await session.close()
        if model is not None:
            await model.aclose()
        recorder.close()


async def _resume(playground: Playground, job: JobRecord, answers: dict[str, str], keys: list[str]) -> JobRecord:
    """Answer the pending questions from the file, with the login again for a job resumed in a new browser."""
    wanted = {key: value for key, value in answers.items() if key in keys or key in LOGIN_KEYS}
    if job.state.get("preflight_done"):
        # The main-job stage adds answers to the context as given; secrets must only ever live in memory.
        secrets = playground.preflight.secrets.setdefault(job.id, {})
        for key in SECRET_KEYS & wanted.keys():
            secrets[key] = wanted.pop(key)
    given = [Answer(key=key, value=value) for key, value in wanted.items()
             if key in keys or key in SECRET_KEYS or job.context.answer(key) != value]
    return await playground.resume(job, given)


def _asked_again(job: JobRecord, answers: dict[str, str]) -> list[str]:
    return [q.key for q in job.pending if q.key in answers] if job.status == "paused" else []


def last_base_url(project: ProjectFile) -> str:
    """The resolved base URL of the project's latest job that found one; Refused when there is none."""
    for job in reversed(project.jobs.list()):
        if job.context.resolved_base_url:
            return job.context.resolved_base_url
    raise Refused(f"{project.path} has no base URL from an earlier job yet. Give one with --url URL, or run "
                  f"`studio preflight URL --project {project.path}` first.")


def paused_job(project: ProjectFile, cmd: JobCommand, url: str) -> JobRecord | None:
    """The latest paused job this command continues: same kind, request and case ids, and the same URL if given."""
    if cmd.job_id:
        job = project.jobs.get(cmd.job_id)
        if job is None or job.kind != cmd.kind or job.status != "paused":
            waiting = ", ".join(j.id for j in project.jobs.list(kind=cmd.kind, status="paused")) or "none"
            said = "does not exist" if job is None else f"is a {job.kind} job" if job.kind != cmd.kind \
                else f"is {job.status}, not paused"
            raise Refused(f"Job {cmd.job_id} in {project.path} {said}. Paused {cmd.kind} jobs there: {waiting}.")
        return job
    for job in reversed(project.jobs.list(kind=cmd.kind, status="paused")):
        if job.request != cmd.request or (cmd.case_ids is not None and job.state.get("case_ids") != cmd.case_ids):
            continue
        if cmd.url and url not in (job.start_url, job.context.resolved_base_url):
            continue
        return job
    return None


def _check_cases(project: ProjectFile, case_ids: list[str] | None) -> None:
    unknown = [case_id for case_id in case_ids or [] if project.cases.case(case_id) is None]
    if unknown:
        known = ", ".join(case.id for case in project.cases.cases()) or "none yet"
        raise Refused(f"{project.path} has no test case {', '.join(unknown)}. Its cases: {known}.")


def _normalized(url: str, allow_files: bool) -> str:
    try:
        return normalize_url(url, allow_files=allow_files)
    except ValueError as error:
        raise Refused(f"{error}.") from None


def _write_jsonl(event: EngineEvent) -> None:
    if event.type in JOB_EVENT_TYPES:
        sys.stderr.write(json.dumps(event.model_dump(mode="json")) + "\n")
        sys.stderr.flush()


def _refuse(error: Exception) -> int:
    print(f"error: {error}", file=sys.stderr)
    return BAD_INPUT


def _fail(project: ProjectFile, seen: list[str], sentence: str, status: str = "failed") -> int:
    """Mark the interrupted job failed (it would look 'running' forever otherwise) and say why."""
    job = project.jobs.get(seen[-1]) if seen else None
    if job is not None and job.status == "running":
        project.jobs.save(job.model_copy(update={"status": status, "message": sentence}))
    if status == "failed":
        print(f"error: {sentence}", file=sys.stderr)
    return FAILED
