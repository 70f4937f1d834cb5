"""`studio export --pilot DIR`: a pilot session on the demo becomes a pytest-playwright test like a recorded one; it
passes against the demo, and fails when the app no longer does what the session saw."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import esprima
import pytest

from studio.cli.main import main
from studio.export import export_session
from studio.pilot.recording import load_recording
from studio.pilot.session import PilotOptions, PilotSession
from studio.pilot.to_steps import pilot_steps
from tests.pilot.scripted_ai import act, observation


def run_exported(folder: Path, browser_path: str, base_url: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": browser_path, **env}
    for name in ("BASE_URL", "PYTEST_ADDOPTS"):
        environment.pop(name, None)
    dev_plugins = ["-p", "no:pytest-qt", "-p", "no:asyncio", "-p", "no:anyio", "-p", "no:cacheprovider"]
    return subprocess.run([sys.executable, "-m", "pytest", str(folder), "-v", *dev_plugins, "--base-url", base_url],
                          cwd=folder, capture_output=True, text=True, env=environment, timeout=180)


def every_text(folder: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in folder.rglob("*") if p.is_file())


@pytest.mark.slow
@pytest.mark.usefixtures("exports_on_the_worker_server")
async def test_a_pilot_session_exports_as_a_test_that_passes_and_fails_when_the_app_breaks(page, driver, demo,
                                                                                          browser_info, tmp_path,
                                                                                          capsys):
    user = demo.create_user()
    await page.goto(demo.base_url + "/login")
    session = PilotSession(driver, tmp_path / "sessions", PilotOptions(goal="open the second step of a dispute"))
    folder = session.folder
    running = asyncio.create_task(session.run())
    await observation(folder, 1)
    signed = await act(folder, 2, {"actions": [
        {"action": "type", "selector": "input[type='email']", "value": user["email"]},
        {"action": "type", "selector": "input[type='password']", "value": user["password"]},
        {"action": "click", "selector": "button:has-text(Sign in)"}]})
    assert [o["secret"] for o in signed["lastBatch"]["outcomes"]] == [False, True, False]
    # what the observations say of the actions never holds the password (the AI's own action file, kept in
    # actions/, does; the demo's sign-in page shows its demo password as text, which the page reading keeps)
    written = [json.loads(p.read_text(encoding="utf-8")) for p in [folder / "observation.json",
                                                                    *folder.glob("observations/*")]]
    told = [json.dumps([o.get("lastBatch"), o.get("previousActions")]) for o in written]
    assert len(told) >= 2 and not any(user["password"] in text for text in told)
    assert signed["lastBatch"]["outcomes"][1]["action"]["value"] == "•••••••• (secret 1)"
    wizard = await act(folder, 3, {"stopOnError": False, "actions": [
        {"action": "navigate", "url": "/disputes"},
        {"action": "click", "selector": "#no-such-button"},
        {"action": "select", "selector": "#account", "value": "acct-1190"},
        {"action": "click", "selector": "input[value='paid-off']"},
        {"action": "wait", "duration": 50},
        {"action": "click", "selector": "[data-testid=next-button]"},
        {"action": "verify", "expect": [{"type": "visible", "selector": "#description"},
                                        {"type": "url", "value": "/disputes"}]}]})
    assert [o["ok"] for o in wizard["lastBatch"]["outcomes"]] == [True, False, True, True, True, True, True]
    await act(folder, 4, {"done": True})
    await asyncio.wait_for(running, 10)

    out = tmp_path / "exported"
    assert main(["export", "--pilot", str(folder), "--lang", "python", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "9 successful actions; 1 failed, blocked or refused" in said and "Set STUDIO_PASSWORD" in said
    test = next(out.glob("test_*.py")).read_text()
    flat = " ".join(line.strip().lstrip("#").strip() for line in test.splitlines())  # comments wrap
    assert user["password"] not in every_text(out)
    assert 'os.environ["STUDIO_PASSWORD"]' in test or "STUDIO_PASSWORD" in test
    assert "Not exported: the pilot's click \"#no-such-button\" (actions/0002-action.json) failed" in flat
    assert "The pilot's wait \"50 ms\" is not a line of this test" in flat
    assert 'page.locator("#description")' in test and "to_be_visible()" in test
    assert 'to_have_url(re.compile(r"/dashboard$"))' in test  # the sign-in's click led there

    passed = run_exported(out, browser_info.path, demo.base_url, STUDIO_PASSWORD=user["password"])
    assert passed.returncode == 0 and "1 passed" in passed.stdout, passed.stdout[-4000:] + passed.stderr[-2000:]

    demo.set_flag("dispute_phone_required", True)  # step 1 now wants a phone number: Next stays on step 1
    broken = run_exported(out, browser_info.path, demo.base_url, STUDIO_PASSWORD=user["password"])
    assert broken.returncode == 1 and "1 failed" in broken.stdout, broken.stdout[-4000:]
    assert "#description" in broken.stdout

    typescript = tmp_path / "exported-ts"
    assert main(["export", "--pilot", str(folder), "--lang", "typescript", "--out", str(typescript)]) == 0
    assert user["password"] not in every_text(typescript)


async def sign_in_and_verify_the_wizard(page, driver, demo, folder_root: Path) -> tuple[Path, dict]:
    """A pilot session that signs in, opens the dispute wizard and verifies its progress line ("Step 1 of 3",
    upper-cased by the demo's CSS) as an AI that reads the screenshot writes it; returns the folder and the user."""
    user = demo.create_user()
    await page.goto(demo.base_url + "/login")
    session = PilotSession(driver, folder_root, PilotOptions(goal="check the dispute wizard's progress"))
    folder = session.folder
    running = asyncio.create_task(session.run())
    await observation(folder, 1)
    progress = "[data-testid=wizard-progress]"
    # its own batch: the export then waits for the dashboard the sign-in leads to before it opens the wizard
    signed = await act(folder, 2, {"actions": [
        {"action": "type", "selector": "input[type='email']", "value": user["email"]},
        {"action": "type", "selector": "input[type='password']", "value": user["password"]},
        {"action": "click", "selector": "button:has-text(Sign in)"}]})
    assert [o["ok"] for o in signed["lastBatch"]["outcomes"]] == [True] * 3, signed["lastBatch"]
    checked = await act(folder, 3, {"actions": [
        {"action": "navigate", "url": "/disputes"},
        {"action": "verify", "expect": [
            {"type": "text", "selector": progress, "value": "STEP 1 OF 3"},  # as the screenshot shows it
            {"type": "text", "value": "step 1 of 3"},  # anywhere in the page, in any letter case
            {"type": "text", "selector": progress, "value": "STEP 1 OF 3", "caseSensitive": True}]}]})
    assert [o["ok"] for o in checked["lastBatch"]["outcomes"]] == [True] * 2, checked["lastBatch"]
    await act(folder, 4, {"done": True})
    await asyncio.wait_for(running, 10)
    return folder, user


@pytest.mark.slow
@pytest.mark.usefixtures("exports_on_the_worker_server")
async def test_a_verified_text_is_asserted_as_the_verify_read_it(page, driver, demo, browser_info, tmp_path):
    """The verify compared the text a person reads (innerText, in any letter case unless caseSensitive); the
    exported assertion reads it the same way, so the test passes where the session's verify passed — Playwright's
    default (textContent, exact case) reads "Step 1 of 3" where the page shows "STEP 1 OF 3" — and a
    case-sensitive text in the wrong letter case fails there, as it failed in the session."""
    folder, user = await sign_in_and_verify_the_wizard(page, driver, demo, tmp_path / "sessions")
    out = tmp_path / "exported"
    assert main(["export", "--pilot", str(folder), "--lang", "python", "--out", str(out)]) == 0
    test = next(out.glob("test_*.py")).read_text()
    assert ('expect(page.locator("[data-testid=wizard-progress]").first).to_contain_text(\n'
            '        "STEP 1 OF 3", ignore_case=True, use_inner_text=True\n    )') in test
    assert 'expect(page.locator("body")).to_contain_text(\n        "step 1 of 3", ignore_case=True, ' \
           'use_inner_text=True\n    )' in test
    assert ('expect(page.locator("[data-testid=wizard-progress]").first).to_contain_text(\n'
            '        "STEP 1 OF 3", use_inner_text=True\n    )') in test  # caseSensitive: the letter case exact
    passed = run_exported(out, browser_info.path, demo.base_url, STUDIO_PASSWORD=user["password"])
    assert passed.returncode == 0 and "1 passed" in passed.stdout, passed.stdout[-4000:] + passed.stderr[-2000:]

    # caseSensitive with the text as the page's source writes it, not as it shows it: the verify would have failed
    # ("the same words in another letter case"), and so does the assertion (textContent would have passed it)
    steps = pilot_steps(load_recording(folder))
    [exact] = [s for s in steps if s.reads_as == "exact_case"]
    exact.value = "Step 1 of 3"
    wrong_case = tmp_path / "exported-wrong-case"
    export_session(steps, "python", wrong_case, title="wizard progress in the wrong case")
    failed = run_exported(wrong_case, browser_info.path, demo.base_url, STUDIO_PASSWORD=user["password"])
    assert failed.returncode == 1 and "1 failed" in failed.stdout, failed.stdout[-4000:]
    assert "Step 1 of 3" in failed.stdout and "STEP 1 OF 3" in failed.stdout  # expected, and what the page shows

    typescript = tmp_path / "exported-ts"
    assert main(["export", "--pilot", str(folder), "--lang", "typescript", "--out", str(typescript)]) == 0
    spec = next(typescript.glob("*.spec.ts")).read_text()
    assert ('await expect(\n    page.locator("[data-testid=wizard-progress]").first(),\n'
            '  ).toContainText("STEP 1 OF 3", { ignoreCase: true, useInnerText: true });') in spec
    assert ('await expect(page.locator("body")).toContainText("step 1 of 3", {\n    ignoreCase: true,\n'
            '    useInnerText: true,\n  });') in spec
    assert '.toContainText("STEP 1 OF 3", { useInnerText: true });' in spec
    esprima.parseModule(spec)
    if shutil.which("npm"):  # @playwright/test runs it as it ran the Python test
        ran = run_exported_typescript(typescript, browser_info.path, demo.base_url, STUDIO_PASSWORD=user["password"])
        assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout[-3000:] + ran.stderr[-2000:]


def run_exported_typescript(folder: Path, browser_path: str, base_url: str, **env: str) -> subprocess.CompletedProcess:
    """npm install (from the shared npm cache) and `npx playwright test` in an exported TypeScript project."""
    environment = {**os.environ, "npm_config_cache": str(Path.home() / ".cache" / "studio-npm"), "BASE_URL": base_url,
                   "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": browser_path, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1",
                   **env}
    install = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=folder,
                             check=False, env=environment, capture_output=True, text=True, timeout=300)
    if install.returncode != 0:
        pytest.skip(f"npm could not install @playwright/test here: {install.stderr.strip()[-300:]}")
    return subprocess.run(["npx", "playwright", "test", "--reporter=line"], cwd=folder, env=environment,
                          check=False, capture_output=True, text=True, timeout=300)


def test_export_of_a_folder_that_is_no_pilot_session_is_one_sentence(tmp_path, capsys):
    assert main(["export", "--pilot", str(tmp_path), "--lang", "python", "--out", str(tmp_path / "o")]) == 2
    assert "is not a pilot session folder" in capsys.readouterr().err
    assert main(["export", "--lang", "python", "--out", str(tmp_path / "o"), "--pilot", str(tmp_path),
                 "--project", "x.studio"]) == 2
