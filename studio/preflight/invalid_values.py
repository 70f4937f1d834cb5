"""Values a form should refuse, tried as a tester does after the form was sent filled in: an e-mail address that is
not one, a password confirmation that differs, and a negative number (a boundary every amount has). A refusal the
page shows — the field marked invalid, a message — becomes a case; a form that refused being sent empty but takes
a value users expect it to refuse is a suspected defect (its validation checks only some fields), reported, never
written down as expected.

Generic by construction: fields are told apart by their type, and an e-mail field by its type or its label's word.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from studio.models.catalog import FormField, FormInfo
from studio.models.context import Finding
from studio.models.testcase import CaseStep
from studio.preflight.findings import report_finding
from studio.preflight.persistence import said as said_step
from studio.race.driver import PageDriver
from studio.race.errors import RaceError

if TYPE_CHECKING:
    from studio.preflight.form_trials import FormTrials

NOT_AN_EMAIL = "not-an-email"
OTHER_PASSWORD = "Other-pass-456"
NEGATIVE = "-3"
SHORT_PASSWORD = "Ab1!"  # shorter than any password rule allows
EMAIL_WORD = re.compile(r"\be-?mail\b", re.IGNORECASE)


def _label(field: FormField) -> str:
    return field.spec.label or field.spec.name


class InvalidValues:
    """The refusal tries of one form, with the form trials' fresh pages and checks."""

    def __init__(self, trials: FormTrials) -> None:
        self.trials = trials
        self.prober = trials.prober

    async def explore(self, form: FormInfo) -> None:
        fields = [f for f in form.fields if f.locator is not None]
        emails = [f for f in fields if f.spec.type == "email"
                  or (f.spec.type in ("text", "") and EMAIL_WORD.search(_label(f)))]
        passwords = [f for f in fields if f.spec.type == "password"]
        numbers = [f for f in fields if f.spec.type == "number"]
        if emails:
            await self.refused(form, {emails[0].spec.name: NOT_AN_EMAIL},
                               f"an e-mail address that is not one in '{_label(emails[0])}'")
        if passwords:
            short = {f.spec.name: SHORT_PASSWORD for f in passwords[:2]}
            await self.refused(form, short, f"a password of {len(SHORT_PASSWORD)} characters in '{_label(passwords[0])}'")
        if len(passwords) >= 2:
            await self.refused(form, {passwords[1].spec.name: OTHER_PASSWORD},
                               f"a different password in '{_label(passwords[1])}'")
        if numbers:
            await self.sent(form, {numbers[0].spec.name: NEGATIVE}, f"a negative number in '{_label(numbers[0])}'")

    def steps(self, form: FormInfo, values: dict[str, str]) -> list[CaseStep]:
        from studio.preflight.form_trials import sample_step

        steps: list[CaseStep] = []
        for field in form.fields:
            if field.spec.name in values and field.locator is not None:
                steps.append(CaseStep(action="fill", target=f"'{_label(field)}'", locator=field.locator,
                                      data=values[field.spec.name]))
            elif (step := sample_step(field)) is not None:
                steps.append(step)
        return [*steps, self.trials.submit(form)]

    async def _send(self, form: FormInfo, values: dict[str, str], name: str,
                    what: str) -> tuple[PageDriver, list[CaseStep]] | None:
        """A fresh page, the form filled with `values` (samples elsewhere) and sent, the messages after it kept."""
        ready = await self.prober.attempt(self.trials.opened, name)
        if ready is None:
            return None
        driver, observer = ready
        try:
            done = [await self.prober.act(driver, observer, step) for step in self.steps(form, values)]
            done[-1] = await self.trials.with_messages(observer, done[-1])
        except RaceError as error:
            self.trials.note(f"sending {self.trials.called(form)} with {what} could not be tried: "
                             f"{str(error).splitlines()[0]}")
            return None
        return driver, done

    async def refused(self, form: FormInfo, values: dict[str, str], what: str) -> None:
        from studio.preflight.form_trials import with_flags

        name = f"Sending {self.trials.called(form)} with {what} is refused"
        sent = await self._send(form, values, name, what)
        if sent is None:
            return
        driver, done = sent
        flagged = await self.trials.flagged(driver, form)  # reads each field, never raises
        said = [o for o in done[-1].outcomes if o.why.startswith(("The page says", "The page shows"))]
        if flagged or said:
            done[-1] = with_flags(done[-1], flagged)
            self.prober.keep("refused", name, self.trials.opened, done)
            return
        if self.trials.refused_empty.get(form.name):
            summary = (f"On {self.trials.catalog.path}, {self.trials.called(form)} refuses being sent empty but took "
                       f"{what} without a word: its checks seem to cover only some of its fields.")
            report_finding(self.prober.run, Finding(kind="partial_validation", summary=summary,
                                                    page_url=self.prober.url, evidence=[said_step(s) for s in done]))
        else:
            self.trials.note(f"{self.trials.called(form, start=True)} took {what} without a word; no case says it "
                             "must refuse it.")

    async def sent(self, form: FormInfo, values: dict[str, str], what: str) -> None:
        """Sent with a boundary value: what the page does with it (saved as such, or refused) is kept."""
        name = f"Sending {self.trials.called(form)} with {what}"
        sent = await self._send(form, values, name, what)
        if sent is not None:
            self.prober.keep("save", name, self.trials.opened, sent[1])
