"""Seed 004's arguments as the seed writes them, spoken with the SDK's own client: the MCP-Data tools take them at the
top level (`params` still works), every tool of both studio servers refuses an argument it does not take with a
sentence naming it (never dropping it silently), and auth.impersonate gives a token the demo app accepts. No browser:
a refused call never reaches the browser tools."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.conftest import McpServer
from tests.mcp.http_servers import HttpToolServer

DATA_TAKES = {"data.user.create": ["plan", "requires2FA", "email", "password", "role", "params"],
              "data.user.login": ["email", "password", "otp", "params"], "data.user.get": ["userId", "email", "params"],
              "data.reset": ["tenant", "scope", "params"], "data.flags.set": ["flag", "value", "userId", "params"],
              "data.clock.freeze": ["timestamp", "params"], "auth.impersonate": ["userId", "params"]}


async def answer(client: Client, tool: str, arguments: dict) -> dict:
    result = await client.call_tool(tool, arguments)
    payload = json.loads(result.content[0].text)
    assert result.is_error == ("error" in payload), payload
    return payload


def http(url: str, token: str | None = None, cookie: str | None = None, body: dict | None = None) -> tuple[int, dict]:
    """GET (or POST `body` to) `url` with a bearer token or a session cookie; (status, JSON or {"location"})."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if cookie:
        headers["Cookie"] = f"demo_session={cookie}"
    data = None if body is None else json.dumps(body).encode()
    if data is not None:
        headers["Content-Type"] = "application/json"

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, data=data, headers=headers), timeout=10) as reply:
            text = reply.read()
            return reply.status, json.loads(text) if reply.headers.get_content_type() == "application/json" else {}
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, {"location": error.headers.get("Location")}


@pytest.mark.timeout(90)
async def test_the_data_tools_take_the_seeds_arguments_and_refuse_unknown_ones(demo, tmp_path):
    with HttpToolServer("mcp", "--data-tools", "--app-url", demo.base_url, log=tmp_path / "data.log") as server:
        async with Client(streamable_http_client(f"{server.url}/mcp")) as client:
            listed = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
            for tool, takes in DATA_TAKES.items():
                assert list(listed[tool]["properties"]) == takes
                assert listed[tool]["additionalProperties"] is False
            # The seed's call, as the seed writes it: a premium user with two-factor sign-in.
            user = await answer(client, "data.user.create", {"plan": "premium", "requires2FA": True})
            assert (user["plan"], user["requires2FA"]) == ("premium", True) and user["otpSecret"]
            assert (await answer(client, "data.user.get", {"userId": user["userId"]}))["user"]["email"] == \
                user["email"]
            # The studio's earlier form still works; a top-level value wins over it.
            free = await answer(client, "data.user.create", {"params": {"plan": "free", "requires2FA": True},
                                                             "requires2FA": False})
            assert (free["plan"], free["requires2FA"], free["otpSecret"]) == ("free", False, None)
            # An argument a tool does not take is refused by name, at the top level and in params.
            wrong = await answer(client, "data.user.create", {"plan": "plus", "colour": "red"})
            assert wrong["error"] == {"type": "bad_input", "message": "data.user.create does not take 'colour'; it "
                                      "takes plan, requires2FA, email, password, role, params."}
            nested = await answer(client, "data.user.create", {"params": {"colour": "red"}})
            assert "does not take 'colour'; it takes plan, requires2FA, email" in nested["error"]["message"]
            for tool in DATA_TAKES:
                refused = await answer(client, tool, {"bogus": 1})
                assert refused["error"]["message"].startswith(f"{tool} does not take 'bogus'; it takes "), refused
            # Nothing was created by the refused calls: only the two users above (and the two built-in ones).
            flags = await answer(client, "data.flags.set", {"flag": "new_cta_labels", "value": True})
            assert flags["ok"] is True
            assert (await answer(client, "data.clock.freeze", {"timestamp": 1_700_000_000_000}))["ok"] is True
            assert (await answer(client, "data.reset", {"tenant": "qa"}))["ok"] is True


@pytest.mark.timeout(90)
async def test_auth_impersonate_gives_a_token_the_demo_accepts(demo, tmp_path):
    with HttpToolServer("mcp", "--data-tools", "--app-url", demo.base_url, log=tmp_path / "data.log") as server:
        async with Client(streamable_http_client(f"{server.url}/mcp")) as client:
            user = await answer(client, "data.user.create", {"plan": "premium", "requires2FA": True})
            token = (await answer(client, "auth.impersonate", {"userId": user["userId"]}))["token"]
            # No password and no one-time code: the demo's API and its pages take the token as that user's session.
            status, me = http(f"{demo.base_url}/api/me", token=token)
            assert status == 200 and me["user"]["email"] == user["email"]
            status, page = http(f"{demo.base_url}/credit-report", cookie=token)
            assert status == 200, page  # not a redirect to the sign-in page
            assert http(f"{demo.base_url}/credit-report")[1]["location"].startswith("/login")
            missing = await answer(client, "auth.impersonate", {"userId": "usr_nobody"})
            assert missing["error"]["type"] == "data" and "404" in missing["error"]["message"]
            # The app's own route: a signed-in admin may impersonate, anyone else may not.
            admin = await answer(client, "data.user.get", {"email": "admin@example.com"})
            admin_token = (await answer(client, "data.user.login", {"email": "admin@example.com",
                                                                    "password": admin["user"]["password"]}))["token"]
            status, issued = http(f"{demo.base_url}/api/admin/impersonate", token=admin_token,
                                  body={"userId": user["userId"]})
            assert status == 200 and issued["impersonatedBy"]["email"] == "admin@example.com"
            assert http(f"{demo.base_url}/api/me", token=issued["token"])[1]["user"]["userId"] == user["userId"]
            status, refused = http(f"{demo.base_url}/api/admin/impersonate", token=token,
                                   body={"userId": admin["user"]["userId"]})
            assert status == 403 and "only an admin" in refused["error"]


@pytest.mark.timeout(90)
async def test_every_web_tool_refuses_an_argument_it_does_not_take(demo, tmp_path):
    with HttpToolServer("mcp", "--web-tools", "--app-url", demo.base_url, log=tmp_path / "web.log") as server:
        async with Client(streamable_http_client(f"{server.url}/mcp")) as client:
            listed = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
            assert len(listed) == 11
            for tool, schema in listed.items():
                refused = await answer(client, tool, {"colour": "red"})
                takes = ", ".join(schema.get("properties", {})) or "no arguments"
                assert refused["error"] == {"type": "bad_input",
                                            "message": f"{tool} does not take 'colour'; it takes {takes}."}
            assert "nodeId" in (await answer(client, "ui.act.click", {"node": "login-button"}))["error"]["message"]


@pytest.mark.timeout(90)
async def test_the_browser_tools_of_studio_mcp_refuse_unknown_arguments_too(tmp_path):
    server = await McpServer(log_path=tmp_path / "mcp.log").start()
    try:
        listed = {tool.name: tool.input_schema for tool in (await server.client.list_tools()).tools}
        for tool, schema in listed.items():
            assert schema["additionalProperties"] is False
            refused = await server.call(tool, browserContext="default", colour="red")
            assert refused["error"]["type"] == "bad_input"
            assert refused["error"]["message"].startswith(f"{tool} does not take 'colour'; it takes ")
    finally:
        await server.stop()
