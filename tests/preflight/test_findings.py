"""Suspected defects end to end in the engine: an explorer reports them once (the same one again merges its
evidence), the bus and the notes say so, New Cases writes the EXPECTED behaviour as a case marked "fails today",
and the tester's Confirm / Dismiss (and their undo) are kept in the project file — a dismissed defect's case goes,
and a later job that finds it again neither asks again nor writes its case. Real project files; no browser."""

from __future__ import annotations

from studio.models.context import Finding
from studio.models.events import FindingReported
from studio.playground.main_job import MainJob
from studio.playground.new_cases import draft_cases
from studio.preflight.finding_decisions import decide, undo
from studio.preflight.findings import finding_key, report_finding
from studio.store.project import ProjectFile
from tests.playground.defect_samples import COUNTED, COUNTER, KEPT, LOST, preflight_run, reported_project


def published(run) -> list[FindingReported]:
    seen: list[FindingReported] = []
    run.session._bus.subscribe(seen.append, FindingReported)
    return seen


async def test_a_finding_is_reported_once_with_its_evidence_and_said(tmp_path):
    with ProjectFile.open_or_create(tmp_path / "p.studio") as project:
        run = preflight_run(project)
        said = published(run)
        report_finding(run, LOST, expected=KEPT)
        report_finding(run, LOST.model_copy(update={"evidence": [*LOST.evidence, "A second reload: still empty."]}))
        report_finding(run, COUNTER)
        assert [f.kind for f in run.context.findings] == ["data_lost_on_reload", "count_disagrees"]
        assert run.context.findings[0].evidence[-1] == "A second reload: still empty."  # merged, not repeated
        assert [event.finding.kind for event in said] == ["data_lost_on_reload", "data_lost_on_reload",
                                                          "count_disagrees"]
        assert any(note.startswith("Suspected defect on /: Items added") for note in run.context.evidence.notes)
        # kept in the project file as the job runs, and by key for later jobs
        assert [f.kind for f in project.jobs.get(run.job.id).context.findings] == ["data_lost_on_reload",
                                                                                  "count_disagrees"]
        assert project.findings.get(finding_key(LOST)).status == "suspected"


async def test_new_cases_write_the_expected_behaviour_marked_as_failing_today(tmp_path):
    project, job, cases = await reported_project(tmp_path / "p.studio")
    with project:
        marked = [case for case in cases if case.suspected_defect is not None]
        assert [case.title for case in marked] == ["Errands: Added items are still there after a reload",
                                                   "Errands: The counter counts the active items"]
        kept = marked[0]
        assert kept.suspected_defect.mark.startswith("Fails today: suspected defect — confirm or dismiss.")
        assert kept.suspected_defect.summary == LOST.summary and kept.priority == "P1"
        # the expected behaviour is what it checks: the item is still listed after the reload
        [reload] = [step for step in kept.steps if step.action == "reload"]
        assert reload.outcomes[0].texts == ["Milk"]
        # the finding points at its case, in the job and in the project's record
        assert [f.case_id for f in job.context.findings] == [marked[0].id, marked[1].id]
        assert project.findings.get(finding_key(LOST)).case_id == kept.id


async def test_confirm_dismiss_and_undo_are_kept_in_the_project_file(tmp_path):
    path = tmp_path / "p.studio"
    project, job, cases = await reported_project(path)
    lost_case, counter_case = (c.id for c in cases if c.suspected_defect is not None)
    with project:
        confirmed = decide(project, job.id, finding_key(LOST), "confirmed")
        case = project.cases.case(lost_case)
        assert case.suspected_defect.status == "confirmed" and case.version == 2
        assert case.suspected_defect.mark.startswith("Known defect (confirmed by the tester)")
        dismissed = decide(project, job.id, finding_key(COUNTER), "dismissed")
        assert project.cases.case(counter_case) is None  # not a defect: the case checking otherwise is gone
        assert "Dismissed the suspected defect" in project.cases.history(counter_case)[-1].summary
        undo(project, dismissed)
        back = project.cases.case(counter_case)
        assert back is not None and back.suspected_defect.status == "suspected"
        assert [f.status for f in project.jobs.get(job.id).context.findings] == ["confirmed", "suspected"]
        undo(project, confirmed)
        assert project.cases.case(lost_case).suspected_defect.status == "suspected"
        decide(project, job.id, finding_key(COUNTER), "dismissed")
    with ProjectFile.open(path) as reopened:  # the decisions are in the file
        assert [f.status for f in reopened.jobs.get(job.id).context.findings] == ["suspected", "dismissed"]
        assert reopened.findings.get(finding_key(COUNTER)).status == "dismissed"

        # A later job finds the dismissed one again: it is known as dismissed, and no case is written for it.
        later = preflight_run(reopened, job_id="job-2")
        kept = report_finding(later, Finding(**{**COUNTER.model_dump(), "evidence": ["Seen again."]}),
                              expected=COUNTED)
        assert kept.status == "dismissed"
        drafts = await draft_cases(MainJob(run=later), ["/"])
        assert not any(case.suspected_defect for case in drafts)
