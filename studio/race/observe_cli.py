"""`studio observe`: open a URL in Chromium, find an element by CSS selector and report its raw facts.

The facts are the same as observe_element_state (or, with an action, what that action's preflight would report),
printed as one line per fact, or as the seed's JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import ViewportSize

from studio.browser.errors import BrowserError, describe_navigation_failure
from studio.browser.launcher import BrowserLauncher
from studio.browser.urls import normalize_url
from studio.models.race import ActionName, ElementInfo, Observation
from studio.race.actions import relevant
from studio.race.errors import RaceError
from studio.race.page import RacePage

VIEWPORT: ViewportSize = {"width": 1280, "height": 720}
NAVIGATION_TIMEOUT_MS = 20_000


@dataclass
class ObservedElement:
    """The element a selector found, how many matched, and the facts observed on it."""

    url: str
    selector: str
    matches: int
    element: ElementInfo
    observations: list[Observation]


async def observe_url(url: str, selector: str, action: ActionName | None = None,
                      headed: bool = False, endpoint: str | None = None,
                      allow_file_urls: bool = False) -> ObservedElement:
    """Observe the first element matching `selector` once the page has loaded; raises RaceError with a sentence."""
    try:
        target = normalize_url(url, allow_files=allow_file_urls)
    except ValueError as error:
        raise RaceError("bad_input", f"{error}.") from error
    launcher = BrowserLauncher(headless=not headed, endpoint=endpoint)
    try:
        browser = await launcher.start()
    except BrowserError as error:
        raise RaceError("browser_unavailable", str(error)) from error
    try:
        page = await (await browser.new_context(viewport=VIEWPORT)).new_page()
        try:
            await page.goto(target, timeout=NAVIGATION_TIMEOUT_MS)
        except PlaywrightError as error:
            raise RaceError("navigation_failed", str(describe_navigation_failure(target, error))) from error
        race = RacePage(page)
        element, matches = await race.ref_for_selector(selector)
        if action is None:
            observations = await race.observe(element.ref)
        else:
            found, _point = await race.observe_for_action(element.ref)
            observations = relevant(action, found)
        return ObservedElement(page.url, selector, matches, element, observations)
    finally:
        await launcher.close()


def describe_element(tag: str, ref: str | None = None, test_id: str | None = None, element_id: str | None = None,
                     class_name: str | None = None) -> str:
    """A CSS-like name for an element: div#main.overlay [data-testid=loading-scrim] (e15)."""
    text = tag + (f"#{element_id}" if element_id else "")
    text += "".join(f".{name}" for name in (class_name or "").split()[:3])
    if test_id:
        text += f" [data-testid={test_id}]"
    return text + (f" ({ref})" if ref else "")


def fact_line(item: Observation) -> str:
    """One human-readable line per fact; the wording stays factual, like the JSON."""
    match item.type:
        case "attachment":
            return f"attachment: {'connected to' if item.isConnected else 'not connected to'} the document"
        case "coverage":
            at = f"at ({item.elementCenter.x:.0f}, {item.elementCenter.y:.0f})"
            if item.isTargetOrDescendant:
                return f"coverage: not covered; the element itself receives a click {at}"
            top = item.elementAtPoint
            return (f"coverage: covered by {describe_element(top.tag, top.ref, top.testId, top.id, top.className)} "
                    f"z-index {top.zIndex}, opacity {top.opacity}, display {top.display} {at}")
        case "animation":
            running = ", ".join(f"{item.label(a)} {a.playState}"
                                f"{f' ({a.currentTime:.0f} ms in)' if a.currentTime is not None else ''}"
                                for a in item.animations) or "none running"
            style = item.computedStyle
            moving = item.animatedElement
            on = (f" on ancestor {describe_element(moving.tag, moving.ref, moving.testId)}"
                  if moving is not None and item.moved_by_ancestor() else "")
            return f"animation{on}: {running}; style animation {style.animation!r}, transition {style.transition!r}"
        case "navigation":
            link = item.linkAncestor
            where = "is a link" if link.isTarget else f"is inside link {describe_element(link.tag, link.ref)}"
            target = f" (target {link.target})" if link.target else ""
            return f"navigation: the element {where} to {link.href or '(no href)'}{target}"
        case "viewport":
            box = item.boundingBox
            return (f"viewport: {'in view' if item.inViewport else 'out of view'}, "
                    f"{item.intersectionRatio:.0%} visible, box {box.width:.0f}x{box.height:.0f} at "
                    f"({box.x:.0f}, {box.y:.0f}); viewport {item.viewport.width:.0f}x{item.viewport.height:.0f} "
                    f"scrolled to ({item.scroll.x:.0f}, {item.scroll.y:.0f})")
        case "input_state":
            parts = ["disabled" if item.disabled else "enabled", "readonly" if item.readOnly else "editable"]
            if item.value is not None:
                parts.append(f"value {item.value!r}")
            if item.checked is not None:
                parts.append("checked" if item.checked else "unchecked")
            kind = f"<{item.tag}{f' type={item.inputType}' if item.inputType else ''}>"
            return f"input state: {kind} {', '.join(parts)}"
        case "aria_state":
            flags = (f"aria-busy={str(item.ariaBusy).lower()}, aria-disabled={str(item.ariaDisabled).lower()}, "
                     f"aria-hidden={str(item.ariaHidden).lower()}, inert={str(item.inert).lower()}")
            return f"aria state: {flags}" + (f" (set by {item.setBy})" if item.setBy else "")
        case "pointer_events":
            return f"pointer events: pointer-events is {item.pointerEvents}"
        case "visibility":
            own = (f"display {item.display}, visibility {item.visibility}, opacity {item.opacity}, "
                   f"box {item.size.width:.0f}x{item.size.height:.0f}")
            if item.isVisible:
                return f"visibility: visible; {own}"
            hider = item.hiddenBy
            if hider is None:
                return f"visibility: not visible (an empty box); {own}"
            by = "itself" if hider.isTarget else f"ancestor {describe_element(hider.tag, hider.ref, hider.testId)}"
            return f"visibility: hidden by {by} (display {hider.display}, visibility {hider.visibility}); {own}"
    return f"{item.type}: {item.model_dump_json()}"


def main(url: str, selector: str, as_json: bool = False, action: ActionName | None = None,
         headed: bool = False, endpoint: str | None = None, allow_file_urls: bool = False) -> int:
    """The command: 0 when the element was observed, 2 (with a sentence on stderr) when it could not be.

    With --json, a failure is also printed on stdout as the MCP tools answer it: {"error": {"type", "message"}}.
    """
    try:
        observed = asyncio.run(observe_url(url, selector, action, headed, endpoint, allow_file_urls))
    except RaceError as error:
        print(error.message, file=sys.stderr)
        if as_json:
            print(json.dumps(error.to_json(), indent=2))
        return 2
    element = observed.element
    found = (f"{observed.matches} {'elements match' if observed.matches != 1 else 'element matches'} {selector!r} on {observed.url}; "
             f"observing {'the first, ' if observed.matches > 1 else ''}"
             f"{describe_element(element.tag, element.ref, element.testId, element.id, ' '.join(element.classes))}"
             f"{f' {element.name!r}' if element.name else ''}.")
    if as_json:
        print(found, file=sys.stderr)
        print(json.dumps([item.model_dump(mode="json") for item in observed.observations], indent=2))
        return 0
    print(found)
    if action is not None and not observed.observations:
        print(f"Nothing stands in the way of {action}: its preflight would act at once.")
    for item in observed.observations:
        print(fact_line(item))
    return 0
