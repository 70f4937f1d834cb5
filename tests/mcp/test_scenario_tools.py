"""The goal scenarios' MCP tools (seed 004) spoken to by the SDK's own client: over stdio, a scenario's worth of
calls on the demo (a test user made with data.user.create, ui.navigate, ui.observe, ui.act.type, ui.act.click,
ui.wait, session.save / session.load signed in); over streamable HTTP with GET /health."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pyotp
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.conftest import ROOT, McpServer

pytestmark = pytest.mark.browser


def node(observed: dict, node_id: str) -> dict:
    return next(n for n in observed["nodes"] if n["id"] == node_id)


@pytest.mark.timeout(180)
async def test_a_scenario_through_the_mcp_tools(demo, tmp_path, browser_info):
    server = await McpServer("--scenario-tools", "--app-url", demo.base_url, log_path=tmp_path / "mcp.log").start()
    try:
        tools = {tool.name for tool in (await server.client.list_tools()).tools}
        assert {"ui.navigate", "ui.observe", "ui.query", "ui.inspect_tree", "ui.act.click", "ui.act.type",
                "ui.act.check", "ui.wait", "ui.capture.screenshot", "session.save", "session.load",
                "data.user.create", "data.user.login", "data.user.get", "data.reset", "data.flags.set",
                "data.clock.freeze", "auth.impersonate"} <= tools
        user = await server.call("data.user.create", params={"plan": "plus", "requires2FA": True})
        assert user["email"] and user["password"] and user["otpSecret"]
        assert (await server.call("ui.navigate", url="/login"))["currentUrl"].endswith("/login")
        observed = await server.call("ui.observe")
        interactive = [n for n in observed["nodes"] if n["role"] not in ("heading", "region")]
        assert len(interactive) <= 50 and node(observed, "email-input")["role"] == "textbox"
        await server.call("ui.act.type", nodeId="email-input", text=user["email"])
        await server.call("ui.act.type", nodeId="password-input", text=user["password"])
        clicked = await server.call("ui.act.click", nodeId="login-button")
        assert clicked["ok"] and clicked["traceId"]
        assert (await server.call("ui.wait", condition={"element_visible": {"testId": "otp-input"}}))["ok"]
        await server.call("ui.act.type", nodeId="otp-input", text=pyotp.TOTP(user["otpSecret"]).now())
        await server.call("ui.act.click", nodeId="verify-button")
        waited = await server.call("ui.wait", condition={"url_contains": "/dashboard"}, timeout=10_000)
        assert waited["ok"], waited
        found = await server.call("ui.query", role="link", name="Credit Report")
        assert found["nodes"] and found["nodes"][0]["href"] == "/credit-report"
        tree = await server.call("ui.inspect_tree", landmark="nav")
        assert list(tree["tree"]["landmarks"]) == ["nav"]
        saved = await server.call("session.save", name="authenticated")
        assert saved["stateId"] == "authenticated"
        # a fresh context with the saved state is signed in: the dashboard opens without the sign-in page
        assert (await server.call("session.load", stateId="authenticated"))["ok"]
        assert (await server.call("ui.navigate", url="/dashboard"))["currentUrl"].endswith("/dashboard")
        shot = await server.call("ui.capture.screenshot")
        assert shot["base64"].startswith("iVBOR")  # a PNG
        # mistakes are sentences
        stale = await server.call("ui.act.click", nodeId="no-such-node")
        assert stale["error"]["type"] == "stale" and "ui.observe" in stale["error"]["message"]
        bad = await server.call("data.user.get", params={"email": "nobody@example.com"})
        assert bad["error"]["type"] == "data" and "404" in bad["error"]["message"]
        assert (await server.call("ui.wait", condition={"heading_text": "Nowhere"}, timeout=300))["ok"] is False
    finally:
        await server.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.timeout(120)
async def test_the_tools_over_streamable_http_with_a_health_endpoint(demo, tmp_path, browser_info):
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "studio", "mcp", "--scenario-tools", "--app-url",
                                demo.base_url, "--http", f"127.0.0.1:{port}"], cwd=ROOT, env=dict(os.environ),
                               stdout=subprocess.DEVNULL, stderr=open(tmp_path / "http.log", "w"))
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
                    assert json.loads(answer.read())["ok"] is True
                    break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "http.log").read_text()
                await asyncio.sleep(0.2)
        async with Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp")) as client:
            result = await client.call_tool("ui.navigate", {"url": "/help"})
            assert json.loads(result.content[0].text)["currentUrl"].endswith("/help")
            result = await client.call_tool("ui.observe", {})
            assert any(n["id"] == "help-search" for n in json.loads(result.content[0].text)["nodes"])
    finally:
        process.terminate()
        process.wait(15)
