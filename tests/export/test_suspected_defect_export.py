"""A case written for a suspected defect exports as its user runs it: it checks the EXPECTED behaviour (items kept
after a reload) and is marked expected to fail, strictly — on the to-do list whose items are lost on reload (the
defect present) the run is green (xfailed), on the healthy list (the defect absent, the app fixed) it is red. Once the
tester confirms the defect the test is a plain one, red until the app is fixed; dismissed, its case is not exported.
`studio export` in a subprocess, pytest-playwright on the worker's browser server, @playwright/test for TypeScript."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from exported_runs import run_exported

from studio.preflight.finding_decisions import decide
from studio.preflight.findings import finding_key
from studio.store.project import ProjectFile
from tests.apps.list_app import ListApp
from tests.playground.defect_samples import KEPT, LOST, reported_project

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("exports_on_the_worker_server")]


def export(project: Path, case_id: str, lang: str, out: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "studio", "export", "--project", str(project), "--cases", case_id,
                           "--lang", lang, "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return next(out.glob("test_*.py" if lang == "python" else "*.spec.ts")).read_text()


async def lost_on_reload_case(tmp_path: Path) -> tuple[Path, str, str]:
    path = tmp_path / "p.studio"
    project, job, cases = await reported_project(path, findings=((LOST, KEPT),))
    project.close()
    [case] = [case for case in cases if case.suspected_defect is not None]
    return path, job.id, case.id


async def test_a_suspected_defect_is_green_while_present_and_red_once_fixed(tmp_path, browser_info):
    path, job_id, case_id = await lost_on_reload_case(tmp_path)
    code = export(path, case_id, "python", tmp_path / "suspected")
    assert "@pytest.mark.xfail(" in code and "strict=True," in code
    assert "Suspected defect, fails today: Items added to the list were gone after a" in code
    assert 'expect(page.locator("ul.todo-list li label")).to_have_text(["Milk"])' in code  # the expected behaviour
    present, fixed = await on_broken_then_healthy(tmp_path / "suspected", browser_info)
    assert present[0] == 0 and "1 xfailed" in present[1], present[1][-3000:]
    assert fixed[0] == 1 and "XPASS(strict)" in fixed[1], fixed[1][-3000:]

    # Confirmed by the tester: a known defect, a plain test that fails until the app is fixed.
    with ProjectFile.open(path) as project:
        decide(project, job_id, finding_key(LOST), "confirmed")
    code = export(path, case_id, "python", tmp_path / "confirmed")
    assert "xfail" not in code and "# Known defect, confirmed by the tester: Items added" in code
    present, fixed = await on_broken_then_healthy(tmp_path / "confirmed", browser_info)
    assert present[0] == 1 and "1 failed" in present[1], present[1][-3000:]
    assert fixed[0] == 0 and "1 passed" in fixed[1], fixed[1][-3000:]

    # Dismissed: not a defect, so its case is no longer in the project and nothing exports it.
    with ProjectFile.open(path) as project:
        decide(project, job_id, finding_key(LOST), "dismissed")
        assert case_id not in {case.id for case in project.cases.cases()}
    refused = subprocess.run([sys.executable, "-m", "studio", "export", "--project", str(path), "--cases", case_id,
                              "--lang", "python", "--out", str(tmp_path / "dismissed")], capture_output=True,
                             text=True, timeout=120)
    assert refused.returncode == 2 and not (tmp_path / "dismissed").exists()


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")), reason="Node.js and npm are not installed")
async def test_the_typescript_export_marks_it_with_test_fail(tmp_path, browser_info):
    path, _job_id, case_id = await lost_on_reload_case(tmp_path)
    out = tmp_path / "ts"
    code = export(path, case_id, "typescript", out)
    assert "test.fail(\n    true,\n    \"Suspected defect, fails today: Items added" in code
    env = {**os.environ, "npm_config_cache": str(Path.home() / ".cache" / "studio-npm"),
           "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": browser_info.path, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    env.pop("PLAYWRIGHT_SERVERS", None)
    install = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=out, env=env,
                             capture_output=True, text=True, timeout=300)
    if install.returncode != 0:
        pytest.skip(f"npm could not install @playwright/test here: {install.stderr.strip()[-300:]}")
    results = {}
    for name, faults in (("present", {"no_persist"}), ("fixed", set())):
        with ListApp(faults=faults) as app:
            run = subprocess.run(["npx", "playwright", "test", "--reporter=line"], cwd=out,
                                 env={**env, "BASE_URL": app.base_url}, capture_output=True, text=True, timeout=300)
        results[name] = (run.returncode, run.stdout + run.stderr)
    assert results["present"][0] == 0, results["present"][1][-3000:]  # failed as expected: green
    assert results["fixed"][0] == 1 and "Expected to fail, but passed" in results["fixed"][1], results["fixed"][1][-3000:]


async def on_broken_then_healthy(folder, browser_info):
    """The exported suite's (exit code, output) on the list that loses its items on reload, then on the healthy one."""
    with ListApp(faults={"no_persist"}) as broken:
        present = await run_exported(folder, broken.base_url, browser_info.path)
    with ListApp() as healthy:
        fixed = await run_exported(folder, healthy.base_url, browser_info.path)
    return present, fixed
