"""Seed 003's pilot protocol, to the letter: `studio pilot` run as a tester runs it (a subprocess, the working folder's
defaults) on the demo app, driven by a scripted AI with the seed's own action batches, verbatim from the document
(Decision 1's login batch, Known Issue 1's login-then-upload batch), plus the seed's repetition ("type email" again
and again). Every observation is compared field by field with the seed's observation.json example — its eleven
fields, in its order, with its types (the screenshot in base64), its console, network and error-count shapes — and
the session folder with the seed's layout (fe-pilot-sessions/exploration-<ms>/, screenshots/step-N-<ms>.png,
action.json still there, report.json at the end).

Where the studio answers differently on purpose, the test says so: `"upload"` takes files only from the session's
uploads/ folder (`--upload-dir` chooses another), and a refused repetition is a sentence in the observation's `error`
(the seed throws an Error). Fields the studio adds (progress, lastBatch, warnings, error) come after the seed's.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import signal
import subprocess
import sys
from typing import Any

import pytest

from tests.pilot.scripted_ai import act, observation, wait_for

# The seed's observation.json ("What it captures"), verbatim but for its elided timestamps (`...`), written as numbers.
SEED_OBSERVATION: dict[str, Any] = json.loads("""{
  "stepNumber": 5,
  "timestamp": 1234567890,
  "goal": "Complete property listing",
  "currentUrl": "https://app.com/step-5",
  "screenshot": "base64...",
  "domState": {
    "title": "Step 5 of 6",
    "buttons": ["Next", "Back", "Submit"],
    "inputs": ["Property title", "Description"],
    "links": ["Home", "Help"],
    "visibleText": ["Form content..."]
  },
  "consoleLogs": [
    {"type": "error", "text": "Failed to load resource: 401", "timestamp": 1234567890}
  ],
  "networkRequests": [
    {"url": "/api/upload", "method": "POST", "status": 401, "duration": 245}
  ],
  "newErrors": {
    "consoleErrors": 2,
    "networkErrors": 1
  },
  "performance": {
    "pageLoadTime": 803,
    "domContentLoaded": 619,
    "firstContentfulPaint": 632
  },
  "previousActions": [
    {"action": "click", "selector": "text=Next", "description": "Go to step 5"}
  ]
}""")
SEED_FIELDS = list(SEED_OBSERVATION)

# Decision 1: Action Batching — verbatim.
SEED_LOGIN_BATCH = """{
  "reasoning": "Complete login in one batch",
  "actions": [
    {"action": "click", "selector": "text=Login"},
    {"action": "type", "selector": "input[type='email']", "value": "test@example.com"},
    {"action": "type", "selector": "input[type='password']", "value": "password123"},
    {"action": "click", "selector": "button:has-text('Submit')"}
  ]
}"""

# Known Issue 1: Upload Requires Authentication, the workaround — verbatim.
SEED_UPLOAD_BATCH = """{
  "actions": [
    {"action": "click", "selector": "text=Login"},
    {"action": "type", "selector": "input[type='email']", "value": "test@example.com"},
    {"action": "type", "selector": "input[type='password']", "value": "password123"},
    {"action": "click", "selector": "text=Submit"},
    {"action": "wait", "duration": 2000},
    {"action": "upload", "selector": "input[type='file']", "value": "/path/file.jpg"}
  ]
}"""

# The seed's Action: optional fields (selector?, description?) may be left out, or null in the studio's entries.
OPTIONAL_ACTION_FIELDS = {"selector", "description"}


def assert_seed_shape(seed: Any, ours: Any, where: str = "observation") -> None:
    """`ours` has every field of the seed's example with the seed's JSON type, recursively; a list's items each have
    the shape of the seed's first item. Extra fields are allowed (the studio adds some)."""
    if isinstance(seed, dict):
        assert isinstance(ours, dict), f"{where}: an object in the seed, {ours!r} here"
        for key, value in seed.items():
            assert key in ours, f"{where}.{key}: missing (the seed has it)"
            if ours[key] is None and key in OPTIONAL_ACTION_FIELDS and where.startswith("observation.previousActions"):
                continue
            assert_seed_shape(value, ours[key], f"{where}.{key}")
    elif isinstance(seed, list):
        assert isinstance(ours, list), f"{where}: a list in the seed, {ours!r} here"
        for index, item in enumerate(ours):
            if seed:
                assert_seed_shape(seed[0], item, f"{where}[{index}]")
    elif isinstance(seed, bool) or seed is None:
        assert ours is seed or type(ours) is type(seed), f"{where}: {ours!r}"
    elif isinstance(seed, int):
        assert isinstance(ours, int) and not isinstance(ours, bool), f"{where}: a number in the seed, {ours!r} here"
    else:
        assert isinstance(ours, type(seed)), f"{where}: {type(seed).__name__} in the seed, {ours!r} here"


def assert_seed_observation(found: dict[str, Any], step: int) -> None:
    assert list(found)[:len(SEED_FIELDS)] == SEED_FIELDS, list(found)  # the seed's eleven, in its order, first
    assert_seed_shape(SEED_OBSERVATION, found)
    assert found["stepNumber"] == step and found["goal"] == "Complete property listing"
    png = base64.b64decode(found["screenshot"], validate=True)  # the screenshot itself, in base64
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert found["newErrors"] == {
        "consoleErrors": sum(log["type"] == "error" for log in found["consoleLogs"]),
        "networkErrors": sum(r["status"] >= 400 or bool(r.get("failure")) for r in found["networkRequests"])}


def outcomes(found: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(o["action"]["action"], o["ok"]) for o in found["lastBatch"]["outcomes"]]


