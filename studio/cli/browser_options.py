"""The browser options every browser-driving command shares: --headed, --browser-endpoint, --allow-file-urls."""

from __future__ import annotations

import argparse

import sys

from studio.browser.launcher import ENDPOINT_ENV, BrowserEndpoint, BrowserEndpointError, configured_endpoint
from studio.cli.url_flag import add_allow_file_urls

ENDPOINT_HELP = (f"use the browser at this endpoint instead of launching one: a Playwright browser server "
                 f"(ws://HOST:PORT/, from `playwright run-server --unsafe`) or a Chrome DevTools endpoint "
                 f"(http://HOST:9222); default: ${ENDPOINT_ENV}, else Settings")


def add_browser_options(parser: argparse.ArgumentParser) -> None:
    """--headed, --browser-endpoint and --allow-file-urls (the URL policy's opt-in)."""
    parser.add_argument("--headed", action="store_true", help="show the Chromium window (needs a display)")
    parser.add_argument("--browser-endpoint", metavar="URL", help=ENDPOINT_HELP)
    add_allow_file_urls(parser)


def browser_endpoint(args: argparse.Namespace) -> str | None:
    """The endpoint for this run: the flag, else STUDIO_BROWSER_ENDPOINT, else the one in Settings (None: launch)."""
    from studio.settings import load_settings

    flag = getattr(args, "browser_endpoint", None)
    endpoint = configured_endpoint(flag, None if flag else load_settings().browser_endpoint)
    if endpoint is not None:
        try:
            BrowserEndpoint.parse(endpoint)
        except BrowserEndpointError as error:
            print(f"error: {error}", file=sys.stderr)
            raise SystemExit(2) from None  # bad input: nothing was started
    return endpoint
