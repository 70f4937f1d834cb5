"""A grounded case is a Playwright test: the agent's happy path through the disputes wizard, exported by the race
issue's exporter, runs green against the demo app, signed in from a saved storage state (no password in code)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.export import export_session
from studio.playground import case_steps

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("exports_on_the_worker_server")]

ROOT = Path(__file__).resolve().parents[2]


async def test_the_agents_happy_path_exports_and_passes(bench, demo, tmp_path):
    user = demo.create_user()
    job = await bench.run("new_test_case", demo, user, request="disputes wizard")
    case = next(c for c in bench.project.cases.cases() if c.gap_type == "happy_path")
    state = tmp_path / "signed-in.json"
    await bench.session.save_storage_state(state)

    out = tmp_path / "exported"
    export_session(case_steps(case, job.context.resolved_base_url), "python", out, title=case.title)
    code = next(out.glob("test_*.py")).read_text()
    body = code.split('"""', 2)[-1]  # (the docstring names the server it was recorded on)
    assert 'page.goto("/disputes")' in body and demo.base_url not in body
    assert f"from test case {case.id}" in code
    assert user["password"] not in code and user["email"] not in code
    assert "wait_for_timeout" not in code and ".nth(" not in code
    assert 'get_by_label("Account"' in code and 'get_by_role("button", name="Submit dispute"' in code
    assert 'expect(page.get_by_role("button", name="Submit dispute", exact=True)).to_be_hidden()' in code

    env = {**os.environ, "STUDIO_STORAGE_STATE": str(state), "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_ADDOPTS", None)
    run = subprocess.run([sys.executable, "-m", "pytest", str(out), "--base-url", demo.base_url, "-q",
                          "-p", "no:cacheprovider"], cwd=out, capture_output=True, text=True, env=env, timeout=300)
    assert "1 passed" in run.stdout, run.stdout[-3000:] + run.stderr[-1500:]
    # and the dispute really was filed, by the exported test
    filed = demo.state.disputes.get(user["userId"], [])
    assert len(filed) == 1 and filed[0].reference.startswith("DSP-"), "the exported test filed no dispute"
