"""Shared fixtures: the demo app on a free loopback port, one real Chromium per test session, a fresh page per test."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time

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


# Chromium's switches as Playwright launches it (timers and renderers never throttled in the background, no
# extensions, no first-run or default-browser UI, hover and pointer as on a desktop), plus the studio's own.
PLAYWRIGHT_LIKE_SWITCHES = [
    "--disable-field-trial-config", "--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows",
    "--disable-back-forward-cache", "--disable-breakpad", "--disable-client-side-phishing-detection",
    "--disable-component-extensions-with-background-pages", "--no-default-browser-check", "--disable-default-apps",
    "--disable-dev-shm-usage", "--disable-extensions", "--allow-pre-commit-input", "--disable-hang-monitor",
    "--disable-ipc-flooding-protection", "--disable-popup-blocking", "--disable-prompt-on-repost",
    "--disable-renderer-backgrounding", "--force-color-profile=srgb", "--metrics-recording-only",
    "--password-store=basic", "--use-mock-keychain", "--no-service-autorun", "--enable-automation",
    "--hide-scrollbars", "--mute-audio",
    "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4",
]


class WorkerChromium:
    """A headless Chromium reached at its DevTools endpoint, started again if a test brought it down."""

    def __init__(self, path: str, profile) -> None:
        self.path, self.profile = path, profile
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self.url = ""

    def endpoint(self) -> str:
        if self.process is None or self.process.poll() is not None:
            self._start()
        return self.url

    def _start(self) -> None:
        port_file = self.profile / "DevToolsActivePort"
        port_file.unlink(missing_ok=True)
        self.starts += 1
        self.process = subprocess.Popen(
            [self.path, "--headless", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", *launch_args(), *PLAYWRIGHT_LIKE_SWITCHES, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().strip()):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                pytest.fail(f"the worker's Chromium did not start ({self.path})", pytrace=False)
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{int(port_file.read_text().splitlines()[0])}"

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="session")
def worker_chromium(browser_info, tmp_path_factory):
    """One headless Chromium per test worker, reached at its DevTools endpoint (http://127.0.0.1:PORT).

    Every browser the studio opens in a test marked `browser` connects to it (STUDIO_BROWSER_ENDPOINT, inherited by
    the commands a test starts) instead of launching one: a new context costs a fraction of a second, a launch
    several. A test that needs a browser of its own (headed, crashed, launched as a user's would be) is marked
    `own_browser` and launches as the studio does by default."""
    chromium = WorkerChromium(browser_info.path, tmp_path_factory.mktemp("worker-chromium"))
    chromium.endpoint()
    try:
        yield chromium
    finally:
        chromium.stop()


@pytest.fixture(scope="session")
def worker_playwright_server(browser_info, tmp_path_factory):
    """A Playwright browser server of the worker's own (`playwright launch-server`: one Chromium every connection
    shares), for the exported suites the tests run as their users would: they connect to it instead of each
    launching a Chromium (see `exports_on_the_worker_server`)."""
    config = tmp_path_factory.mktemp("launch-server") / "config.json"
    config.write_text(json.dumps({"executablePath": browser_info.path, "args": launch_args(), "headless": True}))
    process = subprocess.Popen([sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium",
                                "--config", str(config)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, start_new_session=True)
    assert process.stdout is not None
    endpoint = process.stdout.readline().strip()
    if not endpoint.startswith("ws://"):
        process.kill()
        pytest.fail("the worker's Playwright browser server did not start", pytrace=False)
    try:
        yield endpoint
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # the server is a Node.js process under the Python launcher
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture
def exports_on_the_worker_server(worker_playwright_server, monkeypatch):
    """Exported suites run in this test connect to the worker's browser server (PLAYWRIGHT_SERVERS, which the
    exported conftest.py reads) rather than launching a Chromium per run."""
    monkeypatch.setenv("PLAYWRIGHT_SERVERS", worker_playwright_server)


@pytest.fixture(scope="session")
async def playwright_driver():
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
async def browser(playwright_driver, worker_chromium):
    """The worker's Chromium for the whole session; each test gets its own context."""
    instance = await playwright_driver.chromium.connect_over_cdp(worker_chromium.endpoint())
    yield instance
    await instance.close()


