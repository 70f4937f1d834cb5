"""Seed 004's two servers apart, over streamable HTTP with the SDK's own client: `studio mcp --data-tools` serves
only data.* / auth.* and starts no browser (it cannot find one here, and needs none); `studio mcp --web-tools`
serves only ui.* / session.*, and ui.navigate with fresh=true starts a new, empty browser context. GET /health answers
the seed's {ok, contexts} (the browser contexts open), and says which server it is; behind --token it answers without
the token too, with the seed's two fields only."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.conftest import descendants
from tests.mcp.http_servers import HttpToolServer

WEB = {"ui.navigate", "ui.observe", "ui.query", "ui.inspect_tree", "ui.act.click", "ui.act.type", "ui.act.check",
       "ui.wait", "ui.capture.screenshot", "session.save", "session.load"}
DATA = {"data.user.create", "data.user.login", "data.user.get", "data.reset", "data.flags.set", "data.clock.freeze",
        "auth.impersonate"}


def health(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/health", timeout=5) as reply:
        return json.loads(reply.read())


async def answer(client: Client, tool: str, **arguments: object) -> dict:
    result = await client.call_tool(tool, arguments)
    return json.loads(result.content[0].text)


@pytest.mark.timeout(60)
async def test_the_data_server_needs_no_browser(demo, tmp_path, monkeypatch):
    monkeypatch.setenv("STUDIO_BROWSER", str(tmp_path / "no-browser-here"))  # a launch would fail
    with HttpToolServer("mcp", "--data-tools", "--app-url", demo.base_url, log=tmp_path / "data.log") as server:
        assert server.health["ok"] is True and server.health["tools"] == ["data"]
        assert server.health["contexts"] == 0  # the seed's {ok, contexts}: a data server has no browser
        async with Client(streamable_http_client(f"{server.url}/mcp")) as client:
            assert {tool.name for tool in (await client.list_tools()).tools} == DATA
            user = await answer(client, "data.user.create", plan="plus", requires2FA=True)
            assert user["email"] and user["password"] and user["otpSecret"]
            assert (await answer(client, "data.user.get", email=user["email"]))["user"]["email"] == \
                user["email"]
        assert server.process is not None and descendants(server.process.pid) == {}
    assert "Traceback" not in (tmp_path / "data.log").read_text()


@pytest.mark.browser
@pytest.mark.timeout(120)
async def test_the_web_server_serves_the_ui_tools_and_starts_fresh_contexts(demo, tmp_path, browser_info):
    with HttpToolServer("mcp", "--web-tools", "--app-url", demo.base_url, log=tmp_path / "web.log") as server:
        assert server.health["tools"] == ["web"]
        assert (server.health["ok"], server.health["contexts"]) == (True, 0)  # no browser context before ui.navigate
        async with Client(streamable_http_client(f"{server.url}/mcp")) as client:
            assert {tool.name for tool in (await client.list_tools()).tools} == WEB
            assert (await answer(client, "ui.navigate", url="/help"))["currentUrl"].endswith("/help")
            assert health(server.url) == {"ok": True, "contexts": 1, "server": "preflight-studio-mcp-web",
                                          "tools": ["web"], "app": demo.base_url}
            await answer(client, "ui.act.type", nodeId="help-search", text="dispute")
            again = await answer(client, "ui.navigate", url="/help", fresh=True)
            assert again["currentUrl"].endswith("/help")
            observed = await answer(client, "ui.observe")
            assert next(n for n in observed["nodes"] if n["id"] == "help-search").get("value", "") == ""
            assert (await answer(client, "session.save", name="blank"))["stateId"] == "blank"


def test_behind_a_token_health_answers_the_seeds_fields_without_it(tmp_path):
    """The seed's CI waits on /health with no token (`npx wait-on http://localhost:7001/health`, a HEAD request):
    behind --token it answers, with only {ok, contexts} — which server, its tools and the app only with the token;
    every other request without the token is still 401."""
    token = "health-test-token-8d2e"
    env = {**os.environ, "STUDIO_MCP_TOKEN": token}
    with HttpToolServer("mcp", "--data-tools", "--app-url", "http://127.0.0.1:9/", "--token",
                        log=tmp_path / "data.log", env=env) as server:
        assert server.health == {"ok": True, "contexts": 0}  # ready by /health, without the token
        assert health(server.url) == {"ok": True, "contexts": 0}
        with urllib.request.urlopen(urllib.request.Request(f"{server.url}/health", method="HEAD"), timeout=5) as head:
            assert head.status == 200
        signed = urllib.request.Request(f"{server.url}/health", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(signed, timeout=5) as reply:
            assert json.loads(reply.read()) == {"ok": True, "contexts": 0, "server": "preflight-studio-mcp-data",
                                                "tools": ["data"], "app": "http://127.0.0.1:9/"}
        wrong = urllib.request.Request(f"{server.url}/health", headers={"Authorization": "Bearer not-it"})
        with urllib.request.urlopen(wrong, timeout=5) as reply:
            assert json.loads(reply.read()) == {"ok": True, "contexts": 0}
        for method, path in (("POST", "/health"), ("GET", "/mcp"), ("POST", "/mcp"), ("GET", "/health/")):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(urllib.request.Request(f"{server.url}{path}", method=method, data=(
                    b"{}" if method == "POST" else None)), timeout=5)
            assert refused.value.code == 401, (method, path)
