"""Cases out of the playground: as steps the Playwright exporter writes, and back to an earlier version."""

from __future__ import annotations

import time
from urllib.parse import urljoin

from studio.export.statements import CASE_PREFIX
from studio.models.recording import RecordedStep
from studio.models.testcase import TestCase
from studio.store.project import ProjectFile


def case_steps(case: TestCase, base_url: str) -> list[RecordedStep]:
    """A case as the steps the exporter turns into a pytest-playwright or @playwright/test test."""
    steps: list[RecordedStep] = []
    base = base_url if base_url.endswith("/") else base_url + "/"
    for index, step in enumerate(case.steps):
        url = urljoin(base, (step.url or "").lstrip("/")) if step.url else (steps[-1].url if steps else base)
        steps.append(RecordedStep(
            session_id=CASE_PREFIX + case.id, index=index, at=time.time() * 1000, origin="tester", action=step.action,
            url=url, locator=step.locator, value=step.data, key=step.data if step.action == "press" else None))
    return steps


def revert_edit(project: ProjectFile, case_id: str, version: int) -> TestCase:
    """Reject an edit: store version `version` of the case again, as its newest version (history is kept)."""
    for saved in project.cases.history(case_id):
        if saved.version == version:
            return project.cases.save_case(saved.case, "tester",
                                           f"Rejected the agent's edit; back to version {version}.")
    raise KeyError(f"Case {case_id} has no version {version}.")
