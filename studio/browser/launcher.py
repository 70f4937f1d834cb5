"""The one place a Chromium is obtained: launched on this machine, or connected to at a browser endpoint.

Every front end (a session, the MCP contexts, `studio observe`, the benches, the doctor) asks a BrowserLauncher.
With an endpoint (`--browser-endpoint`, STUDIO_BROWSER_ENDPOINT or Settings) it connects instead of launching:
`ws://` / `wss://` addresses are Playwright browser servers (`playwright run-server`), `http://` / `https://`
addresses and `ws://…/devtools/browser/…` are Chrome DevTools (CDP) endpoints.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

from playwright.async_api import Browser, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from studio.browser.discovery import BrowserInfo, BrowserNotFound, find_browser, launch_args
from studio.browser.errors import BrowserError, first_line

log = logging.getLogger(__name__)

ENDPOINT_ENV = "STUDIO_BROWSER_ENDPOINT"
CONNECT_TIMEOUT_MS = 15_000
_SERVER_HINT = "`playwright run-server --host HOST --port PORT --unsafe`"


class BrowserEndpointError(BrowserError):
    """The browser endpoint could not be used; the message says whether it was unreachable or spoke another protocol."""


@dataclass(frozen=True)
class BrowserEndpoint:
    """A remote browser to connect to, and which protocol it speaks."""

    url: str
    protocol: str  # "playwright" (a Playwright browser server) or "cdp" (Chrome DevTools)

    @classmethod
    def parse(cls, text: str) -> BrowserEndpoint:
        """Read an endpoint address; raises BrowserEndpointError for one that cannot be a browser endpoint."""
        url = text.strip()
        parts = urlsplit(url)
        if parts.scheme not in ("ws", "wss", "http", "https") or not parts.hostname:
            raise BrowserEndpointError(
                f"The browser endpoint {text!r} is not a ws://, wss://, http:// or https:// address. Give a "
                f"Playwright browser server (ws://HOST:PORT/, started with {_SERVER_HINT}) or a Chrome DevTools "
                "endpoint (http://HOST:9222), or leave it empty to launch a local browser.")
        cdp = parts.scheme in ("http", "https") or parts.path.startswith("/devtools/")
        return cls(url, "cdp" if cdp else "playwright")

    @property
    def on_this_machine(self) -> bool:
        host = urlsplit(self.url).hostname or ""
        if host == "localhost":
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False


def configured_endpoint(flag: str | None = None, setting: str | None = None,
                        env: Mapping[str, str] | None = None) -> str | None:
    """The endpoint to use: a command-line flag, else STUDIO_BROWSER_ENDPOINT, else the setting; None launches."""
    env = os.environ if env is None else env
    for choice in (flag, env.get(ENDPOINT_ENV), setting):
        if choice and choice.strip():
            return choice.strip()
    return None


class _SharedDriver:
    """One Playwright driver (its Node.js process) per event loop, shared by every launcher on that loop and stopped
    when the last of them closes: starting one costs a second or more, and a studio runs several browsers (the live
    session, the fleet's) in one process."""

    def __init__(self) -> None:
        self._drivers: WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[Playwright, int]] = WeakKeyDictionary()
        self._locks: WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = WeakKeyDictionary()

    async def acquire(self) -> Playwright:
        loop = asyncio.get_running_loop()
        async with self._locks.setdefault(loop, asyncio.Lock()):
            held = self._drivers.get(loop)
            if held is None:
                held = (await async_playwright().start(), 0)
            self._drivers[loop] = (held[0], held[1] + 1)
            return held[0]

    async def release(self, driver: Playwright) -> None:
        loop = asyncio.get_running_loop()
        held = self._drivers.get(loop)
        if held is None or held[0] is not driver:
            await driver.stop()  # not ours to share (a loop that went away meanwhile): stop it
            return
        if held[1] > 1:
            self._drivers[loop] = (driver, held[1] - 1)
            return
        del self._drivers[loop]
        await driver.stop()


_DRIVERS = _SharedDriver()


