"""PilotSession on the demo app: the seed's observation.json, batches through the race preflight, the wizard's
progress and stuck warning, malformed files, refusals, take-over, and files that are always whole."""

from __future__ import annotations

import asyncio
import base64
import json

import pytest

from studio.pilot.session import PilotEvent, PilotOptions, PilotSession
from tests.pilot.scripted_ai import act, observation

pytestmark = pytest.mark.browser

SEED_FIELDS = ["stepNumber", "timestamp", "goal", "currentUrl", "screenshot", "domState", "consoleLogs",
               "networkRequests", "newErrors", "performance", "previousActions"]


async def test_a_session_signs_in_and_walks_the_wizard_with_progress_and_a_stuck_warning(page, driver, demo,
                                                                                         tmp_path):
    user = demo.create_user()
    await page.goto(demo.base_url + "/login")
    events: list[PilotEvent] = []
    session = PilotSession(driver, tmp_path, PilotOptions(goal="File a dispute"), events.append)
    folder = session.folder
    running = asyncio.create_task(session.run())
    torn: list[str] = []

    async def read_all_the_time():  # a reader that never sees half a file
        while not running.done():
            for name in ("observation.json", "session.json"):
                try:
                    json.loads((folder / name).read_text(encoding="utf-8"))
                except FileNotFoundError:
                    pass
                except json.JSONDecodeError as error:
                    torn.append(f"{name}: {error}")
            await asyncio.sleep(0.005)

    reader = asyncio.create_task(read_all_the_time())
    first = await observation(folder, 1)
    assert list(first)[:len(SEED_FIELDS)] == SEED_FIELDS
    assert first["goal"] == "File a dispute" and first["currentUrl"].endswith("/login")
    assert "Sign in" in first["domState"]["buttons"] and "Email" in first["domState"]["inputs"]
    # the seed's default: the screenshot itself, in base64 (its file is in screenshots/ too)
    assert base64.b64decode(first["screenshot"], validate=True).startswith(b"\x89PNG\r\n\x1a\n")
    assert [p.name.startswith("step-1-") for p in (folder / "screenshots").iterdir()] == [True]
    assert first["previousActions"] == [] and first["lastBatch"] is None
    assert set(first["performance"]) == {"pageLoadTime", "domContentLoaded", "firstContentfulPaint"}
    assert (folder / "status").read_text().strip() == "WAITING_FOR_AI"
    assert json.loads((folder / "session.json").read_text())["goal"] == "File a dispute"

    second = await act(folder, 2, {"reasoning": "sign in, then open the disputes", "actions": [
        {"action": "type", "selector": "input[type='email']", "value": user["email"]},
        {"action": "type", "selector": "input[type='password']", "value": user["password"]},
        {"action": "click", "selector": "text=Sign in, text=Log in", "description": "submit"},
        {"action": "navigate", "url": "/disputes"}]})
    assert [o["ok"] for o in second["lastBatch"]["outcomes"]] == [True] * 4, second["lastBatch"]
    assert second["lastBatch"]["outcomes"][2]["rules"] == ["text-list-to-buttons"]
    assert second["currentUrl"].endswith("/disputes")
    # innerText is what the reader sees: the demo's CSS upper-cases the step line.
    assert (second["progress"]["indicator"].lower(), second["progress"]["stuck"]) == ("step 1 of 3", False)
    assert [a["by"] for a in second["previousActions"]] == ["ai"] * 4
    assert any(r["url"].endswith("/disputes") and r["status"] == 200 for r in second["networkRequests"])
    # action.json stays readable where the AI wrote it until the next one arrives; the history keeps a copy
    assert (folder / "action.json").read_text() == (folder / "actions" / "0001-action.json").read_text()

    # Next on an empty form: the wizard stays on step 1; the third observation in a row there is "stuck".
    next_click = {"action": "click", "selector": "button:has-text(Next)"}
    third = await act(folder, 3, {"actions": [next_click]})
    assert third["progress"]["stuck"] is False and third["warnings"] == []
    fourth = await act(folder, 4, {"actions": [next_click]})
    assert fourth["progress"]["stuck"] is True
    assert fourth["warnings"] and fourth["warnings"][0].lower().startswith("no progress: the page has shown 'step 1 of 3'")

    fifth = await act(folder, 5, {"actions": [
        {"action": "select", "selector": "#account", "value": "acct-1190"},
        {"action": "click", "selector": "input[value='paid-off']"},
        {"action": "click", "selector": "[data-testid=next-button]"}]})
    assert [o["ok"] for o in fifth["lastBatch"]["outcomes"]] == [True] * 3, fifth["lastBatch"]
    assert (fifth["progress"]["indicator"].lower(), fifth["progress"]["stuck"]) == ("step 2 of 3", False)

    await act(folder, 6, {"done": True, "reasoning": "enough for this test"})
    report = await asyncio.wait_for(running, 10)
    await reader
    assert torn == []
    assert (folder / "status").read_text().strip() == "DONE"
    saved = json.loads((folder / "report.json").read_text())
    assert saved == report.model_dump(mode="json")
    assert (report.endReason, report.steps, report.actionsExecuted, report.actionsFailed) == ("done", 6, 9, 0)
    assert report.normalizations[0]["rules"] == ["text-list-to-buttons"] and len(report.warnings) == 1
    assert sorted(p.name for p in (folder / "observations").iterdir())[-1] == "0006-observation.json"
    kinds = [event.kind for event in events]
    assert kinds[:2] == ["observation", "status"] and kinds[-2:] == ["status", "done"]
    assert {"batch", "outcome", "warning"} <= set(kinds)


