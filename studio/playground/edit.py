"""EDIT_TEST_CASE: update only the selected or impacted cases to match the app as the preflight found it —
each edit with a before/after summary and its reasons; everything else untouched.

Fixes are grounded in this preflight's catalogues: a moved entry point is followed, a renamed control is
replaced by its closest counterpart on the page, a new required field is filled; what cannot be fixed is
marked stale with the reason. An edited case's own words follow what the edit changed: expected results, preconditions
and step descriptions that name a moved route, a renamed page or a renamed control say the new one (renames.py).
"""

from __future__ import annotations

import difflib
from urllib.parse import urlsplit

from studio.models.catalog import CatalogElement, FormField, PageCatalog
from studio.models.testcase import CaseEdit, CaseStep, TestCase
from studio.playground.grounding import base_path, field_specs, fill
from studio.playground.main_job import MainJob
from studio.playground.renames import Rename, renamed, reword_case, route_moved
from studio.preflight.changes import entry_path

SIMILAR_ENOUGH = 0.6


def targets(main: MainJob) -> list[TestCase]:
    """Selected cases if any were selected, else every case a detected change impacts."""
    project = main.run.project
    if project is None:
        return []
    selected = main.job.state.get("case_ids") or []
    impacted = {i for change in main.job.context.detected_changes for i in change.impacted_testcase_ids or []}
    wanted = set(selected) if selected else impacted
    return [case for case in project.cases.cases() if case.id in wanted]


def _page_catalogs(main: MainJob, path: str) -> list[PageCatalog]:
    return [c for c in main.catalogs if base_path(c) == path]


def _elements(catalogs: list[PageCatalog]) -> list[CatalogElement | FormField]:
    found: list[CatalogElement | FormField] = []
    for catalog in catalogs:
        found.extend([*catalog.actions, *catalog.nav])
        for form in catalog.forms:
            found.extend(form.fields)
            if form.submit:
                found.append(form.submit)
    return [e for e in found if e.locator is not None]


def _name(element: CatalogElement | FormField) -> str:
    return element.spec.name if isinstance(element, FormField) else element.name


def _step_name(step: CaseStep) -> str:
    last = step.locator.steps[-1] if step.locator else None
    return (last.name or last.value or "") if last else step.target


def _seen_before(main: MainJob, case: TestCase, step: CaseStep) -> CatalogElement | None:
    """The element this step was written against, as an earlier preflight of the project catalogued it."""
    project = main.run.project
    if project is None or step.locator is None:
        return None
    wanted = step.locator.python()
    jobs = [case.grounding.preflight_job_id] + [j.id for j in project.jobs.all() if j.id != main.job.id]
    for job_id in dict.fromkeys(j for j in jobs if j):
        for catalog in project.jobs.catalogs(job_id):
            for element in [*catalog.actions, *catalog.nav]:
                if element.locator is not None and element.locator.python() == wanted:
                    return element
    return None


def _replacement(step: CaseStep, elements: list[CatalogElement | FormField], before: CatalogElement | None,
                 moved: dict[str, str]) -> CatalogElement | FormField | None:
    """The same control under its new name: the same test id, else a link to where the old one led (or its new
    address), else the most similar name of the same role."""
    catalogued = [e for e in elements if isinstance(e, CatalogElement)]
    if before is not None and before.test_id:
        same = next((e for e in catalogued if e.test_id == before.test_id), None)
        if same is not None:
            return same
    if before is not None and before.href:
        old = urlsplit(before.href).path
        same = next((e for e in catalogued if e.href and urlsplit(e.href).path in (old, moved.get(old))), None)
        if same is not None:
            return same
    old_name = _step_name(step).lower()
    role = step.locator.steps[-1].role if step.locator else None
    scored = []
    for element in elements:
        if role and isinstance(element, CatalogElement) and element.role != role:
            continue
        scored.append((difflib.SequenceMatcher(None, old_name, _name(element).lower()).ratio(), element))
    scored.sort(key=lambda item: item[0], reverse=True)
    return scored[0][1] if scored and scored[0][0] >= SIMILAR_ENOUGH else None