class BrowserLauncher:
    """Gives one Browser: launched locally, or connected to an endpoint, through the loop's shared Playwright driver.

    `close()` releases both (a connected browser is disconnected; the remote server closes what it launched).
    """

    def __init__(self, headless: bool = True, browser_path: str | None = None, endpoint: str | None = None) -> None:
        self.headless = headless
        self.browser_path = browser_path
        # No endpoint given: STUDIO_BROWSER_ENDPOINT still applies, as it does for every front end.
        self.endpoint_text = endpoint if endpoint is not None else configured_endpoint()
        self.endpoint: BrowserEndpoint | None = None  # parsed by start(), so a bad address is a BrowserError there
        self.info: BrowserInfo | None = None
        self.browser: Browser | None = None
        self._driver: Playwright | None = None

    @property
    def where(self) -> str:
        """Where the browser runs, for sentences and records: an executable path or the endpoint's address."""
        if self.endpoint_text:
            return self.endpoint_text
        return self.info.path if self.info else (self.browser_path or "the local browser")

    async def start(self) -> Browser:
        """Launch or connect; raises BrowserError (BrowserNotFound, BrowserEndpointError) with a next step."""
        if self.browser is not None and self.browser.is_connected():
            return self.browser
        self.endpoint = BrowserEndpoint.parse(self.endpoint_text) if self.endpoint_text else None
        if self.endpoint is None:
            # A chosen path that is gone is BrowserNotFound (the window offers to fetch or choose one), not a launch error.
            self.info = find_browser(chosen=self.browser_path)
            _check_display(self.headless)
        self._driver = self._driver or await _DRIVERS.acquire()
        try:
            self.browser = await (self._connect() if self.endpoint else self._launch())
        except BaseException:
            await self._stop_driver()
            raise
        log.info("Browser ready: %s (%s)", self.where, self.browser.version)
        return self.browser

    async def close(self) -> None:
        """Close (or disconnect from) the browser and stop the driver; idempotent, never raises."""
        browser, self.browser = self.browser, None
        try:
            if browser is not None and browser.is_connected():
                await browser.close()
        except (PlaywrightError, OSError) as error:
            log.warning("Closing the browser failed: %s", first_line(error))
        await self._stop_driver()

    async def __aenter__(self) -> Browser:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- internals -------------------------------------------------------------------------------

    async def _launch(self) -> Browser:
        assert self._driver is not None and self.info is not None
        try:
            return await self._driver.chromium.launch(executable_path=self.info.path, headless=self.headless,
                                                      args=launch_args())
        except PlaywrightError as error:
            raise BrowserError(
                f"Could not start the browser at {self.info.path}: {first_line(error)}. "
                "Run `studio doctor` to check the browser, or choose another one in Settings.") from error

    async def _connect(self) -> Browser:
        assert self._driver is not None and self.endpoint is not None
        endpoint = self.endpoint
        try:
            if endpoint.protocol == "cdp":
                return await self._driver.chromium.connect_over_cdp(endpoint.url, timeout=CONNECT_TIMEOUT_MS)
            headers = {"x-playwright-launch-options": json.dumps(self._remote_launch_options())}
            return await self._driver.chromium.connect(endpoint.url, timeout=CONNECT_TIMEOUT_MS, headers=headers)
        except PlaywrightError as error:
            raise describe_endpoint_failure(endpoint, error) from error

    def _remote_launch_options(self) -> dict[str, object]:
        """What the browser server launches: our flags, and our Chromium when the server runs on this machine."""
        options: dict[str, object] = {"headless": self.headless, "args": launch_args()}
        path = self.browser_path or os.environ.get("STUDIO_BROWSER")
        if not path and self.endpoint is not None and self.endpoint.on_this_machine:
            try:
                path = find_browser().path
            except BrowserNotFound:
                path = None  # the server's own browser, if it has one
        if path:
            options["executablePath"] = path
        return options

    async def _stop_driver(self) -> None:
        driver, self._driver = self._driver, None
        if driver is None:
            return
        try:
            await _DRIVERS.release(driver)
        except (PlaywrightError, OSError) as error:
            log.warning("Stopping the Playwright driver failed: %s", first_line(error))


def describe_endpoint_failure(endpoint: BrowserEndpoint, error: Exception) -> BrowserEndpointError:
    """A sentence for a failed connection: nothing answered, another protocol answered, or the server refused."""
    text = str(error)
    unset = f"or unset {ENDPOINT_ENV} (and the endpoint in Settings) to launch a local browser"
    if any(mark in text for mark in ("ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ECONNRESET", "EAI_AGAIN")) \
            or ("Timeout" in text and "exceeded" in text):
        start = _SERVER_HINT if endpoint.protocol == "playwright" else "`chromium --remote-debugging-port=9222`"
        return BrowserEndpointError(
            f"Nothing answered at the browser endpoint {endpoint.url}. Start the browser there (e.g. {start}), "
            f"check the address, {unset}.")
    if "unsafe" in text.lower() or "not allowed" in text.lower():
        return BrowserEndpointError(
            f"The browser server at {endpoint.url} refused the studio's launch options ({first_line(error)}). "
            f"Start it with --unsafe ({_SERVER_HINT}), {unset}.")
    if "executable doesn't exist" in text.lower():
        return BrowserEndpointError(
            f"The browser server at {endpoint.url} has no browser to launch. Install one on that machine and point "
            f"STUDIO_BROWSER at it (it is passed to the server), {unset}.")
    other = "Chrome DevTools endpoint (http://HOST:9222)" if endpoint.protocol == "playwright" \
        else f"Playwright browser server (ws://HOST:PORT/, started with {_SERVER_HINT})"
    expected = "a Playwright browser server" if endpoint.protocol == "playwright" else "a Chrome DevTools endpoint"
    return BrowserEndpointError(
        f"Something answered at {endpoint.url}, but not as {expected} ({first_line(error)}). If it is a "
        f"{other}, give that address instead; {unset}.")


def _check_display(headless: bool) -> None:
    if headless or not sys.platform.startswith("linux"):
        return
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise BrowserError(
            "A headed browser needs a display, and none is available (DISPLAY is not set). "
            "Switch to headless in Settings, or run the studio under Xvfb (`xvfb-run studio`).")
