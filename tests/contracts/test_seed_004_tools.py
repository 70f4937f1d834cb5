"""Seed 004's MCP tools, to the letter: every ui.*, session.*, data.* and auth.* tool the seed's two endpoint tables
list is called through the SDK's own client, with the seed's parameter names and argument shapes, on the demo app
(`studio mcp --scenario-tools`, both halves on one server), and each reply is compared with the seed's return shape
field by field (extras allowed); ui.observe's nodes with the seed's UINode. The seed's tables are copied here as
data: a change on either side shows as a failure."""

from __future__ import annotations

from typing import Any

import pyotp
import pytest

from tests.mcp.conftest import McpServer

pytestmark = pytest.mark.browser

# The seed's "MCP-Web Server" and "MCP-Data Server" tables: tool -> (parameters, return fields with their types).
NUMBER = (int, float)
SEED_TOOLS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "ui.navigate": (("url", "waitUntil"), {"ok": bool, "currentUrl": str}),
    "ui.observe": (("viewport",), {"nodes": list, "url": str, "title": str}),
    "ui.query": (("role", "name", "text", "selector"), {"nodes": list}),
    "ui.inspect_tree": (("landmark", "maxDepth"), {"tree": dict}),
    "ui.act.click": (("nodeId", "selector"), {"ok": bool, "traceId": str}),
    "ui.act.type": (("nodeId", "text", "clear"), {"ok": bool, "traceId": str}),
    "ui.act.check": (("nodeId", "checked"), {"ok": bool, "traceId": str}),
    "ui.wait": (("condition", "timeout"), {"ok": bool, "elapsed": NUMBER}),
    "ui.capture.screenshot": (("fullPage",), {"base64": str, "path": str}),
    "session.save": (("name",), {"stateId": str, "path": str}),
    "session.load": (("stateId",), {"ok": bool}),
    "data.user.create": (("plan", "requires2FA", "email"), {"userId": str, "email": str, "password": str,
                                                            "otpSecret": (str, type(None))}),
    "data.user.login": (("email", "password", "otp"), {"token": str, "session": dict}),
    "data.user.get": (("userId", "email"), {"user": dict}),
    "data.reset": (("tenant", "scope"), {"ok": bool}),
    "data.flags.set": (("flag", "value", "userId"), {"ok": bool}),
    "data.clock.freeze": (("timestamp",), {"ok": bool}),
    "auth.impersonate": (("userId",), {"token": str}),
}
# The seed's UINode: required fields with their types, then the optional ones.
UINODE = {"id": str, "role": str, "name": str, "bounds": dict, "enabled": bool, "visible": bool, "focused": bool}
UINODE_OPTIONAL = {"landmark": str, "href": str, "value": str, "checked": bool, "parentId": str, "children": list,
                   "testId": str}
ROLES = {"link", "button", "textbox", "checkbox", "heading", "region"}
LANDMARKS = {"header", "nav", "main", "footer", "complementary"}


def seed_shaped(tool: str, reply: dict) -> dict:
    """Assert `reply` has every field of the seed's return shape for `tool`, each of the seed's type; returns it."""
    assert "error" not in reply, f"{tool}: {reply}"
    for field, kind in SEED_TOOLS[tool][1].items():
        assert field in reply, f"{tool} answered without the seed's {field!r}: {reply}"
        assert isinstance(reply[field], kind), f"{tool}'s {field!r} is {reply[field]!r}"
    if "ok" in SEED_TOOLS[tool][1]:
        assert reply["ok"] is True, f"{tool}: {reply}"
    for node in reply.get("nodes", []):
        uinode(node)
    return reply


def uinode(node: dict) -> None:
    for field, kind in UINODE.items():
        assert isinstance(node.get(field), kind), f"UINode {node.get('id')} has no {field} of the seed's type: {node}"
    assert set(node["bounds"]) == {"x", "y", "w", "h"} and all(isinstance(v, int) for v in node["bounds"].values())
    for field, kind in UINODE_OPTIONAL.items():
        if field in node:
            assert isinstance(node[field], kind), f"UINode {node['id']}'s {field} is {node[field]!r}"
    if "landmark" in node:
        assert node["landmark"] in LANDMARKS
    assert all(isinstance(child, str) for child in node.get("children", []))


async def call(server: McpServer, tool: str, **arguments: Any) -> dict:
    assert set(arguments) <= set(SEED_TOOLS[tool][0]), f"{tool} called with other than the seed's parameters"
    return seed_shaped(tool, await server.call(tool, **arguments))


