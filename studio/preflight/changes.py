"""Objective 5: detect app changes that make stored test cases stale — entry points that redirect, 404 or no
longer answer, pages that became permission-gated or dropped out of the navigation (still answering), buttons that
are gone, form fields added/removed/changed.

Each change goes to context_collection.detected_changes as the seed's {type, evidence, impacted_testcase_ids};
its structured details (old and new path, field, nav label) go to the job's state under "change_details", for the
EDIT agent to act on without reading the English evidence.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from urllib.parse import urlsplit

from studio.models.catalog import PageCatalog
from studio.models.context import DetectedChange
from studio.models.testcase import FieldSpec, TestCase
from studio.preflight.flows import walk_wizard
from studio.preflight.run import PreflightRun
from studio.wording import plural

# Steps after one of these may be on another page (or another wizard step): not checked on the entry page.
PAGE_CHANGING = ("navigate",)
NAV_PREFIX = "Top nav › "
Findings = dict[tuple[str, str], list[str]]
Details = dict[tuple[str, str], dict]


def entry_path(case: TestCase) -> str | None:
    """Where the case starts: a path on the app, or a whole URL when the case names another host."""
    for step in case.steps:
        if step.action == "navigate" and step.url:
            parts = urlsplit(step.url)
            return step.url if parts.netloc else (parts.path or "/")
    return urlsplit(case.grounding.page_url).path if case.grounding.page_url else None


def _catalog_fields(catalogs: list[PageCatalog]) -> dict[str, FieldSpec]:
    return {field.spec.name: field.spec for catalog in catalogs for form in catalog.forms for field in form.fields}


def _closest(name: str, catalogs: list[PageCatalog]) -> str | None:
    names = [element.name for catalog in catalogs for element in [*catalog.actions, *catalog.nav] if element.name]
    match = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return match[0] if match else None


def _nav_labels_before(run: PreflightRun) -> dict[str, str]:
    """Path -> top-navigation label, as earlier jobs of this project mapped the app."""
    labels: dict[str, str] = {}
    for job in run.project.jobs.all() if run.project else []:
        if job.id == run.job.id:
            continue
        for page in job.context.ui_map.key_pages:
            if page.url and page.how_to_reach.startswith(NAV_PREFIX):
                labels[urlsplit(page.url).path or "/"] = page.how_to_reach.removeprefix(NAV_PREFIX)
    return labels


async def detect_changes(run: PreflightRun) -> None:
    run.objective = "detect_changes"
    if run.project is None:
        return
    selected = set(run.job.state.get("case_ids") or [])
    cases = [case for case in run.project.cases.cases() if not selected or case.id in selected]
    by_entry: dict[str, list[TestCase]] = defaultdict(list)
    for case in cases:
        path = entry_path(case)
        if path:
            by_entry[path].append(case)
    findings: Findings = defaultdict(list)
    details: Details = {}
    nav_before = _nav_labels_before(run)
    nav_now = set(run.context.ui_map.top_nav)
    for path, group in by_entry.items():
        if not run.may_open(run.url(path)):
            continue  # the tester did not allow leaving the app: nothing is known about that page
        run.progress(f"Checking {plural(len(group), 'stored case')} that start at {path}")
        status, survey = await run.visit(run.url(path), reached_by="a stored test case's entry point", deep=True)
        path = urlsplit(path).path or "/"
        final = urlsplit(run.driver.url).path if survey else None
        if survey is None:
            _add(findings, details, "entry_point_unreachable", f"{path} did not answer.", group, path=path)
            continue
        if survey.is_login_page and run.context.auth_state.blockers:
            # Signed out because the login was skipped: the login page says nothing about how the app changed.
            run.note(f"Could not check the {plural(len(group), 'case')} starting at {path}: it shows the login page and the "
                     "login was skipped.")
            run.job.state.setdefault("unchecked_case_ids", []).extend(case.id for case in group)
            continue
        if status in (401, 403):
            # A case that expects this very denial (a permissions case) is not made stale by it.
            denied = [case for case in group if not _expects(case, survey.catalog.heading)]
            if denied:
                _add(findings, details, "permission_changed",
                     f"{path} now answers {status} ({survey.catalog.heading}).", denied, path=path, status=status)
            continue
        if status == 404:
            _add(findings, details, "entry_point_missing", f"{path} now answers 404 ({survey.catalog.heading}).",
                 group, path=path, status=status)
            continue
        if final and final != path:
            _add(findings, details, "entry_point_redirected", f"{path} now redirects to {final}.", group,
                 old=path, new=final)
        label = nav_before.get(path)
        if label and label not in nav_now and final == path and (status or 200) < 400:
            _add(findings, details, "entry_point_hidden", f"{path} still answers {status or 200} but the top "
                 f"navigation no longer links to it (it was '{NAV_PREFIX}{label}').", group, path=path,
                 nav_label=label)
        wizard_walked = any(key.startswith(f"{final or path}#step-") for key in run.catalogs)
        if not wizard_walked and any(form.step_text for form in survey.catalog.forms):
            await walk_wizard(run, survey)  # cases go past step 1: compare them with every step as it is now
        here = [catalog for key, catalog in run.catalogs.items() if key.split("#")[0] in (path, final)]
        for case in group:
            await _check_elements(run, case, here, findings, details)
            _check_fields(case, here, findings, details)
    run.context.detected_changes = [
        DetectedChange(type=kind, evidence=evidence, impacted_testcase_ids=sorted(set(ids)))
        for (kind, evidence), ids in findings.items()]
    run.job.state["change_details"] = [{**details[key], "case_ids": sorted(set(ids))} for key, ids in findings.items()]
    if findings:
        impacted = len({i for ids in findings.values() for i in ids})
        run.note(f"{plural(len(findings), 'change')} affect {plural(impacted, 'stored case')}.")


async def _check_elements(run: PreflightRun, case: TestCase, here: list[PageCatalog], findings: Findings,
                          details: Details) -> None:
    known = {locator.python() for catalog in here for locator in [
             *[element.locator for element in [*catalog.actions, *catalog.nav]],
             *[f.locator for form in catalog.forms for f in form.fields],
             *[form.submit.locator for form in catalog.forms if form.submit]] if locator}
    for index, step in enumerate(case.steps):
        if step.action in PAGE_CHANGING and index > 0:
            break
        if step.locator is None or step.action.startswith("expect"):
            continue
        if step.locator.python() in known:
            continue
        if await run.driver.count(step.locator):  # 0 as well for a locator the page cannot read
            continue
        label = step.target or step.locator.python()
        closest = _closest(step.target or step.locator.steps[-1].name or "", here) if step.target else None
        evidence = f"{label} ({step.locator.python()}) is no longer on {here[0].path.split('#')[0] if here else '?'}"
        evidence += f"; the page now has '{closest}'." if closest else "."
        _add(findings, details, "element_missing", evidence, [case], target=label, closest=closest)
        break  # the steps after a missing element cannot be reached as written


def _expects(case: TestCase, heading: str | None) -> bool:
    if not heading:
        return False
    return any(step.action == "expect_text" and step.data and step.data.strip() == heading.strip()
               for step in case.steps)


def _check_fields(case: TestCase, here: list[PageCatalog], findings: Findings, details: Details) -> None:
    expected = {spec.name: spec for spec in case.grounding.form_fields}
    if not expected:
        return
    now = _catalog_fields(here)
    submits = _submits(case, here)
    for name, spec in now.items():
        # A new required field breaks the cases that send the form, not those that only open its page.
        if name not in expected and spec.required and submits:
            _add(findings, details, "form_field_added", f"The form now has a required field '{name}' ({spec.type}).",
                 [case], field=name, now=spec.model_dump())
    for name, spec in expected.items():
        if not _uses_field(case, spec):
            continue  # the case never touches this field: its change does not impact it
        current = now.get(name)
        if current is None:
            _add(findings, details, "form_field_removed", f"The field '{name}' is gone from the form.", [case],
                 field=name, was=spec.model_dump())
        elif (current.type, current.required) != (spec.type, spec.required):
            _add(findings, details, "form_field_changed",
                 f"'{name}' was {spec.type}{', required' if spec.required else ''}; now {current.type}"
                 f"{', required' if current.required else ''}.", [case], field=name, was=spec.model_dump(),
                 now=current.model_dump())


FIELD_ACTIONS = ("fill", "select", "check", "upload")


def _submits(case: TestCase, here: list[PageCatalog]) -> bool:
    """Whether the case sends a form of these pages: it enters data, or clicks a form's submit button."""
    buttons = {form.submit.locator.python() for catalog in here for form in catalog.forms
               if form.submit is not None and form.submit.locator is not None}
    return any(step.action in FIELD_ACTIONS or (step.action == "click" and step.locator is not None
                                                and step.locator.python() in buttons) for step in case.steps)


def _uses_field(case: TestCase, spec: FieldSpec) -> bool:
    """Whether a step of the case acts on or checks this field (by its name or label, as steps name targets)."""
    names = {spec.name.strip().lower(), spec.label.strip().lower()} - {""}
    for step in case.steps:
        said = {step.target.strip().lower()}
        if step.locator is not None:
            said |= {(link.value or link.name or "").strip().lower() for link in step.locator.steps}
        if said & names or any(name and name in text for name in names for text in said if len(name) > 3):
            return True
    return False


def _add(findings: Findings, details: Details, kind: str, evidence: str, cases: list[TestCase], **detail) -> None:
    """Record a change for `cases`: the seed's evidence sentence, and its details for the EDIT agent."""
    findings[(kind, evidence)].extend(case.id for case in cases)
    details.setdefault((kind, evidence), {"type": kind, **detail})
