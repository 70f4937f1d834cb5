"""The playground agents (seed 000): NEW_TESTSUITE, NEW_TEST_CASE and EDIT_TEST_CASE, each after a preflight.

Public API (the GUI and the CLI use only this):

    playground = Playground(session, project, model=None, budget=None)
    job = await playground.start(kind, url, request="", case_ids=None)   # kind: preflight | new_testsuite |
                                                                          #       new_test_case | edit_test_case
    job = await playground.resume(job, answers)                          # after job.status == "paused"
    playground.cancel()                                                   # ends the running job cleanly
    revert_edit(project, case_id, version)                                # reject an agent's edit of a case
    case_steps(case, base_url) -> list[RecordedStep]                      # a case as steps the exporter writes

job.status: running | paused (job.pending holds ≤2 questions) | completed | cancelled | budget_exhausted | failed.
job.result: {"suites": [ids], "cases": [created ids], "edits": [CaseEdit as dict], "skipped": [sentences],
             "summary": "one sentence", "outcome": how it ended}; a New Suite or New Cases that wrote no case has
             "outcome": "nothing" with "what", "tried" and "reasons" (studio.models.nothing.NothingProduced).
"""

from studio.playground.cases_io import case_steps, revert_edit
from studio.playground.runner import KIND_NAMES, Playground, PlaygroundJob

__all__ = ["KIND_NAMES", "Playground", "PlaygroundJob", "case_steps", "revert_edit"]
