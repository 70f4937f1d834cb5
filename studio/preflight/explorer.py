"""The explorer: every control the snapshot sees on a page, tried from a fresh sandboxed state, then the controls of
the states that changed (a panel that opened, a row that was added), two levels deep within the budget.

A control is tried as its role says a user would: a button, tab, menu item or clickable element is clicked, a box is
checked, a select gets each of its options, the keys the page listens to are pressed, a list that answers the
pointer has an item dragged onto another (reorder_trials.py). Each try keeps what the
outcome observer saw change (items that came or went, counters and totals, messages, the URL); a try that changed
nothing visible writes no case. What the page would keep after a reload is asked of every state that added items.
Forms and lone entry fields are tried by the Prober's own tries (probes.py, form_trials.py) before this runs.

Generic by construction: what is tried comes from the snapshot's roles, names and states, never from an app's names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from studio.browser.errors import BrowserError
from studio.browser.urls import local_part
from studio.models.behaviour import BehaviourKind
from studio.models.testcase import CaseStep
from studio.preflight.app_kind import keyboard_listeners
from studio.preflight.form_trials import plain
from studio.preflight.reorder_trials import drag_step, new_order, try_order_kept
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.locators import synthesize
from studio.race.snapshot_lines import SnapshotLine, parse_snapshot

if TYPE_CHECKING:
    from studio.preflight.probes import Prober

CLICKED = {"button", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem"}
SAME_KIND = 2  # clickable elements that are not controls (cards, cells, rows), tried per role and state
CHECKED = {"checkbox", "radio", "switch"}
MAX_DEPTH = 2  # the entry state, and the states its tries reached
MAX_TRIES_PER_STATE = 14
MAX_OPTIONS = 3
ADDRESS_WAIT_S = 1.2  # how long a key's page may take to write its new address (reveal.js debounces it)
KEYS = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", "Space")
# What an item holds, and the page's own controls outside its items (the Prober's item and page tries).
CONTROLS_JS = """(item) => [...item.querySelectorAll('input, button, a, select, [role="button"], [role="checkbox"]')]
  .map((el) => ({ tag: el.tagName.toLowerCase(), type: (el.getAttribute('type') || '').toLowerCase(),
    role: el.getAttribute('role'), name: (el.getAttribute('aria-label') || el.innerText || el.value || '').trim().slice(0, 60),
    visible: !!(el.offsetWidth || el.offsetHeight) && getComputedStyle(el).visibility !== 'hidden' }))"""
PAGE_CONTROLS_JS = """() => {
  const inItem = (el) => el.closest('li, tr, [role="listitem"], [role="row"], article');
  const label = (el) => (el.labels && el.labels.length ? el.labels[0].innerText : '') || el.getAttribute('aria-label') || '';
  const shown = (el) => !!(el.offsetWidth || el.offsetHeight) && getComputedStyle(el).visibility !== 'hidden';
  // A toggle with no name (a styled "mark all" arrow): its id, or a class only it has on the page.
  const unique = (selector) => document.querySelectorAll(selector).length === 1 ? selector : '';
  const css = (el) => (el.id && unique('#' + CSS.escape(el.id))) || [...el.classList].map((c) =>
    unique('input.' + CSS.escape(c))).find(Boolean) || '';
  const buttons = [...document.querySelectorAll('button, [role="button"], input[type="button"], input[type="submit"]')]
    .filter((el) => shown(el) && !inItem(el) && !el.closest('form, nav'))
    .map((el) => ({ kind: 'button', name: (el.getAttribute('aria-label') || el.innerText || el.value || '').trim().slice(0, 60) }));
  const toggles = [...document.querySelectorAll('input[type="checkbox"]')]
    .filter((el) => !inItem(el) && !el.closest('form') && (shown(el) || (el.labels && [...el.labels].some(shown))))
    .map((el) => ({ kind: 'toggle', name: label(el).trim().slice(0, 60), css: css(el) }));
  return [...buttons, ...toggles].filter((c) => c.name || c.css);
}"""
# Read on the element the snapshot named: what a try needs to know that the snapshot line does not say.
FACTS_JS = """(el) => ({ tag: el.tagName.toLowerCase(), href: el.getAttribute('href'),
  inForm: !!(el.form || el.closest('form')), checked: !!el.checked, type: (el.getAttribute('type') || '').toLowerCase(),
  options: el.tagName === 'SELECT' ? [...el.options].filter((o) => !o.disabled).map((o) => o.label.trim()) : null,
  selected: el.tagName === 'SELECT' ? (el.selectedOptions[0] || {}).label || null : null })"""


@dataclass
class Try:
    """One thing to try at a state: its behaviour's kind and name, and the step."""

    kind: BehaviourKind
    name: str
    step: CaseStep
    key: str  # tells tries apart across states: the action and the locator


