"""Objective 6: coverage gaps, rule-based (seed 000's categories), each grounded in something on a page.

validation · permissions · state transitions · concurrency · search/filter/sort/pagination · error states ·
file upload. A category counts as covered when a stored case for that page already has that gap type.

confidence.coverage is the share of these seven categories the preflight really checked on the scoped area
(coverage.py): looked for in the browser and, where the page has something of that kind, tried. A login that was
skipped, a form never sent or a page with no control leaves categories unchecked, and the note says why.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from studio.models.behaviour import Behaviour
from studio.models.catalog import PageCatalog
from studio.models.context import CoverageGap
from studio.preflight.coverage import CATEGORIES, MUTATING, NO_CONTROL, unchecked_categories
from studio.preflight.discovery import behaviours_of
from studio.preflight.run import PreflightRun
from studio.wording import plural

__all__ = ["CATEGORIES", "MUTATING", "behaviour_gaps", "detect_gaps", "page_gaps"]



def page_gaps(catalog: PageCatalog, requires_login: bool, gated: list[dict], role: str | None = None,
              nav_paths: set[str] | None = None) -> list[CoverageGap]:
    """Every gap a page invites, before looking at what existing cases cover."""
    base = catalog.path.split("#")[0]
    name = catalog.heading or base
    gaps: list[CoverageGap] = []
    later_step = "#step-" in catalog.path
    for form in catalog.forms:
        required = [f.spec.name for f in form.fields if f.spec.required]
        where = f"{name} ({form.step_text.lower()})" if form.step_text else name
        if required:
            gaps.append(CoverageGap(gap_type="validation", suggestion=(
                f"On {where}, leave {', '.join(repr(r) for r in required[:3])} empty, then enter invalid, over-long "
                f"and special-character values, and press '{form.submit.name if form.submit else 'submit'}': each "
                "must be refused with a message next to the field.")))
        if later_step:
            continue  # a wizard's flow-wide gaps are listed once, at its first step
        if form.step_text:
            gaps.append(CoverageGap(gap_type="concurrency", suggestion=(
                f"Complete the {name} wizard and double-click its final button: exactly one record may be created; "
                "refresh on a middle step and check the wizard neither loses nor duplicates what was entered.")))
            gaps.append(CoverageGap(gap_type="error_states", suggestion=(
                f"Make the server fail (HTTP 500, offline) when the {name} wizard is submitted: the page must say "
                "what went wrong and keep every step's answers.")))
        elif form.submit is not None:
            gaps.append(CoverageGap(gap_type="concurrency", suggestion=(
                f"Double-click '{form.submit.name}' on {where} and check that it happens once; refresh the page "
                "in the middle and check nothing is half-saved.")))
            gaps.append(CoverageGap(gap_type="error_states", suggestion=(
                f"Make the server fail (HTTP 500, offline) when '{form.submit.name}' is pressed on {where}: the page "
                "must say what went wrong and keep what was typed.")))
        if form.step_text:
            gaps.append(CoverageGap(gap_type="state_transitions", suggestion=(
                f"Go forward and back through the {name} wizard ({form.step_text.lower()}): entered data must be kept,"
                " Back must work on every step, and leaving mid-way must not create anything.")))
    mutating = [a.name for a in catalog.actions if MUTATING.search(a.name)]
    if mutating and not later_step:
        gaps.append(CoverageGap(gap_type="state_transitions", suggestion=(
            f"On {name}, check each state change ({', '.join(repr(m) for m in mutating[:3])}): the list updates, "
            "and undo/cancel (where offered) restores the previous state.")))
    if catalog.search_inputs or catalog.filters:
        controls = [c.name for c in [*catalog.search_inputs, *catalog.filters]][:4]
        gaps.append(CoverageGap(gap_type="search_filter_sort_pagination", suggestion=(
            f"On {name}, use {', '.join(repr(c) for c in controls)} with results, with no results and with special "
            "characters; each must show exactly the matching items and an empty state when nothing matches.")))
    for upload in catalog.file_inputs:
        gaps.append(CoverageGap(gap_type="file_upload", suggestion=(
            f"On {name}, upload through '{upload.name}' a file that is too large, one of the wrong type and a valid "
            "one; and try it signed out: each must get its own clear answer.")))
    if requires_login:
        gaps.append(CoverageGap(gap_type="permissions", suggestion=(
            f"Open {base} signed out: it must send you to the sign-in page and come back to {base} after it.")))
    for page in gated:
        hidden = not page.get("in_nav") and page["path"] not in (nav_paths or set())
        where = " and is hidden from its navigation" if hidden else ""
        who = f"the {role} role" if role else "the current role"
        gaps.append(CoverageGap(gap_type="permissions", suggestion=(
            f"{page['path']} answers {page['status']} ({page['heading']}) for {who}{where}: test it with each role "
            f"(denied for {role or 'this role'}, allowed for a role that may open it).")))
    return gaps


def behaviour_gaps(catalog: PageCatalog, behaviours: list[Behaviour]) -> list[CoverageGap]:
    """Gaps a page's tried behaviours invite (what it was seen to do, each worth its negative and boundary cases)."""
    name = catalog.heading or catalog.path
    kinds: dict[str, list[str]] = {}
    for behaviour in behaviours:
        kinds.setdefault(behaviour.kind, []).append(behaviour.name)
    gaps = []
    if "add" in kinds:
        gaps.append(CoverageGap(gap_type="validation", suggestion=(
            f"On {name}, add entries that are empty, only spaces, very long, or full of special characters and "
            "markup: each must be refused or kept exactly as typed, shown escaped.")))
    changes = [n for k in ("toggle", "edit", "remove", "page_action", "reorder") for n in kinds.get(k, [])]
    if changes:
        gaps.append(CoverageGap(gap_type="state_transitions", suggestion=(
            f"On {name}, check every state change ({'; '.join(changes[:4])}): counters and lists follow at once, "
            "and cancelling an edit (Escape) restores the old text.")))
    views = kinds.get("view", []) + kinds.get("route", [])
    if views:
        gaps.append(CoverageGap(gap_type="search_filter_sort_pagination", suggestion=(
            f"On {name}, each view ({'; '.join(views[:3])}) lists exactly its items, with and without items, and "
            "opening a view by its address shows the same.")))
    if "persist" in kinds or "add" in kinds:
        gaps.append(CoverageGap(gap_type="concurrency", suggestion=(
            f"On {name}, reload in the middle of changes and open the app in two tabs: nothing is lost or "
            "duplicated.")))
    return gaps


