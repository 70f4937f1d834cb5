"""The toolbelt every agent acts through: its answers stay a readable size on huge pages, and text is only typed
into the origins an agent's job is pinned to."""

from __future__ import annotations

import json

from studio.browser.origins import OriginPolicy
from studio.toolbelt import BrowserContexts, SnapshotReply, Toolbelt, ToolError
from tests.mcp.conftest import McpServer
from tests.race.conftest import ref_of


async def test_a_huge_snapshot_comes_in_parts_that_add_up_to_the_whole(hostile, tmp_path, browser_info):
    server = await McpServer(log_path=tmp_path / "server.log").start()
    try:
        await server.call("browser_navigate", url=hostile.app_url + "/big?n=20000", browserContext="default")
        assert server.client is not None
        result = await server.client.call_tool("browser_snapshot", {"browserContext": "default"})
        wire = result.content[0].text
        assert len(wire) < 100_000, f"one answer is {len(wire):,} characters"
        first = json.loads(wire)
        assert first["truncated"] and first["offset"] == 0 and first["refCount"] >= 20_000
        assert f"offset={first['nextOffset']}" in first["note"] and "get_descendants" in first["note"]
        lines = first["text"].splitlines()
        part = first
        while part.get("nextOffset"):
            part = await server.call("browser_snapshot", browserContext="default", offset=part["nextOffset"])
            lines += part["text"].splitlines()
        assert len(lines) == first["totalLines"] and not part["truncated"]
        assert sum('button "Item ' in line for line in lines) == 20_000
    finally:
        await server.stop()


async def test_typing_is_refused_outside_the_pinned_origin(hostile, fleet):
    contexts = BrowserContexts(fleet, pin=OriginPolicy([hostile.app_url]))
    belt = Toolbelt(contexts)
    try:
        await belt.navigate(hostile.other_url + "/login", "default")
        snapshot = await belt.snapshot("default")
        assert isinstance(snapshot, SnapshotReply)
        refused = await belt.type(ref_of(snapshot.text, '"Password"'), "s3cret", "default")
        assert isinstance(refused, ToolError) and refused.error.type == "origin_refused"
        assert hostile.other_url.replace("http://", "") in refused.error.message
        assert hostile.leaks == []

        await belt.navigate(hostile.app_url + "/", "default")
        snapshot = await belt.snapshot("default")
        assert isinstance(snapshot, SnapshotReply)
        typed = await belt.type(ref_of(snapshot.text, '"Email"'), "pat@example.com", "default")
        assert typed.to_json()["typed"] is True
    finally:
        await contexts.close()