@dataclass
class State:
    """A state to explore: the steps that reach it from a fresh browser, and how deep it is."""

    setup: list[CaseStep]
    depth: int
    known: set[str] = field(default_factory=set)  # the tries of the state it came from (not tried again)


def _seen(step: CaseStep) -> list[dict]:
    """What a try's step showed, as the checks its case would make."""
    return [o.model_dump(mode="json") for o in step.outcomes if o.kind not in ("page_errors", "skipped")]


def _same_document_link(href: str | None) -> bool:
    return bool(href) and str(href).startswith("#") and len(str(href)) > 1


class Explorer:
    """Tries what the snapshot sees on one page (with the Prober's sandbox, observer, budget and notes)."""

    def __init__(self, prober: Prober) -> None:
        self.prober = prober
        self.catalog = prober.catalog
        where = f"the {self.catalog.heading or self.catalog.title or 'page'}"
        self.opened = [CaseStep(action="navigate", url=self.catalog.path, target=where)]
        self.tried: set[str] = {step.locator.python() for b in prober.behaviours for step in b.steps if step.locator}
        self.listened_keys = False

    async def explore(self) -> None:
        if any(form.step_text for form in self.catalog.forms):
            return  # a wizard ("Step 1 of 3") is walked step by step by its own flow (flows.py), never clicked through
        frontier = [State(self.opened, 0)]
        while frontier and not self.prober.out_of_budget:
            state = frontier.pop(0)
            tries = await self.tries_at(state)
            for attempt in tries[:MAX_TRIES_PER_STATE]:
                if self.prober.out_of_budget:
                    break
                self.tried.add(attempt.key)
                done = await self.prober.try_one(state.setup, attempt.kind, attempt.name, [attempt.step])
                if not done:
                    continue
                # A deck writes its #/1 a moment after the key; read before the repeats open another page.
                moved_to = await self.prober.moved_to(ADDRESS_WAIT_S if attempt.kind == "key" else 0.0)
                if not await self.repeats(state, attempt, done):
                    continue
                if moved_to is not None:
                    self._says_where(attempt, moved_to)
                reached = [*state.setup, *plain(done)]
                if self._added_items(done):
                    await self.prober.try_persistence(reached)
                if attempt.kind == "reorder" and (order := new_order(done)) is not None:
                    await try_order_kept(self.prober, reached, order)
                if state.depth + 1 < MAX_DEPTH:
                    frontier.append(State(reached, state.depth + 1, {t.key for t in tries}))

    async def repeats(self, state: State, attempt: Try, done: list[CaseStep]) -> bool:
        """Whether the try does the same again from a fresh browser (a game's random tile, a shuffled deck do not):
        a behaviour that differs from one try to the next would make a case that fails by chance, so it is dropped.
        When the second try differs, a third decides: an app that fails now and then on load (Grid.js shows "An
        error happened while fetching the data" on about one load in twelve) keeps what it does the other times.
        A page that never drew a random number (chance.py counts them) does the same again: not tried twice."""
        if not self.prober.drew_on_chance:
            return True
        first = _seen(done[-1])
        for attempt_number in (2, 3):
            again = await self._again(state, attempt, attempt_number)
            if again is None or again == first:
                return True  # out of budget or not doable: kept as seen once; or the same again
        self.prober.behaviours = [b for b in self.prober.behaviours if b.name != attempt.name]
        self.prober.run.note(f"{self.catalog.path}: {attempt.name} — it did something different each time it was "
                             "tried again (chance plays a part), so no case is written for it.")
        return False

    async def _again(self, state: State, attempt: Try, number: int) -> list[dict] | None:
        ready = await self.prober.attempt(state.setup, f"{attempt.name} (try {number})")
        if ready is None:
            return None
        driver, observer = ready
        try:
            return _seen(await self.prober.act(driver, observer, attempt.step))
        except (RaceError, BrowserError):
            return None

    def _says_where(self, attempt: Try, moved_to: str) -> None:
        """The try moved the page to another address in place (a client-side route, a slide's #/1): its case
        checks the address too, so an app whose address stops following (a reload then loses the place) fails."""
        where = CaseStep(action="expect_url", target="the address", url=local_part(moved_to))
        behaviour = next((b for b in reversed(self.prober.behaviours) if b.name == attempt.name), None)
        if behaviour is not None and not any(step.action == "expect_url" for step in behaviour.steps):
            behaviour.steps.append(where)

    @staticmethod
    def _added_items(done: list[CaseStep]) -> bool:
        return any("added to the list" in outcome.why for step in done for outcome in step.outcomes)

    async def tries_at(self, state: State) -> list[Try]:
        """What to try at `state`: read on a fresh page that reached it (then closed)."""
        ready = await self.prober.attempt(state.setup, "the page's controls")
        if ready is None:
            return []
        driver, _observer = ready
        try:
            lines = parse_snapshot((await driver.race.snapshot()).text)
        except (RaceError, BrowserError) as error:
            self.prober.run.note(f"{self.catalog.path}: its controls could not be read: {str(error).splitlines()[0]}")
            return []
        found: list[Try] = []
        per_role: dict[str, int] = {}
        named: set[tuple[str, str]] = set()  # controls of one role and name: the first stands for the rest
        for index, line in enumerate(lines):
            if len(found) >= MAX_TRIES_PER_STATE * 2:
                break
            if (drag := await drag_step(driver, lines, index)) is not None:
                name, step = drag
                key = f"drag {step.locator.python() if step.locator else name}"
                if key not in self.tried and key not in state.known:
                    found.append(Try("reorder", name, step, key))
                continue
            if line.role not in CLICKED and line.role not in CHECKED and "clickable" in line.states:
                # Seats, cards, rows: a few of a kind say what the kind does.
                per_role[line.role] = per_role.get(line.role, 0) + 1
                if per_role[line.role] > SAME_KIND:
                    continue
            if line.name and (line.role, line.name) in named:
                continue  # "Copy path to clipboard" on every row of a list: one says what they do
            if line.name:
                named.add((line.role, line.name))
            found += await self._tries_of(driver, line, state)
        if not self.listened_keys and state.depth == 0:
            self.listened_keys = True
            if await keyboard_listeners(driver):
                found += [Try("key", f"Pressing {key} changes the page", CaseStep(
                    action="press", target="the page", data=key), f"press {key}") for key in KEYS]
        order = {"select": 0, "toggle": 1, "reorder": 1, "page_action": 2, "view": 3, "key": 4}
        return sorted(found, key=lambda t: order.get(t.kind, 5))

    async def _tries_of(self, driver: PageDriver, line: SnapshotLine, state: State) -> list[Try]:
        from studio.preflight.probes import LEAVES

        clickable = "clickable" in line.states
        wanted = line.role in CLICKED or line.role in CHECKED or line.role in ("combobox", "listbox", "link") \
            or clickable
        if not wanted or "disabled" in line.states or LEAVES.search(line.name or ""):
            return []
        try:
            locator = await synthesize(driver.race, line.ref)
            if await driver.count(locator) != 1:
                return []  # a locator that names more than this element would act on another in the exported test
            facts = await driver.evaluate_on(locator, FACTS_JS, timeout_ms=1500)
        except (RaceError, BrowserError):
            return []
        if not isinstance(facts, dict) or facts.get("inForm") and facts.get("tag") in ("input", "select", "textarea"):
            return []  # a form's fields are filled and sent together (form_trials.py)
        name = line.name or line.role
        key = locator.python()
        if key in self.tried or key in state.known:
            return []
        if facts.get("options") is not None:
            options = [o for o in facts["options"] if o and o != facts.get("selected")][:MAX_OPTIONS]
            return [Try("select", f"Choosing '{option}' in '{name}' changes the page", CaseStep(
                action="select", target=f"'{name}'", locator=locator, data=option), f"{key} = {option}")
                for option in options]
        if line.role in CHECKED:
            if facts.get("checked"):
                return []
            return [Try("toggle", f"Checking '{name}' changes the page", CaseStep(
                action="check", target=f"'{name}'", locator=locator), key)]
        if line.role == "link":
            if not _same_document_link(facts.get("href")):
                return []  # another page: the UI map follows it
            return [Try("view", f"'{name}' shows its view ({facts['href']})", CaseStep(
                action="click", target=f"the {name} link", locator=locator), key)]
        if facts.get("tag") in ("input", "textarea"):
            return []
        return [Try("page_action", f"Pressing '{name}' changes the page", CaseStep(
            action="click", target=f"'{name}'" if clickable else f"the {name} button", locator=locator), key)]
