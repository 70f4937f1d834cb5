"""Shared fixtures: the demo app on a free loopback port, one real Chromium per test session, a fresh page per test."""

from __future__ import annotations

import asyncio
import os
import tempfile

import pytest

from studio.browser.discovery import find_browser, launch_args

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Keep the studio's settings and untitled projects out of the real home folder.
_HOME = tempfile.mkdtemp(prefix="studio-tests-")
os.environ["STUDIO_CONFIG_DIR"] = os.path.join(_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")


@pytest.fixture(scope="session")
def demo_server():
    """The embedded demo app, served from a background thread for the whole test session."""
    from studio.demo.server import DemoServerThread

    with DemoServerThread() as server:
        yield server


@pytest.fixture
def demo(demo_server):
    """The demo app with its state and knobs reset to defaults before the test."""
    demo_server.reset()
    return demo_server


@pytest.fixture(scope="session")
def browser_info():
    return find_browser()


@pytest.fixture(scope="session")
async def playwright_driver():
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
async def browser(playwright_driver, browser_info):
    """One real Chromium for the whole session; each test gets its own context."""
    instance = await playwright_driver.chromium.launch(
        executable_path=browser_info.path, args=launch_args(), headless=True
    )
    yield instance
    await instance.close()


@pytest.fixture
async def context(browser):
    ctx = await browser.new_context(viewport={"width": 1280, "height": 720})
    yield ctx
    await ctx.close()


@pytest.fixture
async def page(context):
    return await context.new_page()


@pytest.fixture
def qloop(qapp):
    """A qasync loop on the test's QApplication, as the GUI runs; run coroutines with `qloop.run_until_complete`."""
    import qasync

    qapp.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    asyncio.set_event_loop(None)
    loop.close()
