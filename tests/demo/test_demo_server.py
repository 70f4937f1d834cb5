"""Starting and stopping the demo app: on the caller's loop, on a background thread, and via serve_forever."""

from __future__ import annotations

import asyncio
import re

import aiohttp
import pytest

from studio.demo.config import DemoConfig
from studio.demo.server import DemoServer, DemoServerThread, serve_forever


async def health(base_url: str) -> int:
    async with aiohttp.ClientSession() as session:
        async with session.get(base_url + "/_data/health") as response:
            return response.status


async def test_demo_server_runs_on_the_callers_loop():
    server = DemoServer(config=DemoConfig(seed=11))
    base_url = await server.start()
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", base_url) and server.base_url == base_url
        assert server.port != 0
        assert await health(base_url) == 200
        assert server.state.config.seed == 11
    finally:
        await server.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        await health(base_url)


async def test_serve_forever_prints_the_url_and_stops_when_cancelled(capsys):
    task = asyncio.create_task(serve_forever("127.0.0.1", 0))
    for _ in range(100):
        await asyncio.sleep(0.02)
        match = re.search(r"http://127\.0\.0\.1:\d+", capsys.readouterr().out)
        if match:
            break
    assert match, "serve_forever printed its URL"
    assert await health(match.group(0)) == 200
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    with pytest.raises(aiohttp.ClientConnectionError):
        await health(match.group(0))


async def test_serve_forever_says_how_to_sign_in_and_the_code_it_points_to_signs_in(capsys):
    task = asyncio.create_task(serve_forever("127.0.0.1", 0))
    printed = ""
    try:
        for _ in range(100):
            await asyncio.sleep(0.02)
            printed += capsys.readouterr().out
            if "authenticator" in printed:
                break
        base_url = re.search(r"http://127\.0\.0\.1:\d+", printed).group(0)
        assert f"{base_url}/login as demo@example.com, password Password123!" in printed
        code_url = re.search(r"curl (\S+/otp)", printed).group(1)
        async with aiohttp.ClientSession() as session:
            async with session.get(code_url) as reply:
                code = await reply.json()
            assert code["email"] == "totp@example.com" and re.fullmatch(r"\d{6}", code["otp"])
            login = {"email": "totp@example.com", "password": "Password123!"}
            async with session.post(base_url + "/_data/login", json=login) as refused:
                assert refused.status == 400  # the account asks for its code
            async with session.post(base_url + "/_data/login", json={**login, "otp": code["otp"]}) as signed_in:
                assert signed_in.status == 200
            async with session.get(base_url + "/login") as page:
                hint = await page.text()
            assert "Demo account" in hint and "demo@example.com" in hint and "/_data/users/totp@example.com/otp" in hint
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


def test_thread_server_context_manager_and_reset_to_its_own_defaults():
    with DemoServerThread(config=DemoConfig(seed=3, game_fault="console_errors")) as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        server.configure(seed=4)
        assert server.state.config.seed == 4
        server.reset()
        assert server.state.config == DemoConfig(seed=3, game_fault="console_errors")
    with pytest.raises(RuntimeError, match="not running"):
        server.create_user()


def test_a_taken_port_is_reported():
    with DemoServerThread() as first:
        port = int(first.base_url.rsplit(":", 1)[1])
        with pytest.raises(OSError):
            DemoServerThread(port=port).start()
