"""browser_navigate follows the studio's one URL policy: file: and data: URLs are a typed bad_input answer unless
`studio mcp` was started with --allow-file-urls, and then a local page really opens."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import McpServer

pytestmark = pytest.mark.browser

PAGE = "<!doctype html><title>Local page</title><button data-testid=local-button>Press me</button>"


@pytest.mark.parametrize("url", ["file:///etc/", "data:text/html,<h1>inline</h1>"])
async def test_navigate_refuses_local_urls_by_default(mcp, url):
    answer = await mcp.call("browser_navigate", url=url, browserContext="policy")
    assert answer["error"]["type"] == "bad_input"
    message = answer["error"]["message"]
    assert "only http and https" in message and "--allow-file-urls" in message
    closed = await mcp.call("browser_snapshot", browserContext="policy")
    assert closed["error"]["type"] == "no_page"  # nothing was opened in that context


async def test_navigate_opens_a_local_page_when_the_server_allows_it(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(PAGE)
    server = await McpServer("--allow-file-urls", log_path=tmp_path / "server.log").start()
    try:
        opened = await server.call("browser_navigate", url=page.as_uri(), browserContext="default")
        assert opened["ok"] is True and opened["url"] == page.as_uri() and opened["title"] == "Local page"
        snapshot = await server.call("browser_snapshot", browserContext="default")
        assert "Press me" in snapshot["text"]
    finally:
        await server.stop()
