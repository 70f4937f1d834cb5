"""`studio pilot URL` as a tester runs it: a real subprocess, a scripted AI writing action files, Ctrl+C to stop."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys

import pytest

from tests.pilot.scripted_ai import act, observation, wait_for

pytestmark = pytest.mark.browser


async def test_the_command_runs_a_session_until_ctrl_c_and_writes_the_report(demo, browser_info, tmp_path):
    sessions = tmp_path / "sessions"
    process = subprocess.Popen(
        [sys.executable, "-m", "studio", "pilot", demo.base_url + "/help", "--goal", "find the products",
         "--sessions-dir", str(sessions)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        folders = await wait_for(lambda: list(sessions.glob("exploration-*")) if sessions.exists() else [],
                                 60, "the session folder")
        folder = folders[0]
        first = await observation(folder, 1, 60)
        assert first["goal"] == "find the products" and first["currentUrl"].endswith("/help")
        second = await act(folder, 2, {"actions": [{"action": "navigate", "url": "/products"}]})
        assert second["currentUrl"].endswith("/products") and second["lastBatch"]["outcomes"][0]["ok"]
        process.send_signal(signal.SIGINT)
        out, err = await asyncio.to_thread(process.communicate, timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert f"Session folder: {folder.resolve()}" in out and "action.json" in out
    assert "Done (stopped): 1 action executed" in out
    assert (folder / "status").read_text().strip() == "DONE"
    report = json.loads((folder / "report.json").read_text())
    assert report["endReason"] == "stopped" and report["finalUrl"].endswith("/products")
