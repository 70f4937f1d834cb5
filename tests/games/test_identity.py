"""The game browser presents itself as seed 002 says (user agent 'GameEval TestAgent/1.0', a 1280×720 viewport): what
the page reads in navigator.userAgent and what a server on loopback receives in every request's User-Agent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from aiohttp import web

from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.game.identity import SEED_AGENT, identify, unidentify
from studio.models.browser import SessionOptions
from studio.runtime.live import LivePage

pytestmark = pytest.mark.browser

GAME = """<!doctype html><title>game</title><canvas width=64 height=64></canvas><img src="/sprite.png">
<script>window.fetched = fetch('/api/score').then((reply) => reply.text());</script>"""


@dataclass
class Loopback:
    """A game server on 127.0.0.1 that keeps the User-Agent of every request it receives, by path."""

    url: str = ""
    agents: dict[str, list[str]] = field(default_factory=dict)

    def last(self, path: str) -> str:
        return self.agents[path][-1]


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[Loopback]:
    seen = Loopback()

    async def answer(request: web.Request) -> web.Response:
        seen.agents.setdefault(request.path, []).append(request.headers.get("User-Agent", ""))
        if request.path == "/game":
            return web.Response(text=GAME, content_type="text/html")
        return web.Response(text="0")

    app = web.Application()
    app.router.add_get("/{path:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    seen.url = f"http://127.0.0.1:{port}"
    yield seen
    await runner.cleanup()


async def started(viewport: tuple[int, int] = (1280, 720)) -> BrowserSession:
    session = BrowserSession(EventBus(), SessionOptions(viewport=viewport))
    await session.start()
    return session


async def play(session: BrowserSession, server: Loopback) -> str:
    """Open the game and wait for its requests; the page's navigator.userAgent."""
    await session.goto(server.url + "/game")
    await session.page.evaluate("window.fetched")
    return await session.page.evaluate("navigator.userAgent")


async def test_the_game_page_and_its_requests_say_they_are_the_seeds_test_agent(browser_info, server):
    session = await started()
    try:
        live = LivePage(session)
        own = await session.page.evaluate("navigator.userAgent")
        identity = await identify(live)
        assert identity.user_agent == f"{own} GameEval TestAgent/1.0" and identity.own_user_agent == own
        assert identity.viewport == (1280, 720) and identity.seed_viewport and identity.note() is None

        assert await play(session, server) == identity.user_agent
        for path in ("/game", "/sprite.png", "/api/score"):  # the navigation, a subresource, a fetch
            assert server.last(path) == identity.user_agent, path
        assert own.startswith("Mozilla/5.0") and "Chrome/" in own  # appended to the browser's, not replacing it

        again = await identify(live)  # a second run on the same page: the name is not appended twice
        assert again.user_agent == identity.user_agent and again.own_user_agent == own
        await session.reload()
        assert server.last("/game") == identity.user_agent and server.last("/game").count(SEED_AGENT) == 1

        await unidentify(live)  # the tester goes on with the page as it was
        assert await play(session, server) == own
        assert server.last("/game") == own
    finally:
        await session.close()


async def test_a_live_browser_of_another_size_is_reported_not_resized(browser_info, server):
    session = await started(viewport=(1366, 768))
    try:
        identity = await identify(LivePage(session))
        assert identity.viewport == (1366, 768) and not identity.seed_viewport
        assert "1366×768" in (identity.note() or "") and "1280×720" in (identity.note() or "")
        assert await session.page.evaluate("[innerWidth, innerHeight]") == [1366, 768]
        assert (await play(session, server)).endswith(" GameEval TestAgent/1.0")
    finally:
        await session.close()
