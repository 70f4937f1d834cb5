"""The pilot protocol's defaults are seed 003's (issue 24, points 10 and 11): the screenshot in base64, every action of a
batch run even after one failed, a third identical action the observation's error, session folders under
fe-pilot-sessions/, action.json left readable until the next one, and a verify of a text as a person reads it. The
studio's own behaviour stays as named options: `--screenshot path`, `"stopOnError": true`, `"caseSensitive": true`."""

from __future__ import annotations

import asyncio
import base64
import json
import os

import pytest

from studio.cli.main import build_parser
from studio.pilot.actions import ActionFileError, parse_action_file
from studio.pilot.executor import PilotExecutor
from studio.pilot.files import SessionFolder
from studio.pilot.observer import screenshot
from studio.pilot.recording import load_recording
from studio.pilot.replay import replayed_text
from studio.pilot.session import PilotOptions, PilotSession
from studio.pilot.verify import reads_as
from tests.pilot.scripted_ai import act, observation

PNG = b"\x89PNG\r\n\x1a\n"
MISSING = {"action": "click", "selector": "#no-such-button", "description": "a button that is not there"}


def test_the_command_makes_session_folders_under_fe_pilot_sessions_with_base64_screenshots():
    args = build_parser().parse_args(["pilot", "http://127.0.0.1:9/"])
    assert (args.sessions_dir, args.screenshot) == ("fe-pilot-sessions", "base64")
    assert build_parser().parse_args(["pilot", "http://127.0.0.1:9/", "--screenshot", "path"]).screenshot == "path"
    assert PilotOptions().screenshot == "base64"


def test_a_batch_runs_every_action_unless_it_says_stop_on_error():
    assert parse_action_file('{"actions": [{"action": "wait", "duration": 1}]}').stopOnError is False
    assert parse_action_file('{"stopOnError": true, "actions": [{"action": "wait", "duration": 1}]}').stopOnError


def test_action_json_stays_readable_and_only_a_new_one_is_read(tmp_path):
    files = SessionFolder(tmp_path)
    files.create()
    batch = '{"actions": [{"action": "scroll", "value": "40"}]}'
    files.action_file.write_text(batch)
    text, kept = files.take_action_file() or ("", None)
    assert text == batch and kept is not None and kept.read_text() == batch
    assert files.action_file.read_text() == batch and files.take_action_file() is None  # there, and read once
    with files.action_file.open("a") as stream:  # a writer's final newline, flushed after the JSON was read
        stream.write("\n")
    assert files.take_action_file() is None
    # the same batch written again where it is, later: a new action file (the kernel's file times are coarse, so the
    # test says "later" itself instead of sleeping)
    written = files.action_file.stat().st_mtime_ns
    files.action_file.write_text(batch)
    os.utime(files.action_file, ns=(written + 10**9, written + 10**9))
    assert files.take_action_file() == (batch, tmp_path / files.path.name / "actions" / "0002-action.json")


def test_a_batch_recorded_when_stop_on_error_was_the_default_replays_as_it_ran(tmp_path):
    """Sessions recorded before the seed's default stopped at a batch's first failure: replayed, they stop there
    again instead of reporting the actions that then ran as differences."""
    actions = [MISSING, {"action": "navigate", "url": "/help"}]
    folder = tmp_path / "exploration-1"
    for name in ("actions", "observations"):
        (folder / name).mkdir(parents=True)
    (folder / "session.json").write_text('{"startUrl": "http://127.0.0.1:9/"}')
    batches = [actions, {"stopOnError": False, "actions": actions}, {"actions": actions}]
    ran = [{"outcomes": [{"ok": False}], "failedAt": 0, "stoppedEarly": True}] * 2 + [
        {"outcomes": [{"ok": False}, {"ok": True}], "failedAt": 0, "stoppedEarly": False}]
    (folder / "observations" / "0001-observation.json").write_text('{"lastBatch": null, "error": null}')
    for number, (batch, outcome) in enumerate(zip(batches, ran, strict=True), start=1):
        (folder / "actions" / f"{number:04d}-action.json").write_text(json.dumps(batch))
        (folder / "observations" / f"{number + 1:04d}-observation.json").write_text(json.dumps({"lastBatch": outcome}))
    old, chosen, ran_all = load_recording(folder).files
    assert json.loads(replayed_text(old)) == {"actions": actions, "stopOnError": True}
    assert replayed_text(chosen) == chosen.text and replayed_text(ran_all) == ran_all.text


def test_a_text_reads_as_a_person_reads_it():
    assert reads_as("STEP 1 OF 3", "Step 1 of 3") and reads_as("STRASSE", "Straße")
    assert reads_as("Step 1\n  of 3", "Step 1 of 3")  # whitespace as rendered
    assert not reads_as("STEP 1 OF 3", "Step 1 of 3", case_sensitive=True)
    assert not reads_as("STEP 2 OF 3", "Step 1 of 3")
    with pytest.raises(ActionFileError, match="caseSensitive is for 'text' expectations"):
        parse_action_file('{"action": "verify", "expect": [{"type": "url", "value": "/x", "caseSensitive": true}]}')


