"""observation.json (seed 003's Observer): what the page shows, what it logged and requested since the last
observation, and how the last batch went.

The seed's fields keep their names and shapes; ours come under their own keys (progress, lastBatch, warnings, error).
Console messages, page errors and requests come from the driver's traffic watch, followed from the session's start.
"""

from __future__ import annotations

import base64
import time
from pathlib import Path
from typing import Any, Literal

from studio.models.events import ConsoleEvent, EngineEvent, NetworkEvent, PageErrorEvent
from studio.race.driver import PageDriver
from studio.race.errors import RaceError

LOG_LIMIT = 100  # console messages and requests per observation (the newest are kept)
SCREENSHOT_TIMEOUT_MS = 15_000  # a busy page may take a while to paint; past this the observation goes without
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
    """Console messages, uncaught errors and finished requests of one page since the last `drain()`, from the
    typed events of the driver's traffic watch (`driver.watch(log.publish)`)."""

    def __init__(self) -> None:
        self.console: list[dict[str, Any]] = []
        self.network: list[dict[str, Any]] = []

    def publish(self, event: EngineEvent) -> None:
        if isinstance(event, ConsoleEvent):
            self.console.append({"type": event.level, "text": event.text, "timestamp": int(event.at)})
        elif isinstance(event, PageErrorEvent):
            self.console.append({"type": "error", "text": f"Uncaught {event.message}", "timestamp": int(event.at)})
        elif isinstance(event, NetworkEvent):
            # A response without timing came from the memory cache: it took no time on the network.
            entry: dict[str, Any] = {"url": event.url, "method": event.method, "status": event.status or 0,
                                     "duration": round(event.duration_ms or 0)}
            if event.failure:
                entry["failure"] = event.failure
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


async def dom_state(driver: PageDriver) -> dict[str, Any]:
    """The seed's domState; an empty one (with the reason in the visible text) when the page cannot be read now."""
    try:
        return await driver.evaluate(DOM_STATE_JS, [VISIBLE_LINES, VISIBLE_CHARS, LABEL_LIMIT],
                                     during="reading what the page shows")
    except RaceError as error:
        return {"title": "", "buttons": [], "inputs": [], "links": [],
                "visibleText": [f"(the page could not be read: {error.message})"]}


async def performance(driver: PageDriver) -> dict[str, int | None]:
    try:
        return await driver.evaluate(PERFORMANCE_JS, during="reading the page's timings")
    except RaceError:
        return {"pageLoadTime": None, "domContentLoaded": None, "firstContentfulPaint": None}


async def screenshot(driver: PageDriver, folder: Path, step: int, mode: Literal["path", "base64"]) -> str | None:
    """Save `screenshots/step-N-<ms>.png`; the observation names it by that relative path, or carries it in base64.
    None when the page cannot be captured (the caller warns)."""
    name = f"step-{step}-{now_ms()}.png"
    try:
        data = await driver.screenshot(timeout_ms=SCREENSHOT_TIMEOUT_MS)
    except RaceError:
        return None
    (folder / "screenshots").mkdir(exist_ok=True)
    (folder / "screenshots" / name).write_bytes(data)
    return base64.b64encode(data).decode("ascii") if mode == "base64" else f"screenshots/{name}"
