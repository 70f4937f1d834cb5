"""Never a silent nothing, from the terminal: on an app page with nothing to try (plain text), `studio preflight` and
`studio playground new-suite` / `new-cases` end with exit code 6 — not 0 — and say what they tried and why nothing
came out, each reason with a next step, on stderr and (with --json) as `outcome: "nothing"`. Real subprocesses, a
real page served on loopback, the worker's Playwright browser server, real project files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from aiohttp import web

from studio.store.project import ProjectFile
from tests.app_thread import AppThread

pytestmark = pytest.mark.browser

NOTHING = 6
PLAIN = ("<!doctype html><html lang='en'><title>Release notes</title><main><h1>Release notes</h1>"
         "<p>Version 2.4 makes exports faster.</p><p>Version 2.3 fixed the sign-in page.</p></main></html>")


def studio(*args: object, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture
def plain_page():
    async def page(_request: web.Request) -> web.Response:
        return web.Response(text=PLAIN, content_type="text/html")

    app = web.Application()
    app.router.add_get("/", page)
    with AppThread(app) as served:
        yield served.urls[0] + "/"


def test_a_preflight_that_finds_no_control_exits_6_with_what_it_tried_and_why(plain_page, tmp_path,
                                                                               worker_playwright_server):
    project = tmp_path / "p.studio"
    done = studio("preflight", plain_page, "--project", project, "--json", "--quiet",
                  "--browser-endpoint", worker_playwright_server)
    assert done.returncode == NOTHING, done.stderr
    said = json.loads(done.stdout)
    assert said["outcome"] == "nothing" and said["status"] == "completed" and said["what"] == "found no control"
    assert said["tried"]["pages_visited"][0] == "/" and said["tried"]["controls_found"] == 0
    assert said["tried"]["controls_tried"] == 0
    assert said["reasons"] and all(reason["sentence"] and reason["next_step"] for reason in said["reasons"])
    assert any("text only" in reason["sentence"] for reason in said["reasons"])
    context = said["context_collection"]
    assert context["confidence"]["coverage"] == 0.0 and context["findings"] == []
    assert any("so coverage is 0" in note for note in context["evidence"]["notes"])
    # stderr: a sentence for the person at the terminal, each reason with its next step
    assert "Preflight finished with nothing" in done.stderr and "next: " in done.stderr
    assert "Traceback" not in done.stderr
    with ProjectFile.open(project) as opened:
        [job] = opened.jobs.all()
        assert job.status == "completed" and job.result["outcome"] == "nothing"


def test_new_suite_and_new_cases_that_write_no_case_exit_6_and_leave_no_empty_suite(plain_page, tmp_path,
                                                                                    worker_playwright_server):
    project = tmp_path / "p.studio"
    suite = studio("playground", "new-suite", "--project", project, "--url", plain_page, "--json", "--quiet",
                   "--browser-endpoint", worker_playwright_server)
    assert suite.returncode == NOTHING, suite.stderr
    output = json.loads(suite.stdout)["output"]
    assert output["outcome"] == "nothing" and output["cases"] == [] and output["suites"] == []
    assert output["what"] == "wrote no test case" and output["tried"]["pages_visited"][0] == "/"
    assert output["reasons"] and all(reason["next_step"] for reason in output["reasons"])
    assert "Created 0 suites" not in output["summary"]
    assert "New test suite finished with nothing" in suite.stderr

    # without --json: sentences only, on stderr, and the same exit code
    cases = studio("playground", "new-cases", "--project", project, "--quiet",
                   "--browser-endpoint", worker_playwright_server)
    assert cases.returncode == NOTHING, cases.stderr
    assert cases.stdout == ""
    assert "New test cases finished with nothing" in cases.stderr and "it wrote no test case" in cases.stderr
    assert "  - " in cases.stderr and "next: " in cases.stderr
    with ProjectFile.open(project) as opened:
        assert opened.cases.suites() == [] and opened.cases.cases() == []
        assert [job.result["outcome"] for job in opened.jobs.all()] == ["nothing", "nothing"]
