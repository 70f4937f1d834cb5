"""CaseService: the project's test suites and cases for the editor — read, save as a new version, review the
EDIT agent's changes (keep or revert), and turn a case into steps the exporter writes."""

from __future__ import annotations

import logging
import time
import uuid
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, QTimer, Signal

from studio.app.case_records import change_summary
from studio.app.project_service import ProjectService
from studio.models.recording import RecordedStep
from studio.models.testcase import CaseEdit, CaseVersion, TestCase, TestSuite
from studio.playground import case_steps, revert_edit
from studio.store.project import ProjectFile

log = logging.getLogger(__name__)


class CaseService(QObject):
    """Every write is one project transaction; `casesChanged` tells the editor to re-read."""

    casesChanged = Signal()
    notice = Signal(str)
    errorOccurred = Signal(str)

    def __init__(self, project: ProjectService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.project = project
        # An agent writes many cases a second; the editor re-reads at most about three times a second.
        self._reload = QTimer(self, singleShot=True, interval=300)
        self._reload.timeout.connect(self.casesChanged)
        project.projectChanged.connect(lambda _path: self.casesChanged.emit())

    @property
    def _file(self) -> ProjectFile | None:
        return self.project.project

    # -- reading -------------------------------------------------------------------------------------

    def suites(self) -> list[TestSuite]:
        return self._file.cases.suites() if self._file else []

    def cases(self) -> list[TestCase]:
        return self._file.cases.cases() if self._file else []

    def case(self, case_id: str) -> TestCase | None:
        return self._file.cases.case(case_id) if self._file else None

    def history(self, case_id: str) -> list[CaseVersion]:
        return self._file.cases.history(case_id) if self._file else []

    def reload_soon(self) -> None:
        """Cases were written elsewhere (an agent is running): the editor re-reads shortly."""
        if not self._reload.isActive():
            self._reload.start()

    def reload(self) -> None:
        self._reload.stop()
        self.casesChanged.emit()

    # -- writing -------------------------------------------------------------------------------------

    def save(self, case: TestCase) -> TestCase | None:
        """Store the tester's edit as the next version, summarised from what changed; None when nothing did."""
        if self._file is None:
            self.errorOccurred.emit("No project is open, so the case cannot be saved. Open or create a project first.")
            return None
        before = self._file.cases.case(case.id)
        summary = change_summary(before, case)
        if not summary:
            self.notice.emit(f"Nothing changed since version {before.version if before else 1}; nothing was saved.")
            return None
        stored = self._file.cases.save_case(case, author="tester", summary=summary)
        self.notice.emit(f"Saved '{stored.title}' as version {stored.version}: {summary}")
        self.casesChanged.emit()
        return stored

    def new_case(self, suite_id: str | None = None, title: str = "New test case") -> TestCase | None:
        if self._file is None:
            self.errorOccurred.emit("No project is open. Open or create one with File › New Project first.")
            return None
        case = TestCase(id=f"tc-{uuid.uuid4().hex[:8]}", suite_id=suite_id, title=title, origin="tester",
                        status="draft", updated_at=time.time() * 1000)
        stored = self._file.cases.save_case(case, author="tester", summary=change_summary(None, case))
        self.casesChanged.emit()
        return stored

    def new_suite(self, title: str, module: str = "", description: str = "") -> TestSuite | None:
        if self._file is None:
            self.errorOccurred.emit("No project is open. Open or create one with File › New Project first.")
            return None
        now = time.time() * 1000
        suite = self._file.cases.save_suite(TestSuite(id=f"ts-{uuid.uuid4().hex[:8]}", title=title, module=module,
                                                      description=description, created_at=now, updated_at=now))
        self.casesChanged.emit()
        return suite

    def delete(self, case_id: str) -> None:
        if self._file is not None:
            self._file.cases.delete_case(case_id)
            self.casesChanged.emit()

    # -- the EDIT agent's changes ----------------------------------------------------------------------

    def accept_edit(self, edit: CaseEdit) -> None:
        """The agent's version stays the newest one; nothing is written."""
        current = self.case(edit.case_id)
        version = current.version if current else edit.after.version
        self.notice.emit(f"Kept the agent's edit of '{edit.after.title}' (version {version}).")

    def reject_edit(self, edit: CaseEdit) -> TestCase | None:
        """Restore the case as it was before the edit, as a new version (the agent's stays in the history)."""
        if self._file is None:
            return None
        try:
            revert_edit(self._file, edit.case_id, edit.before.version)
        except (LookupError, ValueError):
            self.errorOccurred.emit(f"Version {edit.before.version} of '{edit.before.title}' is not in the project's "
                                    "history, so the edit cannot be rejected. Edit the case by hand instead.")
            return None
        restored = self._file.cases.case(edit.case_id)
        if restored is not None:
            self.notice.emit(f"Rejected the agent's edit: '{restored.title}' is back as it was in version "
                             f"{edit.before.version} (saved as version {restored.version}).")
        self.casesChanged.emit()
        return restored

    # -- export -----------------------------------------------------------------------------------------

    def base_url(self, case: TestCase) -> str:
        """The base URL the case's preflight resolved; else the newest one in the project; else its page's origin."""
        if self._file is not None:
            jobs = self._file.jobs
            grounded = jobs.get(case.grounding.preflight_job_id) if case.grounding.preflight_job_id else None
            for job in [grounded, *reversed(jobs.all())]:
                if job is not None and job.context.resolved_base_url:
                    return job.context.resolved_base_url
        page = urlsplit(case.grounding.page_url or "")
        return f"{page.scheme}://{page.netloc}/" if page.scheme and page.netloc else ""

    def export_steps(self, case: TestCase) -> list[RecordedStep]:
        """The case as the recorded steps the Playwright exporter writes."""
        return case_steps(case, self.base_url(case))
