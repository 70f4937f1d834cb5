"""What to wait for before an action, read from the race observations recorded with the step.

Each observation is a fact seen when the step was recorded; here it becomes the web-first wait that makes the
action safe on a slower or faster run, with a comment citing the observation.
"""

from __future__ import annotations

import re

from studio.export.literals import sentence_start
from studio.export.statements import ExpectNoAttribute, ExpectState, Note, Statement, Subject
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.race import (
    AnimationObservation,
    AriaStateObservation,
    AttachmentObservation,
    CoverageObservation,
    ElementAtPoint,
    InputStateObservation,
    NavigationObservation,
    PointerEventsObservation,
)
from studio.models.recording import LoadingSeen, RecordedStep

CONTROL_TAGS = {"button", "input", "select", "textarea"}
# Roles whose disabled state Playwright's to_be_enabled reads (native disabled or aria-disabled).
CONTROL_ROLES = {"button", "checkbox", "combobox", "listbox", "menuitem", "menuitemcheckbox", "menuitemradio",
                 "option", "radio", "searchbox", "slider", "spinbutton", "switch", "tab", "textbox", "treeitem"}
_TAG_WORDS = {"button": "button", "a": "link", "input": "field", "textarea": "field", "select": "list"}
_SIMPLE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
# How long an exported test waits for a loading indicator: what it lasted when recorded, twice over, at least
# Playwright's own 5 s... and at most two minutes, past which the app is broken, not slow.
MIN_LOADING_WAIT_MS, MAX_LOADING_WAIT_MS = 10_000, 120_000


def waits_before(step: RecordedStep, target: Subject, name: str) -> list[Statement]:
    """The waits (and notes) the step's observations call for, in the order the test should do them."""
    covered = _coverage(step, name)
    return [*_loading(step, name, covered), *covered, *_animation(step, target, name), *_detachment(step, name),
            *_readiness(step, target, name)]


def _loading(step: RecordedStep, name: str, covered: list[Statement]) -> list[Statement]:
    """A wait for each loading indicator the page showed before the step and no longer showed at it (a scrim, a
    spinner, "Loading products…"): the step found nothing in its way only because the tester waited it out."""
    waited = {statement.subject.locator.python() for statement in covered
              if isinstance(statement, ExpectState) and statement.subject.locator is not None}
    statements: list[Statement] = []
    for seen in step.loading_seen:
        locator = _loading_locator(seen)
        if locator is None or locator.python() in waited:
            continue
        waited.add(locator.python())
        timeout = min(MAX_LOADING_WAIT_MS, max(MIN_LOADING_WAIT_MS, round(seen.seconds * 2000, -3)))
        what = f'"{seen.text}"' if seen.text and not seen.test_id else _loading_name(seen)
        statements.append(ExpectState(subject=Subject(locator=locator), state="hidden", timeout_ms=int(timeout),
                                      why=(f"The page showed {what} for {seen.seconds:.1f} s before {name} when it "
                                           "was recorded; wait until it is gone (up to twice as long).")))
    return statements


def _loading_locator(seen: LoadingSeen) -> LocatorSpec | None:
    if seen.test_id:
        return LocatorSpec(strategy="test_id", steps=[LocatorStep(kind="test_id", value=seen.test_id)])
    if seen.element_id and _SIMPLE_ID.fullmatch(seen.element_id):
        return LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value=f"#{seen.element_id}")])
    if seen.text:
        return LocatorSpec(strategy="text", steps=[LocatorStep(kind="text", value=seen.text, exact=True)])
    return None


def _loading_name(seen: LoadingSeen) -> str:
    if seen.test_id:
        words = " ".join(re.split(r"[-_\s]+", seen.test_id)).strip()
        return f"the {words}" + (f' ("{seen.text}")' if seen.text and len(seen.text) < 40 else "")
    return f"the #{seen.element_id} element"


def describe_target(step: RecordedStep) -> str:
    """How a comment names the step's target: 'the "Add to Cart" button', 'the "Email" field'."""
    last = step.locator.steps[-1] if step.locator and step.locator.steps else None
    if last is not None and last.kind == "role" and last.name:
        return f'the "{last.name}" {last.role}'
    if last is not None and last.kind in ("label", "placeholder") and last.value:
        return f'the "{last.value}" field'
    if last is not None and last.kind == "text" and last.value:
        return f'the "{last.value}" text'
    if last is not None and last.kind == "test_id" and last.value:
        return f"the {last.value} element"
    return f"the {_TAG_WORDS.get(_target_tag(step) or '', 'element')}"


def _coverage(step: RecordedStep, name: str) -> list[Statement]:
    statements: list[Statement] = []
    seen: set[str] = set()
    for obs in step.observations:
        if not isinstance(obs, CoverageObservation) or obs.isTargetOrDescendant:
            continue
        cover = obs.elementAtPoint
        locator = step.related_locators.get(cover.ref) or _fallback_locator(cover)
        key = locator.python() if locator else cover.ref
        if key in seen:
            continue
        seen.add(key)
        what = _cover_name(cover)
        if locator is None:
            statements.append(Note(why=(
                f"{sentence_start(what)} covered {name} when it was recorded (coverage observation), but it has no "
                "test id, id or stored locator to wait for; the click waits until nothing covers it.")))
        else:
            statements.append(ExpectState(subject=Subject(locator=locator), state="hidden", why=(
                f"{sentence_start(what)} covered {name} when it was recorded (coverage observation).")))
    return statements


