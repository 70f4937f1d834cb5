"""A test case as the steps the exporter writes, its expected results riding along as outcomes to assert; and the
base URL a case runs against. Light on purpose (no writers): the playground imports it at start."""

from __future__ import annotations

import time
from urllib.parse import urljoin, urlsplit

from studio.export.statements import CASE_PREFIX
from studio.models.outcomes import ASSERTABLE, ExpectedOutcome, Outcome
from studio.models.recording import RecordedStep
from studio.models.testcase import TestCase
from studio.store.project import ProjectFile


def case_steps(case: TestCase, base_url: str) -> list[RecordedStep]:
    """The case as recorded steps: each step's expected text and the case's expected results ride along as
    ExpectedOutcomes (after their step, the case's after the last one)."""
    steps: list[RecordedStep] = []
    base = base_url if base_url.endswith("/") else base_url + "/"
    # A case written from what the preflight saw carries its checks as outcomes: its expected results describe
    # them in words, and are not asserted a second time (a quoted "no longer listed" item must not be looked for).
    observed = any(isinstance(outcome, ASSERTABLE) for step in case.steps for outcome in step.outcomes)
    for index, step in enumerate(case.steps):
        url = urljoin(base, (step.url or "").lstrip("/")) if step.url else (steps[-1].url if steps else base)
        if step.outcomes:
            expected: list[Outcome] = list(step.outcomes)
        elif step.expected.strip() and not observed:
            expected = [ExpectedOutcome(text=step.expected)]
        else:
            expected = []
        steps.append(RecordedStep(
            session_id=CASE_PREFIX + case.id, index=index, at=time.time() * 1000, origin="tester", action=step.action,
            url=url, locator=step.locator, value=step.data, key=step.data if step.action == "press" else None,
            target=step.target or None, outcomes=expected))
    if steps and case.expected_results and not observed:
        last = steps[-1]
        last.outcomes = [*last.outcomes, *(ExpectedOutcome(text=text) for text in case.expected_results
                                           if text.strip())]
    return steps


def case_base_url(project: ProjectFile, case: TestCase) -> str:
    """The base URL the case's preflight resolved; else the newest one in the project; else its page's origin."""
    jobs = project.jobs
    grounded = jobs.get(case.grounding.preflight_job_id) if case.grounding.preflight_job_id else None
    for job in [grounded, *reversed(jobs.all())]:
        if job is not None and job.context.resolved_base_url:
            return job.context.resolved_base_url
    page = urlsplit(case.grounding.page_url or "")
    return f"{page.scheme}://{page.netloc}/" if page.scheme and page.netloc else ""
