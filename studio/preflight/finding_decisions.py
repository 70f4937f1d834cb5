"""The tester's decision on a suspected defect, kept in the project file in one transaction, and taken back by Undo.

Confirm: it is a defect. The case that checks the expected behaviour stays, marked as a known defect (its export
then fails until the app is fixed). Dismiss: the app behaves as intended. The case checking otherwise is removed
from the project's cases (its versions stay as history), and a later job finding the same thing again does not ask.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.models.context import Finding, FindingStatus
from studio.models.testcase import TestCase
from studio.preflight.findings import defect_mark, finding_key
from studio.store.project import ProjectFile

WORDS = {"confirmed": "Confirmed", "dismissed": "Dismissed", "suspected": "Reopened"}


class FindingGone(LookupError):
    """The job or the finding the decision is about is no longer in the project."""


@dataclass(frozen=True)
class FindingDecision:
    """One decision and what it replaced: the finding and its case as they were, so Undo puts both back."""

    job_id: str
    key: str
    status: FindingStatus
    before: Finding
    case_before: TestCase | None


def decide(project: ProjectFile, job_id: str, key: str, status: FindingStatus) -> FindingDecision:
    """Record the tester's `status` for the finding `key` of job `job_id`, and update its case to match."""
    job = project.jobs.get(job_id)
    finding = next((f for f in job.context.findings if finding_key(f) == key), None) if job is not None else None
    if job is None or finding is None:
        raise FindingGone(f"That suspected defect is no longer in {project.path.name}; reopen the job's Context.")
    case = project.cases.case(finding.case_id) if finding.case_id else None
    decided = finding.model_copy(update={"status": status})
    with project.db.atomic():
        if case is not None:
            _update_case(project, case, decided)
        job.context.findings = [decided if finding_key(f) == key else f for f in job.context.findings]
        project.jobs.save(job)
        project.findings.save(key, job_id, decided)
    return FindingDecision(job_id=job_id, key=key, status=status, before=finding, case_before=case)


def undo(project: ProjectFile, decision: FindingDecision) -> None:
    """Take a decision back: the finding's status and its case as they were before it."""
    job = project.jobs.get(decision.job_id)
    if job is None:
        raise FindingGone(f"The job of that decision is no longer in {project.path.name}.")
    with project.db.atomic():
        if decision.case_before is not None:
            project.cases.save_case(decision.case_before, "tester",
                                    f"Undone: {WORDS[decision.status].lower()} suspected defect, the case is back as "
                                    "it was.")
        job.context.findings = [decision.before if finding_key(f) == decision.key else f
                                for f in job.context.findings]
        project.jobs.save(job)
        project.findings.save(decision.key, decision.job_id, decision.before)


def _update_case(project: ProjectFile, case: TestCase, finding: Finding) -> None:
    if finding.status == "dismissed":
        # Not a defect: a case checking otherwise would fail on the app as intended. Its versions stay as history.
        project.cases.save_case(case.model_copy(update={"suspected_defect": None}), "tester",
                                f"Dismissed the suspected defect ({finding.summary}): the app behaves as intended, "
                                "so this case was removed.")
        project.cases.delete_case(case.id)
        return
    mark = defect_mark(finding)
    said = "Confirmed as a known defect" if finding.status == "confirmed" else "Marked as a suspected defect again"
    project.cases.save_case(case.model_copy(update={"suspected_defect": mark}), "tester",
                            f"{said}: {finding.summary}")