@pytest.mark.browser
async def test_the_screenshot_file_path_is_the_option(driver, page, demo, tmp_path):
    await page.goto(demo.base_url + "/help")
    (tmp_path / "screenshots").mkdir()
    named = await screenshot(driver, tmp_path, 1, "path")
    assert named and named.startswith("screenshots/step-1-") and (tmp_path / named).read_bytes().startswith(PNG)
    carried = await screenshot(driver, tmp_path, 2, "base64")
    assert carried and base64.b64decode(carried, validate=True).startswith(PNG)


@pytest.mark.browser
async def test_a_session_keeps_the_seeds_defaults(driver, page, demo, tmp_path):
    await page.goto(demo.base_url + "/help")
    session = PilotSession(driver, tmp_path, PilotOptions(goal="explore"))
    folder = session.folder
    running = asyncio.create_task(session.run())
    first = await observation(folder, 1)
    assert base64.b64decode(first["screenshot"], validate=True).startswith(PNG)
    assert json.loads((folder / "session.json").read_text())["screenshot"] == "base64"

    # every action runs, even after one failed
    batch = {"reasoning": "try a button, then the products", "actions": [MISSING,
                                                                        {"action": "navigate", "url": "/products"}]}
    ran = await act(folder, 2, batch)
    outcomes = ran["lastBatch"]["outcomes"]
    assert [o["ok"] for o in outcomes] == [False, True] and ran["lastBatch"]["stoppedEarly"] is False
    assert ran["lastBatch"]["failedAt"] == 0 and ran["currentUrl"].endswith("/products")
    # action.json stays readable where the AI wrote it (and is not run again); actions/ keeps a copy
    assert json.loads((folder / "action.json").read_text()) == batch
    assert (folder / "actions" / "0001-action.json").read_text() == (folder / "action.json").read_text()

    # "stopOnError": true stops at the first failure
    stopped = await act(folder, 3, {"stopOnError": True, "actions": [MISSING, {"action": "navigate", "url": "/help"}]})
    assert len(stopped["lastBatch"]["outcomes"]) == 1 and stopped["lastBatch"]["stoppedEarly"] is True
    assert stopped["currentUrl"].endswith("/products")

    # the same file written again where it is, the same content: a new action file, run again
    again = {"actions": [{"action": "scroll", "value": "40"}]}
    await act(folder, 4, again)
    rerun = await act(folder, 5, again)
    assert rerun["lastBatch"]["outcomes"][0]["ok"] and len(list((folder / "actions").iterdir())) == 4

    # the third identical action in a row (across batches) is not run: the observation's error says so
    repeated = await act(folder, 6, {"actions": [{"action": "scroll", "value": "40"}, {"action": "wait", "duration": 5},
                                                 {"action": "wait", "duration": 5}, {"action": "wait", "duration": 5},
                                                 {"action": "wait", "duration": 5}]})
    outcomes = repeated["lastBatch"]["outcomes"]
    assert [o["refused"] for o in outcomes] == [True, False, False, True, True]
    assert repeated["error"] == (outcomes[0]["error"] + " 2 more identical actions after it were refused too.")
    assert repeated["error"].startswith("Refused: this is the 3rd identical scroll in a row")
    await act(folder, 7, {"done": True})
    report = await asyncio.wait_for(running, 30)
    assert (report.actionsRefused, report.actionsFailed) == (3, 2)


@pytest.mark.browser
async def test_verify_compares_the_text_a_person_reads(driver, page, demo, tmp_path):
    user = demo.create_user()
    await page.goto(demo.base_url + "/login")
    await page.fill("#email", user["email"])
    await page.fill("#password", user["password"])
    await page.click("[data-testid=login-button]")
    await page.wait_for_url("**/dashboard")
    await page.goto(demo.base_url + "/disputes")
    executor = PilotExecutor(driver, tmp_path)
    shown = await page.locator("[data-testid=wizard-progress]").inner_text()
    assert shown == "STEP 1 OF 3"  # the demo's CSS upper-cases "Step 1 of 3"

    def verify(value: str, **given) -> str:
        return json.dumps({"action": "verify", "expect": [
            {"type": "text", "selector": "[data-testid=wizard-progress]", "value": value, **given}]})

    [read] = parse_action_file(verify("Step 1 of 3")).actions
    assert (await executor.execute(read)).ok
    [page_text] = parse_action_file('{"action": "verify", "expect": [{"type": "text", "value": "step 1 of 3"}]}'
                                    ).actions
    assert (await executor.execute(page_text)).ok
    [exact] = parse_action_file(verify("Step 1 of 3", caseSensitive=True)).actions
    missed = await executor.execute(exact)
    assert not missed.ok and missed.error == (
        "Expected text 'Step 1 of 3' (case-sensitive) of '[data-testid=wizard-progress]', but "
        "'[data-testid=wizard-progress]' shows 'STEP 1 OF 3' (the same words in another letter case: leave out "
        "caseSensitive to match them).")
    assert "caseSensitive" not in json.dumps(read.given())  # the action as the AI gave it
    [upper] = parse_action_file(verify("STEP 1 OF 3", caseSensitive=True)).actions
    assert (await executor.execute(upper)).ok
