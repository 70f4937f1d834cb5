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

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from studio.browser.errors import BrowserError
from studio.race.errors import RaceError
from studio.scenarios.data_tools import DataToolError
from studio.scenarios.spec import Scenario

if TYPE_CHECKING:
    from studio.scenarios.driver import ScenarioPage

log = logging.getLogger(__name__)

ARTIFACTS = "artifacts"
# What a capture that cannot be taken raises (a page that closed, a browser that went away, an MCP-Web tool's error).
SKIPPED = (RaceError, BrowserError, DataToolError, KeyError, OSError)


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

    async def start(self, page: ScenarioPage) -> None:
        """Start the context's trace (screenshots and DOM snapshots of every action) when one is wanted (a page on an
        MCP-Web server has none)."""
        if not self.tracing:
            return
        try:
            self._tracing_started = await page.start_trace()
        except SKIPPED as error:
            log.info("no trace of this run: %s", error)

    async def step(self, page: ScenarioPage, number: int) -> str | None:
        """The screenshot after step `number` (screenshot_on_step), as a relative path; None when none was taken."""
        if not self.on_step:
            return None
        return await self._screenshot(page, f"step-{number:03d}.png")

    async def end(self, page: ScenarioPage | None, status: str) -> str | None:
        """The end state: a screenshot on success or failure (an error counts as a failure) as asked, and the
        page's HTML on success (dom_snapshot_on_success); the HTML's relative path, None when not taken."""
        if page is None or page.closed:
            return None
        succeeded = status == "success"
        if (self.on_success if succeeded else self.on_failure):
            await self._screenshot(page, f"{status}.png")
        if not (succeeded and self.dom_on_success):
            return None
        try:
            html = await page.html()
        except SKIPPED:
            return None
        if html is None:
            return None
        path = self._path("success.html")
        path.write_text(html, encoding="utf-8")
        return self.relative(path)

    async def stop(self, page: ScenarioPage, status: str) -> str | None:
        """Stop the trace; its relative path when it is kept (always with --trace or trace_always, on a run that
        did not succeed with trace_on_failure), else None."""
        if not self._tracing_started:
            return None
        self._tracing_started = False
        keep = self.trace_always or status != "success"
        path = self._path("trace.zip") if keep else None
        try:
            await page.stop_trace(path)
        except SKIPPED:
            return None
        return self.relative(path) if path is not None and path.exists() else None

    async def _screenshot(self, page: ScenarioPage, name: str) -> str | None:
        path = self._path(name)
        try:
            await page.screenshot(path)
        except SKIPPED:
            return None
        relative = self.relative(path)
        self.screenshots.append(relative)
        return relative
