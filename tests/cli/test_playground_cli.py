"""`studio preflight`, `studio playground` and `studio bench preflight` as a tester runs them: real subprocesses,
the real demo app, a real Chromium and real project files."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from studio.models.context import ContextCollection
from studio.models.events import JobEvent
from studio.store.project import ProjectFile

pytestmark = pytest.mark.browser

REQUEST = "create test cases for the disputes wizard"


def studio(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


def events(stderr: str) -> list[dict]:
    """The JSON lines among stderr's lines (the rest are sentences for people)."""
    return [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]


def login(user: dict, **more: str) -> dict:
    return {"credentials.email": user["email"], "credentials.password": user["password"], **more}


def assert_password_not_stored(project, user: dict) -> None:
    for path in project.parent.glob(project.name + "*"):
        assert user["password"].encode() not in path.read_bytes(), f"the password leaked into {path.name}"


def test_preflight_pauses_for_the_login_then_resumes_from_an_answers_file(demo, tmp_path):
    user = demo.create_user()
    project, answers = tmp_path / "p.studio", tmp_path / "answers.json"
    command = ["preflight", demo.base_url, "--project", project, "--request", REQUEST]

    first = studio(*command)
    assert first.returncode == 3, first.stderr
    paused = json.loads(first.stdout)
    assert paused["status"] == "paused" and paused["job_id"]
    assert [q["key"] for q in paused["questions"]] == ["credentials.email", "credentials.password"]
    assert paused["questions"][1]["kind"] == "secret"
    assert all(q["question"] and q["why"] for q in paused["questions"])
    assert paused["extra_info_needed_from_human"] == paused["questions"]  # seed 000's name for a pause
    # What the preflight found before it paused comes with the questions: where the app runs and its login wall.
    found = paused["context_collection"]
    assert found["resolved_base_url"].rstrip("/") == demo.base_url.rstrip("/") and found["confidence"]["base_url"] > 0
    assert found["auth_state"]["requires_login"] is True
    assert [q["info_needed"] for q in found["questions"]] == [["credentials.email"], ["credentials.password"]]
    assert "--answers" in first.stderr and "Traceback" not in first.stderr

    # (c) A malformed answers file is refused with the file named; the paused job is still there to resume.
    answers.write_text('{"credentials.email": "' + user["email"] + '",\n')
    refused = studio(*command, "--answers", answers)
    assert refused.returncode == 2, refused.stderr
    assert str(answers) in refused.stderr and "not valid JSON" in refused.stderr and "line 2" in refused.stderr
    assert refused.stdout == "" and "Traceback" not in refused.stderr
    with ProjectFile.open(project) as opened:
        assert opened.jobs.latest_paused("preflight").id == paused["job_id"]

    answers.write_text(json.dumps(login(user)))
    assert f"--job {paused['job_id']} --answers" in first.stderr  # the rerun line names the paused job
    wrong = studio(*command, "--job", "no-such-job", "--answers", answers)
    assert wrong.returncode == 2 and "Job no-such-job" in wrong.stderr and paused["job_id"] in wrong.stderr
    done = studio(*command, "--job", paused["job_id"], "--answers", answers, "--json")
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)
    assert set(context) == set(ContextCollection.model_fields)
    assert context["resolved_base_url"].rstrip("/") == demo.base_url.rstrip("/")
    assert "/disputes" in [point["url"] for point in context["candidate_entry_points"]]
    started = [e for e in events(done.stderr) if e["type"] == "preflight_started"]
    assert [e["job_id"] for e in started] == [paused["job_id"]]  # the paused job went on; no new job
    with ProjectFile.open(project) as opened:
        assert [(job.id, job.status) for job in opened.jobs.all()] == [(paused["job_id"], "completed")]
    assert_password_not_stored(project, user)


@pytest.mark.slow
def test_one_run_with_a_full_answers_file_then_new_cases_on_the_same_project(demo, tmp_path):
    user = demo.create_user()
    project, creds = tmp_path / "p.studio", tmp_path / "creds.json"
    creds.write_text(json.dumps([{"key": k, "value": v} for k, v in login(user).items()]))  # the list form

    # (b) The login question is answered from the file on the spot; progress is JSON lines on stderr, in order.
    preflight = studio("preflight", demo.base_url, "--project", project, "--request", REQUEST, "--answers", creds)
    assert preflight.returncode == 0, preflight.stderr
    assert "Preflight completed" in preflight.stdout and "/disputes" in preflight.stdout
    lines = events(preflight.stderr)
    types = [line["type"] for line in lines]
    assert set(types) <= {kind.model_fields["type"].default for kind in JobEvent.__subclasses__()}
    assert types[0] == "preflight_started" and types[-1] == "preflight_completed"
    assert types.index("preflight_question") < types.index("preflight_completed")
    assert "preflight_progress" in types and len({line["job_id"] for line in lines}) == 1

    # (d) No --url: the base URL the preflight resolved is reused; the cases land in the project.
    cases = studio("playground", "new-cases", "--project", project, "--area", "disputes wizard", "--answers", creds,
                   "--json")
    assert cases.returncode == 0, cases.stderr
    response = json.loads(cases.stdout)  # the seed's AgentResponse: output plus context_collection
    assert set(response) == {"output", "context_collection"}
    result = response["output"]
    assert result["cases"] and "summary" in result
    assert set(response["context_collection"]) == set(ContextCollection.model_fields)
    assert "/disputes" in [p["url"] for p in response["context_collection"]["candidate_entry_points"]]
    types = [line["type"] for line in events(cases.stderr)]
    assert types.index("preflight_completed") < types.index("main_job_started") < types.index("item_progress")
    assert types[-1] == "main_job_completed"
    with ProjectFile.open(project) as opened:
        stored = opened.cases.cases()
        assert {case.id for case in stored} == set(result["cases"])
        assert any(case.grounding.page_url.endswith("/disputes") for case in stored)
    assert_password_not_stored(project, user)

    # The app changes (a new required field on the wizard): `edit` updates only the impacted cases, with reasons.
    demo.set_flag("dispute_phone_required", True)
    happy = next(case.id for case in stored if case.gap_type == "happy_path")
    edit = studio("playground", "edit", "--project", project, "--cases", happy, "--answers", creds, "--json")
    assert edit.returncode == 0, edit.stderr
    edits = json.loads(edit.stdout)["output"]["edits"]
    assert [e["case_id"] for e in edits] == [happy] and "Phone number" in edits[0]["summary"]
    with ProjectFile.open(project) as opened:
        versions = {case.id: case.version for case in opened.cases.cases()}
    assert versions.pop(happy) == 2 and set(versions.values()) == {1}


