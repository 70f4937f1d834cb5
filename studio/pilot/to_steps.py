"""A pilot session as recorded steps, so `studio export` writes it as it writes a recording (the same plan and writers).

Only what the session did successfully becomes a step: navigate, click, hover, type (a fill), select, press, and a
verify's expectations as assertion steps. The actions that failed, were blocked or were refused, and the ones a test
needs no line for (wait, scroll, screenshot), become comments beside the nearest step. A selector is the normalized
Playwright selector the action ran with, as `page.locator(...)`. A value typed into a password field is never
written: the step reads it from an environment variable (STUDIO_PASSWORD, then STUDIO_PASSWORD_2, …).

A verify's checks are asserted as the verify made them: on the first element the selector matches (`.first`), and a
text as a person reads it — the inner text, whitespace collapsed, in any letter case unless the verify said
`caseSensitive: true` (`to_contain_text(..., ignore_case=True, use_inner_text=True)`), so a heading upper-cased by CSS
that the session saw as "Step 1 of 3" is asserted so too.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any
from urllib.parse import urljoin

from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import SkippedOutcome
from studio.models.recording import RecordedStep, StepOutcome
from studio.pilot.recording import Recording, verdict

SECRET_ENV = "STUDIO_PASSWORD"
# Old session folders do not say which fields were password fields: a selector naming one is taken for one.
_SECRET_SELECTOR = re.compile(r"passw|passcode|\bpin\b|one-time|otp|secret", re.IGNORECASE)
_ACTS = {"click": "click", "hover": "hover", "select": "select", "press": "press", "type": "fill"}


def css(selector: str, first: bool = False) -> LocatorSpec:
    """A Playwright selector as a locator: `page.locator(selector)`, or its first match (`.first`)."""
    return LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value=selector),
                                              *([LocatorStep(kind="first")] if first else [])])


class _Steps:
    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.steps: list[RecordedStep] = []
        self.waiting_notes: list[str] = []  # said before any step existed
        self.secrets: dict[str, str] = {}  # typed value -> its variable

    def add(self, action: str, url: str, **fields: Any) -> RecordedStep:
        step = RecordedStep(session_id=self.session_id, index=len(self.steps), at=time.time() * 1000,
                            origin="agent", action=action, url=url, **fields)  # type: ignore[arg-type]
        if self.waiting_notes:
            step.outcomes += [SkippedOutcome(text="", why=why) for why in self.waiting_notes]
            self.waiting_notes = []
        self.steps.append(step)
        return step

    def note(self, why: str) -> None:
        if self.steps:
            self.steps[-1].outcomes.append(SkippedOutcome(text="", why=why))
        else:
            self.waiting_notes.append(why)

    def secret_env(self, value: str) -> str:
        if value not in self.secrets:
            number = len(self.secrets) + 1
            self.secrets[value] = SECRET_ENV if number == 1 else f"{SECRET_ENV}_{number}"
        return self.secrets[value]


def pilot_steps(recording: Recording) -> list[RecordedStep]:
    """The session's successful actions as recorded steps (comments for the rest), starting at its start URL."""
    made = _Steps(f"pilot-{recording.folder.name}")
    made.add("navigate", recording.start_url)
    url = recording.start_url
    for item in recording.files:
        if item.outcomes is None:
            made.note(f"{item.name} was not exported: the session ended before its outcome was recorded.")
            continue
        if item.error:
            made.note(f"{item.name} was not exported: it could not be read ({item.error})")
            continue
        last_ok = max((i for i, o in enumerate(item.outcomes) if verdict(o) == "ok"), default=None)
        for index, outcome in enumerate(item.outcomes):
            url = _step(made, outcome, url, item.url_after if index == last_ok else None, item.name)
        url = item.url_after or url
    return made.steps


def _step(made: _Steps, outcome: dict[str, Any], url: str, url_after: str | None, file: str) -> str:
    """Add the steps of one action outcome; returns the page's URL after it (as far as the session tells)."""
    action: dict[str, Any] = outcome.get("action") or {}
    kind, selector, value = action.get("action"), outcome.get("selector"), action.get("value")
    what = selector or action.get("url") or value or (f"{action['duration']:g} ms" if action.get("duration") else "")
    shown = f"{kind} {json.dumps(what)}" if what else str(kind)
    how = verdict(outcome)
    if how != "ok":
        reason = " ".join(str(outcome.get("error") or "").split())[:200]
        said = {"failed": "failed", "blocked": "was blocked", "refused": "was refused"}.get(how, how)
        made.note(f"Not exported: the pilot's {shown} ({file}) {said}" + (f": {reason}" if reason else "."))
        return url
    if kind == "navigate":
        target = urljoin(url, action.get("url") or value or "")
        made.add("navigate", target)
        return target
    if kind == "verify":
        for expectation in action.get("expect") or []:
            _expectation(made, expectation, url, url_after)
        return url
    if kind in ("wait", "scroll", "screenshot", "upload") or kind not in _ACTS:
        made.note(f"The pilot's {shown} is not a line of this test (Playwright waits for and scrolls to elements "
                  "itself; screenshots and uploads are not exported).")
        return url
    fields: dict[str, Any] = {"locator": css(selector) if selector else None}
    if kind == "type":
        secret = bool(outcome.get("secret")) or bool(_SECRET_SELECTOR.search(selector or ""))
        fields.update(secret_env=made.secret_env(str(value))) if secret else fields.update(value=value)
    elif kind == "press":
        fields.update(key=value)
    elif kind == "select":
        fields.update(value=value)
    step = made.add(_ACTS[kind], url, **fields)
    if url_after and kind in ("click", "press"):  # the batch's last action: the page the observation saw after it
        step.outcome = StepOutcome(url_before=url, url_after=url_after)
        return url_after
    return url


def _expectation(made: _Steps, expectation: dict[str, Any], url: str, url_after: str | None) -> None:
    kind, selector, value = expectation.get("type"), expectation.get("selector"), expectation.get("value")
    if kind == "url":
        seen = url_after or url
        if value and value in seen:
            made.add("expect_url", seen)
        else:
            made.note(f"The pilot checked that the URL contains {value!r}; the session does not say which URL that "
                      "was, so it is not asserted here.")
    elif kind == "title":
        made.note(f"The pilot checked that the title contains {value!r}: title checks are not exported.")
    elif kind == "text":
        reads_as = "exact_case" if expectation.get("caseSensitive") else "any_case"
        made.add("expect_text", url, locator=css(selector, first=True) if selector else css("body"), value=value,
                 reads_as=reads_as)
    elif kind in ("visible", "hidden"):
        made.add(f"expect_{kind}", url, locator=css(str(selector), first=True))
    elif kind == "count":
        made.add("expect_count", url, locator=css(str(selector)), value=value)
