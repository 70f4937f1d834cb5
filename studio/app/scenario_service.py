"""ScenarioService: goal scenarios (seed 004) for the GUI — the project's scenario files with their problems, saving
an edited one, running some or all of them as a job on the live browser (each scenario's fresh page shown in the
live view while the agent drives it), Cancel, and the project's earlier runs for the results, steps and charts.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, Signal

from studio.app.browser_service import BrowserService
from studio.app.job_service import JobService
from studio.app.project_service import ProjectService
from studio.scenarios.batch import scenario_files
from studio.scenarios.driver import LocalScenarioPages
from studio.scenarios.job import ScenarioJob, ScenarioRunOutcome, run_folder
from studio.scenarios.navgraph import edges_in
from studio.scenarios.spec import Scenario
from studio.scenarios.validation import Problem, check_scenario, check_text
from studio.store.scenario_runs import ScenarioRun, ScenarioRunStore

log = logging.getLogger(__name__)

FOLDER_KEY = "scenarios_folder"  # project meta: the tester's scenario folder
BASE_URL_KEY = "scenarios_base_url:"  # project meta, + a folder's path: the base URL its scenarios run against


def origin_of(url: str) -> str | None:
    """`scheme://host[:port]` of an http(s) address, or None: a run goes to an origin, never to a page's path."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"


@dataclass(frozen=True)
class ScenarioFile:
    path: Path
    scenario: Scenario | None
    problems: list[Problem]

    @property
    def valid(self) -> bool:
        return self.scenario is not None and not self.problems

    @property
    def title(self) -> str:
        return self.scenario.id if self.scenario is not None else self.path.stem


