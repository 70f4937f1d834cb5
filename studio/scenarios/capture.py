"""What a scenario run keeps of itself as files (seed 004's observability.capture, and `studio run --trace`):
a screenshot after each step (screenshot_on_step), one of the end state (screenshot_on_success / _on_failure), the
page's HTML when the goal was reached (dom_snapshot_on_success), and a Playwright trace of the whole browser context
(--trace or trace_always; trace_on_failure keeps it only when the run did not succeed).

Each run of a scenario gets its own folder, OUT/artifacts/<scenarioId>-<n>/ (n counts the runs of that scenario in
the batch, so --repeat and --parallel never write over each other), made only when something is written into it.
Paths handed back are relative to the JSONL log's folder, with forward slashes, as the log and report keep them.
A capture that fails (the page closed, the browser went away) is skipped: it never changes the run's outcome.
"""

from __future__ import annotations

import os
from pathlib import Path

from typing import TYPE_CHECKING

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from studio.scenarios.data_tools import DataToolError

from studio.scenarios.spec import Scenario

if TYPE_CHECKING:
    from studio.scenarios.driver import PageDriver


def _local(driver: PageDriver | None) -> tuple[BrowserContext | None, Page | None]:
    """The Playwright context and page behind a local driver (a remote one has neither: no trace, no HTML)."""
    return getattr(driver, "context", None), getattr(driver, "page", None)

ARTIFACTS = "artifacts"


class RunCapture:
    """The captures of one scenario run, written under `folder`, named relative to `log_dir`."""

    def __init__(self, scenario: Scenario, folder: Path, log_dir: Path, trace: bool = False) -> None:
        wanted = set(scenario.observability.capture)
        self.folder, self.log_dir = folder, log_dir
        self.on_step = "screenshot_on_step" in wanted
        self.on_success = "screenshot_on_success" in wanted
        self.on_failure = "screenshot_on_failure" in wanted
        self.dom_on_success = "dom_snapshot_on_success" in wanted
        self.trace_always = trace or "trace_always" in wanted
        self.tracing = self.trace_always or "trace_on_failure" in wanted
        self.screenshots: list[str] = []  # relative paths, in the order taken
        self._tracing_started = False

    def relative(self, path: Path) -> str:
        return Path(os.path.relpath(path, self.log_dir)).as_posix()

    def _path(self, name: str) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder / name

    async def start(self, driver: PageDriver) -> None:
        """Start the context's trace (screenshots and DOM snapshots of every action) when one is wanted."""
        context, _page = _local(driver)
        if not self.tracing or context is None:
            return
        await context.tracing.start(screenshots=True, snapshots=True)
        self._tracing_started = True

    async def step(self, page: PageDriver, number: int) -> str | None:
        """The screenshot after step `number` (screenshot_on_step), as a relative path; None when none was taken."""
        if not self.on_step:
            return None
        return await self._screenshot(page, f"step-{number:03d}.png")

    async def end(self, driver: PageDriver | None, status: str) -> str | None:
        """The end state: a screenshot on success or failure (an error counts as a failure) as asked, and the
        page's HTML on success (dom_snapshot_on_success); the HTML's relative path, None when not taken."""
        _context, page = _local(driver)
        if driver is None or (page is not None and page.is_closed()):
            return None
        succeeded = status == "success"
        if (self.on_success if succeeded else self.on_failure):
            await self._screenshot(driver, f"{status}.png")
        if not (succeeded and self.dom_on_success) or page is None:
            return None
        try:
            html = await page.content()
        except PlaywrightError:
            return None
        path = self._path("success.html")
        path.write_text(html, encoding="utf-8")
        return self.relative(path)

    async def stop(self, driver: PageDriver, status: str) -> str | None:
        """Stop the trace; its relative path when it is kept (always with --trace or trace_always, on a run that
        did not succeed with trace_on_failure), else None."""
        context, _page = _local(driver)
        if not self._tracing_started or context is None:
            return None
        self._tracing_started = False
        keep = self.trace_always or status != "success"
        try:
            if not keep:
                await context.tracing.stop()
                return None
            path = self._path("trace.zip")
            await context.tracing.stop(path=str(path))
        except PlaywrightError:
            return None
        return self.relative(path)

    async def _screenshot(self, driver: PageDriver, name: str) -> str | None:
        path = self._path(name)
        try:
            await driver.screenshot(path)
        except (PlaywrightError, DataToolError, KeyError):
            return None
        relative = self.relative(path)
        self.screenshots.append(relative)
        return relative