@pytest.mark.slow
async def test_failures_refusals_malformed_files_blocked_clicks_and_take_over(page, driver, demo, tmp_path):
    demo.configure(hydration_ms=(30_000, 30_000), shuffle_products=False)
    await page.goto(demo.base_url + "/help")
    session = PilotSession(driver, tmp_path, PilotOptions(goal="explore"))
    folder = session.folder
    running = asyncio.create_task(session.run())
    await observation(folder, 1)

    failing = await act(folder, 2, {"stopOnError": True, "actions": [
        {"action": "scroll", "value": "200"},
        {"action": "click", "selector": "#no-such-button", "description": "a button that is not there"},
        {"action": "navigate", "url": "/products"}]})
    batch = failing["lastBatch"]
    assert batch["failedAt"] == 1 and batch["stoppedEarly"] is True and len(batch["outcomes"]) == 2
    assert batch["outcomes"][1]["error"].startswith("No element matches '#no-such-button'")
    assert failing["currentUrl"].endswith("/help")  # with stopOnError, the navigate after the failure did not run

    malformed = await act(folder, 3, '{"actions": [{"action": "clik", "selector": "h1"}]}')
    assert malformed["error"] == "actions[0].action: 'clik' is not an action type; did you mean 'click'?"
    assert malformed["lastBatch"] is None
    assert "clik" in (folder / "actions" / "0002-action.json").read_text()  # kept, not lost

    wait = {"action": "wait", "duration": 10}
    refused = await act(folder, 4, {"actions": [wait, wait, wait, {"action": "scroll", "value": "-200"}]})
    outcomes = refused["lastBatch"]["outcomes"]
    assert [(o["ok"], o["refused"]) for o in outcomes] == [(True, False), (True, False), (False, True), (True, False)]
    # the seed throws at the third identical action: it is the observation's error (no longer a warning)
    assert refused["error"].startswith("Refused: this is the 3rd identical wait")
    assert not any("Refused" in warning for warning in refused["warnings"])
    assert len([a for a in refused["previousActions"] if a["action"] == "wait"]) == 2  # the refused one did not run

    blocked = await act(folder, 5, {"actions": [
        {"action": "navigate", "url": "/products"},
        {"action": "click", "selector": "[data-testid=add-to-cart]", "description": "add the first product"}]})
    click = blocked["lastBatch"]["outcomes"][1]
    assert not click["ok"] and "covered" in click["blocked"]["reason"]
    assert any(f["type"] == "coverage" and f["elementAtPoint"]["testId"] == "loading-scrim"
               for f in click["blocked"]["facts"])

    session.take_over()
    assert json.loads((folder / "session.json").read_text())["takenOver"] is True
    (folder / "action.json").write_text('{"action": "navigate", "url": "/help"}')
    await asyncio.sleep(0.5)
    assert (folder / "action.json").exists() and (folder / "status").read_text().strip() == "WAITING_FOR_AI"
    await session.hand_back([{"action": "click", "selector": "#cart", "description": "the tester looked"}])
    handed = await observation(folder, 7)  # 6: the fresh observation at hand back; 7: the waiting file's batch
    assert handed["currentUrl"].endswith("/help")
    assert [a["by"] for a in handed["previousActions"]][-2:] == ["tester", "ai"]
    assert json.loads((folder / "session.json").read_text())["takenOver"] is False

    session.stop()
    report = await asyncio.wait_for(running, 10)
    assert (report.endReason, report.actionsRefused) == ("stopped", 1)
    assert report.actionsFailed == 2 and (folder / "status").read_text().strip() == "DONE"


async def test_a_linked_or_nested_action_file_is_one_error_and_the_session_goes_on(page, driver, demo, tmp_path):
    """A link to /dev/zero as action.json was read until the machine ran out of memory; 100,000 levels of nesting
    ended the session with a RecursionError. Each is now one sentence in the next observation."""
    import os

    await page.goto(demo.base_url + "/help")
    session = PilotSession(driver, tmp_path, PilotOptions(goal="explore"))
    folder = session.folder
    running = asyncio.create_task(session.run())
    await observation(folder, 1)
    os.symlink("/dev/zero", folder / "action.json.tmp-link")
    os.replace(folder / "action.json.tmp-link", folder / "action.json")  # appears whole, as the AI's would
    linked = await observation(folder, 2)
    assert linked["error"].startswith("action.json was a link, so it was not read")
    nested = await act(folder, 3, "[" * 30_000 + "]" * 30_000)  # 60 KB, within the cap
    assert nested["error"].startswith("action.json is nested too deeply to read")
    done = await act(folder, 4, {"actions": [{"action": "scroll", "value": "100"}], "done": True})
    assert done["lastBatch"]["outcomes"][0]["ok"] is True
    report = await asyncio.wait_for(running, 30)
    assert report is not None