def _fallback_locator(cover: ElementAtPoint) -> LocatorSpec | None:
    if cover.testId:
        return LocatorSpec(strategy="test_id", steps=[LocatorStep(kind="test_id", value=cover.testId)])
    if cover.id:
        css = f"#{cover.id}" if _SIMPLE_ID.fullmatch(cover.id) else '[id="{}"]'.format(
            cover.id.replace("\\", "\\\\").replace('"', '\\"'))
        return LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value=css)])
    return None


def _cover_name(cover: ElementAtPoint) -> str:
    if cover.testId:
        return "the " + " ".join(re.split(r"[-_\s]+", cover.testId)).strip()
    if cover.id:
        return f"the #{cover.id} element"
    return f"a <{cover.tag}> element"


def _animation(step: RecordedStep, target: Subject, name: str) -> list[Statement]:
    running = [(obs, a) for obs in step.observations if isinstance(obs, AnimationObservation)
               for a in obs.animations if a.playState == "running"]
    if not running or target.locator is None:
        return []
    labels = list(dict.fromkeys(obs.label(a) for obs, a in running))
    # The card fading in around a button: say so, or the comment would claim the button itself animated.
    holders = list(dict.fromkeys(_holder(obs) for obs, _ in running if obs.moved_by_ancestor()))
    carried = f" with {' and '.join(holders)}" if holders else ""
    return [ExpectState(subject=target, state="visible", why=(
        f"{sentence_start(name)} was still animating{carried} ({', '.join(labels)}) when it was recorded "
        "(animation observation); wait until it is visible."))]


def _holder(obs: AnimationObservation) -> str:
    moving = obs.animatedElement
    if moving is None:
        return "an enclosing element"
    return f"its enclosing <{moving.tag}>" + (f" {moving.testId}" if moving.testId else "")


def _detachment(step: RecordedStep, name: str) -> list[Statement]:
    if not any(isinstance(obs, AttachmentObservation) and not obs.isConnected for obs in step.observations):
        return []
    return [Note(why=(
        f"{sentence_start(name)} was replaced by a re-render when it was recorded (attachment observation); "
        "the locator re-queries the page, so the action finds the new element."))]


def _readiness(step: RecordedStep, target: Subject, name: str) -> list[Statement]:
    """Disabled, busy, read-only or pointer-events: none, turned into the wait that fits the element."""
    statements: list[Statement] = []
    reasons: list[str] = []
    sources: list[str] = []
    read_only = False
    for obs in step.observations:
        if isinstance(obs, AriaStateObservation):
            if obs.ariaBusy and obs.setBy and obs.setBy != obs.ref:
                statements.append(_busy_ancestor(step, obs.setBy, name))
            elif obs.ariaBusy:
                reasons.append("busy (aria-busy)")
                sources.append("aria_state")
            if obs.ariaDisabled:
                reasons.append("disabled (aria-disabled)")
                sources.append("aria_state")
        elif isinstance(obs, InputStateObservation):
            if obs.disabled:
                reasons.append("disabled")
                sources.append("input_state")
            read_only = read_only or (obs.readOnly and step.action in ("fill", "type"))
        elif isinstance(obs, PointerEventsObservation) and obs.pointerEvents == "none":
            reasons.append("not taking pointer events (pointer-events: none)")
            sources.append("pointer_events")
    if reasons:
        why = (f"{sentence_start(name)} was {' and '.join(dict.fromkeys(reasons))} when it was recorded "
               f"({', '.join(dict.fromkeys(sources))} observation).")
        if _is_control(step) and target.locator is not None:
            statements.append(ExpectState(subject=target, state="enabled", why=why))
        else:
            statements.append(Note(why=why[:-1] + "; it is not a form control, so the action's own "
                                   "actionability checks do the waiting."))
    if read_only and target.locator is not None:
        statements.append(ExpectState(subject=target, state="editable", why=(
            f"{sentence_start(name)} was read-only when it was recorded (input_state observation).")))
    return statements


def _busy_ancestor(step: RecordedStep, ref: str, name: str) -> Statement:
    holder = step.related_locators.get(ref)
    if holder is None:
        return Note(why=(
            f"An ancestor of {name} was busy (aria-busy) when it was recorded (aria_state observation), but no "
            "locator was stored for it, so this test does not wait for it."))
    return ExpectNoAttribute(subject=Subject(locator=holder), name="aria-busy", value="true", why=(
        f"An ancestor of {name} was busy (aria-busy) when it was recorded (aria_state observation)."))


def _is_control(step: RecordedStep) -> bool:
    if (_target_tag(step) or "") in CONTROL_TAGS:
        return True
    last = step.locator.steps[-1] if step.locator and step.locator.steps else None
    return bool(last and last.kind in ("role", "label", "placeholder")
                and (last.kind != "role" or last.role in CONTROL_ROLES))


def _target_tag(step: RecordedStep) -> str | None:
    for obs in step.observations:
        if isinstance(obs, CoverageObservation):
            return obs.targetElement.tag
        if isinstance(obs, InputStateObservation):
            return obs.tag
        if isinstance(obs, NavigationObservation):
            return obs.element.tag
    return None
