"""Cases from what the preflight saw a page do (its behaviours): the steps it tried, from a fresh browser, and the
checks of what the browser saw change — an item added with its text, a counter's new text, a box checked, the
view's address. Nothing in them is guessed, so an exported case fails when the app stops doing it."""

from __future__ import annotations

from studio.models.behaviour import Behaviour
from studio.models.catalog import PageCatalog
from studio.models.context import JobRecord
from studio.models.outcomes import ASSERTABLE
from studio.models.testcase import Priority
from studio.playground.templates import Draft
from studio.preflight.findings import defect_mark, expected_behaviour, open_findings
from studio.preflight.naming import area_name

# Seed 000's categories for what each behaviour exercises (adding is the page's main flow).
GAP_OF = {"add": "happy_path", "blank_refused": "validation", "toggle": "state_transitions",
          "edit": "state_transitions", "remove": "state_transitions", "page_action": "state_transitions",
          "view": "search_filter_sort_pagination", "route": "search_filter_sort_pagination", "search":
          "search_filter_sort_pagination", "persist": "concurrency", "save": "happy_path", "refused": "validation", "select": "state_transitions",
          "key": "state_transitions", "reorder": "state_transitions"}
PRIORITY: dict[str, Priority] = {"add": "P0", "save": "P0", "toggle": "P1", "edit": "P1", "remove": "P1",
                                 "persist": "P1", "refused": "P1", "blank_refused": "P2", "view": "P2", "route": "P2",
                                 "page_action": "P2", "select": "P2", "key": "P2", "reorder": "P1"}


def behaviour_drafts(behaviours: list[Behaviour], page: PageCatalog, requires_login: bool) -> list[Draft]:
    drafts = []
    where = area_name(page, fallback=page.path)  # never empty: a title ': ' gave cases named ': Adds an item'
    for behaviour in behaviours:
        setup = [step.model_copy(update={"outcomes": [], "expected": ""}) for step in behaviour.setup]
        checks = [outcome.why for step in behaviour.steps for outcome in step.outcomes
                  if isinstance(outcome, ASSERTABLE) and outcome.why]
        expected = list(dict.fromkeys(checks)) or [behaviour.summary]
        if behaviour.kind == "blank_refused":
            expected = ["Nothing is added: the list stays as it was."]
        drafts.append(Draft(
            title=f"{where}: {behaviour.name}", gap_type=GAP_OF.get(behaviour.kind, "state_transitions"),
            priority=PRIORITY.get(behaviour.kind, "P2"),
            preconditions=["Signed in with a test account."] if requires_login else ["A fresh browser (no saved data)."],
            tags=[behaviour.kind, "tried by preflight"], page=behaviour.page,
            steps=[*setup, *behaviour.steps], expected_results=expected))
    return drafts


def finding_drafts(job: JobRecord, page: PageCatalog, requires_login: bool, existing: set[str]) -> list[Draft]:
    """A case per open suspected defect of the page that the explorer said how to check: the EXPECTED behaviour,
    marked "fails today: suspected defect — confirm or dismiss" (never the broken behaviour as expected). A finding
    whose case is in the project (`existing` ids) already has its case."""
    drafts = []
    for finding in open_findings(job, page.path):
        behaviour = expected_behaviour(job, finding)
        if behaviour is None or (finding.case_id and finding.case_id in existing):
            continue
        for draft in behaviour_drafts([behaviour], page, requires_login):
            draft.defect = defect_mark(finding)
            draft.priority = "P1"
            draft.tags = [*draft.tags, "suspected defect"]
            drafts.append(draft)
    return drafts
