"""PilotSession: the file protocol's loop (seed 003's session manager) on one page, acted on through its PageDriver.

It writes the first observation, then watches the session folder with the OS's file watcher (watchfiles) for
action.json; each new file is read where it is (it stays there, readable, until the AI writes the next one; a copy
goes to actions/), its batch is run — every action, even after one failed, as the seed's batches do, unless the
batch says "stopOnError": true — and the next observation is written. A third identical action in a row is not run:
it is the observation's `error`, as the seed's executor throws it. The session ends when max_steps actions were
executed, a batch says "done": true, or stop() is called; then the status is DONE and report.json sums it up.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field
from watchfiles import awatch

from studio.browser.capture import PageTraffic
from studio.browser.origins import OriginPolicy
from studio.pilot.actions import ActionBatch, ActionFileError, parse_action_file
from studio.pilot.executor import ActionOutcome, PilotExecutor
from studio.pilot.files import (
    ACTION_FILE,
    REPORT_FILE,
    SESSION_FILE,
    ActionFileRefused,
    SessionFolder,
    Status,
)
from studio.pilot.observer import PageLog, dom_state, new_errors, now_ms, performance, screenshot
from studio.pilot.progress import ProgressTracker, progress_indicator
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.wording import agree, plural

log = logging.getLogger(__name__)

PREVIOUS_ACTIONS = 30  # the newest actions an observation lists
WATCH_STEP_MS = 10  # the watcher looks this often; a change counts once the folder was quiet for one look
QUIET_S = 0.3  # an action file that is not whole JSON yet is read again once unchanged this long (at most 2 s)

EventKind = Literal["status", "observation", "batch", "outcome", "warning", "error", "done"]
EndReason = Literal["done", "max_steps", "stopped", "page_closed"]


class PilotOptions(BaseModel):
    """What a pilot session is for and how long it may run."""

    goal: str = ""
    max_steps: int = Field(default=50, ge=1, description="Actions executed (refused ones do not count).")
    origins: list[str] = Field(default_factory=list, description=(
        "Origins besides the start page's that the AI may open and type on (the tester's --allow-origin)."))
    allow_file_urls: bool = Field(default=False, description="Whether navigate may open file: URLs.")
    upload_dir: str | None = Field(default=None, description=(
        "The only folder upload actions take files from (default: the session folder's uploads/)."))
    screenshot: Literal["base64", "path"] = Field(default="base64", description=(
        "How observation.json carries the screenshot: in base64, as the seed's does (default), or as the relative "
        "path of its file in screenshots/ (`studio pilot --screenshot path`); the file is written either way."))


class PilotReport(BaseModel):
    """report.json: how the session went."""

    folder: str
    goal: str
    startUrl: str
    finalUrl: str
    endReason: EndReason
    steps: int = Field(description="Observations written.")
    actionsExecuted: int
    actionsFailed: int
    actionsRefused: int
    normalizations: list[dict[str, Any]]
    warnings: list[str]
    startedAt: int
    durationMs: int


@dataclass
class PilotEvent:
    """What the session tells its listener, on the event loop thread: kind "status" (the status text),
    "observation" (the dict written), "batch" (ActionBatch), "outcome" (ActionOutcome), "warning" (text),
    "error" (a malformed action file's message) or "done" (PilotReport)."""

    kind: EventKind
    data: Any


async def _whole(files: SessionFolder, kept: Path, text: str) -> str:
    """The action file's text once whole: a file that is not valid JSON yet may still be being written (a writer that
    writes in pieces); it is read again once unchanged for QUIET_S (at most 2 s)."""
    try:
        json.loads(text)
        return text
    except (ValueError, RecursionError):  # not whole yet, or unreadable: parse_action_file says which
        pass
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        try:
            age = time.time() - files.action_file.stat().st_mtime
        except OSError:
            break
        if age >= QUIET_S:
            break
        await asyncio.sleep(QUIET_S - age)
    return files.read_again(kept)


def repetition_error(outcomes: list[dict[str, Any]]) -> str | None:
    """The observation's error when actions of the batch were not run as repetitions (the seed throws at the third
    identical action in a row): the first refusal's sentence, and how many more there were."""
    refused = [str(outcome.get("error") or "") for outcome in outcomes if outcome.get("refused")]
    if not refused:
        return None
    more = len(refused) - 1
    return refused[0] + (f" {plural(more, 'more identical action')} after it {agree(more, 'was', 'were')} refused "
                         "too." if more else "")


class PilotSession:
    """One pilot session on the driver's page, in a new folder `<sessions_dir>/exploration-<epoch ms>/`. The
    driver is the session's own (its acknowledged retry's wait is the executor's)."""

    def __init__(self, driver: PageDriver, sessions_dir: Path, options: PilotOptions | None = None,
                 listener: Callable[[PilotEvent], None] | None = None) -> None:
        self.driver = driver
        self.options = options or PilotOptions()
        self.listener = listener
        self.files = SessionFolder(Path(sessions_dir))
        self.executor = PilotExecutor(driver, self.files.path / "screenshots", allow_files=self.options.allow_file_urls,
                                      uploads_dir=Path(self.options.upload_dir) if self.options.upload_dir else None)
        # The AI opens pages and types on the session's origins only (its start page's and the tester's
        # --allow-origin): a page it reads may try to steer it elsewhere, and a password typed there would leave.
        self._pin_before = driver.pin
        pinned = [url for url in (driver.url, *self.options.origins) if OriginPolicy.origin_of(url)]
        if driver.pin is None and pinned:
            driver.pin = OriginPolicy(pinned)
        self.progress = ProgressTracker()
        self.status: Status = "WAITING_FOR_AI"
        self.step = 0
        self.taken_over = False
        self.previous_actions: list[dict[str, Any]] = []
        self.executed = self.failed = self.refused = 0
        self.normalizations: list[dict[str, Any]] = []
        self.warnings: list[str] = []
        self._warned = 0  # how many of the warnings an observation has carried
        self.report: PilotReport | None = None
        self._end_reason: EndReason | None = None
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._log = PageLog()
        self._traffic: PageTraffic | None = None
        self._started_at = now_ms()
        self._start_url = ""
        self.timing: Callable[[str], None] | None = None

    def time_with(self, timing: Callable[[str], None] | None) -> None:
        """A hook told, as they happen: "action_start", "action_settled" (the executor's), "screenshot_start",
        "screenshot_end" and "observation_written" (a benchmark's timestamps)."""
        self.timing = self.executor.timing = timing

    def _mark(self, name: str) -> None:
        if self.timing is not None:
            self.timing(name)

    @property
    def folder(self) -> Path:
        """The session folder (known before run() creates it)."""
        return self.files.path

    # -- control -------------------------------------------------------------------------------------

    def stop(self) -> None:
        """End the session after the action running now; run() then writes the report and returns."""
        self._end_reason = self._end_reason or "stopped"
        self._stop.set()
        self._wake.set()

    def take_over(self) -> None:
        """The tester drives: action files wait (unread) until hand_back."""
        self.taken_over = True
        self._write_session()

    async def hand_back(self, tester_actions: list[dict[str, Any]]) -> None:
        """The AI drives again: the tester's actions join previousActions (by "tester") and a fresh observation
        is written; a waiting action file is read next."""
        self.taken_over = False
        for action in tester_actions:
            self.previous_actions.append({"action": action.get("action"), "selector": action.get("selector"),
                                          "description": action.get("description"), "by": "tester"})
        self._write_session()
        await self._observe()
        self._wake.set()

    # -- the loop ------------------------------------------------------------------------------------

    async def run(self) -> PilotReport:
        """Run until done, max_steps or stop(); returns the report (also in report.json)."""
        self.files.create()
        self._start_url = self.driver.url
        self._write_session()
        watcher = asyncio.create_task(self._watch())
        try:
            self._traffic = await self.driver.watch(self._log.publish)
            await self._observe()
            self._set_status("WAITING_FOR_AI")
            self._wake.set()  # an action file written before the watcher started is read too
            while self._end_reason is None:
                await self._wake.wait()
                self._wake.clear()
                while self._end_reason is None and not self.taken_over and self.files.has_new_action_file():
                    await self._consume()
        except RaceError as error:
            if error.kind != "context_closed":
                raise
            self._end_reason = "page_closed"
            self._warn("The page was closed; the session ends.")
        finally:
            self._stop.set()
            watcher.cancel()
            if self._traffic is not None:
                await self._traffic.detach()
            self._finish()
        assert self.report is not None
        return self.report

    async def _watch(self) -> None:
        async for _changes in awatch(self.folder, watch_filter=lambda _change, path: Path(path).name == ACTION_FILE,
                                     stop_event=self._stop, step=WATCH_STEP_MS, recursive=False):
            self._wake.set()

    async def _consume(self) -> None:
        try:
            taken = self.files.take_action_file()
        except ActionFileRefused as error:
            self._emit("error", str(error))
            await self._observe(error=str(error))
            self._set_status("WAITING_FOR_AI")
            return
        if taken is None:
            return
        text, kept = taken
        self._set_status("RUNNING")
        try:
            text = await _whole(self.files, kept, text)
            batch = parse_action_file(text)
        except (ActionFileError, ActionFileRefused) as error:
            self._emit("error", str(error))
            await self._observe(error=str(error))
            self._set_status("WAITING_FOR_AI")
            return
        self._emit("batch", batch)
        last_batch = await self._run_batch(batch)
        if batch.done and self._end_reason is None:
            self._end_reason = "done"
        await self._observe(last_batch=last_batch, error=repetition_error(last_batch["outcomes"]))
        if self._end_reason is None:
            self._set_status("WAITING_FOR_AI")

    async def _run_batch(self, batch: ActionBatch) -> dict[str, Any]:
        outcomes: list[ActionOutcome] = []
        failed_at: int | None = None
        for index, action in enumerate(batch.actions):
            if self._stop.is_set():
                break
            if self.executed >= self.options.max_steps:
                self._end_reason = "max_steps"
                self._warn(f"The session reached its limit of {self.options.max_steps} actions; "
                           f"{plural(len(batch.actions) - index, 'action')} of the batch did not run.")
                break
            outcome = await self.executor.execute(action, index)
            outcomes.append(outcome)
            self._count(outcome)
            self._emit("outcome", outcome)
            if not outcome.ok and failed_at is None:
                failed_at = index
                if batch.stopOnError:
                    break
        if self.executed >= self.options.max_steps and self._end_reason is None:
            self._end_reason = "max_steps"
        return {"reasoning": batch.reasoning, "outcomes": [o.model_dump(mode="json") for o in outcomes],
                "failedAt": failed_at, "stoppedEarly": len(outcomes) < len(batch.actions)}

    def _count(self, outcome: ActionOutcome) -> None:
        if outcome.refused:  # the observation's error says it (repetition_error); the listener hears it as a warning
            self.refused += 1
            self._emit("warning", outcome.error or "An action was refused as a repetition.")
            return
        self.executed += 1
        self.failed += not outcome.ok
        given = outcome.action
        self.previous_actions.append({"action": given.get("action"), "selector": given.get("selector"),
                                      "description": given.get("description"), "by": "ai"})
        if outcome.rules:
            self.normalizations.append({"original": given.get("selector"), "normalized": outcome.selector,
                                        "rules": outcome.rules})

    # -- observations --------------------------------------------------------------------------------

    async def _observe(self, last_batch: dict[str, Any] | None = None, error: str | None = None) -> dict[str, Any]:
        self.step += 1
        state = await dom_state(self.driver)
        console, network = self._log.drain()
        self._mark("screenshot_start")
        shot = await screenshot(self.driver, self.folder, self.step, self.options.screenshot)
        self._mark("screenshot_end")
        if shot is None:
            self._warn("The page could not be captured for this observation's screenshot.")
        indicator = progress_indicator("\n".join(state["visibleText"]), self.driver.url, state["title"])
        if self.progress.see(indicator):
            self._warn(self.progress.warning())
        warnings, self._warned = self.warnings[self._warned:], len(self.warnings)
        observation: dict[str, Any] = {
            "stepNumber": self.step, "timestamp": now_ms(), "goal": self.options.goal, "currentUrl": self.driver.url,
            "screenshot": shot, "domState": state, "consoleLogs": console, "networkRequests": network,
            "newErrors": new_errors(console, network), "performance": await performance(self.driver),
            "previousActions": self.previous_actions[-PREVIOUS_ACTIONS:],
            "progress": {"indicator": indicator, "stuck": self.progress.stuck},
            "lastBatch": last_batch, "warnings": warnings, "error": error,
        }
        self.files.write_observation(observation)
        self._mark("observation_written")
        self._emit("observation", observation)
        return observation

    # -- files and events ----------------------------------------------------------------------------

    def _write_session(self) -> None:
        self.files.write_json(SESSION_FILE, {
            "startUrl": self._start_url, "goal": self.options.goal, "startedAt": self._started_at,
            "maxSteps": self.options.max_steps, "screenshot": self.options.screenshot, "takenOver": self.taken_over})

    def _set_status(self, status: Status) -> None:
        self.status = status
        self.files.write_status(status)
        self._emit("status", status)

    def _warn(self, text: str) -> None:
        self.warnings.append(text)
        self._emit("warning", text)

    def _emit(self, kind: EventKind, data: Any) -> None:
        if self.listener is None:
            return
        try:
            self.listener(PilotEvent(kind, data))
        except Exception:  # a listener's bug must not end the session
            log.exception("the pilot session's listener failed on %s", kind)

    def _finish(self) -> None:
        self.driver.pin = self._pin_before  # the live page's own typing rules again once the AI is done
        self.report = PilotReport(
            folder=str(self.folder), goal=self.options.goal, startUrl=self._start_url,
            finalUrl="" if self.driver.closed else self.driver.url, endReason=self._end_reason or "stopped",
            steps=self.step, actionsExecuted=self.executed, actionsFailed=self.failed, actionsRefused=self.refused,
            normalizations=self.normalizations, warnings=self.warnings, startedAt=self._started_at,
            durationMs=now_ms() - self._started_at)
        self.files.write_json(REPORT_FILE, self.report.model_dump(mode="json"))
        self._set_status("DONE")
        self._emit("done", self.report)
