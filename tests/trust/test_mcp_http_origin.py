"""`studio mcp --http` (issue 21, point 15): a web page in the tester's browser must not drive the studio's tools.
The server listens on loopback and refuses a request whose Host or Origin is not its own (a foreign page's fetch
carries its Origin; a DNS-rebound name carries its Host); a client with no Origin (an MCP client, curl) is served.
With --token (from STUDIO_MCP_TOKEN, or made and printed once) a request without `Authorization: Bearer <token>` is
refused 401 first, the Origin and Host checks still hold, the token is never logged, and `studio run`'s MCP client
sends $STUDIO_MCP_TOKEN; a server open beyond loopback without a token is warned about."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request

import pytest

from tests.mcp.http_servers import HttpToolServer

INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "trust-test", "version": "1"}}})


def _post(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(f"{url}/mcp", data=INITIALIZE.encode(), method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_foreign_origin_or_host_is_refused_and_a_plain_client_is_served(tmp_path):
    with HttpToolServer("mcp", "--data-tools", "--app-url", "http://127.0.0.1:9/", log=tmp_path / "mcp.log") as server:
        assert _post(server.url, {"Origin": "http://evil.example"}) == 403
        assert _post(server.url, {"Origin": "null"}) == 403  # a sandboxed frame or a file: page
        assert _post(server.url, {"Host": "evil.example"}) == 421
        assert _post(server.url, {"Origin": server.url}) == 200
        assert _post(server.url, {}) == 200


TOKEN = "known-test-token-4f1c9a"
DATA_SERVER = ("mcp", "--data-tools", "--app-url", "http://127.0.0.1:9/", "--token")


def _refusal(url: str) -> tuple[int, str, bytes]:
    """A POST without a token: its status, WWW-Authenticate header and body."""
    request = urllib.request.Request(f"{url}/mcp", data=INITIALIZE.encode(), method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, "", b""
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("WWW-Authenticate", ""), error.read()


def test_with_a_token_only_a_request_bearing_it_is_served_and_origin_checks_still_hold(tmp_path):
    log = tmp_path / "mcp.log"
    # -v: the studio logs at INFO, and still never writes the token.
    with HttpToolServer("-v", *DATA_SERVER, log=log, env={**os.environ, "STUDIO_MCP_TOKEN": TOKEN}) as server:
        status, challenge, body = _refusal(server.url)
        assert status == 401
        assert challenge.startswith("Bearer")
        said = json.loads(body)["error"]["message"]
        assert "Authorization: Bearer" in said and said.count(". ") == 0 and said.endswith(".")
        assert _post(server.url, {"Authorization": "Bearer wrong-token"}) == 401
        assert _post(server.url, {"Authorization": f"Basic {TOKEN}"}) == 401
        assert _post(server.url, {"Authorization": f"Bearer {TOKEN}x"}) == 401
        assert _post(server.url, {"Authorization": f"Bearer {TOKEN}"}) == 200
        assert _post(server.url, {"Authorization": f"Bearer {TOKEN}", "Origin": "http://evil.example"}) == 403
        assert _post(server.url, {"Authorization": f"Bearer {TOKEN}", "Host": "evil.example"}) == 421
        assert _post(server.url, {"Origin": "http://evil.example"}) == 401  # the token is asked for first
        health = urllib.request.Request(f"{server.url}/health", headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(health, timeout=10) as answer:
            assert json.loads(answer.read())["ok"] is True
    text = log.read_text()
    assert "STUDIO_MCP_TOKEN" in text  # it said where the token comes from …
    assert TOKEN not in text  # … and never wrote the token


def test_without_the_variable_a_token_is_made_printed_once_and_required(tmp_path):
    log = tmp_path / "mcp.log"
    env = {name: value for name, value in os.environ.items() if name != "STUDIO_MCP_TOKEN"}
    with HttpToolServer(*DATA_SERVER, log=log, env=env) as server:
        printed = re.findall(r"Authorization: Bearer (\S+)", log.read_text())
        assert len(printed) == 1 and len(printed[0]) >= 32
        assert _post(server.url, {}) == 401
        assert _post(server.url, {"Authorization": f"Bearer {printed[0]}"}) == 200
    with HttpToolServer(*DATA_SERVER, log=tmp_path / "again.log", env=env) as server:
        again = re.findall(r"Authorization: Bearer (\S+)", (tmp_path / "again.log").read_text())
        assert again and again[0] != printed[0]  # a new one each start
        assert _post(server.url, {"Authorization": f"Bearer {printed[0]}"}) == 401


async def test_a_server_open_beyond_loopback_without_a_token_is_warned_about(monkeypatch, capsys):
    import uvicorn
    from mcp.server.mcpserver import MCPServer

    from studio.mcp.http_auth import serve_http

    async def serve(_self: uvicorn.Server) -> None:
        return None

    monkeypatch.setattr(uvicorn.Server, "serve", serve)
    await serve_http(MCPServer("t"), "0.0.0.0", 7001, None)
    warning = capsys.readouterr().err
    assert "anyone who can reach" in warning and "--token" in warning and warning.count("\n") == 1
    for host, token in (("127.0.0.1", None), ("localhost", None), ("::1", None), ("0.0.0.0", TOKEN)):
        await serve_http(MCPServer("t"), host, 7001, token)
        assert capsys.readouterr().err == ""


async def test_studio_runs_mcp_client_sends_the_token_from_the_environment(tmp_path, monkeypatch):
    from studio.scenarios.mcp_client import McpDataTools, McpToolError

    env = {**os.environ, "STUDIO_MCP_TOKEN": TOKEN}
    with HttpToolServer(*DATA_SERVER, log=tmp_path / "mcp.log", env=env) as server:
        monkeypatch.setenv("STUDIO_MCP_TOKEN", TOKEN)
        async with McpDataTools(server.url) as tools:
            assert "data.user.create" in tools.names
        monkeypatch.setenv("STUDIO_MCP_TOKEN", "another-token")
        with pytest.raises(McpToolError, match="wants its token: set STUDIO_MCP_TOKEN"):
            await McpDataTools(server.url).__aenter__()
        monkeypatch.delenv("STUDIO_MCP_TOKEN")
        with pytest.raises(McpToolError, match="wants its token: set STUDIO_MCP_TOKEN"):
            await McpDataTools(server.url).__aenter__()
