"""Drive one playground job (a preflight, or a preflight and then an agent) from the terminal.

The job runs in a headless browser and is recorded in the project. Questions the answers file already answers
are answered on the spot; other questions pause the job (it stays in the project) and the command exits with 3.
A later run with `--answers` resumes the project's paused (or interrupted) job of the same kind, request and URL.

Exit codes: 0 completed, 1 failed, 2 bad input (nothing was changed), 3 paused with questions, 4 stopped early
(budget exhausted or cancelled; what was done is kept), 5 the job runs in another process, 6 finished with nothing
(no control found, no case written: the reasons are printed); 130 / 143 after Ctrl+C / SIGTERM (the job is recorded
as cancelled).
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

from studio.browser.errors import BrowserError, first_line
from studio.browser.urls import normalize_url
from studio.cli import job_report
from studio.cli.answers_file import AnswersFileError, load_answers
from studio.models.context import Answer, JobKind, JobRecord
from studio.models.events import EngineEvent, JobEvent
from studio.playground import Playground, PlaygroundJob
from studio.preflight.run import SECRET_KEYS
from studio.runtime import EngineRuntime
from studio.settings import load_settings
from studio.store.errors import ProjectError
from studio.store.leases import JobLocked
from studio.store.project import ProjectFile

log = logging.getLogger(__name__)

FAILED, BAD_INPUT, BUSY = 1, 2, 5
INTERRUPTED_BY: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}
# A resumed job signs in again in its new browser; passwords are never in the project, so they come from the file.
LOGIN_KEYS = {"credentials.email", *SECRET_KEYS}
RESUMABLE = ("paused", "interrupted")


class Refused(Exception):
    """Bad input found before the job ran; the sentence goes to stderr and the command exits with 2."""


class Stopped(Exception):
    """SIGTERM (or SIGINT) stopped the command; the running job was recorded as cancelled."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


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
    endpoint: str | None = None  # a remote browser to connect to instead of launching one
    command: list[str] = field(default_factory=list)  # the command line to run again, without --answers
    limits: dict[str, float | None] = field(default_factory=dict)  # --max-* flags over the settings' budgets
    allow_file_urls: bool = False
    try_forms: bool = False  # the preflight may send forms with sample data (writes reach the app)


def run(cmd: JobCommand) -> int:
    """Run the command to its exit code; every expected problem is a sentence on stderr, never a traceback, and with
    --json every ending prints its JSON on stdout (job_report)."""
    try:
        answers = load_answers(cmd.answers_file) if cmd.answers_file else {}
        url = _normalized(cmd.url, cmd.allow_file_urls) if cmd.url else None
        if url is None and not cmd.project.exists():
            raise Refused(f"The project file {cmd.project} does not exist, so no base URL is known. Give one with "
                          f"--url URL, or run `studio preflight URL --project {cmd.project}` first.")
        project = ProjectFile.open_or_create(cmd.project)
    except (AnswersFileError, ProjectError, Refused) as error:
        return _refuse(cmd, error)
    stored: JobRecord | None = None
    try:
        try:
            url = url or last_base_url(project)
            _check_cases(project, cmd.case_ids)
            interrupted = project.jobs.sweep_interrupted()
            stored = paused_job(project, cmd, url) if cmd.answers_file or cmd.job_id else None
            if stored is not None and (holder := project.leases.holder(stored.id)) is not None:
                raise JobLocked(holder)
        except Refused as error:
            return _refuse(cmd, error)
        except JobLocked as error:
            return _busy(cmd, error, stored)
        if stored is not None and stored.status == "paused" and not any(q.key in answers for q in stored.pending):
            return job_report.report(cmd, stored, unanswered_in=cmd.answers_file)  # no browser needed to say so
        _say_interrupted(cmd, [job for job in interrupted if stored is None or job.id != stored.id], stored)
        seen: list[str] = []  # the ids of the jobs this run worked on, from their events
        try:
            job = _run_job(cmd, project, url, answers, stored, seen)
        except JobLocked as error:
            return _busy(cmd, error, stored)
        except Stopped as stopped:
            sentence = (f"Stopped by {stopped}; the job was recorded as cancelled and what it found is kept in "
                        f"{cmd.project}.")
            return job_report.ended(cmd, INTERRUPTED_BY.get(stopped.signum, FAILED), sentence,
                                    _worked_on(project, seen, stored), outcome="cancelled", said=sentence)
        except BrowserError as error:  # the browser did not start: no job ran
            return job_report.ended(cmd, FAILED, str(error), stored)
        except Exception as error:  # an engine bug outside the job must not end in a traceback; the log has it
            log.exception("studio %s failed", cmd.kind)
            return job_report.ended(cmd, FAILED, f"The command failed unexpectedly ({type(error).__name__}: "
                                                 f"{first_line(error)}); see the log for details, then run it again.",
                                    _worked_on(project, seen, stored))
        if job is None:
            return job_report.ended(cmd, FAILED, "The job ended before it started; see the log (studio -v ...) for "
                                                 "details.", stored)
        return job_report.report(cmd, job, asked_again=_asked_again(job, answers))
    finally:
        project.close()


def _worked_on(project: ProjectFile, seen: list[str], stored: JobRecord | None) -> JobRecord | None:
    """The job this run worked on, as the project has it now (None when no job had started)."""
    job_id = seen[-1] if seen else stored.id if stored is not None else None
    return project.jobs.get(job_id) if job_id is not None else None


def _run_job(cmd: JobCommand, project: ProjectFile, url: str, answers: dict[str, str], stored: JobRecord | None,
             seen: list[str]) -> JobRecord | None:
    """The job driven to its end on its own event loop; Ctrl+C is a Stopped as SIGTERM is."""
    try:
        return asyncio.run(_drive(cmd, project, url, answers, stored, seen))
    except KeyboardInterrupt:
        raise Stopped(signal.SIGINT) from None


