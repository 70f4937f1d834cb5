"""Headed sessions (a real Chromium window, on an Xvfb screen here) and a browser chosen in Settings."""

from __future__ import annotations

import os

import pytest

from studio.browser.discovery import find_browser
from studio.browser.errors import BrowserError
from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.models.browser import SessionOptions
from tests.x_screen import x_screen

pytestmark = [pytest.mark.browser, pytest.mark.own_browser]


@pytest.fixture
def x_display(monkeypatch):
    """A private Xvfb screen as DISPLAY for one test."""
    with x_screen() as display:
        monkeypatch.setenv("DISPLAY", display)
        yield display


async def test_a_headed_session_opens_a_real_window_and_records(demo, x_display):
    session = BrowserSession(EventBus(), SessionOptions(headless=False, viewport=(1024, 640)))
    await session.start()
    try:
        await session.goto(demo.base_url + "/help")
        agent = await session.page.evaluate("navigator.userAgent")
        assert "Headless" not in agent  # a real, windowed Chromium
        size = await session.page.evaluate("[innerWidth, innerHeight]")
        assert size == [1024, 640]
        png = await session.screenshot("headed")
        assert png.startswith(b"\x89PNG") and int.from_bytes(png[16:20], "big") == 1024
    finally:
        await session.close()
    assert not session.alive


async def test_a_browser_chosen_in_settings_is_used_and_a_wrong_one_explained(demo, tmp_path):
    chosen = find_browser().path
    session = BrowserSession(EventBus(), SessionOptions(browser_path=chosen))
    await session.start()
    try:
        assert (session.launcher.info.path, session.launcher.info.source) == (chosen, "settings")
        await session.goto(demo.base_url + "/privacy")
    finally:
        await session.close()
    not_a_browser = tmp_path / "chrome"
    not_a_browser.write_text("#!/bin/sh\nexit 3\n")
    os.chmod(not_a_browser, 0o755)
    with pytest.raises(BrowserError) as refused:
        await BrowserSession(EventBus(), SessionOptions(browser_path=str(not_a_browser))).start()
    assert "Could not start the browser" in str(refused.value) and "studio doctor" in str(refused.value)
