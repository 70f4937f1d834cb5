"""Walk a multi-step wizard ("Step X of Y") far enough to know its steps and fields — never submitting it.

Each step's required fields get plausible values so Next is allowed; every step is surveyed (deep) and kept
as a catalogue of its own (path '#step-N') so cases can be grounded in later steps too.
"""

from __future__ import annotations

import datetime as dt
import re

from studio.models.catalog import FormField, FormInfo
from studio.models.context import FlowSummary
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.testcase import CaseStep, StepAction
from studio.preflight.hangs import leave_stuck_page
from studio.preflight.run import PreflightRun
from studio.preflight.survey import Survey
from studio.race.errors import RaceError

FINAL_ACTIONS = re.compile(r"\b(submit|confirm|pay|place order|delete|send|finish|purchase)\b", re.IGNORECASE)
PLACEHOLDER = re.compile(r"^(select|choose|pick|--|—)", re.IGNORECASE)
# Neutral on purpose (any app, any domain), and long enough for the usual "at least N characters" rules.
SAMPLE_TEXT = "Sample text entered by the test to move on; any plain sentence will do here."


def plausible_value(field: FormField) -> str | None:
    """A value that passes ordinary validation for this kind of field (None: leave it alone)."""
    kind = field.spec.type
    if kind == "select":
        return next((o for o in field.options if o and not PLACEHOLDER.match(o)), None)
    if kind == "radio":
        return field.options[0] if field.options else None
    return {
        "number": "125", "email": "preflight@example.com", "tel": "5550100199", "url": "https://example.com",
        "date": dt.date.today().isoformat(), "checkbox": "on", "file": None, "password": None,
    }.get(kind, SAMPLE_TEXT)


def _step(form: FormInfo) -> tuple[int, int] | None:
    match = re.search(r"(\d+)\D+(\d+)", form.step_text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def _describe(form: FormInfo) -> str:
    fields = ", ".join(f"{f.spec.name} ({f.spec.type}{', required' if f.spec.required else ''})" for f in form.fields)
    return f"{form.step_text}: {fields or 'no fields'}"


async def _fill(run: PreflightRun, form: FormInfo, path: str) -> bool:
    """Give the required fields plausible values; False when the page stopped answering on one (a key handler stuck
    in a loop): that is reported and the page replaced (hangs.py), and the wizard is walked no further."""
    driver = run.driver
    for field in form.fields:
        if not field.spec.required:
            continue
        value = plausible_value(field)
        if value is None:
            continue
        try:
            if field.spec.type == "radio":
                label = LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=value, exact=True)])
                await driver.must("check", label)
            elif field.spec.type == "checkbox" and field.locator:
                await driver.must("check", field.locator)
            elif field.spec.type == "select" and field.locator:
                await driver.must("select", field.locator, value=value)
            elif field.locator:
                await driver.must("fill", field.locator, value=value)
        except RaceError as error:
            kind = field.spec.type
            action: StepAction = "check" if kind in ("radio", "checkbox") else "select" if kind == "select" else "fill"
            step = CaseStep(action=action, target=f"'{field.spec.label or field.spec.name}'", data=value)
            if await leave_stuck_page(run, path, step, error):
                return False
            run.note(f"Could not fill {field.spec.name!r}: {str(error).splitlines()[0]}")
    return True


async def walk_wizard(run: PreflightRun, survey: Survey) -> None:
    """Advance through the wizard on the current page, recording each step; stop before anything final."""
    path = survey.catalog.path
    form = next(f for f in survey.catalog.forms if f.step_text)
    steps = [_describe(form)]
    seen = {(_step(form) or (0, 0))[0]}
    while True:
        position = _step(form)
        submit = form.submit
        if position is None or submit is None or submit.locator is None:
            break
        current, total = position
        if current >= total or FINAL_ACTIONS.search(submit.name):
            steps.append(f"stopped before '{submit.name}' (preflight never submits)")
            break
        run.progress(f"Wizard {form.step_text}: filling required fields and pressing {submit.name}")
        if not await _fill(run, form, path):
            steps.append("the page stopped answering while its fields were filled (see the suspected defect)")
            break
        run.budget.charge_step()
        run.budget.check()
        try:
            await run.driver.must("click", submit.locator)
        except RaceError as error:
            pressed = CaseStep(action="click", target=f"the {submit.name} button")
            stuck = await leave_stuck_page(run, path, pressed, error)
            steps.append(f"the page stopped answering when '{submit.name}' was pressed (see the suspected defect)"
                         if stuck else f"'{submit.name}' could not be pressed: {str(error).splitlines()[0]}")
            break
        # The next step has the same URL: keep it as a catalogue of its own ('#step-N').
        next_survey = await run.survey(reached_by=f"{form.step_text} › {submit.name}", deep=True,
                                       as_path=f"{path.split('#')[0]}#step-{current + 1}")
        next_form = next((f for f in next_survey.catalog.forms if f.step_text), None)
        next_position = _step(next_form) if next_form else None
        if next_form is None or next_position is None or next_position[0] in seen:
            said = "; ".join(next_survey.catalog.live_regions) or "no message"
            steps.append(f"'{submit.name}' did not advance ({said})")
            break
        seen.add(next_position[0])
        form = next_form
        steps.append(_describe(form))
    name = survey.catalog.heading or path
    run.context.discovered_flows_summary.append(FlowSummary(
        flow_name=f"{name} wizard", entry_point=path, notes=" → ".join(steps)))
