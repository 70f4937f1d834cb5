"""The studio on a remote browser: every front end connects to a Playwright browser server (or a CDP endpoint) instead
of launching Chromium, and an endpoint that is unreachable or speaks another protocol is one sentence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.browser.errors import BrowserError
from studio.browser.launcher import BrowserEndpointError, BrowserLauncher
from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.models.browser import SessionOptions
from studio.models.events import SessionStarted
from tests.mcp.conftest import McpServer, closed_port, descendants
from tests.remote.conftest import free_port, wait_for_port

ROOT = Path(__file__).resolve().parents[2]


def studio(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env={**os.environ, **(env or {})})


def chromium_below(pid: int) -> bool:
    return any("chrom" in name for name in descendants(pid).values())


def chromium_outside(server) -> set[int]:
    """The Chromium processes below this process other than those below the browser server (other tests of this
    run may keep their own, e.g. the session's shared browser)."""
    theirs = set(descendants(server.pid))
    return {pid for pid, name in descendants(os.getpid()).items() if "chrom" in name and pid not in theirs}


async def test_a_session_drives_the_browser_the_server_launched(browser_server, demo):
    events: list = []
    bus = EventBus()
    bus.subscribe(events.append, SessionStarted)
    session = BrowserSession(bus, SessionOptions(browser_endpoint=browser_server.url))
    before = chromium_outside(browser_server)
    await session.start()
    try:
        assert await session.goto(demo.base_url + "/help") == 200
        assert "Help" in await session.page.title()
        assert events[0].browser_path == browser_server.url
        # The Chromium runs under the server, and the session launched no other one.
        assert chromium_below(browser_server.pid) and chromium_outside(browser_server) <= before
    finally:
        await session.close()


async def test_a_chrome_devtools_endpoint_is_connected_to_over_cdp(browser_info, demo, tmp_path):
    port = free_port()
    chromium = subprocess.Popen([browser_info.path, "--headless", "--no-sandbox", f"--remote-debugging-port={port}",
                                 f"--user-data-dir={tmp_path / 'profile'}", "about:blank"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, chromium)
        session = BrowserSession(EventBus(), SessionOptions(browser_endpoint=f"http://127.0.0.1:{port}"))
        await session.start()
        try:
            assert await session.goto(demo.base_url + "/privacy") == 200
        finally:
            await session.close()
        assert chromium.poll() is None  # disconnecting leaves a browser we did not launch running
    finally:
        chromium.kill()
        chromium.wait()


async def test_unreachable_and_foreign_endpoints_are_sentences(browser_server, demo):
    cases = {
        f"ws://127.0.0.1:{closed_port()}/": "Nothing answered at the browser endpoint",
        demo.base_url.replace("http://", "ws://") + "/": "but not as a Playwright browser server",
        browser_server.url.replace("ws://", "http://"): "but not as a Chrome DevTools endpoint",
        "ftp://127.0.0.1/": "is not a ws://, wss://, http:// or https:// address",
    }
    for endpoint, sentence in cases.items():
        with pytest.raises(BrowserEndpointError) as refused:
            await BrowserLauncher(endpoint=endpoint).start()
        assert sentence in str(refused.value), (endpoint, str(refused.value))
        assert "STUDIO_BROWSER_ENDPOINT" in str(refused.value) or "launch a local browser" in str(refused.value)
        assert isinstance(refused.value, BrowserError)


def test_observe_connects_to_the_endpoint(browser_server, demo):
    done = studio("observe", demo.base_url + "/help", "--selector", "h1", "--json",
                  "--browser-endpoint", browser_server.url)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["type"] == "attachment"


def test_preflight_runs_on_the_remote_browser_from_the_environment(browser_server, demo, tmp_path):
    done = studio("preflight", demo.base_url + "/help", "--project", str(tmp_path / "p.studio"), "--quiet",
                  "--max-steps", "6", env={"STUDIO_BROWSER_ENDPOINT": browser_server.url})
    # Whatever the preflight concludes in six steps, it saw the app through the remote browser.
    assert done.returncode in (0, 3, 4), done.stderr
    assert "Traceback" not in done.stderr


async def test_mcp_tools_work_over_the_endpoint(browser_server, demo, tmp_path):
    server = await McpServer("--browser-endpoint", browser_server.url, log_path=tmp_path / "server.log").start()
    try:
        reply = await server.call("browser_navigate", url=demo.base_url + "/help", browserContext="default")
        assert reply["ok"] and reply["status"] == 200
        snapshot = await server.call("browser_snapshot", browserContext="default")
        assert snapshot["refCount"] > 0
        assert chromium_below(browser_server.pid) and not chromium_below(server.pid)
    finally:
        await server.stop()


@pytest.mark.parametrize("command", [
    ["demo", "--headless", "--out", "{tmp}/demo"],
    ["preflight", "{url}", "--project", "{tmp}/p.studio"],
    ["playground", "new-cases", "--url", "{url}", "--area", "help", "--project", "{tmp}/p.studio"],
    ["observe", "{url}", "--selector", "h1"],
    ["gui", "--url", "{url}", "--screenshot", "{tmp}/w.png"],
])
def test_every_front_end_says_when_the_endpoint_is_unreachable(command, demo, tmp_path):
    args = [part.format(tmp=tmp_path, url=demo.base_url + "/help") for part in command]
    endpoint = f"ws://127.0.0.1:{closed_port()}/"
    done = studio(*args, "--browser-endpoint", endpoint, env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode in (1, 2), (done.returncode, done.stdout, done.stderr)
    assert f"Nothing answered at the browser endpoint {endpoint}" in done.stderr + done.stdout, done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_endpoint_is_refused_before_anything_starts(tmp_path):
    done = studio("preflight", "http://127.0.0.1:9/", "--project", str(tmp_path / "p.studio"),
                  "--browser-endpoint", "ftp://somewhere/")
    assert done.returncode == 2
    assert "is not a ws://, wss://, http:// or https:// address" in done.stderr
    assert not (tmp_path / "p.studio").exists()


def test_the_window_shows_a_page_of_the_remote_browser(browser_server, demo, tmp_path):
    shot = tmp_path / "window.png"
    done = studio("gui", "--url", demo.base_url + "/help", "--screenshot", str(shot),
                  "--browser-endpoint", browser_server.url, env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert shot.stat().st_size > 10_000
