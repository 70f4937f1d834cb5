"""The export plan: one language-neutral reading of a recording, which both writers turn into code.

Each recorded step becomes a short list of statements — waits composed from its race observations, the action
(wrapped in a response wait when it calls the backend), and web-first checks of what the user saw change.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from studio.export.errors import ExportError
from studio.export.literals import NameBook, snake_case, words
from studio.export.outcomes import checks_after, response_wait
from studio.export.statements import (
    Act,
    Declare,
    ExpectState,
    ExpectUrl,
    ExportPlan,
    Goto,
    Note,
    RequireEnv,
    ResponseWait,
    Statement,
    StepPlan,
    Subject,
    locator_label,
)
from studio.export.urls import origin_of, relative_url, url_pattern
from studio.export.waits import describe_target, waits_before
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.recording import RecordedStep

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
VERBS = {"click": "click", "fill": "fill", "type": "fill", "press": "press", "hover": "hover", "check": "check",
         "select": "select"}


def build_plan(steps: list[RecordedStep], title: str | None = None) -> ExportPlan:
    """Read a recording once into an ExportPlan; raises ExportError for a recording no test can be written from."""
    if not steps:
        raise ExportError("The session has no recorded steps, so there is nothing to export. Record some first.")
    ordered = sorted(steps, key=lambda s: s.index)
    origin = recording_origin(ordered)
    env_vars = _secret_names(ordered)
    names = NameBook()
    plans: list[StepPlan] = []
    if env_vars:
        plans.append(StepPlan(index=None, statements=[
            RequireEnv(name=name, why="Secrets come from the environment, never from this file." if i == 0 else None)
            for i, name in enumerate(env_vars)]))
    if ordered[0].action != "navigate":
        plans.append(StepPlan(index=None, statements=[
            Goto(url=relative_url(ordered[0].url, origin), why="The recording started on this page.")]))
    waits_so_far = 0
    for previous, step in zip([None, *ordered], ordered):
        if step.action == "navigate":
            if not _repeats(previous, step, origin):
                statements: list[Statement] = [Goto(url=relative_url(step.url, origin)), *checks_after(step, None)]
                plans.append(StepPlan(index=step.index, statements=statements))
            continue
        written = _written_check(step, origin)
        if written is not None:
            plans.append(StepPlan(index=step.index, statements=[written]))
            continue
        if step.locator is None and not (step.action == "press" and (step.key or step.value)):
            raise ExportError(
                f"Step {step.index} ({step.action}) has no stored locator, so it cannot be written as a test step. "
                "Re-record that step, or export the session without it."
            )
        inline = Subject(locator=step.locator)
        target = describe_target(step)
        wait = response_wait(step, origin, waits_so_far + 1)
        waits_so_far += wait is not None
        statements = [*waits_before(step, inline, target), _act(step, inline, target, wait),
                      *checks_after(step, target)]
        plans.append(StepPlan(index=step.index, statements=_name_target(statements, inline, names)))
    return ExportPlan(
        title=" ".join(title.split()) if title and title.strip() else default_title(ordered),
        session_id=ordered[0].session_id, origin=origin, steps=plans, env_vars=env_vars,
    )


def _written_check(step: RecordedStep, origin: str | None) -> Statement | None:
    """Steps of written test cases (not recordings): a text to see, a URL to reach, an element gone, an upload."""
    if step.action == "expect_text" and step.value:
        text = LocatorSpec(strategy="text", steps=[LocatorStep(kind="text", value=step.value)])
        return ExpectState(subject=Subject(locator=text), state="visible")
    if step.action in ("expect_visible", "expect_hidden") and step.locator is not None:
        return ExpectState(subject=Subject(locator=step.locator),
                           state="visible" if step.action == "expect_visible" else "hidden")
    if step.action == "expect_url":
        return ExpectUrl(pattern=url_pattern(relative_url(step.url, origin)))
    if step.action == "upload":
        return Note(why=f"Upload {step.value or 'a file'} through {describe_target(step)}: add the file next to this "
                        "test and pass it to set_input_files (the case names it, the recording could not).")
    return None


def _act(step: RecordedStep, subject: Subject, target: str, wait: ResponseWait | None) -> Act:
    why = None
    if wait is not None:
        answer = f"recorded answer: {wait.status}" if wait.status is not None else "no answer was recorded"
        why = (f"{_verb_ing(step.action)} {target} sends {wait.method} {wait.path} ({answer}); "
               "wait for the response before checking the page.")
    match step.action:
        case "fill" | "type":
            if step.secret_env:
                # The recorded value is never read here, even if a recorder kept one by mistake.
                return Act(subject=subject, action="fill", secret_env=step.secret_env, wait=wait, why=why)
            return Act(subject=subject, action="fill", text=step.value or "", wait=wait, why=why)
        case "press":
            # Without a locator the subject is the page, and the key goes to page.keyboard.
            return Act(subject=subject, action="press", text=step.key or step.value or "", wait=wait, why=why)
        case "select":
            return Act(subject=subject, action="select_option", text=step.value or "", wait=wait, why=why)
        case "click" | "hover" | "check":
            return Act(subject=subject, action=step.action, wait=wait, why=why)
    raise ExportError(f"Step {step.index} has an action ({step.action}) the exporter does not know.")


def _verb_ing(action: str) -> str:
    return {"click": "Clicking", "fill": "Filling", "type": "Filling", "press": "Pressing a key on",
            "hover": "Hovering", "check": "Checking", "select": "Choosing in"}.get(action, "Using")


def _name_target(statements: list[Statement], inline: Subject, names: NameBook) -> list[Statement]:
    """Give the step's target a variable when it is used twice or is a chain; inline it otherwise."""
    uses = sum(1 for s in statements if getattr(s, "subject", None) == inline)
    locator = inline.locator
    if locator is None or (uses < 2 and len(locator.steps) < 2):
        return statements
    variable = names.claim(locator_label(locator))
    named = Subject(locator=locator, variable=variable)
    renamed = [s.model_copy(update={"subject": named}) if getattr(s, "subject", None) == inline else s
               for s in statements]
    return [Declare(variable=variable, locator=locator), *renamed]


