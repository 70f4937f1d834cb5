"""Lists a user sorts by dragging: an item dragged onto another must move there, and stay there after a reload.

A list is taken for sortable from what the page shows the browser, never from its names: it listens to the pointer
(mousedown, pointerdown, touchstart: the snapshot marks it clickable) or its items are draggable, and it holds at
least three items. The try drags the first item onto the second (a short move, so a list that reacts to each move of
the pointer comes out the same every time); the outcome observer sees the new order (all items, in order) and what
the page said about it. A new order a reload forgets is a suspected defect, as items a reload
loses are (persistence.py): reported, with a case that checks the order stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.browser.errors import BrowserError
from studio.models.behaviour import Behaviour
from studio.models.context import Finding
from studio.models.outcomes import TextsOutcome
from studio.models.testcase import CaseStep
from studio.preflight.findings import report_finding
from studio.preflight.persistence import reload_tried, said
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.locators import synthesize
from studio.race.snapshot_lines import SnapshotLine

if TYPE_CHECKING:
    from studio.preflight.probes import Prober

LIST_ROLES = {"list", "listbox", "tree", "rowgroup"}
ITEM_ROLES = {"listitem", "option", "treeitem", "row"}
MIN_ITEMS = 3
DRAGGABLE_JS = "(el) => el.getAttribute('draggable') === 'true' || !!el.querySelector('[draggable=\"true\"]')"
TEXTS_JS = "(els) => els.map((el) => (el.innerText || '').trim())"
KEPT = "The new order is still there after a reload"


def items_of(lines: list[SnapshotLine], index: int) -> list[SnapshotLine]:
    """The item lines directly under the list line at `index` (the snapshot nests children one space deeper)."""
    parent = lines[index]
    items = []
    for line in lines[index + 1:]:
        if line.depth <= parent.depth:
            break
        if line.depth == parent.depth + 1 and line.role in ITEM_ROLES:
            items.append(line)
    return items


async def drag_step(driver: PageDriver, lines: list[SnapshotLine], index: int) -> tuple[str, CaseStep] | None:
    """The drag to try on the list at `index` when it looks sortable: its first item onto its second."""
    line = lines[index]
    if line.role not in LIST_ROLES:
        return None
    items = items_of(lines, index)
    if len(items) < MIN_ITEMS or not all(item.name for item in items[:MIN_ITEMS]):
        return None
    try:
        moved = await synthesize(driver.race, items[0].ref)
        if "clickable" not in line.states and not await driver.evaluate_on(moved, DRAGGABLE_JS, timeout_ms=1500):
            return None  # nothing on the list answers the pointer: not a list a user drags
        onto = await synthesize(driver.race, items[1].ref)
    except (RaceError, BrowserError):
        return None
    first, second = items[0].name[:40], items[1].name[:40]
    name = f"Dragging '{first}' onto '{second}' reorders the list"
    return name, CaseStep(action="drag", target=f"'{first}'", locator=moved, drop=onto,
                          expected=f"'{first}' moves to where '{second}' was.")


def new_order(done: list[CaseStep]) -> TextsOutcome | None:
    """The order the drag left the list in (the observer's all-items check), if it saw one."""
    return next((o for step in done for o in step.outcomes if isinstance(o, TextsOutcome)), None)


async def try_order_kept(prober: Prober, reached: list[CaseStep], order: TextsOutcome) -> None:
    """Reload after the drag: the list must keep its new order. An order a reload forgets is a suspected defect
    (users who sorted a list expect it to stay sorted): reported, and its case checks the order stays. Once per
    page."""
    if reload_tried(prober, lambda b: b.name == KEPT):
        return
    ready = await prober.attempt(reached, KEPT)
    if ready is None:
        return
    driver, observer = ready
    try:
        reload = await prober.act(driver, observer, CaseStep(action="reload", target="the page"))
        texts = await driver.evaluate_on(order.locator, TEXTS_JS, every=True, timeout_ms=3000)
    except (RaceError, BrowserError) as error:
        prober.run.note(f"{prober.catalog.path}: {KEPT} could not be tried: {str(error).splitlines()[0]}")
        return
    kept = TextsOutcome(locator=order.locator, texts=order.texts,
                        why=f"After a reload the list is still in the new order ({', '.join(order.texts[:3])}, …).")
    step = reload.model_copy(update={"outcomes": [*reload.outcomes, kept], "expected": kept.why})
    if texts == order.texts:
        prober.keep("persist", KEPT, reached, [step])
        return
    summary = (f"On {prober.catalog.path}, the list went back to its old order after a reload (it showed "
               f"{', '.join(map(str, (texts or [])[:3]))}, … instead of {', '.join(order.texts[:3])}, …): users who "
               "sorted a list expect it to stay sorted.")
    finding = Finding(kind="data_lost_on_reload", summary=summary, page_url=prober.url,
                      evidence=[*map(said, reached), "reload the page", f"order after the reload: {texts}"])
    report_finding(prober.run, finding, expected=Behaviour(kind="persist", name=KEPT, page=prober.catalog.path,
                                                           setup=reached, steps=[step], summary=kept.why))