@pytest.mark.timeout(240)
async def test_the_seeds_tool_calls_give_the_seeds_replies(demo, tmp_path):
    server = await McpServer("--scenario-tools", "--app-url", demo.base_url, log_path=tmp_path / "mcp.log").start()
    try:
        listed = {tool.name: tool.input_schema for tool in (await server.client.list_tools()).tools}
        for tool, (parameters, _returns) in SEED_TOOLS.items():
            assert set(parameters) <= set(listed[tool]["properties"]), f"{tool} lacks a seed parameter"

        # MCP-Data, as the seed's preconditions call it.
        await call(server, "data.reset", tenant="qa")
        await call(server, "data.reset", tenant="qa", scope="flags")
        user = await call(server, "data.user.create", plan="plus", requires2FA=True)
        assert user["otpSecret"] and user["email"].endswith("@example.com")
        named = await call(server, "data.user.create", plan="premium", requires2FA=False,
                           email="contract.user@example.com")
        assert named["email"] == "contract.user@example.com" and named["otpSecret"] is None
        assert (await call(server, "data.user.get", userId=user["userId"]))["user"]["email"] == user["email"]
        assert (await call(server, "data.user.get", email=named["email"]))["user"]["userId"] == named["userId"]
        login = await call(server, "data.user.login", email=user["email"], password=user["password"],
                           otp=pyotp.TOTP(user["otpSecret"]).now())
        assert login["session"]["token"] == login["token"]
        await call(server, "data.flags.set", flag="new_cta_labels", value=True)
        await call(server, "data.flags.set", flag="new_cta_labels", value=False, userId=user["userId"])
        token = (await call(server, "auth.impersonate", userId=named["userId"]))["token"]
        assert token and token != login["token"]

        # MCP-Web, as the seed's agent loop and its system prompt call it.
        navigated = await call(server, "ui.navigate", url=f"{demo.base_url}/login", waitUntil="load")
        assert navigated["currentUrl"] == f"{demo.base_url}/login"
        observed = await call(server, "ui.observe")
        assert observed["url"] == navigated["currentUrl"] and observed["title"]
        assert {node["role"] for node in observed["nodes"]} <= ROLES  # the seed's roles, on the seed's login page
        assert any(node["role"] == "heading" for node in observed["nodes"])
        assert {"email-input", "password-input", "login-button"} <= {node.get("testId") for node in observed["nodes"]}
        assert (await call(server, "ui.observe", viewport=True))["nodes"]
        buttons = await call(server, "ui.query", role="button", name="Sign in")
        assert [node["testId"] for node in buttons["nodes"]] == ["login-button"]
        assert (await call(server, "ui.query", text="Trouble signing in"))["nodes"][0]["testId"] == "login-help-link"
        assert (await call(server, "ui.query", selector="input[type=password]"))["nodes"][0]["id"] == "password-input"
        await call(server, "ui.inspect_tree")
        await call(server, "ui.inspect_tree", landmark="main", maxDepth=2)
        await call(server, "ui.act.type", nodeId="email-input", text=user["email"])
        await call(server, "ui.act.type", nodeId="password-input", text=user["password"], clear=True)
        await call(server, "ui.act.click", nodeId="login-button")
        await call(server, "ui.wait", condition={"element_visible": {"testId": "otp-input"}}, timeout=10_000)
        await call(server, "ui.act.type", nodeId="otp-input", text=pyotp.TOTP(user["otpSecret"]).now())
        await call(server, "ui.act.click", selector="[data-testid=verify-button]")
        await call(server, "ui.wait", condition={"url_contains": "/dashboard"}, timeout=10_000)
        await call(server, "ui.navigate", url=f"{demo.base_url}/disputes")
        wizard = await call(server, "ui.observe")
        # The wizard's select and radios too have the seed's roles; the precise ARIA role is the studio's ariaRole.
        assert {node["role"] for node in wizard["nodes"]} <= ROLES
        by_test_id = {node.get("testId"): node for node in wizard["nodes"]}
        assert (by_test_id["account-select"]["role"], by_test_id["account-select"]["ariaRole"]) == ("textbox",
                                                                                                  "combobox")
        radios = [node for node in wizard["nodes"] if node.get("testId", "").startswith("reason-")]
        assert radios and all((node["role"], node["ariaRole"]) == ("checkbox", "radio") for node in radios)
        assert len((await call(server, "ui.query", role="checkbox"))["nodes"]) == len(radios)
        reason = radios[0]
        await call(server, "ui.act.check", nodeId=reason["id"], checked=True)
        assert (await call(server, "ui.query", selector=f"[data-testid={reason['testId']}]"))["nodes"][0]["checked"]
        shot = await call(server, "ui.capture.screenshot", fullPage=True)
        assert shot["base64"].startswith("iVBOR") and shot["path"].endswith(".png")
        saved = await call(server, "session.save", name="authenticated")
        assert saved["stateId"] == "authenticated" and saved["path"].endswith(".json")
        await call(server, "session.load", stateId=saved["stateId"])
        assert (await call(server, "ui.navigate", url="/dashboard"))["currentUrl"].endswith("/dashboard")
        await call(server, "data.clock.freeze", timestamp=1_761_904_800_000)  # the seed's 2025-10-31T10:00:00Z
    finally:
        await server.stop()
