"""Jobs and the processes that run them: a killed job comes back as interrupted and resumes, SIGTERM is a clean
cancel, and two processes never run the same job."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from studio.store.project import ProjectFile

ROOT = Path(__file__).resolve().parents[2]


def studio_process(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "studio", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, env=dict(os.environ))


def studio(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=dict(os.environ))


def wait_for_running_job(project: Path, seconds: float = 90, process: subprocess.Popen | None = None) -> str:
    """The id of the job running in `project`, read without writing (the other process keeps writing)."""
    deadline = time.monotonic() + seconds
    problem = "the project file was never created"
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            out, err = process.communicate()
            raise AssertionError(f"the command ended ({process.returncode}) before its job ran: {err[-2000:]}{out[-500:]}")
        if project.exists():
            try:
                with ProjectFile.open(project, writable=False) as opened:
                    running = [job.id for job in opened.jobs.all(status="running")]
                problem = "no job was running"
            except Exception as error:  # the other process is still creating the file
                running, problem = [], f"{type(error).__name__}: {error}"
            if running:
                return running[0]
        time.sleep(0.2)
    raise AssertionError(f"no job started running ({problem})")


def test_a_killed_job_is_interrupted_then_resumed(hostile, tmp_path, browser_info):
    project = tmp_path / "p.studio"
    hostile.knobs["slow_s"] = 6.0
    command = ["preflight", hostile.app_url + "/slow", "--project", str(project), "--quiet"]
    process = studio_process(*command)
    job_id = wait_for_running_job(project, process=process)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)

    # The next run sees the job for what it is, says so, and leaves it to the tester.
    again = studio(*command, "--max-steps", "1")
    assert f"Job {job_id} (preflight) was interrupted: its process (pid {process.pid}) stopped" in again.stderr
    assert f"--job {job_id}" in again.stderr and f"studio jobs discard {job_id}" in again.stderr
    with ProjectFile.open(project) as opened:
        assert opened.jobs.get(job_id).status == "interrupted"

    # Resumed, it goes on from where it was saved: the app's login wall asks for an account.
    hostile.knobs["slow_s"] = 0.0
    resumed = studio(*command, "--job", job_id, "--json")
    assert resumed.returncode == 3, resumed.stderr
    assert f"Resuming job {job_id}" in resumed.stderr
    assert json.loads(resumed.stdout)["job_id"] == job_id
    with ProjectFile.open(project) as opened:
        assert opened.jobs.get(job_id).status == "paused"


def test_sigterm_cancels_the_job_cleanly(hostile, tmp_path, browser_info):
    project = tmp_path / "p.studio"
    hostile.knobs["slow_s"] = 20.0
    process = studio_process("preflight", hostile.app_url + "/slow", "--project", str(project), "--quiet")
    job_id = wait_for_running_job(project, process=process)
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 143, err
    assert "Stopped by SIGTERM" in err and "Traceback" not in err
    with ProjectFile.open(project) as opened:
        job = opened.jobs.get(job_id)
        assert job.status == "cancelled" and "stopped" in job.message
        assert opened.leases.holder(job_id) is None


def test_two_processes_resuming_the_same_paused_job_run_it_once(hostile, tmp_path, browser_info):
    project = tmp_path / "p.studio"
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"credentials.email": "pat@example.com", "credentials.password": "s3cret"}))
    first = studio("preflight", hostile.app_url, "--project", str(project), "--quiet", "--json")
    assert first.returncode == 3, first.stderr
    job_id = json.loads(first.stdout)["job_id"]

    hostile.knobs["login_delay_s"] = 4.0  # the sign-in takes long enough for the two runs to overlap
    resume = ["preflight", hostile.app_url, "--project", str(project), "--quiet", "--job", job_id,
              "--answers", str(answers)]
    runs = [studio_process(*resume), studio_process(*resume)]
    results = [(run.wait(120), run.communicate()[1]) for run in runs]
    codes = sorted(code for code, _ in results)
    refused = [err for code, err in results if code == 5]
    assert len(refused) == 1 and codes[0] in (0, 3, 4), results
    assert f"Job {job_id} is running in another process (pid " in refused[0]
    assert hostile.posts == ["pat@example.com"]  # signed in once: one process ran the job


def test_jobs_lists_and_discards_an_interrupted_job(tmp_path):
    project = tmp_path / "p.studio"
    with ProjectFile.create(project) as opened:
        from studio.preflight.job import Preflight

        job = Preflight(None, opened).new_job("http://127.0.0.1:9/", "the reports")  # type: ignore[arg-type]
        opened.jobs.save(job)  # saved as running by a process that is gone (no lease)
    listed = studio("jobs", "--project", str(project))
    assert listed.returncode == 0
    assert f"{job.id}  preflight       interrupted" in listed.stdout and "Resume it" in listed.stdout
    discarded = studio("jobs", "discard", job.id, "--project", str(project))
    assert discarded.returncode == 0, discarded.stderr
    again = studio("jobs", "discard", job.id, "--project", str(project))
    assert again.returncode == 2 and "is cancelled" in again.stderr
    with ProjectFile.open(project) as opened:
        assert opened.jobs.get(job.id).message.startswith("Discarded by the tester")