def detect_gaps(run: PreflightRun) -> None:
    run.objective = "detect_gaps"
    context = run.context
    area = {point.url.split("#")[0] for point in context.candidate_entry_points if point.url and point.confidence >= 0.5}
    pages = [c for path, c in run.catalogs.items() if path.split("#")[0] in area and not c.is_error_page] \
        or [c for c in run.catalogs.values() if not c.is_error_page]
    existing = run.project.cases.cases() if run.project else []
    covered = {(c.gap_type, urlsplit(c.grounding.page_url or "").path or "/") for c in existing if c.gap_type}
    gated = run.job.state.get("gated_pages", [])
    gaps: list[CoverageGap] = []
    seen: set[str] = set()
    nav_paths = {urlsplit(page.url).path for page in context.ui_map.key_pages if page.url}
    for index, catalog in enumerate(pages):
        base = catalog.path.split("#")[0]
        found = page_gaps(catalog, context.auth_state.requires_login and index == 0,
                          gated if index == 0 else [], context.environment.role, nav_paths)
        found += behaviour_gaps(catalog, behaviours_of(run.job.state, base))
        for gap in found:
            if (gap.gap_type, base) in covered or gap.suggestion in seen:
                continue
            seen.add(gap.suggestion)
            gaps.append(gap)
    context.coverage_gaps = gaps
    missing = {gap.gap_type for gap in gaps}
    unchecked = unchecked_categories(run, [c for path, c in run.catalogs.items() if path.split("#")[0] in area])
    context.confidence.coverage = round((len(CATEGORIES) - len(unchecked)) / len(CATEGORIES), 2)
    if unchecked.get("validation") == NO_CONTROL:
        run.note(f"No page of the area showed anything to check ({NO_CONTROL}), so coverage is 0.")
    elif unchecked:
        by_reason: dict[str, list[str]] = {}
        for category, why in unchecked.items():
            by_reason.setdefault(why, []).append(category)
        run.note("Coverage gaps could not be checked for: " + "; ".join(f"{', '.join(categories)} ({why})" for
                                                                        why, categories in by_reason.items()) + ".")
    run.progress(f"{plural(len(gaps), 'coverage gap')} in {len(missing)} categor{'y' if len(missing) == 1 else 'ies'}")
