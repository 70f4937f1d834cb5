"""`studio observe`: open a URL in Chromium, find an element by CSS selector and report its raw facts.

The facts are the same as observe_element_state (or, with an action, what that action's preflight would report),
printed as one line per fact, or as the seed's JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass

from studio.browser.errors import BrowserError
from studio.browser.urls import normalize_url
from studio.models.race import ActionName, ElementInfo, Observation
from studio.race.actions import relevant
from studio.race.errors import RaceError
from studio.race.fact_lines import describe_element, fact_line
from studio.runtime import EngineRuntime
from studio.settings import load_settings

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
    async with EngineRuntime(load_settings(), record=False, headless=not headed,
                             browser_endpoints=[endpoint] if endpoint else None) as runtime:
        try:
            driver = await runtime.open_page()
        except BrowserError as error:
            raise RaceError("browser_unavailable", str(error)) from error
        await driver.navigate(target, timeout_ms=NAVIGATION_TIMEOUT_MS)
        element, matches = await driver.race.ref_for_selector(selector)
        if action is None:
            observations = await driver.observe(element.ref)
        else:
            found, _point = await driver.race.observe_for_action(element.ref)
            observations = relevant(action, found)
        return ObservedElement(driver.url, selector, matches, element, observations)


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
