"""Case templates, one per gap category (seed 000), written from what the preflight saw on a page.

These are the offline writer: deterministic, grounded, plain. A configured model may reword titles and
expectations afterwards; the steps stay these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from studio.models.catalog import PageCatalog
from studio.models.testcase import CaseStep, Priority, SuspectedDefect
from studio.preflight.gaps import MUTATING
from studio.playground.grounding import (
    base_path,
    click,
    complete_form,
    expect_gone,
    expect_text,
    expect_url,
    fill,
    main_form,
    navigate,
    reach_step,
    step_number,
    wizard_steps,
)

SPECIAL_TEXT = "<script>alert('x')</script> ñ 漢字 \"quotes\" & ampersands"
LONG_TEXT = "x" * 5001

PAGING = re.compile(r"^(?:next|previous|prev|first|last|older|newer|\d+|[‹›«»←→]+)(?: page)?$", re.IGNORECASE)


@dataclass
class Draft:
    """A case before it is stored: the writer's output, checked for duplicates and grounding next."""

    title: str
    gap_type: str
    steps: list[CaseStep]
    expected_results: list[str]
    priority: Priority = "P2"
    preconditions: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    page: str = ""
    defect: SuspectedDefect | None = None  # checks expected behaviour the app does not show today (a finding)


def _signed_in(requires_login: bool) -> list[str]:
    return ["Signed in with a test account."] if requires_login else []


def _grounded(steps: list[CaseStep | None]) -> list[CaseStep] | None:
    """The steps when every one could be written; None when one could not (its element has no locator)."""
    written = [step for step in steps if step is not None]
    return written if len(written) == len(steps) else None


def validation(catalogs: list[PageCatalog], page: PageCatalog, requires_login: bool) -> list[Draft]:
    drafts = []
    steps_of_wizard = wizard_steps(catalogs, base_path(page))
    for catalog in steps_of_wizard or [page]:
        form = main_form(catalog)
        if form is None or form.submit is None:
            continue
        required = [f for f in form.fields if f.spec.required]
        if not required:
            continue
        before = reach_step(steps_of_wizard, step_number(catalog)) if steps_of_wizard else []
        submit = click(form.submit, "The form is not sent.")
        if before is None or submit is None:
            continue
        where = f"{catalog.heading or base_path(catalog)}" + (f" ({form.step_text.lower()})" if form.step_text else "")
        stay = [expect_text(form.step_text, f"It stays on {form.step_text}.")] if form.step_text else []
        names = ", ".join(f.spec.name for f in required)
        drafts.append(Draft(
            title=f"{where}: empty required fields are refused", gap_type="validation", priority="P1",
            preconditions=_signed_in(requires_login), tags=["validation", "negative"], page=base_path(page),
            steps=[navigate(page), *before, submit, *stay],
            expected_results=[f"Each of {names} shows a message saying it is required.", "Nothing is saved."]))
        for target in [f for f in form.fields if f.spec.type in ("text", "textarea")][:2]:
            others = _grounded([fill(f) for f in required if f is not target])
            if others is None:
                continue
            for value, label, expectation in (
                    (SPECIAL_TEXT, "special characters", "is kept exactly as typed, shown escaped, never run"),
                    (LONG_TEXT, "over-long text", "is refused or cut at its documented maximum, with a message")):
                entry = fill(target, value)
                if entry is None:
                    continue
                drafts.append(Draft(
                    title=f"{where}: {target.spec.name} with {label}", gap_type="validation",
                    preconditions=_signed_in(requires_login), tags=["validation", "boundary"], page=base_path(page),
                    steps=[navigate(page), *before, *others, entry, submit.model_copy(update={"expected": ""})],
                    expected_results=[f"{target.spec.name} {expectation}."]))
    return drafts


def state_transitions(catalogs: list[PageCatalog], page: PageCatalog, requires_login: bool) -> list[Draft]:
    steps_of_wizard = wizard_steps(catalogs, base_path(page))
    if len(steps_of_wizard) < 2:
        return []
    second = steps_of_wizard[1]
    back = next((a for a in second.actions if a.name.lower() in ("back", "previous")), None)
    first_form, second_form = main_form(steps_of_wizard[0]), main_form(second)
    forward = reach_step(steps_of_wizard, 2)
    back_step = click(back, "The first step shows again.")
    if back_step is None or first_form is None or second_form is None or forward is None:
        return []
    if not first_form.step_text or not second_form.step_text:  # wizard steps always have one
        return []
    return [Draft(
        title=f"{page.heading} wizard: Back keeps what was entered", gap_type="state_transitions", priority="P2",
        preconditions=_signed_in(requires_login), tags=["state", "wizard"], page=base_path(page),
        steps=[navigate(page), *forward, expect_text(second_form.step_text, "The second step shows."),
               back_step, expect_text(first_form.step_text, "")],
        expected_results=["Every value entered on the first step is still there after Back.",
                          "Moving forward again keeps the second step's values."])]


