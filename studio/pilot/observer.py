"""observation.json (seed 003's Observer): what the page shows, what it logged and requested since the last
observation, and how the last batch went.

The seed's fields keep their names and shapes; ours come under their own keys (progress, lastBatch, warnings, error).
Console messages and requests are collected by page listeners attached when the session starts.
"""

from __future__ import annotations

import base64
import time
from pathlib import Path
from typing import Any, Literal

from playwright.async_api import ConsoleMessage, Page, Request, Response
from playwright.async_api import Error as PlaywrightError

LOG_LIMIT = 100  # console messages and requests per observation (the newest are kept)
VISIBLE_LINES, VISIBLE_CHARS, LABEL_LIMIT = 80, 4_000, 60

# The labels a model reads: button text or aria-label, a field's label, placeholder or name, link text; and the
# visible text as lines (innerText: hidden steps, scripts and styles say nothing).
DOM_STATE_JS = """([lines, chars, limit]) => {
  const clean = (t) => (t || '').replace(/\\s+/g, ' ').trim();
  const shown = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const labels = (selector, label) => [...new Set([...document.querySelectorAll(selector)].filter(shown)
    .map(label).map(clean).filter(Boolean))].slice(0, limit);
  const buttons = labels('button, [role=button], input[type=submit], input[type=button], input[type=reset]',
    (el) => clean(el.innerText || el.value) || el.getAttribute('aria-label') || el.title);
  const inputs = labels('input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]), textarea, '
    + 'select, [contenteditable=true], [role=textbox], [role=combobox]',
    (el) => (el.labels && el.labels[0] && clean(el.labels[0].innerText)) || el.getAttribute('aria-label')
      || el.getAttribute('placeholder') || el.getAttribute('name') || el.id);
  const links = labels('a[href]', (el) => clean(el.innerText) || el.getAttribute('aria-label') || el.title);
  const text = [];
  let used = 0;
  for (const line of (document.body ? document.body.innerText : '').split('\\n')) {
    const item = clean(line);
    if (!item) continue;
    if (text.length >= lines || used + item.length > chars) break;
    text.push(item); used += item.length;
  }
  return { title: document.title, buttons, inputs, links, visibleText: text };
}"""

PERFORMANCE_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const ms = (v) => (v && v > 0 ? Math.round(v) : null);
  return { pageLoadTime: ms(nav && nav.loadEventEnd), domContentLoaded: ms(nav && nav.domContentLoadedEventEnd),
           firstContentfulPaint: ms(paint && paint.startTime) };
}"""


def now_ms() -> int:
    return int(time.time() * 1000)


class PageLog:
    """Console messages and finished requests of one page since the last `drain()`."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[dict[str, Any]] = []
        self.network: list[dict[str, Any]] = []
        self._started: dict[Request, float] = {}
        self._status: dict[Request, int] = {}
        page.on("console", self._on_console)
        page.on("pageerror", self._on_page_error)
        page.on("request", self._on_request)
        page.on("response", self._on_response)
        page.on("requestfinished", self._on_finished)
        page.on("requestfailed", self._on_failed)

    def detach(self) -> None:
        for event, handler in (("console", self._on_console), ("pageerror", self._on_page_error),
                               ("request", self._on_request), ("response", self._on_response),
                               ("requestfinished", self._on_finished), ("requestfailed", self._on_failed)):
            self.page.remove_listener(event, handler)

    def _on_console(self, message: ConsoleMessage) -> None:
        self.console.append({"type": message.type, "text": message.text, "timestamp": now_ms()})

    def _on_page_error(self, error: Exception) -> None:
        self.console.append({"type": "error", "text": f"Uncaught {error}", "timestamp": now_ms()})

    def _on_request(self, request: Request) -> None:
        if not request.url.startswith(("data:", "blob:")):
            self._started[request] = time.monotonic()

    def _on_response(self, response: Response) -> None:
        self._status[response.request] = response.status

    def _on_finished(self, request: Request) -> None:
        self._end(request, None)

    def _on_failed(self, request: Request) -> None:
        self._end(request, request.failure or "failed")

    def _end(self, request: Request, failure: str | None) -> None:
        started = self._started.pop(request, None)
        if started is None:
            return
        entry: dict[str, Any] = {"url": request.url, "method": request.method,
                                 "status": self._status.pop(request, 0),
                                 "duration": round((time.monotonic() - started) * 1000)}
        if failure:
            entry["failure"] = failure
        self.network.append(entry)

    def drain(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The console messages and requests since the last drain (the newest LOG_LIMIT of each)."""
        console, network = self.console[-LOG_LIMIT:], self.network[-LOG_LIMIT:]
        self.console, self.network = [], []
        return console, network


def new_errors(console: list[dict[str, Any]], network: list[dict[str, Any]]) -> dict[str, int]:
    """The seed's quick count: console errors, and requests that failed or were answered 4xx/5xx."""
    return {"consoleErrors": sum(item["type"] == "error" for item in console),
            "networkErrors": sum(bool(item.get("failure")) or item["status"] >= 400 for item in network)}


async def dom_state(page: Page) -> dict[str, Any]:
    """The seed's domState; an empty one (with the reason in the title) when the page cannot be read right now."""
    try:
        return await page.evaluate(DOM_STATE_JS, [VISIBLE_LINES, VISIBLE_CHARS, LABEL_LIMIT])
    except PlaywrightError as error:
        return {"title": "", "buttons": [], "inputs": [], "links": [],
                "visibleText": [f"(the page could not be read: {str(error).splitlines()[0]})"]}


async def performance(page: Page) -> dict[str, int | None]:
    try:
        return await page.evaluate(PERFORMANCE_JS)
    except PlaywrightError:
        return {"pageLoadTime": None, "domContentLoaded": None, "firstContentfulPaint": None}


async def screenshot(page: Page, folder: Path, step: int, mode: Literal["path", "base64"]) -> str | None:
    """Save `screenshots/step-N-<ms>.png`; the observation names it by that relative path, or carries it in base64.
    None when the page cannot be captured (the caller warns)."""
    name = f"step-{step}-{now_ms()}.png"
    try:
        data = await page.screenshot()
    except PlaywrightError:
        return None
    (folder / "screenshots").mkdir(exist_ok=True)
    (folder / "screenshots" / name).write_bytes(data)
    return base64.b64encode(data).decode("ascii") if mode == "base64" else f"screenshots/{name}"
