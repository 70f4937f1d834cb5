"""`studio pilot --replay DIR`: a session recorded on the demo by a scripted AI (and a tester taking over) is replayed
from its folder alone in a fresh browser, and each action's outcome is compared with the recorded one."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.pilot.recording import load_recording
from studio.pilot.replay import Replayer
from studio.pilot.session import PilotOptions, PilotSession
from studio.race.driver import PageDriver
from tests.pilot.scripted_ai import act, observation


def replay_command(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", "pilot", *args], capture_output=True, text=True,
                          timeout=180)


def listing(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


async def record_sign_in_and_wizard(page, driver, demo, sessions: Path) -> Path:
    """Sign in, a malformed file, the tester clicking, the wizard's first step, a batch failing midway, a refusal."""
    user = demo.create_user()
    await page.goto(demo.base_url + "/login")
    session = PilotSession(driver, sessions, PilotOptions(goal="File a dispute"))
    folder = session.folder
    running = asyncio.create_task(session.run())
    await observation(folder, 1)
    signed = await act(folder, 2, {"reasoning": "sign in", "actions": [
        {"action": "type", "selector": "input[type='email']", "value": user["email"]},
        {"action": "type", "selector": "input[type='password']", "value": user["password"]},
        {"action": "click", "selector": "text=Sign in, text=Log in"}]})
    assert all(o["ok"] for o in signed["lastBatch"]["outcomes"])
    await act(folder, 3, '{"actions": [{"action": "clik", "selector": "h1"}]}')
    session.take_over()
    await page.locator("a[href='/disputes']").first.click()
    await session.hand_back([{"action": "click", "selector": "a[href='/disputes']", "description": "the tester"},
                             {"action": "type", "selector": "#notes", "description": "typed a note"}])
    await observation(folder, 4)
    wizard = await act(folder, 5, {"stopOnError": True, "actions": [
        {"action": "select", "selector": "#account", "value": "acct-1190"},
        {"action": "click", "selector": "input[value='paid-off']"},
        {"action": "click", "selector": "#no-such-button"},
        {"action": "click", "selector": "[data-testid=next-button]"}]})
    assert wizard["lastBatch"]["failedAt"] == 2 and len(wizard["lastBatch"]["outcomes"]) == 3
    wait = {"action": "wait", "duration": 10}
    refused = await act(folder, 6, {"actions": [wait, wait, wait]})
    assert refused["lastBatch"]["outcomes"][2]["refused"]
    await act(folder, 7, {"done": True, "actions": [
        {"action": "verify", "expect": [{"type": "url", "value": "/disputes"}]}]})
    await asyncio.wait_for(running, 10)
    return folder


@pytest.mark.slow
async def test_the_folder_alone_replays_the_session_and_every_action_does_as_recorded(page, driver, demo,
                                                                                        tmp_path):
    folder = await record_sign_in_and_wizard(page, driver, demo, tmp_path / "sessions")
    recording = load_recording(folder)
    assert [len(f.outcomes or []) for f in recording.files] == [3, 0, 3, 3, 1]
    assert [a["selector"] for a in recording.files[2].tester_before] == ["a[href='/disputes']", "#notes"]
    before = listing(folder)
    done = await asyncio.to_thread(replay_command, "--replay", str(folder), "--out", str(tmp_path / "replays"))
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "10 of 10 actions did as recorded." in out
    assert "actions/0001-action.json #3 click text=Sign in, text=Log in: ok (as recorded)" in out
    assert "actions/0002-action.json (not read): unreadable (as recorded)" in out
    assert "actions/0003-action.json #3 click #no-such-button: failed (as recorded)" in out
    assert "#3 wait: refused (as recorded)" in out
    assert "tester click a[href='/disputes']: done" in out
    assert "tester type #notes: skipped" in out
    assert listing(folder) == before  # the original is read, never written
    replayed = next((tmp_path / "replays").glob("exploration-*"))
    last = json.loads((replayed / "observation.json").read_text())
    assert last["currentUrl"].endswith("/disputes")
    assert [a["by"] for a in last["previousActions"]].count("tester") == 1  # the one it could do
    assert len(list((replayed / "actions").iterdir())) == 5


@pytest.mark.slow
async def test_a_replay_on_an_app_that_behaves_differently_lists_the_differences(page, driver, browser, demo,
                                                                                 tmp_path):
    demo.configure(hydration_ms=(30_000, 30_000), shuffle_products=False)
    await page.goto(demo.base_url + "/products")
    session = PilotSession(driver, tmp_path / "sessions", PilotOptions())
    running = asyncio.create_task(session.run())
    await observation(session.folder, 1)
    blocked = await act(session.folder, 2, {"stopOnError": False, "actions": [
        {"action": "click", "selector": "[data-testid=add-to-cart]"},
        {"action": "verify", "expect": [{"type": "text", "value": "added to cart"}]}]})
    assert [o["ok"] for o in blocked["lastBatch"]["outcomes"]] == [False, False]
    session.stop()
    await asyncio.wait_for(running, 10)

    demo.configure(hydration_ms=(0, 0))  # the scrim is gone: the click goes through now
    lines: list[str] = []
    fresh = await browser.new_context(viewport={"width": 1280, "height": 720})  # as the command: a fresh browser
    try:
        replayer = Replayer(PageDriver(await fresh.new_page()), load_recording(session.folder), lines.append)
        result = await replayer.run()
    finally:
        await fresh.close()
    assert result.summary() == "0 of 2 actions did as recorded.", lines
    assert [(c.recorded, c.replayed) for c in result.differences] == [("blocked", "ok"), ("failed", "ok")]
    assert lines[0].endswith("ok, recorded blocked  <- differs")
    assert result.folder is None

    done = await asyncio.to_thread(replay_command, "--replay", str(session.folder))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "0 of 2 actions did as recorded." in done.stdout and "Differences:" in done.stdout


def test_a_missing_or_damaged_folder_is_one_sentence_with_what_to_do(tmp_path):
    missing = replay_command("--replay", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.strip().count("\n") == 0 and "give the exploration-<epoch ms> folder" in missing.stderr
    damaged = tmp_path / "exploration-1"
    (damaged / "actions").mkdir(parents=True)
    (damaged / "observations").mkdir()
    (damaged / "session.json").write_text('{"startUrl": "http://x', encoding="utf-8")
    broken = replay_command("--replay", str(damaged))
    assert broken.returncode == 2 and "session.json is damaged" in broken.stderr
    (damaged / "session.json").write_text('{"startUrl": "http://127.0.0.1:9/"}', encoding="utf-8")
    empty = replay_command("--replay", str(damaged))
    assert empty.returncode == 2 and "nothing to replay" in empty.stderr
    both = replay_command("http://127.0.0.1:9/", "--replay", str(damaged))
    assert both.returncode == 2 and "not both" in both.stderr