def state_changes(page: PageCatalog, requires_login: bool) -> list[Draft]:
    """Actions that change what the page shows (mark, dismiss, delete…): each one's effect is visible."""
    drafts = []
    for action in [a for a in page.actions if a.locator is not None and MUTATING.search(a.name)][:3]:
        step = click(action, f"The page reflects '{action.name}' at once.")
        if step is None:
            continue
        drafts.append(Draft(
            title=f"{page.heading}: '{action.name}' changes the list as it says", gap_type="state_transitions",
            preconditions=_signed_in(requires_login), tags=["state"], page=base_path(page),
            steps=[navigate(page), step],
            expected_results=[f"After '{action.name}' the affected items show their new state (and counts update).",
                              "Reloading the page shows the same state (it was saved, not only drawn)."]))
    return drafts


def concurrency(catalogs: list[PageCatalog], page: PageCatalog, requires_login: bool) -> list[Draft]:
    steps_of_wizard = wizard_steps(catalogs, base_path(page))
    last = steps_of_wizard[-1] if steps_of_wizard else page
    form = main_form(last)
    if form is None or form.submit is None:
        return []
    before = reach_step(steps_of_wizard, step_number(last)) if steps_of_wizard else []
    fields = _grounded([fill(f) for f in form.fields if f.spec.required])
    submit = click(form.submit, "")
    if before is None or submit is None or fields is None:
        return []
    # One double-click: two presses as fast as a user's, the second landing while the first is in flight. Two
    # separate clicks would wait for the button between them, and a form that moves on after its first submission
    # would leave the second waiting for a button that is gone.
    double = submit.model_copy(update={"action": "dblclick", "target": f"{submit.target} (twice, quickly)",
                                       "expected": "Only one submission is made."})
    return [Draft(
        title=f"{page.heading}: pressing {form.submit.name} twice submits once", gap_type="concurrency",
        priority="P1", preconditions=_signed_in(requires_login), tags=["concurrency", "double-submit"],
        page=base_path(page), steps=[navigate(page), *before, *fields, double],
        expected_results=["Exactly one record is created (one confirmation, one reference).",
                          "The second press is ignored or disabled while the first is in flight."])]


def error_states(catalogs: list[PageCatalog], page: PageCatalog, requires_login: bool) -> list[Draft]:
    steps_of_wizard = wizard_steps(catalogs, base_path(page))
    last = steps_of_wizard[-1] if steps_of_wizard else page
    form = main_form(last)
    if form is None or form.submit is None:
        return []
    before = reach_step(steps_of_wizard, step_number(last)) if steps_of_wizard else []
    submit = click(form.submit, "An error message explains the failure.")
    if before is None or submit is None:
        return []
    return [Draft(
        title=f"{page.heading}: a server error on {form.submit.name} keeps the answers", gap_type="error_states",
        priority="P2", preconditions=[*_signed_in(requires_login), "The server answers HTTP 500 to the submit "
                                      "request (a network rule in the test)."],
        tags=["error", "resilience"], page=base_path(page), steps=[navigate(page), *before, submit],
        expected_results=["A readable error message is shown (no stack trace, no blank page).",
                          "Everything entered is still there, so the user can retry."])]


def permissions(page: PageCatalog, requires_login: bool, gated: list[dict], login_path: str | None = None,
                role: str | None = None) -> list[Draft]:
    """Signed-out visitors go to the login the preflight found; pages closed to the preflight's role stay closed."""
    drafts = []
    if requires_login:
        sent = [expect_url(login_path, "The sign-in page opens instead.")] if login_path else []
        drafts.append(Draft(
            title=f"{page.heading}: signed-out visitors are sent to sign in", gap_type="permissions", priority="P1",
            preconditions=["Signed out (no session cookie)."], tags=["permissions", "auth"], page=base_path(page),
            steps=[navigate(page), *sent],
            expected_results=[f"The sign-in page{f' ({login_path})' if login_path else ''} opens and, after signing "
                              f"in, returns to {base_path(page)}."]))
    who = role or "the role the preflight used"
    for gate in gated:
        expected = [f"{gate['path']} answers {gate['status']} with '{gate['heading']}'."]
        if not gate.get("in_nav", False):
            expected.append(f"No link to {gate['path']} is shown in the navigation of {who}.")
        drafts.append(Draft(
            title=f"{gate['path']} is denied to {who}", gap_type="permissions", priority="P1",
            preconditions=[f"Signed in as {who} (without access to {gate['path']})."], tags=["permissions", "roles"],
            page=gate["path"],
            steps=[CaseStep(action="navigate", url=gate["path"], target=f"the {gate['path']} page"),
                   expect_text(gate["heading"], f"The page says {gate['heading']}.")],
            expected_results=expected))
    return drafts


