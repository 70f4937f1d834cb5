"""What `studio preflight` and `studio playground` print when their job ends, and the exit code that goes with it.

stdout carries the machine-readable part (the result, or the questions of a paused job, as JSON); stderr carries
the sentences for the person at the terminal. With --json every ending prints JSON: a completed preflight its
context_collection, every other ending the seed's AgentResponse `{"output": ..., "context_collection": ...}` (a paused
job adds its questions beside it); a job that did not complete says how it ended and why in `output` (outcome,
status, exit_code, error, summary) and keeps the error where the seed's context_collection has room for one.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from studio.models.context import ContextCollection, Finding, JobKind, JobRecord
from studio.models.nothing import NOTHING as NOTHING_OUTCOME
from studio.models.nothing import NothingProduced
from studio.wording import plural

if TYPE_CHECKING:
    from studio.cli.playground_run import JobCommand

COMPLETED, FAILED, PAUSED, STOPPED, NOTHING = 0, 1, 3, 4, 6
STOPS = ("cancelled", "budget_exhausted")  # ends that keep what was found; no error blocks the job
NAMES = {"preflight": "Preflight", "new_testsuite": "New test suite", "new_test_case": "New test cases",
         "edit_test_case": "Edit test cases"}


def report(cmd: JobCommand, job: JobRecord, asked_again: list[str] | None = None,
           unanswered_in: Path | None = None) -> int:
    name = NAMES[job.kind]
    if job.status == "completed" and job.result.get("outcome") == NOTHING_OUTCOME:
        _nothing(cmd, job)
        return NOTHING
    if job.status == "completed":
        _result(cmd, job)
        return COMPLETED
    if job.status == "paused":
        _questions(cmd, job, asked_again or [], unanswered_in)
        return PAUSED
    if job.status in STOPS:
        said = job.message or str(job.result.get("summary") or "")
        if cmd.as_json:
            _print(ended_payload(job.kind, said or f"{name} stopped early.", STOPPED, job))
        why = "ran out of budget" if job.status == "budget_exhausted" else "was cancelled"
        _say(f"{name} {why} (job {job.id}): {said}".rstrip(": "))
        _say(f"What it found so far is saved in {cmd.project}.")
        return STOPPED
    error = job.message or str(job.result.get("summary") or "") or "no reason was recorded"
    if cmd.as_json:
        _print(ended_payload(job.kind, error, FAILED, job, outcome="failed"))
    _say(f"error: {name} failed (job {job.id}): {error}")
    return FAILED


def ended(cmd: JobCommand, exit_code: int, error: str, job: JobRecord | None = None, outcome: str = "failed",
          said: str | None = None) -> int:
    """A command that ended outside its job's own report (bad input, the job busy in another process, no browser,
    Ctrl+C): the sentence on stderr ("error: ..." unless `said` words it) and, with --json, the AgentResponse."""
    if cmd.as_json:
        _print(ended_payload(cmd.kind, error, exit_code, job, outcome=outcome))
    _say(said if said is not None else f"error: {error}")
    return exit_code


def ended_payload(kind: JobKind, error: str | None, exit_code: int, job: JobRecord | None = None,
                  outcome: str | None = None) -> dict:
    """The seed's AgentResponse for a job that did not complete: `output` says how it ended (outcome: the job's
    status, or "refused" / "busy" / "failed" when no job ran; exit_code) and why (error, summary), beside the usual
    result keys; the context_collection is what the job found (empty when none ran), the error added to
    evidence.notes and, unless the job only stopped early, to auth_state.blockers (the seed's "what blocks
    progress")."""
    context = job.context.model_copy(deep=True) if job is not None else ContextCollection()
    outcome = outcome or (job.status if job is not None else "failed")
    if error:
        places = [context.evidence.notes] + ([context.auth_state.blockers] if outcome not in STOPS else [])
        for place in places:
            if error not in place:
                place.append(error)
    result = dict(job.result) if job is not None else {}
    usual: dict = {} if kind == "preflight" else {"cases": [], "suites": [], "edits": []}
    output = {**usual, **result, "job_id": job.id if job is not None else None, "kind": kind,
              "status": job.status if job is not None else None, "outcome": outcome,
              "summary": result.get("summary") or error or (job.message if job is not None else ""), "error": error,
              "exit_code": exit_code}
    return {"output": output, "context_collection": context.model_dump(mode="json")}


def _result(cmd: JobCommand, job: JobRecord) -> None:
    if cmd.as_json:
        _print(json_payload(job))
        return
    context = job.context
    if job.kind == "preflight":
        points = ", ".join(f"{p.label} {p.url or p.click_path or ''} ({p.confidence:.2f})".replace("  ", " ")
                           for p in context.candidate_entry_points) or "none found"
        confidence = context.confidence
        print(f"Preflight completed for {context.resolved_base_url} (job {job.id}).\n"
              f"  Entry points: {points}\n"
              f"  Top navigation: {', '.join(context.ui_map.top_nav) or 'none found'}\n"
              f"  Detected changes: {len(context.detected_changes)}; coverage gaps: {len(context.coverage_gaps)}\n"
              f"  Confidence: base URL {confidence.base_url:.2f}, entry points {confidence.entry_points:.2f}, "
              f"coverage {confidence.coverage:.2f}")
    else:
        result = job.result
        print(f"{NAMES[job.kind]} completed (job {job.id}): {result.get('summary', '')}")
        for key in ("suites", "cases"):
            if result.get(key):
                print(f"  {key.capitalize()}: {', '.join(result[key])}")
    said = findings_line(context.findings)
    if said:
        print(f"  {said}")
    print(f"Saved in {cmd.project}; use --json for the full "
          f"{'context_collection' if job.kind == 'preflight' else 'output and context_collection'}.")


def json_payload(job: JobRecord) -> dict:
    """What --json prints: a preflight's context_collection; for a playground job the seed's AgentResponse,
    {"output": the agent's result, "context_collection": what its preflight found}. A preflight that finished with
    nothing prints, as a paused one does, its outcome with the context_collection beside it."""
    context = job.context.model_dump(mode="json")
    if job.kind != "preflight":
        return {"output": job.result, "context_collection": context}
    if job.result.get("outcome") == NOTHING_OUTCOME:
        return {"job_id": job.id, "kind": job.kind, "status": job.status, **job.result, "context_collection": context}
    return context


def findings_line(findings: list[Finding]) -> str:
    """"2 suspected defects: <summary>; <summary>" (confirmed ones are said as known defects, dismissed ones not)."""
    suspected = [f for f in findings if f.status == "suspected"]
    confirmed = [f for f in findings if f.status == "confirmed"]
    parts = []
    if suspected:
        parts.append(f"{len(suspected)} suspected defect{'s' if len(suspected) != 1 else ''}: "
                     + "; ".join(f.summary.rstrip(".") for f in suspected) + " (confirm or dismiss each in Context)")
    if confirmed:
        parts.append(f"{len(confirmed)} known defect{'s' if len(confirmed) != 1 else ''}: "
                     + "; ".join(f.summary.rstrip(".") for f in confirmed))
    return ". ".join(parts) + ("." if parts else "")


def _nothing(cmd: JobCommand, job: JobRecord) -> None:
    """A job that finished with nothing: the reasons (JSON on stdout with --json), and sentences on stderr."""
    if cmd.as_json:
        _print(json_payload(job))
    nothing = NothingProduced.model_validate(job.result)
    _say(f"error: {NAMES[job.kind]} finished with nothing (job {job.id}): it {nothing.what}. {nothing.tried.sentence()}")
    for reason in nothing.reasons:
        _say(f"  - {reason.sentence}\n      next: {reason.next_step}")
    said = findings_line(job.context.findings)
    if said:
        _say(f"  {said}")
    _say(f"What it saw is saved in {cmd.project} (Context in the studio shows it).")


def _questions(cmd: JobCommand, job: JobRecord, asked_again: list[str], unanswered_in: Path | None) -> None:
    questions = [{"key": q.key, "title": q.question.title, "question": q.question.question, "why": q.why,
                  "kind": q.kind, "options": q.question.options, "info_needed": q.question.info_needed,
                  "skippable": q.skippable} for q in job.pending]
    template = {q.key: "" for q in job.pending}
    keys = set(template)
    unreachable = [note for note in job.context.evidence.notes if note.startswith("Could not open")]
    error = (unreachable[-1] if unreachable else job.message) if "base_url" in keys else None
    # Seed 000: a pause is extra_info_needed_from_human, and preflight writes the context_collection as it goes, so
    # what it found before the pause (resolved_base_url, auth_state, the map so far) is printed with the questions,
    # in the AgentResponse every other ending prints (output: paused, and the error when the app did not answer).
    response = ended_payload(job.kind, error, PAUSED, job, outcome="paused")
    print(json.dumps({"job_id": job.id, "kind": job.kind, "status": "paused", "message": job.message,
                      "extra_info_needed_from_human": questions, "questions": questions,
                      "answers_template": template, **response}, indent=2))

    if error:  # the app did not answer: say what the browser saw first
        _say(f"error: {error}")
    _say(f"{NAMES[job.kind]} paused (job {job.id}): it needs {plural(len(questions), 'answer')} to go on.")
    said = ""
    for q in job.pending:
        secret = " (secret: kept in memory only)" if q.kind == "secret" else ""
        _say(f"  - {q.key}{secret}: {q.question.question}" + (f"\n      why: {q.why}" if q.why != said else ""))
        said = q.why
        if q.question.options:
            _say(f"      options: {' | '.join(q.question.options)}")
    if asked_again:
        _say(f"The answers in {cmd.answers_file} for {', '.join(asked_again)} were used, but the job asked again: "
             f"{job.message} Correct them in the file.")
    if unanswered_in is not None:
        _say(f"{unanswered_in} does not answer {', '.join(template)}, so the paused job was not resumed.")
    answers_file = cmd.answers_file or Path("answers.json")
    example = json.dumps({key: "..." for key in template})
    _say(f"To go on, put the answers in {answers_file} ({{\"key\": \"value\", ...}} as JSON, or YAML), for example:\n"
         f"  {example}\n"
         f"and run again:\n"
         f"  {shlex.join([*cmd.command, '--job', job.id, '--answers', str(answers_file)])}")
    if job.context.auth_state.requires_login or any(key.startswith("credentials.") for key in keys):
        _say("Keep the login (credentials.email, credentials.password) in the file on every run: passwords are "
             "never stored in the project.")


def _print(payload: dict) -> None:
    print(json.dumps(payload, indent=2), flush=True)


def _say(sentence: str) -> None:
    print(sentence, file=sys.stderr, flush=True)