@pytest.mark.slow
def test_new_suite_asks_which_suites_and_a_second_run_resumes_it(demo, tmp_path):
    user = demo.create_user()
    project, answers = tmp_path / "p.studio", tmp_path / "answers.yaml"
    answers.write_text(f"credentials.email: {user['email']}\ncredentials.password: '{user['password']}'\n")
    command = ["playground", "new-suite", "--project", project, "--url", demo.base_url, "--answers", answers]

    asked = studio(*command, "--quiet")
    assert asked.returncode == 3, asked.stderr
    paused = json.loads(asked.stdout)
    assert [q["key"] for q in paused["questions"]] == ["suites"] and "Disputes" in paused["questions"][0]["options"]
    assert not events(asked.stderr)  # --quiet

    # A new process and a new browser: the main job signs in again with the file's login, then creates the suite.
    answers.write_text(answers.read_text() + "suites: [Disputes]\n")
    done = studio(*command, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)["output"]
    assert len(result["suites"]) == 1 and result["cases"]
    with ProjectFile.open(project) as opened:
        assert [suite.module for suite in opened.cases.suites()] == ["Disputes"]
        assert opened.jobs.get(paused["job_id"]).status == "completed"
    assert_password_not_stored(project, user)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_bad_input_and_an_unreachable_app_are_sentences_not_tracebacks(tmp_path):
    foreign = tmp_path / "notes.studio"
    foreign.write_text("not a project")
    refused = studio("preflight", "http://127.0.0.1:8000/", "--project", foreign)
    assert refused.returncode == 2 and "is not a Preflight Studio project" in refused.stderr
    assert foreign.read_text() == "not a project"

    nothing_known = studio("playground", "new-cases", "--project", tmp_path / "new.studio", "--area", "disputes")
    assert nothing_known.returncode == 2 and "--url" in nothing_known.stderr
    assert not (tmp_path / "new.studio").exists()

    unreachable = studio("preflight", f"http://127.0.0.1:{_free_port()}/", "--project", tmp_path / "p.studio",
                         "--quiet")
    assert unreachable.returncode == 3
    assert "connection refused" in unreachable.stderr and not events(unreachable.stderr)
    assert json.loads(unreachable.stdout)["questions"][0]["key"] == "base_url"
    for done in (refused, nothing_known, unreachable):
        assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_bench_preflight_prints_the_numbers_as_json():
    done = studio("bench", "preflight", "--json", "--runs", "1", timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    [run] = result["runs"]
    assert run["status"] == "completed" and run["wall_seconds"] > 0 and 0 < run["steps"] < 40  # not at the cap
    assert run["questions_asked"] == 2 and run["entry_point"]["url"] == "/disputes"
    assert 0 < run["entry_point_confidence"] <= 1 and run["pages_visited"] > 0
    assert {"median_seconds", "median_steps", "targets", "targets_met"} <= set(result)
    [whole] = result["whole_app"]["runs"]  # the whole app: every module of the navigation surveyed
    assert whole["status"] == "completed" and 0 < whole["steps"] < 40 and whole["pages_visited"] > run["pages_visited"]


def test_a_budget_flag_ends_the_job_at_that_budget_with_exit_4(demo, tmp_path):
    user = demo.create_user()
    creds = tmp_path / "creds.json"
    creds.write_text(json.dumps(login(user)))
    done = studio("preflight", demo.base_url, "--project", tmp_path / "p.studio", "--request", REQUEST,
                  "--answers", creds, "--max-steps", "3", "--quiet")
    assert done.returncode == 4, done.stderr
    assert "stopped at its budget of 3 browser steps" in done.stderr
    assert "Settings › Model" in done.stderr and "--max-steps" in done.stderr
    with ProjectFile.open(tmp_path / "p.studio") as opened:
        [job] = opened.jobs.all()
        assert job.status == "budget_exhausted" and job.state["preflight_usage"]["steps"] == 3
    refused = studio("preflight", demo.base_url, "--project", tmp_path / "p.studio", "--max-steps", "0")
    assert refused.returncode == 2 and "must be above 0" in refused.stderr
