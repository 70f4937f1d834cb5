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

DROP = "drop"  # the name a drag step's drop locator goes by among its related locators


def case_steps(case: TestCase, base_url: str) -> list[RecordedStep]:
    """The case as recorded steps: each step's expected text and the case's expected results ride along as
    ExpectedOutcomes (after their step, the case's after the last one)."""
    steps: list[RecordedStep] = []
    base = _folder(base_url)
    start = base if base.startswith(base_url) else base_url  # a named page is where a case without a URL starts
    # A case written from what the preflight saw carries its checks as outcomes: its expected results describe
    # them in words, and are not asserted a second time (a quoted "no longer listed" item must not be looked for).
    observed = any(isinstance(outcome, ASSERTABLE) for step in case.steps for outcome in step.outcomes)
    for index, step in enumerate(case.steps):
        url = _page_url(base, step.url) if step.url else (steps[-1].url if steps else start)
        if step.outcomes:
            expected: list[Outcome] = list(step.outcomes)
        elif step.expected.strip() and not observed:
            expected = [ExpectedOutcome(text=step.expected)]
        else:
            expected = []
        steps.append(RecordedStep(
            session_id=CASE_PREFIX + case.id, index=index, at=time.time() * 1000, origin="tester", action=step.action,
            url=url, locator=step.locator, value=DROP if step.action == "drag" else step.data, key=step.data if step.action == "press" else None,
            target=step.target or None, outcomes=expected,
            related_locators={DROP: step.drop} if step.action == "drag" and step.drop else {}))
    if steps and case.expected_results and not observed:
        last = steps[-1]
        last.outcomes = [*last.outcomes, *(ExpectedOutcome(text=text) for text in case.expected_results
                                           if text.strip())]
    return steps


def _folder(base_url: str) -> str:
    """The folder a base URL's paths are relative to: itself (…/app/ or …/app), or a named page's folder
    (…/examples/basic.html -> …/examples/)."""
    if base_url.endswith("/"):
        return base_url
    last = urlsplit(base_url).path.rsplit("/", 1)[-1]
    return urljoin(base_url, "./") if "." in last else base_url + "/"


def _page_url(folder: str, path: str) -> str:
    """A step's page: a path that already starts with the base's folder is absolute (the page's own pathname);
    others are relative to the folder (an app under /app/ keeps its prefix)."""
    prefix = urlsplit(folder).path or "/"
    if path.startswith("/") and path.startswith(prefix):
        return urljoin(folder, path)
    return urljoin(folder, path.lstrip("/"))


def case_base_url(project: ProjectFile, case: TestCase) -> str:
    """The base URL the case's preflight resolved; else the newest one in the project; else its page's origin."""
    jobs = project.jobs
    grounded = jobs.get(case.grounding.preflight_job_id) if case.grounding.preflight_job_id else None
    for job in [grounded, *reversed(jobs.all())]:
        if job is not None and job.context.resolved_base_url:
            return job.context.resolved_base_url
    page = urlsplit(case.grounding.page_url or "")
    return f"{page.scheme}://{page.netloc}/" if page.scheme and page.netloc else ""