@pytest.fixture
async def fleet(browser):
    """The worker's Chromium as the studio's browser fleet (BrowserContexts, runtimes): contexts, never a launch."""
    from studio.browser.fleet import BrowserFleet

    fleet = BrowserFleet.sharing(browser)
    yield fleet
    await fleet.close()


@pytest.fixture
async def context(browser):
    ctx = await browser.new_context(viewport={"width": 1280, "height": 720})
    yield ctx
    await ctx.close()


@pytest.fixture
async def page(context):
    return await context.new_page()


class _LoopErrors(logging.Handler):
    """Collects what would otherwise only be logged while a GUI test runs: exceptions no task awaited (the loop's
    exception handler) and tasks of a TaskOwner that failed."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.errors: list[str] = []

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        error = context.get("exception")
        self.errors.append(f"{context.get('message', 'loop error')}: {error!r}" if error else context["message"])

    def emit(self, record: logging.LogRecord) -> None:
        self.errors.append(record.getMessage() + (f": {record.exc_info[1]!r}" if record.exc_info else ""))


@pytest.fixture
def qloop(qapp):
    """A qasync loop on the test's QApplication, as the GUI runs; run coroutines with `qloop.run_until_complete`.

    An exception in a task nobody awaited, or in a task of the studio's TaskOwner, fails the test at teardown."""
    import qasync

    qapp.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    errors = _LoopErrors()
    loop.set_exception_handler(errors.loop_error)
    owner_log = logging.getLogger("studio.app.tasks")
    owner_log.addHandler(errors)
    try:
        yield loop
    finally:
        owner_log.removeHandler(errors)
        # A window the test left open (a screenshot viewer a double-click opened) would stay the active window for
        # the worker's next tests: Qt hides tooltips and moves focus as windows come and go.
        from PySide6.QtWidgets import QToolTip

        for widget in qapp.topLevelWidgets():
            if widget.isVisible():
                widget.hide()
        QToolTip.hideText()
        qapp.processEvents()
        asyncio.set_event_loop(None)
        loop.close()  # while the QApplication lives; a loop closed by the collector later finds its signals gone
    if errors.errors:
        pytest.fail("errors in the test's asyncio tasks:\n" + "\n".join(errors.errors), pytrace=False)


# Tests are marked from the fixtures they use, so that `-m "not browser and not gui"` is a real fast lane.
BROWSER_FIXTURES = {"browser_info", "worker_chromium", "worker_playwright_server", "exports_on_the_worker_server",
                    "playwright_driver", "browser", "fleet", "context", "page", "browser_server"}
GUI_FIXTURES = {"qapp", "qtbot", "qloop"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & BROWSER_FIXTURES or item.get_closest_marker("own_browser") is not None:
            item.add_marker(pytest.mark.browser)
        if used & GUI_FIXTURES:
            item.add_marker(pytest.mark.gui)
    # The tests marked slow (15 s or more each) go first: the workers start on them together, and the short ones
    # fill in around them, instead of one worker finishing a long test alone at the end of the run.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _no_browser_unless_marked(request, monkeypatch):
    """A test not marked `browser` cannot start a Chromium (in process or in a subprocess it starts): it would make
    the fast lane slow without saying so. Mark it, or use a browser fixture. A test marked `browser` gets the
    worker's Chromium for every browser the studio opens, unless it is marked `own_browser`."""
    if request.node.get_closest_marker("browser") is None:
        monkeypatch.setenv("STUDIO_BROWSER", os.path.join(_HOME, "no-browser-in-unmarked-tests"))
    elif request.node.get_closest_marker("own_browser") is None:
        monkeypatch.setenv("STUDIO_BROWSER_ENDPOINT", request.getfixturevalue("worker_chromium").endpoint())


@pytest.fixture(autouse=True)
def _calm_live_view(monkeypatch):
    """The live view at 15 frames a second in tests (its cap, STUDIO_LIVE_VIEW_FPS): uncapped, each window's
    screencast costs the worker's Chromium most of a core, which the other tests of the machine need. The live-view
    bench and the screencast tests set their own rate."""
    monkeypatch.setenv("STUDIO_LIVE_VIEW_FPS", "15")


@pytest.fixture(autouse=True)
def _own_settings(monkeypatch, tmp_path_factory):
    """Each test reads and writes its own settings file: a test that saves settings (a login state, a browser
    endpoint) cannot change what later tests in the same worker, or the commands they start, run with."""
    monkeypatch.setenv("STUDIO_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