def _heading_before(main: MainJob, case: TestCase, path: str) -> str | None:
    """What the page at `path` was called (its heading) when an earlier job of the project catalogued it."""
    project = main.run.project
    if project is None:
        return None
    jobs = [case.grounding.preflight_job_id] + [j.id for j in reversed(project.jobs.all()) if j.id != main.job.id]
    for job_id in dict.fromkeys(j for j in jobs if j and j != main.job.id):
        for catalog in project.jobs.catalogs(job_id):
            if catalog.path == path and catalog.heading:
                return catalog.heading
    return None


def _heading_now(main: MainJob, path: str) -> str | None:
    return next((c.heading for c in main.catalogs if c.path == path and c.heading), None)


def _moved_renames(main: MainJob, case: TestCase, moved: dict[str, str]) -> list[Rename | None]:
    """The routes this preflight found moved, and the pages that changed their name with the move."""
    renames: list[Rename | None] = []
    for old, new in moved.items():
        renames += [route_moved(old, new), renamed(_heading_before(main, case, old), _heading_now(main, new))]
    return renames


def _expect_moved(case: TestCase, moved: dict[str, str], reasons: list[str]) -> None:
    """A check of the address that names a moved route now expects where the app lands (the old one redirects)."""
    for step in case.steps:
        path = urlsplit(step.url or "").path
        if step.action == "expect_url" and step.url and not urlsplit(step.url).netloc and path in moved:
            step.url = step.url.replace(path, moved[path], 1)
            reasons.append(f"It now expects {moved[path]} where it expected {path}.")


def _details(main: MainJob, case_id: str | None = None) -> list[dict]:
    """The preflight's structured change details (job state), for one case or all."""
    found = main.job.state.get("change_details") or []
    return [d for d in found if case_id is None or case_id in d.get("case_ids", [])]


def edit_case(main: MainJob, case: TestCase) -> tuple[TestCase, list[str]]:
    """The case as it should be now, and the reasons (an empty list: nothing to change)."""
    after = case.model_copy(deep=True)
    reasons: list[str] = []
    changes = [c for c in main.job.context.detected_changes if case.id in (c.impacted_testcase_ids or [])]
    path = entry_path(case) or "/"
    for detail in _details(main, case.id):
        if detail["type"] == "entry_point_redirected":
            old, new = detail["old"], detail["new"]
            for step in after.steps:
                if step.action == "navigate" and step.url and (urlsplit(step.url).path or "/") == old:
                    step.url = new
            path = new
            if after.grounding.page_url:
                after.grounding.page_url = after.grounding.page_url.replace(old, new, 1)
            reasons.append(f"{old} now redirects to {new}: the case opens {new} directly.")
    for change in changes:
        if change.type in ("entry_point_missing", "permission_changed", "entry_point_unreachable"):
            after.status = "stale"
            reasons.append(f"Marked stale: {change.evidence}")
    catalogs = _page_catalogs(main, path)
    moved = {d["old"]: d["new"] for d in _details(main) if d["type"] == "entry_point_redirected"}
    renames: list[Rename | None] = []
    if catalogs:
        _fix_elements(main, after, catalogs, reasons, moved, renames)
        _fix_fields(main, after, catalogs, reasons)
    if reasons:  # an edited case: its words follow what changed; a case needing no change keeps every word
        _expect_moved(after, moved, reasons)
        reworded = reword_case(after, [*_moved_renames(main, case, moved), *renames])
        if reworded:
            reasons.append(f"Its wording follows: {', '.join(r.said() for r in reworded)}.")
    if after.status == "stale" and not any(r.startswith("Marked stale") for r in reasons) and reasons:
        after.status = case.status
    return after, reasons


