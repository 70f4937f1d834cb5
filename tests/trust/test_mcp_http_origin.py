"""`studio mcp --http` (issue 21, point 15): a web page in the tester's browser must not drive the studio's tools.
The server listens on loopback and refuses a request whose Host or Origin is not its own (a foreign page's fetch
carries its Origin; a DNS-rebound name carries its Host); a client with no Origin (an MCP client, curl) is served."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

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