def _scope(locator: LocatorSpec) -> str | None:
    return next((link.value for link in locator.steps if link.kind == "filter_text" and link.value), None)


def default_title(steps: list[RecordedStep]) -> str:
    """A title from what the steps did, e.g. "click Add to Cart (iPhone 15 Pro)"."""
    phrases: list[str] = []
    for step in steps:
        if step.action == "navigate" or step.locator is None:
            continue
        label = locator_label(step.locator)
        scope = _scope(step.locator)
        phrase = f"{VERBS.get(step.action, step.action)} {label}".strip()
        phrases.append(f"{phrase} ({scope})" if scope else phrase)
    if phrases:
        return ", ".join(dict.fromkeys(phrases[:3]))
    return f"open {urlsplit(steps[0].url).path or '/'}"


def python_function_name(title: str) -> str:
    parts = words(title)[:10]
    return "test_" + (snake_case(parts) if parts else "recorded_session")


def _secret_names(steps: list[RecordedStep]) -> list[str]:
    found: list[str] = []
    for step in steps:
        if step.secret_env and step.secret_env not in found:
            if not _ENV_NAME.fullmatch(step.secret_env):
                raise ExportError(
                    f"Step {step.index} reads its secret from {step.secret_env!r}, which is not a valid "
                    "environment variable name. Use letters, digits and underscores, e.g. STUDIO_PASSWORD."
                )
            found.append(step.secret_env)
    return found


def recording_origin(steps: list[RecordedStep]) -> str | None:
    """scheme://host:port of the first web page the recording was on."""
    return next((origin for step in steps if (origin := origin_of(step.url))), None)


def _repeats(previous: RecordedStep | None, step: RecordedStep, origin: str | None) -> bool:
    """A navigation to where the previous navigation already went (a reload, a double recording)."""
    return (previous is not None and previous.action == "navigate"
            and relative_url(previous.url, origin) == relative_url(step.url, origin))