class ScenarioService(JobService):
    """The GUI's handle on the open project's goal scenarios and their runs."""

    filesChanged = Signal(object)  # list[ScenarioFile]
    runStarted = Signal(str, object)  # run id, list[str] of scenario ids
    recordWritten = Signal(object)  # a JSONL record of the running run (dict), the moment it is written
    finished = Signal(object)  # ScenarioRunOutcome

    def __init__(self, browser: BrowserService, project: ProjectService, parent: QObject | None = None) -> None:
        super().__init__(browser.runtime, parent)
        self.browser = browser
        self.project = project
        self.folder: Path | None = None
        self.files: list[ScenarioFile] = []
        self.run_id: str | None = None
        self.partialResult.connect(self._partial)
        project.projectChanged.connect(lambda _path: self._project_opened())

    # -- scenario files -------------------------------------------------------------------------------

    def set_folder(self, folder: Path) -> list[ScenarioFile]:
        """Show the scenario files under `folder` (kept in the project, so it opens with it next time)."""
        self.folder = folder
        project = self.project.project
        if project is not None:
            project.set_meta(FOLDER_KEY, str(folder))
        return self.refresh()

    def folder_base_url(self, folder: Path | None = None) -> str:
        """The base URL the tester set for `folder` (default: the open one), or "" to follow the live page: a
        folder of staging scenarios must not silently run against whatever site the live view shows."""
        folder = folder or self.folder
        project = self.project.project
        if folder is None or project is None:
            return ""
        return project.meta(BASE_URL_KEY + str(folder.resolve()), "") or ""

    def set_folder_base_url(self, url: str) -> None:
        """Remember `url` (its origin; "" forgets it) as the open folder's base URL, in the project file."""
        project = self.project.project
        if self.folder is None or project is None:
            return
        project.set_meta(BASE_URL_KEY + str(self.folder.resolve()), origin_of(url) or "")

    def refresh(self) -> list[ScenarioFile]:
        found: list[ScenarioFile] = []
        if self.folder is not None and self.folder.is_dir():
            try:
                paths = scenario_files([str(self.folder)])
            except Exception:  # no file yet: an empty list, not an error
                paths = []
            for path in paths:
                scenario, problems = check_scenario(path)
                found.append(ScenarioFile(path, scenario, problems))
        self.files = found
        self.filesChanged.emit(found)
        return found

    @staticmethod
    def check(text: str, path: Path) -> tuple[Scenario | None, list[Problem]]:
        return check_text(text, str(path))

    def save(self, path: Path, text: str) -> list[Problem]:
        """Write `text` to `path` (even with problems: an edit is never lost) and return its problems."""
        path.write_text(text, encoding="utf-8")
        self.refresh()
        return check_text(text, str(path))[1]

    def _project_opened(self) -> None:
        project = self.project.project
        stored = project.meta(FOLDER_KEY) if project is not None else None
        if stored:
            self.folder = Path(stored)
        elif project is not None and (project.path.parent / "scenarios").is_dir():
            self.folder = project.path.parent / "scenarios"
        store = self.store_or_none()
        if store is not None:
            store.sweep_interrupted()
        self.refresh()

    # -- running --------------------------------------------------------------------------------------

    def start(self, files: list[ScenarioFile], base_url: str) -> None:
        self.spawn(self.run_start(files, base_url), name="goal-scenarios")

    async def run_start(self, files: list[ScenarioFile], base_url: str) -> ScenarioRunOutcome | None:
        """Run `files` against the app at `base_url` (its origin; the scenarios' start paths are resolved on it)."""
        if self.project.project is None:
            self.errorOccurred.emit("No project is open. Open or create one with File › New Project, then run again.")
            return None
        broken = [f for f in files if not f.valid]
        if broken:
            first = broken[0].problems[0] if broken[0].problems else None
            files_word = "1 scenario file has" if len(broken) == 1 else f"{len(broken)} scenario files have"
            self.errorOccurred.emit(f"{files_word} problems, so nothing was run"
                                    + (f" — first: {first}" if first else "") + ". Fix them in the editor.")
            return None
        if not files:
            self.errorOccurred.emit("No scenario to run: open a folder of scenario files (Scenarios › Open Folder).")
            return None
        origin = origin_of(base_url)
        if origin is None:
            self.errorOccurred.emit(f"{base_url or 'No address'} is not a web address to run the scenarios against. "
                                    "Type the app's base URL above Run (or open the app in the live view), then run "
                                    "again.")
            return None
        if not self.browser.alive and await self.browser.start(self.runtime.session_options(label="scenarios")) is None:
            return None
        session = self.browser.session
        assert session is not None
        project = self.project.project
        run_id = ScenarioJob.new_run_id()
        folder = run_folder(project.path, run_id, Path(tempfile.gettempdir()) / "studio-runs")
        job = ScenarioJob([f.scenario for f in files if f.scenario is not None], origin,
                          LocalScenarioPages.on(self.runtime, in_session=True), self.store(), folder,
                          page_opened=lambda driver: session.show_page(driver.page))
        self.run_id = run_id
        self.runStarted.emit(run_id, [s.id for s in job.scenarios])
        return await self.run_job(job)

    def settle(self, record: Any) -> Any:
        if isinstance(record, ScenarioRunOutcome):
            self.finished.emit(record)
        return record

    def cancel(self) -> None:
        """Stop the run: the scenario that runs stops before its next step; what finished is kept."""
        if self.running:
            self.spawn(self.cancel_running(), name="scenarios-cancel")

    def _partial(self, record: Any) -> None:
        if isinstance(record, dict):
            self.recordWritten.emit(record)

    # -- reading the project --------------------------------------------------------------------------

    def store_or_none(self) -> ScenarioRunStore | None:
        project = self.project.project
        return ScenarioRunStore(project.db) if project is not None else None

    def store(self) -> ScenarioRunStore:
        store = self.store_or_none()
        if store is None:
            raise RuntimeError("no project is open")
        return store

    def runs(self) -> list[ScenarioRun]:
        store = self.store_or_none()
        return store.runs() if store is not None else []

    def records(self, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        store = self.store_or_none()
        return store.records(run_id, kind) if store is not None else []

    def ends(self, scenario_id: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        store = self.store_or_none()
        return store.ends(scenario_id) if store is not None else []

    def graph(self) -> set[tuple[str, str]]:
        """The navigation graph the project's runs crawled (their navGraph records), for shortest paths."""
        store = self.store_or_none()
        if store is None:
            return set()
        return edges_in(store.run_bounds())

    def shots(self, run_id: str, scenario_id: str) -> dict[int, int]:
        store = self.store_or_none()
        return store.shots(run_id, scenario_id) if store is not None else {}

    def shot_png(self, shot_id: int) -> bytes | None:
        store = self.store_or_none()
        return store.shot_png(shot_id) if store is not None else None
