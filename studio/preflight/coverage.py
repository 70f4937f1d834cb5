"""confidence.coverage, honestly: the share of seed 000's seven gap categories the preflight really checked on the
scoped area. A category counts when the preflight looked for it with a method that could have found it (a survey of
the area's pages in the browser, the privileged pages probed signed in) AND, where the page has something of that
kind, tried it: a form sent or its wizard walked, a field typed into, a list's items changed, a search or view used.
A page with no control checks nothing (coverage 0, said so); a file input is never tried, so an upload leaves its
category unchecked.

Each category that is not checked comes with the reason, for the note the tester reads.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from studio.models.catalog import PageCatalog
from studio.preflight.discovery import behaviours_of
from studio.preflight.nothing import controls_of
from studio.preflight.run import PreflightRun
from studio.wording import plural

CATEGORIES = ("validation", "permissions", "state_transitions", "concurrency", "search_filter_sort_pagination",
              "error_states", "file_upload")
MUTATING = re.compile(r"\b(add|create|new|edit|save|delete|remove|dismiss|mark|apply|submit|upload|archive)\b", re.IGNORECASE)
TYPED = {"add", "blank_refused", "edit", "search", "save", "refused"}  # kinds whose steps typed into a field
SENT = {"save", "refused"}  # a form sent (form_trials)
CHANGED = {"add", "toggle", "edit", "remove", "page_action", "save", "reorder"}  # a state changed by the page's own controls
LISTED = {"search", "view", "route"}  # a search, a filter or a view used
NO_CONTROL = "no control was found on the area's pages"


def unchecked_categories(run: PreflightRun, area_pages: list[PageCatalog]) -> dict[str, str]:
    """Every category the preflight could not check on the area, with why (a clause: "the form on / was not sent")."""
    seen = [c for c in area_pages if not c.is_error_page and "#" not in c.path]
    # Behaviours seen on a page say it had controls, even ones its catalogue does not list (a list dragged to sort).
    if not seen or not any(controls_of(c) or _kinds(run, c.path) for c in seen):
        said = NO_CONTROL if seen else "no page of the area was seen"
        return dict.fromkeys(CATEGORIES, said)
    why: dict[str, str] = {}
    for page in seen:
        for category, reason in _page(run, page).items():
            why.setdefault(category, reason)
    signed_in = not run.context.auth_state.blockers
    if not signed_in:
        why.setdefault("permissions", "the app was not signed in to, so roles could not be compared")
    elif not run.job.state.get("privileged_probed"):
        why.setdefault("permissions", "the privileged pages were not probed")
    return {category: why[category] for category in CATEGORIES if category in why}


def checked_categories(run: PreflightRun, area_pages: list[PageCatalog]) -> set[str]:
    """The seed's categories the preflight checked on the scoped area (see the module's docstring)."""
    return set(CATEGORIES) - set(unchecked_categories(run, area_pages))


def _page(run: PreflightRun, page: PageCatalog) -> dict[str, str]:
    """The categories one page leaves unchecked, with why."""
    kinds = _kinds(run, page.path)
    wizards = [form for form in page.forms if form.step_text]
    walked = any(key.startswith(page.path + "#step-") for key in run.catalogs)
    signed_in = run.context.auth_state.requires_login and not run.context.auth_state.blockers
    # A sign-in form was sent when the job signed in through it; any other form with a password (a sign-up) was not.
    forms = [form for form in page.forms if not form.step_text and form.fields and form.submit is not None
             and not _searches(form.fields)
             and not (signed_in and any(f.spec.type == "password" for f in form.fields))]
    where = page.path
    why: dict[str, str] = {}
    if wizards and not walked:
        for category in ("validation", "state_transitions", "concurrency", "error_states"):
            why[category] = f"the wizard on {where} was not walked"
    if forms and not kinds & SENT:
        names = ", ".join(f"'{form.name}'" for form in forms[:2] if form.name.lower() not in ("", "form")) or "the form"
        for category in ("validation", "concurrency", "error_states"):
            why.setdefault(category, f"{names} on {where} was not sent")
    if page.inputs and not kinds & TYPED:
        why.setdefault("validation", f"the field '{page.inputs[0].name}' on {where} was never typed into")
    # A link such as "New item" is tried where it leads: the form behind it sent counts for it.
    submits = {form.submit.name for form in page.forms if form.submit is not None}  # said with their forms
    mutating = [action.name for action in page.actions if MUTATING.search(action.name) and action.name not in submits
                and not (action.href and _kinds(run, urlsplit(action.href).path) & CHANGED)]
    acted_on = [*(a for a in page.actions if a.name not in submits), *page.inputs, *page.search_inputs,
                *page.filters, *page.views]
    if acted_on and not kinds and not walked:
        # Controls were found and none was tried: whatever they change, nobody saw it change.
        why.setdefault("state_transitions", f"none of the {plural(len(acted_on), 'control')} on {where} was tried")
    if (mutating or page.inputs) and not kinds & CHANGED and not walked:
        what = f"'{mutating[0]}'" if mutating else f"the field '{page.inputs[0].name}'"
        why.setdefault("state_transitions", f"{what} on {where} was not tried")
    elif forms and not kinds & CHANGED:
        why.setdefault("state_transitions", why.get("validation", f"the form on {where} was not sent"))
    if page.inputs and not kinds & CHANGED:
        why.setdefault("concurrency", f"nothing was added on {where}, so a reload mid-change could not be tried")
    listing = [*page.search_inputs, *page.filters, *page.views]
    if listing and not kinds & LISTED:
        why.setdefault("search_filter_sort_pagination", f"'{listing[0].name}' on {where} was not used")
    if page.file_inputs:
        why.setdefault("file_upload", f"'{page.file_inputs[0].name}' on {where} takes a file, and no file was sent")
    return why


def _kinds(run: PreflightRun, path: str) -> set[str]:
    return {behaviour.kind for behaviour in behaviours_of(run.job.state, path)}


def _searches(fields: list) -> bool:
    return all(f.spec.type == "search" or "search" in f.spec.label.lower() for f in fields)
