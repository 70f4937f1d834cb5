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
from studio.models.context import FindingStatus
from studio.models.recording import RecordedStep
from studio.models.testcase import CaseEdit, CaseVersion, TestCase, TestSuite
from studio.playground import case_steps
from studio.preflight.finding_decisions import FindingDecision, FindingGone, decide, undo
from studio.store.project import ProjectFile

log = logging.getLogger(__name__)


class CaseService(QObject):
    """Every write is one project transaction; `casesChanged` tells the editor to re-read."""

    casesChanged = Signal()
    findingsChanged = Signal(object)  # JobRecord whose suspected defects the tester decided on (re-read)
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

    def accept_edits(self, edits: list[CaseEdit]) -> None:
        """The agent's versions stay the newest ones; nothing is written."""
        if len(edits) == 1:
            current = self.case(edits[0].case_id)
            version = current.version if current else edits[0].after.version
            self.notice.emit(f"Kept the agent's edit of '{edits[0].after.title}' (version {version}).")
        elif edits:
            self.notice.emit(f"Kept the agent's edits of {len(edits)} cases.")

    def reject_edits(self, edits: list[CaseEdit]) -> dict[str, TestCase] | None:
        """Put each case back as it was before the agent's edit, as a new version (the agent's stays in the history),
        all in one transaction. Returns each case as it was just before, for an undo; None when nothing was written."""
        if self._file is None or not edits:
            return None
        store = self._file.cases
        previous = {edit.case_id: case for edit in edits if (case := store.case(edit.case_id)) is not None}
        gone = [edit.after.title for edit in edits if edit.case_id not in previous]
        store.save_cases([(edit.before.model_copy(update={"id": edit.case_id}), "tester",
                           f"Rejected the agent's edit; back to version {edit.before.version}.")
                          for edit in edits if edit.case_id in previous])
        if len(previous) == 1:
            edit = next(e for e in edits if e.case_id in previous)
            restored = store.case(edit.case_id)
            self.notice.emit(f"Rejected the agent's edit: '{edit.before.title}' is back as it was in version "
                             f"{edit.before.version} (saved as version {restored.version if restored else '?'}).")
        elif previous:
            self.notice.emit(f"Rejected the agent's edits of {len(previous)} cases: each is back as it was before "
                             "the edit (saved as a new version).")
        if gone:
            self.errorOccurred.emit(f"{', '.join(repr(t) for t in gone)} is no longer in the project, so its edit "
                                    "could not be rejected.")
        self.casesChanged.emit()
        return previous

    def restore_cases(self, cases: dict[str, TestCase], why: str,
                      written: dict[str, int] | None = None) -> list[str]:
        """Store each case as given (an undo of a rejection), as new versions in one transaction. A case whose
        newest version is no longer the one in `written` (the tester saved it since), or that is gone, is left as it
        is: returns the titles of those."""
        if self._file is None or not cases:
            return []
        store = self._file.cases
        current = {case_id: store.case(case_id) for case_id in cases}
        left = [case_id for case_id, now in current.items()
                if now is None or (written is not None and now.version != written.get(case_id, now.version))]
        store.save_cases([(case, "tester", f"{why} Back to version {case.version}.")
                          for case_id, case in cases.items() if case_id not in left])
        self.casesChanged.emit()
        return [(current[case_id] or cases[case_id]).title for case_id in left]

    def edit_job_cases(self, edits: list[CaseEdit]) -> list[TestCase]:
        """The cases the newest Edit Test Cases job looked at (those its detected changes impact, those it edited),
        in that order, as they are now."""
        wanted: list[str] = []
        if self._file is not None:
            edited = {edit.case_id for edit in edits}
            for job in reversed(self._file.jobs.all(kind="edit_test_case")):
                results = {e.get("case_id") for e in job.result.get("edits") or []}
                if edited and not edited & results:
                    continue
                for change in job.context.detected_changes:
                    wanted += change.impacted_testcase_ids or []
                wanted += job.state.get("case_ids") or []
                break
        wanted += [edit.case_id for edit in edits]
        found = (self.case(case_id) for case_id in dict.fromkeys(wanted))
        return [case for case in found if case is not None]

    # -- suspected defects ------------------------------------------------------------------------------

    def decide_finding(self, job_id: str, key: str, status: FindingStatus) -> FindingDecision | None:
        """Confirm or dismiss a job's suspected defect, its case following, in one transaction; None when it could
        not be (said as an error)."""
        if self._file is None:
            self.errorOccurred.emit("No project is open, so the decision cannot be kept. Open the project first.")
            return None
        try:
            decision = decide(self._file, job_id, key, status)
        except FindingGone as gone:
            self.errorOccurred.emit(str(gone))
            return None
        case = decision.case_before
        summary = decision.before.summary.rstrip(".")
        if status == "confirmed":
            kept = f" Its case '{case.title}' stays, marked as a known defect: its export fails until the app is " \
                   "fixed." if case else " No case checks it yet."
            self.notice.emit(f"Confirmed the suspected defect: {summary}.{kept}")
        elif status == "dismissed":
            removed = f" Its case '{case.title}' was removed (Ctrl+Z in Findings brings it back)." if case else ""
            self.notice.emit(f"Dismissed the suspected defect: {summary}.{removed}")
        self._findings_changed(job_id)
        return decision

    def undo_finding(self, decision: FindingDecision) -> None:
        """Take a decision on a suspected defect back: the finding and its case as they were."""
        if self._file is None:
            return
        try:
            undo(self._file, decision)
        except FindingGone as gone:
            self.errorOccurred.emit(str(gone))
            return
        self.notice.emit(f"Undone: the suspected defect ({decision.before.summary.rstrip('.')}) waits for your "
                         "decision again." if decision.before.status == "suspected" else
                         f"Undone: the defect is {decision.before.status} again.")
        self._findings_changed(decision.job_id)

    def _findings_changed(self, job_id: str) -> None:
        job = self._file.jobs.get(job_id) if self._file is not None else None
        self.casesChanged.emit()
        if job is not None:
            self.findingsChanged.emit(job)

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
