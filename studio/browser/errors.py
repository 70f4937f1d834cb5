"""Browser errors a user can act on: each message is a sentence with a next step, never a stack trace."""

from __future__ import annotations

import re


class BrowserError(RuntimeError):
    """A browser operation failed; str() is a user-facing sentence."""


class SessionClosedError(BrowserError):
    """The operation needs a live session, but the session has ended."""


class NavigationError(BrowserError):
    """The page could not be opened at the requested URL."""


class PageUnresponsive(BrowserError):
    """The page stopped answering (a script stuck in a loop); the next step is a fresh page."""

    def __init__(self, url: str, what: str, seconds: float) -> None:
        super().__init__(f"The page at {url} did not answer within {seconds:g} s while {what}: a script on it may be "
                         "stuck in a loop. That page was skipped.")
        self.url = url


def first_line(error: BaseException) -> str:
    """The first line of an error's text (Playwright appends call logs below it), or its type name."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


_NET_ERRORS = {
    "ERR_CONNECTION_REFUSED": "nothing answers at that address (connection refused)",
    "ERR_NAME_NOT_RESOLVED": "the host name could not be resolved",
    "ERR_ADDRESS_UNREACHABLE": "the address is unreachable",
    "ERR_CONNECTION_RESET": "the connection was reset by the server",
    "ERR_CONNECTION_TIMED_OUT": "the connection timed out",
    "ERR_INTERNET_DISCONNECTED": "there is no network connection",
    "ERR_CERT_": "the site's TLS certificate was rejected",
    "ERR_SSL_": "the secure connection failed",
    "ERR_EMPTY_RESPONSE": "the server closed the connection without answering",
    "ERR_ABORTED": "the navigation was interrupted by another navigation",
    "ERR_INVALID_URL": "it is not a valid URL",
    "ERR_UNSAFE_PORT": "the browser refuses that port (it is reserved for another protocol)",
    "ERR_BLOCKED_BY_CLIENT": "the browser blocked the request",
}


def describe_navigation_failure(url: str, error: Exception) -> BrowserError:
    """Turn a Playwright navigation failure into a NavigationError a tester can act on."""
    text = str(error)
    reason = None
    for code, sentence in _NET_ERRORS.items():
        if code in text:
            reason = sentence
            break
    if reason is None and "invalid URL" in text:
        reason = "it is not a valid URL"
    if reason is None and re.search(r"Timeout \d+ms exceeded", text):
        reason = "the page did not finish loading in time"
    if reason is None and ("Target page, context or browser has been closed" in text or "Target closed" in text):
        return SessionClosedError(
            f"Could not open {url}: the browser session has ended. Start a new session and try again."
        )
    if reason is None:
        reason = first_line(error).removeprefix("Page.goto: ")
    return NavigationError(
        f"Could not open {url}: {reason}. Check that the app is running and the URL is right."
    )