def _fix_elements(main: MainJob, case: TestCase, catalogs: list[PageCatalog], reasons: list[str],
                  moved: dict[str, str], renames: list[Rename | None]) -> None:
    elements = _elements(catalogs)
    known = {e.locator.python() for e in elements if e.locator is not None}
    for step in case.steps:
        if step.locator is None or step.action.startswith("expect"):
            continue
        # A radio option is located by its label, which the catalogue lists as the group's options, not elements.
        radio_option = step.action == "check" and step.locator.strategy == "label"
        if radio_option or step.locator.python() in known:
            continue
        new = _replacement(step, elements, _seen_before(main, case, step), moved)
        if new is None or new.locator is None:
            case.status = "stale"
            reasons.append(f"Marked stale: {step.target or step.locator.python()} is gone and nothing similar is on "
                           "the page.")
            return
        old_label = _step_name(step)
        step.locator = new.locator
        if not (old_label and old_label in step.target):  # else the rewording renames it in the target's words
            step.target = _name(new)
        renames.append(renamed(old_label, _name(new)))
        reasons.append(f"'{old_label}' is now '{_name(new)}' ({new.locator.python()}).")


def _fix_fields(main: MainJob, case: TestCase, catalogs: list[PageCatalog], reasons: list[str]) -> None:
    before = {spec.name for spec in case.grounding.form_fields}
    if not before:
        return
    for catalog in catalogs:
        for form in catalog.forms:
            added = [f for f in form.fields if f.spec.required and f.spec.name not in before]
            for field in added:
                submit = form.submit.locator.python() if form.submit and form.submit.locator else None
                at = next((i for i, s in enumerate(case.steps) if s.locator and s.locator.python() == submit), None)
                if case.gap_type == "validation" and at is not None and not _fills_form(case, form, at):
                    case.expected_results.append(f"{field.spec.name} shows a message saying it is required.")
                    reasons.append(f"New required field '{field.spec.name}': it must be refused when empty too.")
                    continue
                step = fill(field)
                if step is None or at is None:
                    case.status = "stale"
                    reasons.append(f"Marked stale: the form gained a required field '{field.spec.name}' that this "
                                   "case cannot fill.")
                    continue
                case.steps.insert(at, step)
                reasons.append(f"New required field '{field.spec.name}' ({field.spec.type}): the case now fills it "
                               f"with {step.data!r}.")
    case.grounding.form_fields = field_specs(catalogs)


def _fills_form(case: TestCase, form, at: int) -> bool:
    """Whether the case fills this form's fields before pressing its button (validation cases leave them empty)."""
    names = {f.spec.name for f in form.fields}
    return any(s.action in ("fill", "select", "check") and s.target.split(":")[0] in names for s in case.steps[:at])


class CannotProceed(Exception):
    """The edit cannot be grounded (signed out, wrong role): the job ends with this sentence, changing nothing."""


def edit_test_cases(main: MainJob) -> list[CaseEdit]:
    project = main.run.project
    cases = targets(main)
    blockers = main.job.context.auth_state.blockers
    if blockers:
        # Seed 000: "cannot proceed" early on a login or role mismatch. Pages seen signed out say nothing about
        # the cases, and an edit made from them would damage a case that is still right.
        raise CannotProceed(f"Cannot proceed: {blockers[0].rstrip('.')}, so the cases' pages could not be checked "
                            f"as the cases see them. No case was changed; answer the login question (or set "
                            f"STUDIO_LOGIN_EMAIL and STUDIO_LOGIN_PASSWORD) and run the edit again.")
    main.started(len(cases))
    edits: list[CaseEdit] = []
    role = main.job.context.environment.role
    for index, case in enumerate(cases, start=1):
        main.check()
        needed = case.grounding.required_role
        if needed and role and needed.strip().lower() != role.strip().lower():
            main.item(f"case {case.id}", index, len(cases), "skipped", f"'{case.title}' needs the {needed} role; "
                      f"the preflight ran as {role}, so it was not checked or changed.")
            continue
        after, reasons = edit_case(main, case)
        if not reasons:
            main.item(f"case {case.id}", index, len(cases), "unchanged", f"'{case.title}' needs no change.")
            continue
        summary = " ".join(reasons)
        stored = project.cases.save_case(after, "agent", summary) if project else after
        edits.append(CaseEdit(case_id=case.id, before=case, after=stored, summary=summary, reasons=reasons))
        status = "stale" if stored.status == "stale" else "edited"
        main.item(f"case {case.id}", index, len(cases), status, f"'{case.title}': {summary}")
    return edits
