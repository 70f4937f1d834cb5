"""Try a page's forms with sample data — only when the tester allowed the preflight to submit forms (writes reach the
app's server then, so this is for a test or staging app): send the form as it opens, with nothing typed, and keep the
errors it shows; fill every field with a sample value and keep what the page reached shows (the values saved, its
heading, the confirmation it says); then remove the record just saved with the page's own Delete or Remove button
(through its confirmation dialog) and keep what shows it gone (the confirmation, and the record's page opened again).

What the preflight adds it removes again when the app lets it: only records it saved are deleted, never the app's
own. Generic by construction: fields are filled by their type, a field the app refuses as text is tried with a
number, and buttons are found by the words every app uses for them (Delete, Remove, Confirm), never by an app's own
names.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from studio.models.catalog import FormField, FormInfo, PageCatalog
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import Outcome, VisibleOutcome
from studio.models.testcase import CaseStep
from studio.preflight.invalid_values import InvalidValues
from studio.preflight.naming import area_name
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.outcome_observer import OutcomeObserver

if TYPE_CHECKING:
    from studio.preflight.probes import Prober

NUMBER = "3"  # a whole number no form field defaults to often (1 and 0 are the usual defaults)
PASSWORD = "Sample-pass-123"  # a sample account's password in a sign-up form: long, mixed, with a digit and a sign
BY_TYPE = {"email": "sample@example.com", "password": PASSWORD, "number": NUMBER, "range": NUMBER, "tel": "5550100",
           "url": "https://example.com/sample", "date": "2026-01-15", "time": "09:30",
           "datetime-local": "2026-01-15T09:30", "month": "2026-01", "week": "2026-W03"}
NOT_FILLED = {"file", "hidden", "color", "submit", "button", "image", "reset", "radio"}
REMOVES = re.compile(r"^\s*(delete|remove)\b", re.IGNORECASE)
CONFIRMS = re.compile(r"^\s*(delete|remove|yes|ok|confirm)\b", re.IGNORECASE)
FLAGGED_JS = "(el) => el.getAttribute('aria-invalid') === 'true' || (el.matches && el.matches(':invalid'))"
BUTTONS_JS = """() => [...document.querySelectorAll('button, [role="button"], input[type="submit"], input[type="button"]')]
  .filter((el) => !!(el.offsetWidth || el.offsetHeight) && getComputedStyle(el).visibility !== 'hidden'
    && !el.closest('nav, header, footer, dialog'))
  .map((el) => (el.getAttribute('aria-label') || el.innerText || el.value || '').trim()).filter(Boolean)"""


def signs_in(form: FormInfo) -> bool:
    """A sign-in form: one password field and at most one other field to fill (a sign-up form has more, or asks for
    the password twice)."""
    passwords = [f for f in form.fields if f.spec.type == "password"]
    others = [f for f in form.fields if f.spec.type not in NOT_FILLED and f.spec.type != "password"]
    return len(passwords) == 1 and len(others) <= 1


def writable_forms(catalog: PageCatalog) -> list[FormInfo]:
    """Forms that would save something: a submit button, fields to fill, not a sign-in form (answers are never
    sample data) and not a search box (searching writes nothing and is tried on its own)."""
    def searches(form: FormInfo) -> bool:
        return form.method != "post" and all(f.spec.type == "search" or "search" in f.spec.label.lower()
                                             for f in form.fields)

    return [form for form in catalog.forms
            if form.submit is not None and form.submit.locator is not None and not form.step_text
            and any(f.locator is not None and f.spec.type not in NOT_FILLED for f in form.fields)
            and not signs_in(form) and not searches(form)]


def sample_step(field: FormField, as_number: bool = False) -> CaseStep | None:
    """The step that gives `field` a sample value by its type (a number when the app refused text there)."""
    spec, label = field.spec, field.spec.label or field.spec.name
    if field.locator is None or spec.type in NOT_FILLED:
        return None
    if spec.type == "checkbox":
        return CaseStep(action="check", target=f"'{label}'", locator=field.locator)
    if spec.type in ("select", "select-one", "combobox") or field.options:
        choices = [o for o in field.options if o.strip() and not o.strip().startswith(("--", "Select", "Choose"))]
        if not choices:
            return None
        return CaseStep(action="select", target=f"'{label}'", locator=field.locator, data=choices[-1])
    value = NUMBER if as_number else BY_TYPE.get(spec.type, f"Sample {label}")
    return CaseStep(action="fill", target=f"'{label}'", locator=field.locator, data=value)


LIMITS_JS = """(el) => ({ type: el.type, min: el.min, max: el.max, minLength: el.minLength })"""


async def fitting_value(driver: PageDriver, field: FormField) -> str | None:
    """A value within the field's own limits (a number between its min and max, a text of its minimum length),
    for a field that refused the sample; None when it states none."""
    if field.locator is None:
        return None
    try:
        limits = await driver.evaluate_on(field.locator, LIMITS_JS, timeout_ms=1000)
    except RaceError:
        return None
    if not isinstance(limits, dict):
        return None
    if limits.get("type") in ("number", "range") and (limits.get("min") or limits.get("max")):
        low = float(limits["min"]) if limits.get("min") else float(limits["max"]) - 10
        high = float(limits["max"]) if limits.get("max") else low + 100
        return str(int(low + max(1, (high - low) // 4)))
    if (limits.get("minLength") or 0) > 0:
        return ("Sample " + field.spec.label + " " * 40).strip().ljust(int(limits["minLength"]), "x")
    return None


def invalid_outcome(field: FormField) -> VisibleOutcome | None:
    """The field marked invalid (the browser's own constraint check, or aria-invalid), as a check."""
    if field.locator is None:
        return None
    marked = LocatorStep(kind="css", value=':scope:is(:invalid, [aria-invalid="true"])')
    return VisibleOutcome(locator=LocatorSpec(strategy="scoped", steps=[*field.locator.steps, marked]),
                          why=f"'{field.spec.label or field.spec.name}' is marked invalid.")


def with_flags(step: CaseStep, flagged: list[FormField]) -> CaseStep:
    """`step` with a check that each field the page flagged is marked invalid."""
    marks = [mark for field in flagged if (mark := invalid_outcome(field)) is not None]
    if not marks:
        return step
    return step.model_copy(update={"outcomes": [*step.outcomes, *marks],
                                   "expected": " ".join(filter(None, [step.expected, *(m.why for m in marks)]))})


def _called(form: FormInfo, start: bool = False) -> str:
    """How a case names the form: by its own name when it has one ('Shipping address'), else 'the form'."""
    if form.name and form.name.lower() != "form":
        return f"'{form.name}'"
    return "The form" if start else "the form"


def _role(role: str, name: str | None = None) -> LocatorStep:
    return LocatorStep(kind="role", role=role, name=name, exact=name is not None)


def plain(steps: list[CaseStep]) -> list[CaseStep]:
    """Steps as a setup replays them: what they changed was asserted by the behaviour that tried them."""
    return [step.model_copy(update={"outcomes": [], "expected": ""}) for step in steps]


class FormTrials:
    """The form tries of one page, with the Prober's fresh pages, observer and budget."""

    def __init__(self, prober: Prober) -> None:
        self.prober = prober
        self.catalog = prober.catalog
        name = area_name(self.catalog, fallback="")
        where = f"the {name} page" if name else "the page"
        self.opened = [CaseStep(action="navigate", url=self.catalog.path, target=where)]
        self.refused_empty: dict[str, bool] = {}  # forms (by name) that refused being sent empty

    async def explore(self) -> None:
        """Each form: sent empty, sent filled in, sent with a value it should refuse; in the sandbox a form that
        would write to the server is stopped there, and the note says so (Try Forms lets it through)."""
        box = self.prober.box
        for form in writable_forms(self.catalog)[:2]:
            stopped = len(box.blocked)
            await self.try_refused(form)
            saved = await self.try_saved(form)
            if len(box.blocked) > stopped and not box.allow_writes:
                self.note(f"{_called(form)} sends to the server ({box.blocked[-1]}), which the sandbox stops: allow "
                          "Try Forms (on a test server) to see what it saves.")
                continue
            await InvalidValues(self).explore(form)
            if saved is not None:
                await self.try_delete(*saved)

    @staticmethod
    def called(form: FormInfo, start: bool = False) -> str:
        return _called(form, start)

    def note(self, text: str) -> None:
        self.prober.run.note(f"{self.catalog.path}: {text}")

    async def flagged(self, driver: PageDriver, form: FormInfo) -> list[FormField]:
        """The fields the page marks invalid now (aria-invalid, or the browser's own constraint check)."""
        found = []
        for field in form.fields:
            if field.locator is None:
                continue
            try:
                if await driver.count(field.locator) == 1 and await driver.evaluate_on(field.locator, FLAGGED_JS,
                                                                                       timeout_ms=1000):
                    found.append(field)
            except RaceError:
                continue
        return found

    def submit(self, form: FormInfo) -> CaseStep:
        assert form.submit is not None
        return CaseStep(action="click", target=f"the {form.submit.name or 'submit'} button", locator=form.submit.locator)

    async def with_messages(self, observer: OutcomeObserver, step: CaseStep) -> CaseStep:
        """`step` with the status and alert texts the page shows after it, first (what a tester reads first)."""
        said: list[Outcome] = [*await observer.messages(), *await observer.revealed()]
        if not said:
            return step
        expected = " ".join(filter(None, [*(o.why for o in said), step.expected]))
        return step.model_copy(update={"outcomes": [*said, *step.outcomes], "expected": expected})

    async def try_refused(self, form: FormInfo) -> None:
        """The form sent as it opens, nothing typed: a form with required fields says what is missing."""
        name = f"Sending {_called(form)} with nothing filled in is refused with an error"
        ready = await self.prober.attempt(self.opened, name)
        if ready is None:
            return
        driver, observer = ready
        try:
            sent = await self.prober.act(driver, observer, self.submit(form))
            flagged = await self.flagged(driver, form)
            sent = await self.with_messages(observer, sent)
        except RaceError as error:
            self.note(f"sending {_called(form)} empty could not be tried: {str(error).splitlines()[0]}")
            return
        said = [o for o in sent.outcomes if o.why.startswith(("The page says", "The page shows"))]
        if not flagged and not said:
            self.note(f"{_called(form, start=True)} was sent with nothing filled in and showed no error; no case says it must.")
            return
        if self.prober.keep("refused", name, self.opened, [with_flags(sent, flagged)]) is not None:
            self.refused_empty[form.name] = True

    async def try_saved(self, form: FormInfo) -> tuple[PageDriver, OutcomeObserver, list[CaseStep]] | None:
        """Every field given a sample value, then sent; a field refused as text is given a number and it is sent
        again (once). Returns the page the save reached, its observer and the steps, for the delete try."""
        name = f"Sending {_called(form)} with every field filled in saves it"
        numbers: set[str] = set()
        fitted: dict[str, str] = {}  # values that fit a refusing field's own limits (min, max, minlength)
        for round_no in range(2):
            fills = [step.model_copy(update={"data": fitted[field.spec.name]}) if field.spec.name in fitted else step
                     for field in form.fields
                     if (step := sample_step(field, as_number=field.spec.name in numbers)) is not None]
            steps = [*fills, self.submit(form)]
            ready = await self.prober.attempt(self.opened, name)
            if ready is None:
                return None
            driver, observer = ready
            try:
                done = [await self.prober.act(driver, observer, step) for step in steps]
                flagged = await self.flagged(driver, form)
                if not flagged:
                    done[-1] = await self.with_messages(observer, done[-1])
            except RaceError as error:
                self.note(f"filling {_called(form)} in could not be tried: {str(error).splitlines()[0]}")
                return None
            retry = {field.spec.name for field in flagged} - numbers
            if flagged and retry and round_no == 0:
                for field in flagged:
                    value = await fitting_value(driver, field)
                    if value is not None:
                        fitted[field.spec.name] = value
                numbers |= retry - set(fitted)  # a field that refused text: its hint usually asks for a number
                continue
            if flagged:
                self.note(f"{_called(form, start=True)} refused the sample values in {', '.join(f.spec.label for f in flagged)}; "
                          "no case is written for saving it.")
                return None
            if self.prober.keep("save", name, self.opened, done) is None:
                return None
            return driver, observer, done
        return None

    async def try_delete(self, driver: PageDriver, observer: OutcomeObserver, saved: list[CaseStep]) -> None:
        """On the page the save reached: its Delete (or Remove) button, the dialog's confirming button, then the
        record's page again — it should be gone. Only the record this preflight just saved is deleted."""
        try:
            names = [n for n in await driver.evaluate(BUTTONS_JS, during="reading the page's buttons")
                     if REMOVES.match(n)]
        except RaceError:
            return
        if not names:
            return  # no way to remove it from here: nothing to try
        button = LocatorSpec(strategy="role", steps=[_role("button", names[0])])
        name = f"'{names[0]}' on a saved record removes it"
        record = await _heading_text(driver)
        try:
            if await driver.count(button) != 1:
                return
            done = [await self.prober.act(driver, observer, CaseStep(action="click", target=f"the {names[0]} button",
                                                                    locator=button))]
            confirm = await _confirming_button(driver, names[0])
            if confirm is not None:
                done.append(await self.prober.act(driver, observer, confirm))
            done[-1] = await self.with_messages(observer, done[-1])
            back = await self.prober.act(driver, observer, CaseStep(action="back", target="the record's page"))
            again = await self.prober.act(driver, observer, CaseStep(action="reload", target="the record's page"))
        except RaceError as error:
            self.note(f"{name} could not be tried: {str(error).splitlines()[0]}")
            return
        if record and await _heading_text(driver) == record:
            self.note(f"after '{names[0]}' the record '{record}' still opened; no case says it must be gone.")
            self.prober.keep("remove", name, plain([*self.opened, *saved]), done)
            return
        self.prober.keep("remove", name, plain([*self.opened, *saved]), [*done, back, again])


async def _heading_text(driver: PageDriver) -> str | None:
    try:
        if not await driver.count("h1"):
            return None
        text = await driver.evaluate_on("h1", "(el) => el.innerText", timeout_ms=1000)
    except RaceError:
        return None
    return " ".join(text.split()) if isinstance(text, str) else None


async def _confirming_button(driver: PageDriver, said: str) -> CaseStep | None:
    """The button of the confirmation dialog that opened, if one did: the one named like the button pressed, else
    the first that confirms (Yes, OK, Confirm)."""
    for role in ("dialog", "alertdialog"):
        box = LocatorSpec(strategy="role", steps=[_role(role)])
        buttons = LocatorSpec(strategy="scoped", steps=[_role(role), _role("button")])
        try:
            if await driver.count(box) != 1 or not await driver.is_visible(box):
                continue
            texts = await driver.evaluate_on(buttons, "(els) => els.map((el) => el.innerText)", every=True) or []
        except RaceError:
            continue
        names = [" ".join(n.split()) for n in texts]
        chosen = next((n for n in names if n.lower() == said.lower()), None) or next(
            (n for n in names if CONFIRMS.match(n)), None)
        if chosen:
            locator = LocatorSpec(strategy="scoped", steps=[_role(role), _role("button", chosen)])
            return CaseStep(action="click", target=f"the dialog's {chosen} button", locator=locator)
    return None
