"""Grounded case steps: every target is an element the preflight saw, with the locator it verified."""

from __future__ import annotations

import re

from studio.models.catalog import CatalogElement, FormField, FormInfo, PageCatalog
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.testcase import CaseStep, FieldSpec, StepAction
from studio.preflight.flows import plausible_value

_FIELD_ACTIONS: dict[str, StepAction] = {"select": "select", "checkbox": "check", "file": "upload"}


def base_path(catalog: PageCatalog) -> str:
    return catalog.path.split("#")[0]


def step_number(catalog: PageCatalog) -> int:
    match = re.search(r"#step-(\d+)$", catalog.path)
    return int(match.group(1)) if match else 1


def wizard_steps(catalogs: list[PageCatalog], path: str) -> list[PageCatalog]:
    """The catalogues of one page's wizard steps, in order (step 1 is the page itself)."""
    steps = [c for c in catalogs if base_path(c) == path and any(f.step_text for f in c.forms)]
    return sorted(steps, key=step_number)


def main_form(catalog: PageCatalog) -> FormInfo | None:
    return next((f for f in catalog.forms if f.step_text), catalog.forms[0] if catalog.forms else None)


def navigate(catalog: PageCatalog) -> CaseStep:
    name = catalog.heading or base_path(catalog)
    return CaseStep(action="navigate", url=base_path(catalog), target=f"the {name} page",
                    expected=f"The {name} page opens.")


def fill(field: FormField, value: str | None = None, expected: str = "") -> CaseStep | None:
    """A step entering `value` (a plausible one by default) into a field; None when it cannot be grounded."""
    value = plausible_value(field) if value is None else value
    kind = field.spec.type
    if kind == "radio":
        if value is None:
            return None
        option = LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=value, exact=True)])
        return CaseStep(action="check", target=f"{field.spec.name}: {value}", locator=option, data=value,
                        expected=expected)
    if field.locator is None or (value is None and kind not in ("text", "textarea")):
        return None
    action: StepAction = _FIELD_ACTIONS.get(kind, "fill")
    return CaseStep(action=action, target=field.spec.name, locator=field.locator, data=value, expected=expected)


def click(element: CatalogElement | None, expected: str = "") -> CaseStep | None:
    if element is None or element.locator is None:
        return None
    return CaseStep(action="click", target=f"the {element.name} {element.role}".strip(), locator=element.locator,
                    expected=expected)


def expect_gone(step: CaseStep, expected: str) -> CaseStep:
    """The target of an earlier step is no longer shown (a finished wizard's final button, a dismissed item)."""
    return CaseStep(action="expect_hidden", target=step.target, locator=step.locator, expected=expected)


def expect_text(text: str, expected: str) -> CaseStep:
    return CaseStep(action="expect_text", target="the page", data=text, expected=expected)


def expect_url(path: str, expected: str) -> CaseStep:
    return CaseStep(action="expect_url", url=path, target="the address", expected=expected)


def complete_form(form: FormInfo, expected: str = "") -> list[CaseStep] | None:
    """Valid values in every required field, then the form's button; None when a step cannot be grounded."""
    steps: list[CaseStep] = []
    for field in form.fields:
        if field.spec.required:
            made = fill(field)
            if made is None:
                return None
            steps.append(made)
    submit = click(form.submit, expected)
    if submit is None:
        return None
    return [*steps, submit]


def reach_step(steps_catalogs: list[PageCatalog], number: int) -> list[CaseStep] | None:
    """Steps that bring a wizard from step 1 to step `number` with valid data."""
    path: list[CaseStep] = []
    for catalog in steps_catalogs:
        if step_number(catalog) >= number:
            break
        form = main_form(catalog)
        if form is None:
            return None
        done = complete_form(form, expected=f"The wizard moves past {form.step_text}.")
        if done is None:
            return None
        path.extend(done)
    return path


def field_specs(catalogs: list[PageCatalog]) -> list[FieldSpec]:
    return [field.spec for catalog in catalogs for form in catalog.forms for field in form.fields]