def search_and_filters(page: PageCatalog, requires_login: bool) -> list[Draft]:
    drafts = []
    for search in page.search_inputs:
        if search.locator is None:
            continue
        drafts.append(Draft(
            title=f"{page.heading}: a search with no results says so", gap_type="search_filter_sort_pagination",
            preconditions=_signed_in(requires_login), tags=["search"], page=base_path(page),
            steps=[navigate(page), CaseStep(action="fill", target=search.name, locator=search.locator,
                                            data="zzzz-no-such-thing", expected="The list empties.")],
            expected_results=["An empty-state message names the search term.", "Clearing the search restores the list."]))
    # Paging links ("Next", "Previous", "2") move through the list, they do not filter it (the preflight tries Next).
    filters = [f for f in page.filters if not PAGING.match(f.name.strip())]
    toggles = [step for f in filters if (step := click(f, f"Only items matching '{f.name}' are listed."))][:4]
    if toggles:
        drafts.append(Draft(
            title=f"{page.heading}: each filter shows only matching items", gap_type="search_filter_sort_pagination",
            preconditions=_signed_in(requires_login), tags=["filter"], page=base_path(page),
            steps=[navigate(page), *toggles],
            expected_results=["Each filter narrows the list to its items and marks itself as active.",
                              "A filter with no matches shows an empty state."]))
    return drafts


def _upload_files(accept: str | None, limit: str | None) -> tuple[str, str, str]:
    """(oversized file, wrong-type file, what the field takes) from the input's accept attribute and the stated
    limit; nothing invented when the page says nothing."""
    kinds = [k.strip().lower() for k in (accept or "").split(",") if k.strip()]
    extension = next((k.lstrip(".") for k in kinds if k.startswith(".")), None)
    if extension is None and kinds:
        extension = {"image/*": "png", "image/jpeg": "jpg", "application/pdf": "pdf", "text/csv": "csv",
                     "text/plain": "txt"}.get(kinds[0], kinds[0].split("/")[-1].split("+")[0])
    big = f"a .{extension or 'file'} file just over {limit}" if limit else \
        f"a .{extension} file larger than the app allows" if extension else "a file larger than the app allows"
    wrong = "notes.txt" if kinds and not any("text" in k or k == ".txt" for k in kinds) else \
        "archive.zip" if kinds else "a file of a type the app does not take (e.g. an executable)"
    return big, wrong, ", ".join(kinds) or "the types the page states"


def file_upload(page: PageCatalog, requires_login: bool) -> list[Draft]:
    drafts = []
    for upload in page.file_inputs:
        if upload.locator is None:
            continue
        big, wrong, takes = _upload_files(upload.accept, upload.size_limit)
        size = f"Files over {upload.size_limit} are refused" if upload.size_limit else "Oversized files are refused"
        drafts.append(Draft(
            title=f"{page.heading}: {upload.name} refuses oversized and wrong-type files", gap_type="file_upload",
            preconditions=_signed_in(requires_login), tags=["upload", "negative"], page=base_path(page),
            steps=[navigate(page), CaseStep(action="upload", target=upload.name, locator=upload.locator,
                                            data=big, expected="A size error is shown."),
                   CaseStep(action="upload", target=upload.name, locator=upload.locator, data=wrong,
                            expected="A file-type error is shown.")],
            expected_results=[f"{size}, and files other than {takes} are refused, each with its own message.",
                              "Signed out, the upload is refused and asks to sign in."]))
    return drafts


def happy_path(catalogs: list[PageCatalog], page: PageCatalog, requires_login: bool) -> list[Draft]:
    """Nice-to-have after the gaps: the main flow completed with valid data."""
    steps_of_wizard = wizard_steps(catalogs, base_path(page))
    if not steps_of_wizard:
        return []
    last = steps_of_wizard[-1]
    reach = reach_step(steps_of_wizard, step_number(last))
    form = main_form(last)
    final = complete_form(form, "A confirmation is shown.") if form else None
    if reach is None or final is None:
        return []
    return [Draft(
        title=f"{page.heading}: complete the wizard with valid data", gap_type="happy_path", priority="P1",
        preconditions=_signed_in(requires_login), tags=["smoke", "happy-path"], page=base_path(page),
        # The preflight never submits, so the confirmation's wording is unknown; what it does know: a wizard
        # that accepted its last step no longer offers that step's button (a refused one keeps it, with errors).
        steps=[navigate(page), *reach, *final, expect_gone(final[-1], "The wizard is finished.")],
        expected_results=["A confirmation with a reference is shown.", "The new record appears in its list."])]
