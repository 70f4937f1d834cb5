"""Credentials never leave their origin: when the app's home redirects to another origin (HTTP 302 or a script's
location.href), preflight asks about that origin (naming it in full) instead of following it, and never types the
tester's email or password there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.browser.origins import OriginPolicy
from studio.store.project import ProjectFile

ROOT = Path(__file__).resolve().parents[2]


def studio(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=dict(os.environ))


@pytest.mark.parametrize("redirect", ["http_redirect", "script_redirect"])
def test_a_redirect_to_another_origin_is_asked_about_and_nothing_is_typed_there(redirect, hostile, tmp_path,
                                                                                 browser_info):
    hostile.knobs["home"] = redirect
    project = tmp_path / "p.studio"
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"credentials.email": "pat@example.com", "credentials.password": "s3cret"}))
    other = OriginPolicy.origin_of(hostile.other_url)

    asked = studio("preflight", hostile.app_url + "/", "--project", str(project), "--answers", str(answers),
                   "--json", "--quiet")
    assert asked.returncode == 3, asked.stderr
    (question,) = json.loads(asked.stdout)["questions"]
    assert question["key"] == f"origin.{other}"
    assert f"sent the browser to {hostile.other_url}/login, on {other}" in question["question"]
    assert hostile.leaks == [] and hostile.posts == []

    refused = tmp_path / "refused.json"
    refused.write_text(json.dumps({**json.loads(answers.read_text()), f"origin.{other}": "Don't allow"}))
    ended = studio("preflight", hostile.app_url + "/", "--project", str(project), "--answers", str(refused),
                   "--json", "--quiet")
    assert ended.returncode == 1, ended.stderr
    assert f"It was not followed (it was not allowed)" in ended.stderr and "nothing was typed there" in ended.stderr
    assert hostile.leaks == [] and hostile.posts == []
    with ProjectFile.open(project) as opened:
        (job,) = opened.jobs.all()
    assert job.status == "failed"
    assert not job.context.resolved_base_url.startswith(hostile.other_url)
    assert all(not (point.url or "").startswith(hostile.other_url) for point in job.context.candidate_entry_points)
