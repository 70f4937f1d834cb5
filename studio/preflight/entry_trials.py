"""A field that stands alone, tried as a tester does: type a sample and press Enter (does it add what was typed, and
what came into view with the first item?), then press Enter with only spaces typed (is it refused, and does the list
stay as it was?).

Generic by construction: the list, the counter and what appears with the first item come from what the outcome
observer saw change, never from names an app happens to use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.models.catalog import CatalogElement
from studio.models.outcomes import CountOutcome, Outcome, TextOutcome, VisibleOutcome
from studio.models.testcase import CaseStep
from studio.race.driver import PageDriver
from studio.race.outcome_locators import items_locator
from studio.race.page_state import read_page_state

if TYPE_CHECKING:
    from studio.preflight.probes import Prober

# Neutral texts any "new entry" field takes; none is part of another, so each names one item.
SAMPLES = ("First sample item", "Second sample item", "Third sample item")
ADDED = ("visible", "count", "texts", "text")


def entries(prober: Prober, field: CatalogElement, texts: tuple[str, ...]) -> list[CaseStep]:
    """Open the page, then type each of `texts` into `field` and press Enter."""
    catalog = prober.catalog
    steps = [CaseStep(action="navigate", url=catalog.path, target=f"the {catalog.heading or 'page'}")]
    for text in texts:
        steps += [CaseStep(action="fill", target=field.name, locator=field.locator, data=text),
                  CaseStep(action="press", target=field.name, locator=field.locator, data="Enter")]
    return steps


async def try_entry(prober: Prober, field: CatalogElement) -> list[CaseStep]:
    """Enter in a lone field: does it add what was typed? Returns the steps adding the samples (or [])."""
    navigate = entries(prober, field, ())
    ready = await prober.attempt(navigate, f"Enter in '{field.name}'")
    if ready is None:
        return []
    driver, observer = ready
    fill_step, enter_step = entries(prober, field, SAMPLES[:1])[1:]
    fill = await prober.act(driver, observer, fill_step)
    enter = await prober.act(driver, observer, enter_step)
    # An item listed, or a counter that appeared or changed ("1 item left"): real apps show the list and its
    # footer only once it has an item.
    if not any(o.kind in ADDED for o in enter.outcomes):
        why = " (the page tried to save to the server, which the preflight never does)" if prober.box.blocked else ""
        prober.run.note(f"Enter in '{field.name}' on {prober.catalog.path} added nothing visible{why}.")
        return []
    fill = fill.model_copy(update={"outcomes": [*fill.outcomes, *hidden_while_empty(enter.outcomes)]})
    prober.keep("add", f"Enter in '{field.name}' adds an item with the typed text", navigate, [fill, enter])
    await try_blank(prober, field, navigate, listed_one(enter.outcomes))
    return entries(prober, field, SAMPLES)


def hidden_while_empty(outcomes: list[Outcome]) -> list[VisibleOutcome]:
    """What the first entry brought into view that was not shown before it (a counter, a footer's line): the page
    showed it hidden while there was nothing to count, so the case checks that before it adds."""
    return [VisibleOutcome(locator=o.locator, visible=False,
                           why=f'Before the first entry, "{o.text}" is not shown (nothing to count yet).')
            for o in outcomes if isinstance(o, TextOutcome) and o.before is None][:2]


def listed_one(outcomes: list[Outcome]) -> CountOutcome | None:
    """The list that held exactly the one item the entry added (its locator counts that list's items)."""
    return next((o for o in outcomes if isinstance(o, CountOutcome) and o.count == 1), None)


async def try_blank(prober: Prober, field: CatalogElement, navigate: list[CaseStep],
                    added_to: CountOutcome | None) -> None:
    """Enter with only spaces typed: nothing may be added. The case counts the items of the list the first entry
    added to (it must still have none), or of a list the page shows already."""
    ready = await prober.attempt(navigate, f"Enter in '{field.name}' with nothing typed")
    if ready is None:
        return
    driver, observer = ready
    blank = await prober.act(driver, observer, CaseStep(action="fill", target=field.name, locator=field.locator,
                                                        data="   "))
    enter = await prober.act(driver, observer, entries(prober, field, SAMPLES[:1])[2])
    if any(o.kind in ("visible", "count", "texts") for o in enter.outcomes):
        return  # something was added: the add case's own checks are the story there
    if added_to is not None:
        counts: list[Outcome] = [CountOutcome(locator=added_to.locator, count=0,
                                              why="Nothing was added to the list.")]
    else:
        counts = await count_outcome(driver)
    enter = enter.model_copy(update={"outcomes": [*enter.outcomes, *counts], "expected": "Nothing is added."})
    prober.keep("blank_refused", f"Enter in '{field.name}' with only spaces adds nothing", navigate, [blank, enter])


async def count_outcome(driver: PageDriver) -> list[Outcome]:
    """No item more after a refused entry (checked on the page's repeated items, when it has any)."""
    state = await read_page_state(driver.race)
    for collection in state.collections if state else []:
        found = await items_locator(driver.page, collection)
        if found is not None:
            return [CountOutcome(locator=found[0], count=found[1], why="The list did not grow.")]
    return []
