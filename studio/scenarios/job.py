"""A run of goal scenarios as a job of the shared runtime: the runtime's JobRunner runs it like any capability's job
(one at a time, a lease in the project file, Cancel with a grace period). ScenarioJob is the studio's Run / Run All,
on pages the caller gives (the live session's browser: `LocalScenarioPages.on(runtime, in_session=True)`, so the
tester watches each scenario in the live view); BatchJob is `studio run`'s, on the runtime's fleet.

Every JSONL record goes to the project file the moment it is written (ScenarioRunStore) and to the run's folder
beside the project (results.jsonl, and the HTML report and summary.json once the run ends); step screenshots the
scenarios capture are copied into the project file, so the project alone replays a run.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.browser.errors import BrowserError
from studio.race.driver import PageDriver
from studio.runtime.jobs import JobControl
from studio.scenarios.batch import BatchError, BatchHooks, BatchOptions, BatchResult, run_batch
from studio.scenarios.driver import LocalScenarioPages
from studio.scenarios.runner import ScenarioResult
from studio.scenarios.spec import Scenario
from studio.store.scenario_runs import ScenarioRunStore
from studio.wording import plural

log = logging.getLogger(__name__)


@dataclass
class ScenarioRunOutcome:
    """How a run of scenarios ended: its id, status (finished | cancelled | failed), a sentence, and its files."""

    run_id: str
    status: str
    message: str
    results: list[ScenarioResult] = field(default_factory=list)
    folder: Path | None = None
    report: Path | None = None

    @property
    def passed(self) -> int:
        return sum(r.status == "success" for r in self.results)


def run_folder(project_path: Path | None, run_id: str, fallback: Path) -> Path:
    """`<project>-runs/<run id>/` beside the project file (the run's JSONL, report and artifacts)."""
    base = project_path.parent / f"{project_path.stem}-runs" if project_path is not None else fallback
    return base / run_id


def replayable(scenario: Scenario) -> Scenario:
    """`scenario` with a screenshot after every step and of a failed end, whatever its capture says: the studio
    replays a run's steps from them."""
    wanted = list(dict.fromkeys([*scenario.observability.capture, "screenshot_on_step", "screenshot_on_failure"]))
    return scenario.model_copy(update={"observability": scenario.observability.model_copy(
        update={"capture": wanted})})


class ScenarioJob:
    """JobWork running `scenarios` against `base_url` on `pages` (each with step screenshots): the live session's,
    `LocalScenarioPages.on(runtime, in_session=True)`, with `page_opened` told of each scenario's PageDriver as it
    opens (the studio shows it in the live view)."""

    label = "Goal scenarios"

    def __init__(self, scenarios: list[Scenario], base_url: str, pages: LocalScenarioPages,
                 store: ScenarioRunStore | None, folder: Path,
                 page_opened: Callable[[PageDriver], None] | None = None, session_reuse: bool = True) -> None:
        self.scenarios = [replayable(s) for s in scenarios]
        self.base_url, self.pages, self.store = base_url, pages, store
        self.run_id = folder.name
        self.folder = folder
        self.page_opened = page_opened
        self.session_reuse = session_reuse
        self.outcome: ScenarioRunOutcome | None = None
        self._control: JobControl | None = None
        self._done = 0
        self._kept: set[str] = set()  # screenshot paths already copied into the project file

    @staticmethod
    def new_run_id() -> str:
        return f"run_{uuid.uuid4().hex[:8]}"

    @property
    def job_id(self) -> str | None:
        return None

    async def run(self, control: JobControl) -> ScenarioRunOutcome:
        self._control = control
        control.claim(self.run_id)
        if self.store is not None:
            self.store.start_run(self.run_id, self.base_url, str(self.folder), [s.id for s in self.scenarios])
        # A crawl for the navigation graph costs seconds: done when the whole folder runs, not for one scenario.
        options = BatchOptions(base_url=self.base_url, out=self.folder, session_reuse=self.session_reuse,
                               crawl=len(self.scenarios) > 1)
        hooks = BatchHooks(pages=self.pages, run_id=self.run_id, record=self._record,
                           page_opened=self.page_opened, should_stop=lambda: control.cancel_requested,
                           scenario_ended=self._scenario_ended)
        control.report(f"Starting {plural(len(self.scenarios), 'scenario')}", 0.0)
        batch = await run_batch(self.scenarios, options, lambda line: log.info("%s", line), hooks)
        return self._settle(batch, control.cancel_requested)

    def record_end(self, job_id: str, status: str, message: str) -> ScenarioRunOutcome | None:
        """The runner stopped the run (cancelled mid-step, out of budget, an error): keep what finished, say why."""
        if self.outcome is not None:
            return self.outcome
        mapped = "cancelled" if status == "cancelled" else "failed"
        if self.store is not None:
            self.store.end_run(job_id, mapped, None, None, message)
        self.outcome = ScenarioRunOutcome(job_id, mapped, message, folder=self.folder)
        return self.outcome

    # -- as it runs ----------------------------------------------------------------------------------------------

    def _record(self, record: dict[str, Any]) -> None:
        if self.store is not None:
            self.store.add_record(self.run_id, record)
            self._keep_shots(record)
        control = self._control
        if control is None:
            return
        if record.get("type") == "step":
            total = len(self.scenarios)
            control.report(f"{record.get('scenarioId', '')}: step {record.get('step')} "
                           f"({self._done} of {plural(total, 'scenario')} done)", self._done / total if total else None)
        control.partial(record)

    def _keep_shots(self, record: dict[str, Any]) -> None:
        """Copy the screenshots a record names (paths relative to the run's folder) into the project file."""
        assert self.store is not None
        scenario = str(record.get("scenarioId", ""))
        named: list[tuple[int, str]] = []
        if record.get("type") == "step" and record.get("screenshot"):
            named.append((int(record.get("step", 0)), str(record["screenshot"])))
        elif record.get("type") == "scenario_end":  # the success / failure screenshot: those not kept with a step
            named += [(0, str(p)) for p in record.get("screenshots") or [] if str(p) not in self._kept]
        for step, name in named:
            self._kept.add(name)
            path = self.folder / name
            try:
                self.store.add_shot(self.run_id, scenario, step, name, path.read_bytes())
            except OSError as error:
                log.warning("screenshot %s could not be kept: %s", path, error)

    def _scenario_ended(self, result: ScenarioResult) -> None:
        self._done += 1

    def _settle(self, batch: BatchResult, cancelled: bool) -> ScenarioRunOutcome:
        status = "cancelled" if cancelled else "finished"
        passed = sum(r.status == "success" for r in batch.results)
        message = (f"{passed} of {plural(len(batch.results), 'scenario')} reached their goal"
                   + (f"; stopped by the tester with {len(self.scenarios) - len(batch.results)} not run"
                      if cancelled else "") + ".")
        report = self._write_report(batch)
        self._write_summary(batch, report)
        if self.store is not None:
            self.store.end_run(self.run_id, status, batch.pass_rate if batch.results else None, batch.duration,
                               message)
        self.outcome = ScenarioRunOutcome(self.run_id, status, message, list(batch.results), self.folder, report)
        return self.outcome

    def _write_report(self, batch: BatchResult) -> Path | None:
        from studio.scenarios.report import ReportError, write_report

        if batch.log_path is None or not batch.results:
            return None
        try:
            written, _differences = write_report(batch.log_path, self.folder / "index.html", [])
        except (ReportError, OSError) as error:
            log.warning("the run's report could not be written: %s", error)
            return None
        return written

    @staticmethod
    def _write_summary(batch: BatchResult, report: Path | None) -> None:
        """summary.json beside the run's log, as `studio run` writes it."""
        from studio.scenarios.run_summary import SummaryError, write_summary

        if batch.log_path is None:
            return
        try:
            write_summary(batch.log_path, report, stopped=batch.stopped, run_id=batch.run_id)
        except (SummaryError, OSError) as error:
            log.warning("the run's summary.json could not be written: %s", error)


class BatchJob:
    """`studio run` as a job of the runtime: the batch on `pages` (the runtime's fleet), its lines through `say`. A
    run that could not start (an MCP server or the browsers not answering) keeps its error in `error`; one the runner
    had to end (an engine error) says why in `failure`."""

    label = "Goal scenarios"

    def __init__(self, scenarios: list[Scenario], options: BatchOptions, say: Callable[[str], None],
                 pages: LocalScenarioPages) -> None:
        self.scenarios, self.options, self.say, self.pages = scenarios, options, say, pages
        self.run_id = ScenarioJob.new_run_id()
        self.batch: BatchResult | None = None
        self.error: BatchError | BrowserError | None = None
        self.failure: str | None = None

    @property
    def job_id(self) -> str | None:
        return None

    async def run(self, control: JobControl) -> BatchResult | None:
        control.claim(self.run_id)
        hooks = BatchHooks(pages=self.pages, run_id=self.run_id, should_stop=lambda: control.cancel_requested)
        try:
            self.batch = await run_batch(self.scenarios, self.options, self.say, hooks)
        except (BatchError, BrowserError) as error:
            self.error = error
        return self.batch

    def record_end(self, job_id: str, status: str, message: str) -> BatchResult | None:
        """The runner stopped the run (Ctrl+C, an error): the batch keeps what finished."""
        if status != "cancelled":
            self.failure = message
        return self.batch
