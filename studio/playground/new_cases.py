"""NEW_TEST_CASE: cases for the scoped area only — coverage gaps first, then nice-to-have — de-duplicated
against the project's cases and grounded in what the preflight saw."""

from __future__ import annotations

import time

from studio.export.expectations import expectation_checks
from studio.export.statements import Note
from studio.models.context import SKIPPED
from studio.models.testcase import Grounding, TestCase, TestSuite
from studio.playground import templates
from studio.playground.behaviour_cases import behaviour_drafts, finding_drafts
from studio.playground.filing import Filing, file_loose_cases, loose_cases, suite_phrase, suites_for
from studio.playground.grounding import base_path, field_specs, step_number
from studio.playground.main_job import MainJob, duplicate_of, new_id
from studio.playground.templates import Draft
from studio.playground.wording import group_cases, reword_cases
from studio.preflight.discovery import behaviours_of
from studio.preflight.entry_points import AREA
from studio.preflight.findings import link_case

# The seed's order: gaps first (in its category order), then nice-to-have.
GAP_ORDER = ("validation", "permissions", "state_transitions", "concurrency", "search_filter_sort_pagination",
             "error_states", "file_upload")
NICE_TO_HAVE = ("happy_path",)
FORM_TRIED = {"refused", "save", "blank_refused"}  # behaviours the preflight saw from sending a form
# The template categories whose cases the preflight's own tries write, with the behaviours that say it tried.
WRITTEN_FROM_TRIES = {"validation": FORM_TRIED, "error_states": FORM_TRIED,
                      "search_filter_sort_pagination": {"search", "view", "route"}}


def checks_anything(draft: Draft) -> bool:
    """Whether the exported test of `draft` would assert something: an observed outcome, an expect step, or an
    expected result naming a text (in quotes) or a page path."""
    if any(step.outcomes or step.action.startswith("expect_") for step in draft.steps):
        return True
    said = [step.expected for step in draft.steps] + list(draft.expected_results)
    return any(not isinstance(check, Note) for text in said for check in expectation_checks(text, []))


def area_paths(main: MainJob, area: str | None = None) -> list[str]:
    """The pages in scope: the preflight's validated entry points (never guessed again), or a given path."""
    if area:
        return [area]
    context = main.job.context
    points = [p for p in context.candidate_entry_points if p.url and p.confidence >= 0.5]
    if not points and context.answer(AREA) == SKIPPED and context.candidate_entry_points:
        # The tester skipped the area question: the best guess, with its confidence said in the job's notes.
        points = [p for p in context.candidate_entry_points[:1] if p.url]
    return list(dict.fromkeys(p.url.split("#")[0] for p in points if p.url))


def drafts_for(main: MainJob, path: str, include_gated: bool = True) -> list[Draft]:
    catalogs = main.catalogs
    page = next((c for c in catalogs if base_path(c) == path and step_number(c) == 1), None)
    if page is None:
        return []
    context = main.job.context
    login = context.auth_state.requires_login
    # Pages closed to the role are the area's own cases only when the area is one of them (scope: a request about
    # a wizard gets no "/admin is denied" case).
    gated = [g for g in main.job.state.get("gated_pages", []) if g["path"].rstrip("/") == path.rstrip("/")] \
        if include_gated else []
    wanted = {gap.gap_type for gap in context.coverage_gaps}
    made: dict[str, list[Draft]] = {
        "validation": templates.validation(catalogs, page, login),
        "permissions": templates.permissions(page, login, gated, main.job.state.get("login_path"),
                                             context.environment.role),
        "state_transitions": [*templates.state_transitions(catalogs, page, login),
                              *templates.state_changes(page, login)],
        "concurrency": templates.concurrency(catalogs, page, login),
        "search_filter_sort_pagination": templates.search_and_filters(page, login),
        "error_states": templates.error_states(catalogs, page, login),
        "file_upload": templates.file_upload(page, login),
        "happy_path": templates.happy_path(catalogs, page, login),
    }
    seen = behaviours_of(main.job.state, path)
    tried = {b.kind for b in seen}
    for kind, by in WRITTEN_FROM_TRIES.items():
        if not tried & by:
            continue
        # The preflight tried the page's form (its search) and wrote cases from what it showed: a template for the
        # same that would check nothing (no text to see, no path; a server error that a form sending nothing never
        # meets) adds a skipped test, not a check.
        empty = [d for d in made[kind] if not checks_anything(d)]
        made[kind] = [d for d in made[kind] if d not in empty]
        main.skipped += [f"'{d.title}' was not written: it would check nothing the page showed, and the cases "
                         "written from what the preflight tried there check what it did." for d in empty]
    # What the preflight saw the page do comes first in its category: it is the most grounded.
    for draft in reversed(behaviour_drafts(seen, page, login)):
        made.setdefault(draft.gap_type, []).insert(0, draft)
        if draft.gap_type != "happy_path":
            wanted.add(draft.gap_type)
    # Open gaps first; categories existing cases already cover come after, as nice-to-have, so that each
    # case already written is skipped by name (de-duplication), never silently.
    ordered = [d for kind in GAP_ORDER if kind in wanted for d in made[kind]]
    covered = [d for kind in GAP_ORDER if kind not in wanted for d in made[kind]]
    # Suspected defects first: each is a case for expected behaviour the app does not show today.
    existing = {case.id for case in main.run.project.cases.cases()} if main.run.project is not None else set()
    defects = finding_drafts(main.job, page, login, existing)
    return defects + ordered + covered + [d for kind in NICE_TO_HAVE for d in made[kind]]


