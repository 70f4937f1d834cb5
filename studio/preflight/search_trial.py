"""Try a page's search box, as a tester does on a first look: type a word only one of the listed items has and press
Enter; the list should narrow to that item. Kept: what the browser saw and the rows the list shows then.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from studio.models.catalog import CatalogElement
from studio.models.locator import LocatorSpec
from studio.models.outcomes import CountOutcome, TextsOutcome
from studio.models.testcase import CaseStep
from studio.preflight.entry_trials import entries
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.outcome_locators import items_locator
from studio.race.page_state import Collection, PageState, read_page_state
from studio.wording import plural

if TYPE_CHECKING:
    from studio.preflight.probes import Prober

WORD = re.compile(r"[^\W\d_]{4,}")
CASE_STEP = re.compile(r"(?<=[a-z])(?=[A-Z])")
MAX_ROWS_LEFT = 5  # rows a search may leave that a case names one by one


def distinctive_word(state: PageState | None) -> tuple[str, Collection] | None:
    """A word (4+ letters) that exactly one item of the page's longest list has, taken from the first item that has
    one (searching for it should leave that item alone), with the list. None when no list of 3+ items has one."""
    lists = sorted((c for c in (state.collections if state else []) if len(c.items) >= 3),
                   key=lambda c: -len(c.items))
    for collection in lists[:1]:
        # Cells read as one text run together ("EarthseaUrsula"): a lower-to-upper case step starts a word.
        words = [set(WORD.findall(CASE_STEP.sub(" ", item.text).lower())) for item in collection.items]
        for own in words:
            unique = [w for w in sorted(own) if sum(1 for other in words if w in other) == 1]
            if unique:
                return max(unique, key=len), collection
    return None


async def _unnamed_scope(driver: PageDriver, items: LocatorSpec, count: int) -> LocatorSpec:
    """The items' locator without the names of the containers around them, when it finds the same items: a
    container's name can be text the step changes (a table captioned "12 items" is "1 item" after a search)."""
    last = len(items.steps) - 1
    steps = [step.model_copy(update={"name": None, "exact": False}) if index < last and step.kind == "role" else step
             for index, step in enumerate(items.steps)]
    if steps == items.steps:
        return items
    try:
        same = await driver.count(LocatorSpec(strategy=items.strategy, steps=steps)) == count
    except RaceError:
        return items
    return items.model_copy(update={"steps": steps}) if same else items


async def try_search(prober: Prober, field: CatalogElement) -> None:
    """A search box over a list: type a word that only one of the listed items has and press Enter; the list
    should narrow to that item. Kept: what the browser saw (the address, the heading) and the rows the list
    shows then, read with the list's own locator (a page the search loaded anew is not compared with the old
    one by the outcome observer, and one row left is no longer a list to it)."""
    navigate = entries(prober, field, ())
    ready = await prober.attempt(navigate, f"searching with '{field.name}'")
    if ready is None:
        return
    driver, observer = ready
    picked = distinctive_word(await read_page_state(driver.race))
    rows = await items_locator(driver.page, picked[1]) if picked is not None else None
    if picked is None or rows is None:
        prober.run.note(f"{prober.catalog.path}: no list to search was seen, so '{field.name}' was not tried.")
        return
    word, items = picked[0], await _unnamed_scope(driver, *rows)
    try:
        fill = await prober.act(driver, observer, CaseStep(action="fill", target=field.name,
                                                           locator=field.locator, data=word))
        enter = await prober.act(driver, observer, CaseStep(action="press", target=field.name,
                                                            locator=field.locator, data="Enter"))
        left = [" ".join(text.split()) for text in await driver.texts(items)]
    except RaceError as error:
        prober.run.note(f"{prober.catalog.path}: searching could not be tried: {str(error).splitlines()[0]}")
        return
    rows_left: TextsOutcome | CountOutcome
    if 0 < len(left) <= MAX_ROWS_LEFT:
        shown = "; ".join(f'"{text}"' for text in left)
        rows_left = TextsOutcome(locator=items, texts=left, why=f"The list shows only {shown}.")
    else:
        rows_left = CountOutcome(locator=items, count=len(left), why=f"The list shows {plural(len(left), 'item')}.")
    enter = enter.model_copy(update={"outcomes": [rows_left, *enter.outcomes],
                                     "expected": " ".join(filter(None, [rows_left.why, enter.expected]))})
    prober.keep("search", f"Searching '{field.name}' for '{word}' lists only the items that have it", navigate,
                [fill, enter])