async def test_navigate_follows_the_url_policy_and_the_sessions_origins(page, driver, demo, tmp_path):
    """`navigate` opened file:///etc/passwd and chrome://version, and the file's lines reached observation.json for
    the AI to read; another origin was opened too. Each is now refused in one sentence, and nothing is read."""
    await page.goto(demo.base_url + "/help")
    session = PilotSession(driver, tmp_path, PilotOptions(goal="explore"))
    folder = session.folder
    running = asyncio.create_task(session.run())
    await observation(folder, 1)
    refused = await act(folder, 2, {"actions": [{"action": "navigate", "url": url} for url in (
        "file:///etc/passwd", "chrome://version", "http://127.0.0.1:9/steal")], "stopOnError": False})
    errors = [outcome["error"] for outcome in refused["lastBatch"]["outcomes"]]
    assert errors[0].startswith("Refused to open file:///etc/passwd:") and "local file" in errors[0]
    assert errors[1].startswith("Refused to open chrome://version:")
    assert errors[2].startswith("Refused to open http://127.0.0.1:9/steal: http://127.0.0.1:9 is not one of this "
                                "session's origins") and "--allow-origin http://127.0.0.1:9" in errors[2]
    assert refused["currentUrl"].endswith("/help")
    assert "root:" not in json.dumps(refused)
    done = await act(folder, 3, {"actions": [{"action": "navigate", "url": "/products"}], "done": True})
    assert done["lastBatch"]["outcomes"][0]["ok"] is True  # its own origin opens as before
    await asyncio.wait_for(running, 30)
    assert driver.pin is None  # the live page's own rules again once the session ended


async def test_uploads_come_only_from_the_uploads_folder(page, driver, demo, tmp_path):
    """`upload` sent any local file to the page (/etc/passwd, the answers file with a password). Files now come only
    from the session's uploads/ (or --upload-dir), named relative to it; a link out of it is refused too."""
    import os

    await page.goto(demo.base_url + "/profile")
    session = PilotSession(driver, tmp_path, PilotOptions(goal="explore"))
    folder = session.folder
    running = asyncio.create_task(session.run())
    await observation(folder, 1)
    (folder / "uploads" / "avatar.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    os.symlink("/etc/passwd", folder / "uploads" / "linked.png")
    field = "[data-testid=avatar-input]"
    tried = await act(folder, 2, {"actions": [{"action": "upload", "selector": field, "value": value} for value in (
        "/etc/passwd", "../session.json", "linked.png", "avatar.png")], "stopOnError": False})
    outcomes = tried["lastBatch"]["outcomes"]
    assert [o["ok"] for o in outcomes] == [False, False, False, True], outcomes
    assert all("files are sent only from the uploads folder" in o["error"] for o in outcomes[:3])
    assert await page.evaluate("document.querySelector('#avatar').files[0].name") == "avatar.png"
    await act(folder, 3, {"actions": [{"action": "scroll", "value": "10"}], "done": True})
    await asyncio.wait_for(running, 30)


async def test_nothing_is_typed_on_a_page_of_another_origin(page, driver, demo, tmp_path):
    """A password the AI typed on a lookalike page of another origin was sent there; the pilot now follows the
    typing rules of every command: text goes only to the session's origins."""
    from tests.mcp.conftest import StaticPages

    lookalike = await StaticPages().start()
    try:
        url = lookalike.url("/login", '<!doctype html><title>Sign in</title><form action="/steal">'
                                      '<label>Password <input id="password" type="password"></label></form>')
        await page.goto(demo.base_url + "/help")
        session = PilotSession(driver, tmp_path, PilotOptions(goal="explore"))
        folder = session.folder
        running = asyncio.create_task(session.run())
        await observation(folder, 1)
        # The page the AI reads steers it: a link to the lookalike (a click may follow it; typing there may not).
        await page.evaluate("(url) => { const a = document.createElement('a'); a.href = url; a.id = 'bait';"
                            " a.textContent = 'Sign in again'; document.body.prepend(a); }", url)
        typed = await act(folder, 2, {"actions": [{"action": "click", "selector": "#bait"},
                                                  {"action": "type", "selector": "#password", "value": "s3cret"}]})
        outcome = typed["lastBatch"]["outcomes"][1]
        assert outcome["ok"] is False and lookalike.base_url.rstrip("/") in outcome["error"], outcome
        assert await page.evaluate("document.querySelector('#password').value") == ""
        await act(folder, 3, {"actions": [{"action": "scroll", "value": "10"}], "done": True})
        await asyncio.wait_for(running, 30)
    finally:
        await lookalike.stop()
