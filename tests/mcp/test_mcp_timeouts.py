"""A page stuck in a busy loop, through the MCP tools in-process (real Chromium): a typed timeout, never a hang,
and the stuck page is closed so that browser_navigate starts afresh."""

from __future__ import annotations

import asyncio
import json

import pytest

from studio.mcp.tools import BrowserTools
from studio.toolbelt import BrowserContexts
from tests.race import pages
from tests.race.conftest import ref_of

pytestmark = pytest.mark.browser


async def call(tool, **arguments):
    result = await tool(**arguments)
    payload = json.loads(result.content[0].text)
    assert result.is_error == (isinstance(payload, dict) and "error" in payload), payload
    return payload


async def freeze(tools: BrowserTools, url: str) -> str:
    """Open the busy page, start its loop with a click, and return the ref of its other button."""
    await call(tools.browser_navigate, url=url, browserContext="default")
    text = (await call(tools.browser_snapshot, browserContext="default"))["text"]
    assert (await call(tools.browser_click, ref=ref_of(text, '"Freeze"'), browserContext="default"))["clicked"]
    await asyncio.sleep(0.2)  # the loop starts 50 ms after the click
    return ref_of(text, '"Other"')


async def test_a_check_on_a_stuck_page_times_out_and_navigation_opens_a_fresh_page(static_pages, fleet):
    contexts = BrowserContexts(fleet)
    tools = BrowserTools(contexts)
    try:
        other = await freeze(tools, static_pages.url("/busy", pages.BUSY))
        contexts.page_timeout_s = contexts.get("default").driver.race.world.timeout_s = 1  # not 10 s, in a test
        stuck = await call(tools.browser_snapshot, browserContext="default")
        assert stuck == {"error": {"type": "timeout", "message": (
            "browser_snapshot gave up after 1 s: the page did not answer (a script on it may be stuck in a busy "
            "loop). That page was closed; call browser_navigate with browserContext 'default' to open a fresh one.")}}
        assert (await call(tools.browser_click, ref=other, browserContext="default"))["error"]["type"] \
            == "context_closed"
        reopened = await call(tools.browser_navigate, url=static_pages.url("/calm", "<button>Fine</button>"),
                              browserContext="default")
        assert reopened["ok"] and reopened["status"] == 200
        assert 'button "Fine"' in (await call(tools.browser_snapshot, browserContext="default"))["text"]
    finally:
        await contexts.close()


async def test_a_tool_past_its_time_limit_answers_timeout(static_pages, fleet):
    contexts = BrowserContexts(fleet, page_timeout_s=30)  # the tool's own limit is the one that strikes
    tools = BrowserTools(contexts)
    try:
        other = await freeze(tools, static_pages.url("/busy-again", pages.BUSY))
        tools.belt.tool_timeout_s = 1  # only now: launching the browser alone may take longer than that
        stuck = await call(tools.browser_click, ref=other, browserContext="default")
        assert stuck["error"]["type"] == "timeout"
        assert stuck["error"]["message"].startswith("browser_click gave up after 1 s: the page did not answer")
    finally:
        await contexts.close()