@pytest.mark.browser
@pytest.mark.slow
async def test_the_seeds_batches_drive_studio_pilot_and_every_observation_has_the_seeds_fields(demo, browser_info,
                                                                                               tmp_path):
    process = await asyncio.to_thread(  # no --sessions-dir, no --screenshot: the seed's defaults
        subprocess.Popen, [sys.executable, "-m", "studio", "pilot", demo.base_url + "/login", "--goal",
                           "Complete property listing"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sessions = tmp_path / "fe-pilot-sessions"
    try:
        [folder] = await wait_for(lambda: list(sessions.glob("exploration-*")) if sessions.exists() else [], 60,
                                  "the session folder under fe-pilot-sessions/")
        first = await observation(folder, 1, 60)
        assert_seed_observation(first, 1)
        assert first["currentUrl"] == demo.base_url + "/login" and first["previousActions"] == []
        assert "Sign in" in first["domState"]["buttons"] and "Email" in first["domState"]["inputs"]
        assert all(isinstance(value, int) for value in first["performance"].values()), first["performance"]

        # Decision 1's batch: every action runs, even after one failed (the demo has no "Login" text, no "Submit")
        login = await act(folder, 2, SEED_LOGIN_BATCH)
        assert_seed_observation(login, 2)
        assert outcomes(login) == [("click", False), ("type", True), ("type", True), ("click", False)]
        assert login["lastBatch"]["stoppedEarly"] is False and login["lastBatch"]["outcomes"][0]["error"]
        assert [(a["action"], a["selector"]) for a in login["previousActions"]] == [
            ("click", "text=Login"), ("type", "input[type='email']"), ("type", "input[type='password']"),
            ("click", "button:has-text('Submit')")]
        assert (folder / "action.json").read_text() == SEED_LOGIN_BATCH  # readable until the next one arrives

        # the sign-in the batch could not click: Enter in the password field; the demo answers 401
        refused = await act(folder, 3, {"actions": [
            {"action": "press", "selector": "input[type='password']", "value": "Enter", "description": "submit"}]})
        assert_seed_observation(refused, 3)

        # Known Issue 1's batch, verbatim: all six run; the upload is refused (files come from uploads/ only)
        upload = await act(folder, 4, SEED_UPLOAD_BATCH)
        assert_seed_observation(upload, 4)
        assert outcomes(upload) == [("click", False), ("type", True), ("type", True), ("click", False), ("wait", True),
                                    ("upload", False)]
        assert upload["lastBatch"]["outcomes"][5]["error"].startswith(
            "Refused to upload '/path/file.jpg': files are sent only from the uploads folder")

        # the seed's error shapes, from the 401 of the sign-in: a console error, a request, the counts
        logs = refused["consoleLogs"] + upload["consoleLogs"]
        requests = refused["networkRequests"] + upload["networkRequests"]
        unauthorized = [r for r in requests if r["status"] == 401]
        assert [(r["url"], r["method"]) for r in unauthorized] == [(demo.base_url + "/api/login", "POST")]
        assert_seed_shape(SEED_OBSERVATION["networkRequests"][0], unauthorized[0], "networkRequests[401]")
        failed_loads = [log for log in logs if log["type"] == "error" and "Failed to load resource" in log["text"]
                        and "401" in log["text"]]
        assert failed_loads, logs
        assert_seed_shape(SEED_OBSERVATION["consoleLogs"][0], failed_loads[0], "consoleLogs[401]")
        assert refused["newErrors"]["networkErrors"] == 1 and (
            refused["newErrors"]["consoleErrors"] + upload["newErrors"]["consoleErrors"] >= 1)

        # Known Issue 2: "type email" again and again — the third in a row is the observation's error, not run
        email = {"action": "type", "selector": "input[type='email']", "value": "test@example.com"}
        repeated = await act(folder, 5, {"actions": [email, email, email]})
        assert_seed_observation(repeated, 5)
        assert [o["refused"] for o in repeated["lastBatch"]["outcomes"]] == [False, False, True]
        assert isinstance(repeated["error"], str)
        assert repeated["error"].startswith("Refused: this is the 3rd identical type in a row")
        assert len(repeated["previousActions"]) == 13  # 4 + 1 + 6 + 2: the refused one did not run

        await act(folder, 6, '{"done": true}')
        out, err = await asyncio.to_thread(process.communicate, timeout=60)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            await asyncio.to_thread(process.wait, 30)
    assert process.returncode == 0, err[-3000:]
    assert f"Session folder: {folder.resolve()}" in out

    # the seed's session folder
    assert re.fullmatch(r"exploration-\d{13}", folder.name)
    assert {"observation.json", "action.json", "report.json", "screenshots"} <= {p.name for p in folder.iterdir()}
    assert json.loads((folder / "action.json").read_text()) == {"done": True}  # the last one, still readable
    shots = sorted(p.name for p in (folder / "screenshots").iterdir())
    assert len(shots) == 6 and all(re.fullmatch(r"step-\d+-\d{13}\.png", name) for name in shots), shots
    report = json.loads((folder / "report.json").read_text())
    assert (report["endReason"], report["steps"], report["actionsRefused"]) == ("done", 6, 1)
    last = json.loads((folder / "observation.json").read_text())
    assert_seed_observation(last, 6)


def test_the_seeds_example_has_eleven_fields():
    """The contract's own reference: the seed's example as copied has the eleven fields it documents."""
    assert SEED_FIELDS == ["stepNumber", "timestamp", "goal", "currentUrl", "screenshot", "domState", "consoleLogs",
                           "networkRequests", "newErrors", "performance", "previousActions"]
