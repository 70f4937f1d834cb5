"""With --json, `studio preflight` and `studio playground` print the seed's AgentResponse however the job ends: a job
that did not complete (the app unreachable, a bad answers file, no browser, a job that cannot proceed, a SIGTERM)
prints `{"output", "context_collection"}` with the error in `output` and in the context_collection's notes, and
keeps its non-zero exit code. Real subprocesses, the real demo app, a real Chromium and real project files."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys

import pytest

from studio.models.context import ContextCollection
from studio.store.project import ProjectFile
from tests.trust.hostile_app import HostileApp

CONTEXT_FIELDS = set(ContextCollection.model_fields)


def studio(*args: object, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], check=False, capture_output=True,
                          text=True, timeout=timeout)


def agent_response(done: subprocess.CompletedProcess, exit_code: int, outcome: str) -> dict:
    """The reply on stdout, checked for what every ending that is not a completion says: how and why it ended."""
    assert done.returncode == exit_code, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    reply = json.loads(done.stdout)
    assert {"output", "context_collection"} <= set(reply)
    assert set(reply["context_collection"]) == CONTEXT_FIELDS
    output = reply["output"]
    assert output["outcome"] == outcome and output["exit_code"] == exit_code
    assert output["error"] and output["error"] in done.stderr  # the sentence the terminal shows, word for word
    assert output["error"] in reply["context_collection"]["evidence"]["notes"]
    return reply


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.browser
def test_an_unreachable_app_says_so_in_the_reply_paused_then_failed(tmp_path):
    project, answers = tmp_path / "p.studio", tmp_path / "answers.json"
    command = ["playground", "new-cases", "--project", project, "--url", f"http://127.0.0.1:{_free_port()}/",
               "--area", "disputes", "--json", "--quiet"]

    asked = agent_response(studio(*command), 3, "paused")
    assert "connection refused" in asked["output"]["error"]
    assert asked["output"]["status"] == "paused" and asked["output"]["cases"] == []
    assert asked["context_collection"]["auth_state"]["blockers"] == [asked["output"]["error"]]
    assert [q["key"] for q in asked["extra_info_needed_from_human"]] == ["base_url"]  # the questions stay beside it

    answers.write_text(json.dumps({"base_url": ""}))  # skipped: the job cannot go on
    failed = agent_response(studio(*command, "--answers", answers), 1, "failed")
    output = failed["output"]
    assert output["status"] == "failed" and output["job_id"] == asked["output"]["job_id"]
    assert "No page answered" in output["error"] and output["summary"] == output["error"]
    assert output["cases"] == [] and output["kind"] == "new_test_case"
    assert output["error"] in failed["context_collection"]["auth_state"]["blockers"]


@pytest.mark.browser
def test_a_job_that_cannot_proceed_prints_its_reply(demo, tmp_path):
    project, answers = tmp_path / "p.studio", tmp_path / "answers.json"
    answers.write_text(json.dumps({"credentials.email": "", "credentials.password": ""}))  # the login skipped
    done = studio("playground", "edit", "--project", project, "--url", demo.base_url, "--answers", answers,
                  "--json", "--quiet")
    reply = agent_response(done, 1, "failed")
    output = reply["output"]
    assert output["error"].startswith("Cannot proceed:") and output["edits"] == []
    context = reply["context_collection"]
    assert context["resolved_base_url"].rstrip("/") == demo.base_url.rstrip("/")  # what the preflight found stays
    assert any("login" in blocker and "skipped" in blocker for blocker in context["auth_state"]["blockers"])
    with ProjectFile.open(project) as opened:
        assert opened.jobs.get(output["job_id"]).status == "failed"


def test_bad_input_and_no_browser_print_the_reply_too(tmp_path):
    """No browser is allowed in this test (it is not marked `browser`): the browser that cannot start is real."""
    project, answers = tmp_path / "p.studio", tmp_path / "answers.json"
    answers.write_text('{"credentials.email": ')
    refused = agent_response(studio("playground", "new-cases", "--project", project, "--url", "http://127.0.0.1:9/",
                                    "--answers", answers, "--json"), 2, "refused")
    assert str(answers) in refused["output"]["error"] and refused["output"]["job_id"] is None
    assert refused["output"]["status"] is None and refused["output"]["cases"] == []
    assert refused["context_collection"]["auth_state"]["blockers"] == [refused["output"]["error"]]

    unknown = agent_response(studio("playground", "edit", "--project", project, "--url", "http://127.0.0.1:9/",
                                    "--cases", "tc-nope", "--json"), 2, "refused")
    assert "tc-nope" in unknown["output"]["error"]

    no_browser = agent_response(studio("preflight", "http://127.0.0.1:9/", "--project", project, "--json"), 1,
                                "failed")
    assert "STUDIO_BROWSER" in no_browser["output"]["error"] and no_browser["output"]["kind"] == "preflight"
    assert "cases" not in no_browser["output"]  # a preflight's output has no agent result keys


@pytest.fixture
def slow_app():
    with HostileApp() as app:
        app.knobs["slow_s"] = 30.0
        yield app


@pytest.mark.browser
def test_sigterm_prints_the_cancelled_reply(slow_app, tmp_path):
    project = tmp_path / "p.studio"
    process = subprocess.Popen([sys.executable, "-m", "studio", "playground", "new-cases", "--project", str(project),
                                "--url", slow_app.app_url + "/slow", "--area", "anything", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = []
    for line in process.stderr:  # the progress events: the job runs once preflight_started is said
        said.append(line)
        if '"preflight_started"' in line:
            break
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    done = subprocess.CompletedProcess(process.args, process.returncode, out, "".join(said) + err)
    reply = agent_response(done, 143, "cancelled")
    output = reply["output"]
    assert output["status"] == "cancelled" and "SIGTERM" in output["error"]
    assert reply["context_collection"]["auth_state"]["blockers"] == []  # stopped, not blocked
    with ProjectFile.open(project) as opened:
        assert opened.jobs.get(output["job_id"]).status == "cancelled"
