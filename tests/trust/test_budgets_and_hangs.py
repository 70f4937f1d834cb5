"""No call may hang: a page that busy-loops after load cannot outlast a job's time budget, and a job that ran past
its budget never ends as completed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.store.project import ProjectFile

ROOT = Path(__file__).resolve().parents[2]


def studio(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=dict(os.environ))


def test_a_page_stuck_in_a_busy_loop_ends_the_preflight_at_its_time_budget(hostile, tmp_path, browser_info):
    project = tmp_path / "p.studio"
    started = time.monotonic()
    done = studio("preflight", hostile.app_url + "/spin", "--project", str(project), "--quiet", "--max-seconds", "10")
    took = time.monotonic() - started
    assert done.returncode == 4, (done.returncode, done.stdout, done.stderr)
    assert took < 45, f"the 10 s budget took {took:.0f} s to end the job"
    assert "ran out of budget" in done.stderr and "time budget of 10 seconds" in done.stderr
    with ProjectFile.open(project) as opened:
        (job,) = opened.jobs.all()
    assert job.status == "budget_exhausted" and "time budget of 10 seconds" in job.message


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "1e400"])
def test_budgets_that_are_not_finite_positive_numbers_are_refused(value, tmp_path):
    done = studio("preflight", "http://127.0.0.1:9/", "--project", str(tmp_path / "p.studio"),
                  "--max-seconds", value, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "--max-seconds" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "p.studio").exists()


def test_a_stuck_page_is_skipped_with_a_note_and_the_preflight_goes_on(hostile, tmp_path, browser_info):
    project = tmp_path / "p.studio"
    started = time.monotonic()
    done = studio("preflight", hostile.app_url + "/spin", "--project", str(project), "--quiet", "--json")
    took = time.monotonic() - started
    # The stuck page costs one page-call timeout; then the app's root answers with its login form.
    assert done.returncode == 3, (done.returncode, done.stderr)
    assert took < 50, took
    with ProjectFile.open(project) as opened:
        (job,) = opened.jobs.all()
    assert any("did not answer within 10 s" in note and "/spin" in note for note in job.context.evidence.notes)
    assert [q.key for q in job.pending] == ["credentials.email", "credentials.password"]
