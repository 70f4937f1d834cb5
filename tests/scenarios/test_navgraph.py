"""The crawl that builds the navigation graph, on the embedded demo with a real Chromium: the public crawl follows
links to the pages they land on (a link into the signed-in area lands on the sign-in page, so it is no edge); a
signed-in crawl adds the pages behind the sign-in and only their edges; buttons that navigate are found; the limits
hold; a crawl that reaches nothing says so."""

from __future__ import annotations

from collections import deque

import aiohttp
import pytest

from studio.browser.contexts import ContextOptions
from studio.scenarios.navgraph import Crawler, CrawlError, CrawlLimits, crawl, path_of

pytestmark = pytest.mark.browser


def reachable(edges: set[tuple[str, str]], start: str) -> set[str]:
    seen, queue = {start}, deque([start])
    while queue:
        page = queue.popleft()
        for a, b in edges:
            if a == page and b not in seen:
                seen.add(b)
                queue.append(b)
    return seen


async def signed_in_state(demo, browser, tmp_path) -> str:
    """A storage state signed in as a new demo user (the demo's data login, its session cookie)."""
    user = demo.create_user()
    async with aiohttp.ClientSession() as http, http.post(
            f"{demo.base_url}/_data/login", json={"email": user["email"], "password": user["password"]}) as answer:
        token = (await answer.json())["token"]
    context = await browser.new_context()
    await context.add_cookies([{"name": "demo_session", "value": token, "url": demo.base_url}])
    path = tmp_path / "state.json"
    await context.storage_state(path=str(path))
    await context.close()
    return str(path)


@pytest.mark.timeout(240)
@pytest.mark.slow
async def test_the_public_and_the_signed_in_crawl_find_the_demos_pages_and_edges(demo, browser, runtime, tmp_path):
    start = demo.base_url + "/login"
    public = await crawl(runtime.open_page, demo.base_url, [start], CrawlLimits(seconds=90))
    home = path_of(start)
    assert len(public.pages) >= 4 and len(public.edges) >= len(public.pages) - 1
    assert all(a in public.pages and b in public.pages and a != b for a, b in public.edges)
    assert reachable(public.edges, home) == public.pages  # every page found is reachable from the start
    # links into the signed-in area landed elsewhere: they are gated, and their pages are not in the public graph
    behind = {path_of(url) for url in public.gated}
    assert len(behind) >= 3 and not behind & public.pages
    assert public.sources == ["crawl"] and " page" in public.note

    state = await signed_in_state(demo, browser, tmp_path)
    signed = await crawl(runtime.open_page, demo.base_url, sorted(public.gated), CrawlLimits(seconds=90), storage_state=state,
                         public=set(public.pages))
    assert behind <= signed.pages  # the pages behind the sign-in are reached now
    assert signed.edges and not {a for a, _ in signed.edges} & public.pages  # public pages keep their public edges
    both = public.edges | signed.edges
    first = min(behind)
    assert reachable(both, first) >= behind  # the signed-in area is connected
    assert signed.sources == ["signed-in crawl"]


@pytest.mark.timeout(120)
async def test_a_button_that_navigates_is_an_edge(demo, browser, runtime, tmp_path):
    state = await signed_in_state(demo, browser, tmp_path)
    crawler = Crawler(runtime.open_page, demo.base_url, CrawlLimits(seconds=60, buttons_per_page=12),
                      storage_state=state)
    crawler.deadline = float("inf")
    page = await runtime.open_page(ContextOptions(storage_state=state))
    try:
        home = demo.base_url + "/dashboard"  # the signed-in home page: a hub of tiles and buttons
        await page.navigate(home)
        here = path_of(page.url)
        found = await crawler._buttons(page, page.url, here)
    finally:
        await page.close()
    assert found and here not in found and all(p.startswith("/") for p in found)


@pytest.mark.timeout(120)
async def test_the_limits_hold(demo, runtime):
    crawler = Crawler(runtime.open_page, demo.base_url, CrawlLimits(pages=4, seconds=60))
    graph = await crawler.run([demo.base_url + "/help"])
    assert crawler.loads <= 4 and 1 <= len(graph.pages) <= 4
    shallow = await crawl(runtime.open_page, demo.base_url, [demo.base_url + "/help"], CrawlLimits(depth=1, seconds=60,
                                                                                          buttons_per_page=0))
    assert {a for a, _ in shallow.edges} == {"/help"}  # depth 1: only the start page's links are followed


@pytest.mark.timeout(60)
async def test_a_crawl_that_reaches_nothing_says_why(runtime, unused_tcp_port):
    with pytest.raises(CrawlError, match="no start page could be loaded"):
        await crawl(runtime.open_page, f"http://127.0.0.1:{unused_tcp_port}", [f"http://127.0.0.1:{unused_tcp_port}/"],
                    CrawlLimits(seconds=20))