async def draft_cases(main: MainJob, paths: list[str], suite_id: str | None = None, include_gated: bool = True,
                      suites: dict[str, TestSuite] | None = None) -> list[TestCase]:
    """Write, de-duplicate and (re)word the cases for `paths`, not stored yet.

    `include_gated`: also cases for admin-only pages the role cannot open (not in a module's own suite).
    `suites`: path -> the suite its cases go in (a configured model may then propose a better grouping).
    """
    project = main.run.project
    existing = project.cases.cases() if project else []
    drafts = [(path, draft) for path in paths for draft in drafts_for(main, path, include_gated)]
    cases: list[TestCase] = []
    for path, draft in drafts:
        # A case goes in its own page's suite, else in that of the area it was written for (a role-gated page).
        owner = (suites.get(draft.page) or suites.get(path)) if suites else None
        case = _case(main, draft, owner.id if owner else suite_id)
        twin = duplicate_of(case, existing + cases)
        if twin is not None:
            main.skipped.append(f"'{draft.title}' duplicates '{twin.title}' ({twin.id}).")
            continue
        cases.append(case)
    cases = await reword_cases(main, cases)
    if suites:
        cases = await group_cases(main, cases, list({s.id: s for s in suites.values()}.values()))
    return cases


async def store_cases(main: MainJob, cases: list[TestCase], done: int = 0, total: int | None = None) -> list[TestCase]:
    """Save the cases, each one an item of the job (numbered after `done` items of `total`)."""
    project = main.run.project
    total = done + len(cases) if total is None else total
    stored = []
    for index, case in enumerate(cases, start=done + 1):
        await main.checkpoint()
        if project is not None:
            case = project.cases.save_case(case, "agent", f"Created from a {case.gap_type} gap found by preflight "
                                                           f"{main.job.id}.")
        stored.append(case)
        main.created.append(case.id)
        if case.suspected_defect is not None:
            link_case(main.run, case.suspected_defect.finding_key, case.id)
        suite = project.cases.suite(case.suite_id) if project is not None and case.suite_id else None
        where = f" in {suite_phrase(suite)}" if suite is not None else ""
        main.item(f"case {case.id}", index, total, "created", f"Created '{case.title}'{where}")
    for sentence in main.skipped:
        main.item("duplicate" if "duplicates" in sentence else "not written", 0, total, "skipped", sentence)
    return stored


async def new_test_cases(main: MainJob, paths: list[str]) -> tuple[list[TestCase], list[Filing]]:
    """NEW_TEST_CASE: draft the cases for `paths`, each filed into its module's suite (made when there is none),
    say how many, store them; returns the cases created and where they were filed."""
    filings = suites_for(main, paths)
    cases = await draft_cases(main, paths, suites={path: filing.suite for path, filing in filings.items()})
    used = {case.suite_id for case in cases}
    made = {f.suite.id: f.suite for f in filings.values() if f.new and f.suite.id in used}
    loose = loose_cases(main, {path: f.suite for path, f in filings.items() if f.suite.id in made})
    total = len(loose) + len(cases)
    main.started(total)
    project = main.run.project
    for suite in made.values():
        main.check()
        if project is not None:
            project.cases.save_suite(suite)
    file_loose_cases(main, loose, 0, total)
    stored = await store_cases(main, cases, done=len(loose), total=total)
    return stored, [f for f in filings.values() if f.suite.id in used]


def _case(main: MainJob, draft: Draft, suite_id: str | None) -> TestCase:
    context = main.job.context
    page_catalogs = [c for c in main.catalogs if base_path(c) == draft.page]
    entry = next((p.label for p in context.candidate_entry_points if p.url and p.url.split("#")[0] == draft.page), None)
    return TestCase(
        id=new_id("tc"), suite_id=suite_id, title=draft.title, preconditions=draft.preconditions,
        steps=draft.steps, expected_results=draft.expected_results, priority=draft.priority, tags=draft.tags,
        gap_type=draft.gap_type, status="draft", origin="agent", updated_at=time.time() * 1000,
        suspected_defect=draft.defect,
        grounding=Grounding(page_url=context.resolved_base_url.rstrip("/") + draft.page,
                            preflight_job_id=main.job.id, entry_label=entry,
                            form_fields=field_specs(page_catalogs),
                            required_role=context.environment.role))
