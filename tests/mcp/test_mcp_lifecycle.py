"""The server's life around its tools: no Chromium outlives the connection, and --project records what was done."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys

import pytest

from studio.store.project import ProjectFile
from tests.mcp.conftest import McpServer, alive, descendants
from tests.race.conftest import ref_after

pytestmark = pytest.mark.browser

# The SDK's stdio client closes the server's stdin and waits this long before it kills the process group.
SDK_GRACE_S = 2.0


@pytest.mark.own_browser
async def test_closing_the_client_closes_the_browser_before_the_sdk_has_to_kill(tmp_path, demo):
    server = await McpServer(log_path=tmp_path / "server.log").start()
    assert not descendants(server.pid)  # the browser starts with the first navigation, not before
    await server.call("browser_navigate", url=demo.base_url + "/help", browserContext="default")
    await server.call("browser_navigate", url=demo.base_url + "/help", browserContext="second")
    children = descendants(server.pid)
    assert any(name.startswith(("chrome", "chromium")) for name in children.values()), children

    seconds = await server.stop()
    assert seconds < SDK_GRACE_S, f"the server needed {seconds:.1f}s to exit after its stdin closed"
    assert not alive(server.pid)
    assert [pid for pid in children if alive(pid)] == []
    assert "Traceback" not in server.log()


async def test_sigterm_closes_the_browser_too(tmp_path, demo):
    server = await McpServer(log_path=tmp_path / "server.log").start()
    await server.call("browser_navigate", url=demo.base_url + "/help", browserContext="default")
    children = descendants(server.pid)
    os.kill(server.pid, signal.SIGTERM)
    for _ in range(100):
        if not alive(server.pid):
            break
        await asyncio.sleep(0.05)
    assert not alive(server.pid), "the server ignored SIGTERM"
    assert [pid for pid in children if alive(pid)] == []
    await server.stop()
    assert "Traceback" not in server.log()


@pytest.mark.own_browser
async def test_headed_without_a_display_says_what_to_do(tmp_path, demo):
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    server = await McpServer("--headed", log_path=tmp_path / "server.log", env=env).start()
    try:
        reply = await server.call("browser_navigate", url=demo.base_url + "/help", browserContext="default")
    finally:
        await server.stop()
    assert reply["error"]["type"] == "browser_unavailable"
    assert "needs a display" in reply["error"]["message"] and "without --headed" in reply["error"]["message"]


async def test_actions_are_recorded_into_the_project_and_export(tmp_path, demo):
    demo.configure(hydration_ms=(0, 0), shuffle_products=False)
    project = tmp_path / "agent.studio"
    server = await McpServer("--project", str(project), log_path=tmp_path / "server.log").start()
    try:
        opened = await server.call("browser_navigate", url=demo.base_url + "/products", browserContext="shop")
        session_id = opened["recordedSession"]
        # Like an agent that read the facts: wait until the card has faded in, then click.
        for _ in range(50):
            text = (await server.call("browser_snapshot", browserContext="shop"))["text"]
            button = ref_after(text, '"iPhone 15 Pro"', '"Add to Cart"')
            facts = await server.call("observe_element_state", ref=button, browserContext="shop")
            if not {"animation", "coverage"} & {fact["type"] for fact in facts if not fact.get("isTargetOrDescendant")}:
                break
            await asyncio.sleep(0.1)
        reply = await server.call("browser_click", ref=button, browserContext="shop")
        assert reply["clicked"] is True, reply
        other = await server.call("browser_navigate", url=demo.base_url + "/help", browserContext="reader")
        assert other["recordedSession"] != session_id
    finally:
        await server.stop()

    with ProjectFile.open(project) as recorded:
        steps = recorded.steps(session_id)
        labels = {session.id: session.label for session in recorded.sessions()}
        reader_steps = recorded.steps(other["recordedSession"])
    assert labels[session_id] == "MCP browserContext 'shop'"
    assert [step.action for step in steps] == ["navigate", "click"]
    assert steps[0].url == demo.base_url + "/products"
    click = steps[1]
    assert click.origin == "agent" and click.locator.python() == (
        'page.get_by_test_id("product-card").filter(has_text="iPhone 15 Pro")'
        '.get_by_role("button", name="Add to Cart", exact=True)')
    assert any(r.method == "POST" and r.url.endswith("/api/cart/add") for r in click.requests)
    assert [step.action for step in reader_steps] == ["navigate"]

    exported = subprocess.run(
        [sys.executable, "-m", "studio", "export", "--project", str(project), "--session", session_id,
         "--lang", "python", "--out", str(tmp_path / "export")],
        capture_output=True, text=True, timeout=120)
    assert exported.returncode == 0, exported.stderr
    test_code = "".join(path.read_text() for path in (tmp_path / "export").rglob("test_*.py"))
    assert 'page.goto("/products")' in test_code
    assert 'get_by_test_id("product-card")' in test_code and '.filter(has_text="iPhone 15 Pro")' in test_code
    assert '"/api/cart/add" in r.url' in test_code
