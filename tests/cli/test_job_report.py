"""What `studio preflight` / `studio playground` print when their job ends, for the records real runs leave: the
suspected defects counted in the summary line and carried in --json, and the exit code of a job that finished with
nothing (6), whose --json keeps the seed's shapes beside `outcome`, `tried` and `reasons`."""

from __future__ import annotations

import json
from pathlib import Path

from studio.cli import job_report
from studio.cli.playground_run import JobCommand
from studio.models.context import ContextCollection, Finding, JobKind, JobRecord
from studio.models.nothing import NothingProduced, NothingReason, Tried

FINDINGS = [Finding(kind="data_lost_on_reload", summary="Items were gone after a reload.", page_url="/",
                    evidence=["Added 'Milk', reloaded: the list was empty."]),
            Finding(kind="count_disagrees", summary="The counter said 2 items left with 1 listed.", page_url="/"),
            Finding(kind="other", summary="Not a defect.", status="dismissed")]


def record(kind: JobKind = "preflight", result: dict | None = None) -> JobRecord:
    return JobRecord(id="j1", kind=kind, status="completed", created_at=1, updated_at=2, result=result or {},
                     context=ContextCollection(resolved_base_url="http://127.0.0.1:9/", findings=FINDINGS))


def command(kind: JobKind = "preflight", as_json: bool = False) -> JobCommand:
    return JobCommand(kind=kind, project=Path("p.studio"), as_json=as_json)


def test_the_summary_line_counts_the_suspected_defects(capsys):
    assert job_report.report(command(), record()) == 0
    out = capsys.readouterr().out
    assert ("  2 suspected defects: Items were gone after a reload; The counter said 2 items left with 1 listed "
            "(confirm or dismiss each in Context).") in out
    assert "Not a defect" not in out
    result = {"cases": ["tc-1"], "summary": "1 case filed.", "outcome": "completed"}
    assert job_report.report(command("new_test_case"), record("new_test_case", result)) == 0
    assert "2 suspected defects: Items were gone" in capsys.readouterr().out


def test_json_carries_the_findings_for_both_commands(capsys):
    job_report.report(command(as_json=True), record())
    context = json.loads(capsys.readouterr().out)
    assert [f["kind"] for f in context["findings"]] == ["data_lost_on_reload", "count_disagrees", "other"]
    assert context["findings"][0]["evidence"] == ["Added 'Milk', reloaded: the list was empty."]
    job_report.report(command("new_test_case", as_json=True), record("new_test_case", {"cases": ["tc-1"]}))
    response = json.loads(capsys.readouterr().out)
    assert set(response) == {"output", "context_collection"}
    assert len(response["context_collection"]["findings"]) == 3


def test_a_job_that_finished_with_nothing_exits_6_and_says_why(capsys):
    nothing = NothingProduced(what="found no control", tried=Tried(pages_visited=["/"]), reasons=[
        NothingReason(kind="seen", sentence="No page it opened had a control.", next_step="Open it in the live view.")])
    job = record(result={**nothing.model_dump(mode="json"), "summary": nothing.summary("Preflight")})
    assert job_report.report(command(as_json=True), job) == job_report.NOTHING == 6
    captured = capsys.readouterr()
    said = json.loads(captured.out)
    assert said["outcome"] == "nothing" and said["reasons"][0]["next_step"] == "Open it in the live view."
    assert set(said["context_collection"]) == set(ContextCollection.model_fields)
    assert "error: Preflight finished with nothing (job j1): it found no control." in captured.err
    assert "  - No page it opened had a control.\n      next: Open it in the live view." in captured.err
    assert "2 suspected defects" in captured.err


def test_a_job_that_failed_or_stopped_prints_the_agent_response_with_why(capsys):
    """A crash inside the job (the runner records its sentence) and a cancel: --json still prints the seed's
    {output, context_collection}, with the error in output and in the context's notes, and the exit code stays."""
    crash = ("The job failed unexpectedly (KeyError: 'form'). What it found so far is kept in the project; see the "
             "log for details, then start the job again.")
    job = record("new_test_case", {"cases": ["tc-1"], "summary": crash}).model_copy(
        update={"status": "failed", "message": crash})
    assert job_report.report(command("new_test_case", as_json=True), job) == job_report.FAILED == 1
    captured = capsys.readouterr()
    reply = json.loads(captured.out)
    assert set(reply) == {"output", "context_collection"}
    output = reply["output"]
    assert (output["outcome"], output["status"], output["error"], output["exit_code"]) == ("failed", "failed", crash, 1)
    assert output["cases"] == ["tc-1"] and output["edits"] == [] and output["job_id"] == "j1"  # what it made is kept
    assert crash in reply["context_collection"]["auth_state"]["blockers"]
    assert crash in reply["context_collection"]["evidence"]["notes"]
    assert f"error: New test cases failed (job j1): {crash}" in captured.err

    cancelled = record().model_copy(update={"status": "cancelled", "message": "Cancelled by the tester."})
    assert job_report.report(command(as_json=True), cancelled) == job_report.STOPPED
    reply = json.loads(capsys.readouterr().out)
    assert reply["output"]["outcome"] == "cancelled" and reply["output"]["error"] == "Cancelled by the tester."
    assert "cases" not in reply["output"]  # a preflight's output carries no agent result
    assert reply["context_collection"]["auth_state"]["blockers"] == []  # stopped, not blocked
    assert set(reply["context_collection"]) == set(ContextCollection.model_fields)
