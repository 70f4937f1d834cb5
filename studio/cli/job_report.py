"""What `studio preflight` and `studio playground` print when their job ends, and the exit code that goes with it.

stdout carries the machine-readable part (the result, or the questions of a paused job, as JSON); stderr carries
the sentences for the person at the terminal.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from studio.models.context import Finding, JobRecord
from studio.models.nothing import NOTHING as NOTHING_OUTCOME
from studio.models.nothing import NothingProduced
from studio.wording import plural

if TYPE_CHECKING:
    from studio.cli.playground_run import JobCommand

COMPLETED, FAILED, PAUSED, STOPPED, NOTHING = 0, 1, 3, 4, 6
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
    if job.status in ("budget_exhausted", "cancelled"):
        if cmd.as_json:
            _result(cmd, job)
        why = "ran out of budget" if job.status == "budget_exhausted" else "was cancelled"
        _say(f"{name} {why} (job {job.id}): {job.message or job.result.get('summary', '')}".rstrip(": "))
        _say(f"What it found so far is saved in {cmd.project}.")
        return STOPPED
    _say(f"error: {name} failed (job {job.id}): {job.message or 'no reason was recorded'}")
    return FAILED


def _result(cmd: JobCommand, job: JobRecord) -> None:
    if cmd.as_json:
        print(json.dumps(json_payload(job), indent=2))
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
        print(json.dumps(json_payload(job), indent=2))
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
    # Seed 000: a pause is extra_info_needed_from_human, and preflight writes the context_collection as it goes, so
    # what it found before the pause (resolved_base_url, auth_state, the map so far) is printed with the questions.
    print(json.dumps({"job_id": job.id, "kind": job.kind, "status": "paused", "message": job.message,
                      "extra_info_needed_from_human": questions, "questions": questions,
                      "answers_template": template, "context_collection": job.context.model_dump(mode="json")},
                     indent=2))

    keys = set(template)
    if "base_url" in keys:  # the app did not answer: say what the browser saw first
        unreachable = [note for note in job.context.evidence.notes if note.startswith("Could not open")]
        _say(f"error: {unreachable[-1] if unreachable else job.message}")
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


def _say(sentence: str) -> None:
    print(sentence, file=sys.stderr, flush=True)