async def _drive(cmd: JobCommand, project: ProjectFile, url: str, answers: dict[str, str],
                 stored: JobRecord | None, seen: list[str]) -> JobRecord | None:
    runtime = EngineRuntime(load_settings(), project, budget_limits=cmd.limits)
    runtime.try_forms = cmd.try_forms
    runtime.bus.subscribe(lambda event: seen.append(event.job_id), JobEvent)
    if not cmd.quiet:
        runtime.bus.subscribe(_write_jsonl, JobEvent)
    main = asyncio.current_task()
    assert main is not None
    stopped: list[int] = []

    def stop(signum: int) -> None:
        stopped.append(signum)
        main.cancel()  # the runner records the running job as cancelled, then the command exits

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop, signal.SIGTERM)
    try:
        async with runtime:
            await runtime.start_browser(headless=not cmd.headed, label=f"studio {cmd.kind}",
                                        allow_file_urls=cmd.allow_file_urls,
                                        **({"browser_endpoint": cmd.endpoint} if cmd.endpoint else {}))
            playground = await Playground.on(runtime)
            if stored is not None and stored.status == "interrupted":
                job = await _resume(runtime, playground, stored, answers, [])
            else:
                job = stored or await runtime.jobs.run(
                    PlaygroundJob(playground, cmd.kind, url, request=cmd.request, case_ids=cmd.case_ids))
            given: set[str] = set()
            while job is not None and job.status == "paused":
                keys = [q.key for q in job.pending]
                if not any(key in answers and key not in given for key in keys):
                    break  # a question the file does not answer, or asked again after its answer did not work
                job = await _resume(runtime, playground, job, answers, keys)
                given.update(key for key in keys if key in answers)
            return job
    except asyncio.CancelledError:
        if stopped:
            raise Stopped(stopped[0]) from None
        raise
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


async def _resume(runtime: EngineRuntime, playground: Playground, job: JobRecord, answers: dict[str, str],
                  keys: list[str]) -> JobRecord | None:
    """Answer the pending questions from the file, with the login again for a job resumed in a new browser."""
    wanted = {key: value for key, value in answers.items() if key in keys or key in LOGIN_KEYS}
    if job.state.get("preflight_done"):
        # The main-job stage adds answers to the context as given; secrets must only ever live in memory.
        secrets = playground.preflight.secrets.setdefault(job.id, {})
        for key in SECRET_KEYS & wanted.keys():
            secrets[key] = wanted.pop(key)
    given = [Answer(key=key, value=value) for key, value in wanted.items()
             if key in keys or key in SECRET_KEYS or job.context.answer(key) != value]
    return await runtime.jobs.run(PlaygroundJob(playground, job.kind, resume=job, answers=given))


def _asked_again(job: JobRecord, answers: dict[str, str]) -> list[str]:
    return [q.key for q in job.pending if q.key in answers] if job.status == "paused" else []


def last_base_url(project: ProjectFile) -> str:
    """The resolved base URL of the project's latest job that found one; Refused when there is none."""
    known = project.jobs.last_base_url()
    if known:
        return known
    raise Refused(f"{project.path} has no base URL from an earlier job yet. Give one with --url URL, or run "
                  f"`studio preflight URL --project {project.path}` first.")


def paused_job(project: ProjectFile, cmd: JobCommand, url: str) -> JobRecord | None:
    """The latest paused job this command continues: same kind, request and case ids, and the same URL if given."""
    if cmd.job_id:
        job = project.jobs.get(cmd.job_id)
        if job is None or job.kind != cmd.kind or job.status not in RESUMABLE:
            waiting = ", ".join(j.id for j in project.jobs.all(kind=cmd.kind) if j.status in RESUMABLE) or "none"
            said = "does not exist" if job is None else f"is a {job.kind} job" if job.kind != cmd.kind \
                else f"is {job.status}, not paused or interrupted"
            raise Refused(f"Job {cmd.job_id} in {project.path} {said}. Paused or interrupted {cmd.kind} jobs "
                          f"there: {waiting}.")
        return job
    for job in reversed([j for j in project.jobs.all(kind=cmd.kind) if j.status in RESUMABLE]):
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
    sys.stderr.write(json.dumps(event.model_dump(mode="json")) + "\n")
    sys.stderr.flush()


def _refuse(cmd: JobCommand, error: Exception) -> int:
    return job_report.ended(cmd, BAD_INPUT, str(error), outcome="refused")


def _busy(cmd: JobCommand, error: JobLocked, stored: JobRecord | None) -> int:
    return job_report.ended(cmd, BUSY, str(error), stored, outcome="busy")


def _say_interrupted(cmd: JobCommand, interrupted: list[JobRecord], resuming: JobRecord | None) -> None:
    """Say which interrupted job this run resumes, and how to resume or discard the others of this kind."""
    if resuming is not None and resuming.status == "interrupted":
        print(f"Resuming job {resuming.id}: {resuming.message.removeprefix('Interrupted: ')}", file=sys.stderr)
    for job in interrupted:
        if job.kind != cmd.kind:
            continue
        rerun = " ".join([*cmd.command, "--job", job.id])
        print(f"Job {job.id} ({job.kind}{f', {job.request!r}' if job.request else ''}) was interrupted: "
              f"{job.message.removeprefix('Interrupted: ')} This run starts a new job; resume that one with "
              f"`{rerun}` (add --answers FILE with the login), or discard it with "
              f"`studio jobs discard {job.id} --project {cmd.project}`.", file=sys.stderr)
