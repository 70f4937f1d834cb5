"""Suspected defects (seed 000's context_collection `findings`): behaviour users of such an app would not expect —
data gone after a reload, a counter that disagrees with its items, a control that does nothing, an uncaught page
error, a validation that checks only some fields. They are reported, never asserted as expected.

An explorer that sees one calls `report_finding(run, Finding(...), expected=Behaviour(...))`: the finding joins the
job's context_collection once (the same kind, page and summary merge their evidence), takes the tester's earlier
decision on it if the project has one, is noted in the evidence and said on the bus (`finding_reported`). `expected`
is how to check the EXPECTED behaviour from a fresh browser (its steps, with the outcomes users expect); the
playground writes the case from it, marked "fails today: suspected defect — confirm or dismiss".
"""

from __future__ import annotations

import hashlib
from urllib.parse import urlsplit

from studio.models.behaviour import Behaviour
from studio.models.context import Finding, JobRecord
from studio.models.events import FindingReported
from studio.models.testcase import SuspectedDefect
from studio.preflight.run import PreflightRun

STATE_KEY = "finding_behaviours"  # job.state: finding key -> the Behaviour that checks the expected behaviour


def finding_key(finding: Finding) -> str:
    """A finding's identity across runs and jobs: its kind, its page's path and its summary (case and spacing
    folded). The page's origin is left out, so the same app on another port is the same finding."""
    page = urlsplit(finding.page_url)
    path = (page.path or "/") + (f"#{page.fragment}" if page.fragment else "")
    said = " ".join(finding.summary.lower().split())
    return hashlib.sha1(f"{finding.kind}|{path}|{said}".encode()).hexdigest()[:16]


def report_finding(run: PreflightRun, finding: Finding, expected: Behaviour | None = None) -> Finding:
    """Add `finding` to the job's context_collection (once), publish it, and keep `expected` for its case; returns
    the finding as the job keeps it (with the tester's earlier decision when the project has one)."""
    key = finding_key(finding)
    findings = run.context.findings
    known = next((kept for kept in findings if finding_key(kept) == key), None)
    if known is not None:
        known.evidence.extend(line for line in finding.evidence if line not in known.evidence)
        kept = known
    else:
        decided = run.project.findings.get(key) if run.project is not None else None
        if decided is not None and decided.status != "suspected":
            finding = finding.model_copy(update={"status": decided.status, "case_id": decided.case_id})
        findings.append(finding)
        kept = finding
        where = f" on {urlsplit(finding.page_url).path or '/'}" if finding.page_url else ""
        run.note(f"Suspected defect{where}: {finding.summary}"
                 + (f" (the tester {kept.status} it earlier)" if kept.status != "suspected" else ""))
    if expected is not None:
        run.job.state.setdefault(STATE_KEY, {})[key] = expected.model_dump(mode="json")
    if run.project is not None:
        run.project.findings.save(key, run.job.id, kept)
    run.save()
    run.session.publish(FindingReported(job_id=run.job.id, key=key, finding=kept))
    return kept


def expected_behaviour(job: JobRecord, finding: Finding) -> Behaviour | None:
    """The steps that check what `finding` says users expect, as the explorer gave them (None when it gave none)."""
    raw = job.state.get(STATE_KEY, {}).get(finding_key(finding))
    return Behaviour.model_validate(raw) if raw else None


def defect_mark(finding: Finding) -> SuspectedDefect:
    """The mark a case written for `finding` carries."""
    return SuspectedDefect(finding_key=finding_key(finding), kind=finding.kind, summary=finding.summary,
                           status="confirmed" if finding.status == "confirmed" else "suspected")


def open_findings(job: JobRecord, page: str | None = None) -> list[Finding]:
    """The job's findings a case can still be written for: not dismissed, on `page` (a path) when given."""
    def on(finding: Finding) -> bool:
        return page is None or (urlsplit(finding.page_url).path or "/") == page

    return [finding for finding in job.context.findings if finding.status != "dismissed" and on(finding)]


def link_case(run: PreflightRun, key: str, case_id: str) -> None:
    """The case written for finding `key` is `case_id`: the job's finding and the project's record say so."""
    for finding in run.context.findings:
        if finding_key(finding) == key:
            finding.case_id = case_id
            if run.project is not None:
                run.project.findings.save(key, run.job.id, finding)
