"""Cases out of the playground: as steps the Playwright exporter writes, and back to an earlier version."""

from __future__ import annotations

from studio.export.from_cases import case_steps as export_case_steps
from studio.models.recording import RecordedStep
from studio.models.testcase import TestCase
from studio.store.project import ProjectFile


def case_steps(case: TestCase, base_url: str) -> list[RecordedStep]:
    """A case as the steps the exporter turns into a pytest-playwright or @playwright/test test (its expected results
    included, as the assertions they become)."""
    return export_case_steps(case, base_url)


def revert_edit(project: ProjectFile, case_id: str, version: int) -> TestCase:
    """Reject an edit: store version `version` of the case again, as its newest version (history is kept)."""
    for saved in project.cases.history(case_id):
        if saved.version == version:
            return project.cases.save_case(saved.case, "tester",
                                           f"Rejected the agent's edit; back to version {version}.")
    raise KeyError(f"Case {case_id} has no version {version}.")
