"""Try what a page does, as a tester does on a first look: type into a field that stands alone and press Enter, then
act on what appeared (an item's box, its buttons, a double-click on its text), follow the page's views, press the
buttons that appeared, reload. Every try starts from a fresh sandboxed browser (sandbox.py) and the steps that reach
its state, and keeps what the browser saw change (the outcome observer's outcomes), so a case written from it can
replay it and assert it from a fresh browser too. A search box is tried in search_trial.py, forms (when allowed) in
form_trials.py.

Generic by construction: what is tried comes from the page's structure (fields outside forms, repeated items and
the controls inside them, client-side route links, buttons), never from names an app happens to use.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass

from studio.browser.errors import BrowserError
from studio.models.behaviour import Behaviour, BehaviourKind
from studio.models.catalog import CatalogElement, PageCatalog
from studio.models.context import Finding, KeyPage
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import CountOutcome, PageErrorsOutcome, VisibleOutcome
from studio.models.testcase import CaseStep
from studio.preflight.chance import RELOADS, draws, drew, unpositioned
from studio.preflight.entry_trials import SAMPLES, try_entry
from studio.preflight.explorer import CONTROLS_JS, PAGE_CONTROLS_JS, Explorer
from studio.preflight.findings import report_finding
from studio.preflight.form_trials import FormTrials
from studio.preflight.hangs import ControlHangs, Hangs
from studio.preflight.persistence import said as _said
from studio.preflight.persistence import try_persistence
from studio.preflight.run import PreflightRun
from studio.preflight.sandbox import STEP_TIMEOUT_MS, Sandbox, perform
from studio.preflight.search_trial import try_search
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.outcome_locators import items_locator, keyed_locator
from studio.race.outcome_observer import OutcomeObserver
from studio.race.page_state import Collection, read_page_state

EDITED = "First sample item, edited"
LEAVES = re.compile(r"\b(log ?out|sign ?out|log off|delete (?:my )?account|close account)\b", re.IGNORECASE)
TEXT_ROLES = {"textbox"}
NEXT_PAGE = re.compile(r"^(next( page)?|older|more|›|»|→)$", re.IGNORECASE)
RESERVE_STEPS, RESERVE_SECONDS = 3, 8.0  # left for the objectives after this one
def paging(catalog: PageCatalog) -> list[CatalogElement]:
    """The page's link or button to the next page of its list ("Next", "Next page", "›")."""
    return [f for f in catalog.filters if f.locator is not None and NEXT_PAGE.match(f.name.strip())]


def _role(role: str, name: str | None = None) -> LocatorStep:
    return LocatorStep(kind="role", role=role, name=name, exact=name is not None)


def _within(scope: LocatorSpec, *steps: LocatorStep) -> LocatorSpec:
    return LocatorSpec(strategy="scoped", steps=[*scope.steps, *steps])


def _among_items(item: LocatorSpec, *steps: LocatorStep) -> LocatorSpec:
    """`steps` within any item of `item`'s list, not within the item its text names (that text may change)."""
    return LocatorSpec(strategy="scoped", steps=[*[s for s in item.steps if s.kind != "filter_text"], *steps])


def _last_role(step: CaseStep) -> str | None:
    roles = [link.role for link in (step.locator.steps if step.locator else []) if link.kind == "role"]
    return roles[-1] if roles else ("textbox" if step.action == "fill" else None)


@dataclass
class Found:
    """Where the sample items live: the list, a locator for its items, and one for an item by its text."""

    collection: Collection
    items: LocatorSpec

    async def item(self, driver: PageDriver, key: str) -> LocatorSpec | None:
        found = await keyed_locator(driver.page, self.collection, self.items, key)
        return found[0] if found is not None and found[1] == 1 else None


class Prober:
    """Tries one page's behaviours in a sandbox; `behaviours` is what it learnt."""

    def __init__(self, run: PreflightRun, box: Sandbox, catalog: PageCatalog) -> None:
        self.run, self.box, self.catalog = run, box, catalog
        self.url = run.url(catalog.path)
        self.behaviours: list[Behaviour] = []
        self.out_of_budget = False
        self.drew_on_chance = False  # the page drew random numbers (while loading or during a step) at some point
        self.last_step: tuple[PageDriver, str] | None = None  # the last in-place step's page, its address before it
        self.stopped_before = 0  # the sandbox's stopped writes when the current try began
        self.hangs = Hangs(run, box, catalog.path, self.url)  # controls the page stopped answering on (skipped)

    # -- one try ----------------------------------------------------------------------------------

    async def attempt(self, setup: list[CaseStep], step_of: object) -> tuple[PageDriver, OutcomeObserver] | None:
        """A fresh page at the state `setup` reaches, with an observer that saw it get there."""
        left = self.run.budget.remaining()
        if left["steps"] <= RESERVE_STEPS or left.get("seconds", 60) < RESERVE_SECONDS:
            if not self.out_of_budget:
                self.out_of_budget = True
                self.run.note(f"Stopped trying {self.catalog.path}'s behaviours to stay within the preflight's "
                              "budget; what was tried so far is kept.")
            return None
        self.run.budget.charge_step()
        self.run.budget.check()
        self.stopped_before = len(self.box.blocked)
        try:
            driver = await self.box.fresh(self.url)
            observer = OutcomeObserver(driver.race)
            await observer.before()
            for step in setup:
                await self.act(driver, observer, step)
            return driver, observer
        except (BrowserError, RaceError, ValueError) as error:
            self.run.note(f"Trying {step_of} on {self.catalog.path} failed while reaching its state: "
                          f"{str(error).splitlines()[0]}")
            return None

    async def act(self, driver: PageDriver, observer: OutcomeObserver, step: CaseStep) -> CaseStep:
        """Do `step` and return it with what it changed. An uncaught error the page throws is a suspected defect; a
        page that stopped answering during it is one too, and raises ControlHangs (hangs.py)."""
        self.hangs.check(step)
        try:
            return await self._act(driver, observer, step)
        except (RaceError, BrowserError) as error:
            await self.hangs.judge(driver, step, error)  # raises ControlHangs when the page no longer answers
            raise

    async def _act(self, driver: PageDriver, observer: OutcomeObserver, step: CaseStep) -> CaseStep:
        role = _last_role(step)
        with observer.page_errors() as errors:
            before = await observer.before(step.locator, role)
            chance, address = await draws(driver), driver.url
            await perform(self.box, driver, step, self.url)
            self.last_step = None if step.action in RELOADS else (driver, address)
            outcomes = await observer.after(before, step.action, step.locator, role, step.data, errors)
            after = await draws(driver)
            self.drew_on_chance = self.drew_on_chance or chance > 0 or after > 0
            if drew(step.action, chance, after):
                outcomes = unpositioned(outcomes)
            if step.action == "drag":  # what the page said about the move ("Moved … to position 2")
                outcomes[-1:-1] = await observer.messages()
        if errors:
            report_finding(self.run, self.page_error(errors[0], [_said(step), *errors[:3]]))
        told = [o.why for o in outcomes if o.kind not in ("page_errors", "skipped") and o.why]
        return step.model_copy(update={"outcomes": outcomes, "expected": " ".join(told[:3])})

    async def moved_to(self, within_s: float = 0.0) -> str | None:
        """The address the last step moved its page to in place (a route, a slide's #/2), waiting up to `within_s`
        for an app that writes it a moment later; None when it stayed (or the step opened a page). The page stays
        open until the next try."""
        if self.last_step is None:
            return None
        driver, address = self.last_step
        deadline = time.monotonic() + within_s
        while (url := driver.url) == address and time.monotonic() < deadline:
            await asyncio.sleep(0.15)
        return url if url != address else None

    def keep(self, kind: BehaviourKind, name: str, setup: list[CaseStep], steps: list[CaseStep]) -> Behaviour | None:
        summary = "; ".join(o.why for step in steps for o in step.outcomes
                            if o.kind not in ("page_errors", "skipped") and o.why)
        behaviour = Behaviour(kind=kind, name=name, page=self.catalog.path, setup=setup, steps=steps,
                              summary=summary or "Nothing visible changed.")
        if behaviour.asserted == 0 and kind != "blank_refused":
            chance = any(o.kind == "skipped" and "chance" in o.why for step in steps for o in step.outcomes)
            self.run.note(f"{self.catalog.path}: {name} — " + (
                "it changed the page, but what it showed depends on chance (the page drew random numbers during "
                "it)" if chance else "nothing visible changed") + ", so no case is written for it.")
            return None
        if len(self.box.blocked) > self.stopped_before and not self.box.allow_writes:
            # What the page showed is the sandbox stopping a write, not what the app does.
            self.run.note(f"{self.catalog.path}: {name} — it sends to the server ({self.box.blocked[-1]}), which "
                          "the sandbox stops, so what it does was not seen; Try Forms lets it through.")
            return None
        thrown = [m for step in steps for o in step.outcomes if isinstance(o, PageErrorsOutcome) for m in o.messages]
        if thrown:
            # Never a case that takes the error for what the page should do: its case checks that none is thrown
            # (it fails today, and is marked so).
            behaviour.steps = [step.model_copy(update={"outcomes": [
                PageErrorsOutcome(messages=[], why="The page throws no uncaught error.") if isinstance(o, PageErrorsOutcome)
                else o for o in step.outcomes]}) for step in steps]
            report_finding(self.run, self.page_error(thrown[0], [_said(step) for step in [*setup, *steps]]),
                           expected=behaviour)
            return None
        self.behaviours.append(behaviour)
        self.run.progress(f"{self.catalog.path}: {name}")
        return behaviour

    def page_error(self, message: str, evidence: list[str]) -> Finding:
        return Finding(kind="page_error", page_url=self.url, evidence=evidence,
                       summary=f"On {self.catalog.path}, the page throws an uncaught error ({message}).")

    # -- the tries ----------------------------------------------------------------------------------

    async def explore(self) -> list[Behaviour]:
        """A lone entry field first (what it adds, then the items' own controls), else a search box and paging;
        then the page's forms, sent with typed samples (in the sandbox, a form that would write to the server is
        stopped there and said so), then every other control the snapshot sees (explorer.py)."""
        entered = False
        for field in [f for f in self.catalog.inputs if f.role in TEXT_ROLES and f.locator is not None][:2]:
            try:
                adds = await try_entry(self, field)
            except ControlHangs:
                continue  # reported when it hung; the page's other controls are still tried
            if adds:
                entered = True
                found = await self.find_items(adds)
                if found is not None:
                    # Persistence first: it is one reload, and a budget running out in the item tries must not
                    # lose it.
                    await self.try_persistence(adds)
                    await self.try_items(adds, found)
                break
        if not entered:
            for field in [f for f in self.catalog.search_inputs if f.locator is not None][:1]:
                await try_search(self, field)
            for control in paging(self.catalog)[:1]:
                where = f"the {self.catalog.heading or 'page'}"
                opened = [CaseStep(action="navigate", url=self.catalog.path, target=where)]
                await self.try_one(opened, "view", f"'{control.name}' shows the next page of the list",
                                   [CaseStep(action="click", target=f"the {control.name} link",
                                             locator=control.locator)])
        await FormTrials(self).explore()
        await Explorer(self).explore()
        return self.behaviours

    async def find_items(self, adds: list[CaseStep]) -> Found | None:
        ready = await self.attempt(adds, "the added items")
        if ready is None:
            return None
        driver, _observer = ready
        state = await read_page_state(driver.race)
        for collection in state.collections if state else []:
            if sum(1 for item in collection.items if any(s in item.text for s in SAMPLES)) == len(SAMPLES):
                found = await items_locator(driver.page, collection)
                if found is not None:
                    return Found(collection, found[0])
        self.run.note(f"The items added on {self.catalog.path} could not be told apart in a list.")
        return None

    async def item_controls(self, driver: PageDriver, item: LocatorSpec) -> list[dict]:
        try:
            return await driver.evaluate_on(item, CONTROLS_JS, timeout_ms=STEP_TIMEOUT_MS) or []
        except RaceError:
            return []

    async def try_items(self, adds: list[CaseStep], found: Found) -> None:
        """Act on the items: the first one's box, the third one's buttons, a double-click on the second's text.
        Every locator is made on one page first: each try then opens a fresh one (and closes this)."""
        ready = await self.attempt(adds, "the items' controls")
        if ready is None:
            return
        driver, _ = ready
        first, second, third = [await found.item(driver, sample) for sample in SAMPLES]
        if first is None:
            return
        controls = await self.item_controls(driver, first)
        views = await self.page_views(driver)
        toggled: list[CaseStep] = []
        if any(c["type"] == "checkbox" or c["role"] == "checkbox" for c in controls):
            toggled = await self.try_one(adds, "toggle", "Checking an item's box marks it done",
                                         [CaseStep(action="check", target=f"the box of '{SAMPLES[0]}'",
                                                   locator=_within(first, _role("checkbox")))])
        buttons = [c for c in controls if c["tag"] == "button" or c["role"] == "button"]
        for control in buttons[:2]:
            if third is None or (not control["name"] and len(buttons) > 1):
                continue
            # A button with no name (an icon, a "×" drawn by CSS) is the item's only button: found within it.
            called = f"'{control['name']}'" if control["name"] else "The item's button"
            button = _within(third, _role("button", control["name"] or None))
            steps = [CaseStep(action="hover", target=f"'{SAMPLES[2]}'", locator=third),
                     CaseStep(action="click", target=f"{called} on '{SAMPLES[2]}'", locator=button)]
            await self.try_one(adds, "remove", f"{called} on an item (shown on hover) acts on it", steps)
        if second is not None:
            await self.try_edit(adds, second)
        base = adds + [step.model_copy(update={"outcomes": []}) for step in toggled]
        await self.try_page_controls(base)
        await self.try_views(base, views)

    async def page_views(self, driver: PageDriver) -> list[CatalogElement]:
        """The page's links to client-side routes as they show once it has items (the survey saw it empty)."""
        from studio.preflight.survey import survey_page

        try:
            return (await survey_page(driver, deep=True)).catalog.views
        except (RaceError, BrowserError, RuntimeError):
            return []

    async def try_one(self, setup: list[CaseStep], kind: BehaviourKind, name: str,
                      steps: list[CaseStep]) -> list[CaseStep]:
        """Try `steps` after `setup`; returns the steps with their outcomes when kept, else []."""
        ready = await self.attempt(setup, name)
        if ready is None:
            return []
        driver, observer = ready
        done = []
        try:
            for step in steps:
                done.append(await self.act(driver, observer, step))
        except RaceError as error:
            self.run.note(f"{self.catalog.path}: {name} could not be tried: {str(error).splitlines()[0]}")
            return []
        return done if self.keep(kind, name, setup, done) else []

    async def try_edit(self, adds: list[CaseStep], item: LocatorSpec) -> None:
        """A double-click on an item's text: does it open an editor, and does Enter save the new text?"""
        ready = await self.attempt(adds, "editing an item")
        if ready is None:
            return
        driver, observer = ready
        text = _within(item, LocatorStep(kind="text", value=SAMPLES[1], exact=True))
        try:
            opened = await self.act(driver, observer, CaseStep(action="dblclick", target=f"'{SAMPLES[1]}'",
                                                               locator=text))
            # The open editor, found among the items and not by the item's text: an app that binds the title to
            # the editor changes that text while typing (hidden editors are not textboxes to a role locator).
            editor = _among_items(item, _role("textbox"))
            if await driver.count(editor) != 1:
                return  # a double-click does nothing there: no editor to try
            steps = [opened, CaseStep(action="fill", target=f"the editor of '{SAMPLES[1]}'", locator=editor,
                                      data=EDITED),
                     CaseStep(action="press", target=f"the editor of '{SAMPLES[1]}'", locator=editor, data="Enter")]
        except RaceError:
            return
        await self.try_edit_ending(adds, item, steps, saved=True)
        await self.try_edit_ending(adds, item, [*steps[:2], steps[2].model_copy(update={"data": "Escape"})],
                                   saved=False)

    async def try_edit_ending(self, adds: list[CaseStep], item: LocatorSpec, steps: list[CaseStep],
                              saved: bool) -> None:
        """Enter in an item's editor saves the new text, Escape drops it (the convention of inline editors): kept with
        the check of which text is listed afterwards, when the page did so; an app that does otherwise gets no case."""
        name = ("Double-clicking an item's text edits it; Enter saves" if saved
                else "Escape while editing an item's text cancels the edit")
        ready = await self.attempt(adds, name)
        if ready is None:
            return
        driver, observer = ready
        shown, gone = (EDITED, SAMPLES[1]) if saved else (SAMPLES[1], EDITED)
        shown_at = _among_items(item, LocatorStep(kind="text", value=shown, exact=True))
        gone_at = _among_items(item, LocatorStep(kind="text", value=gone, exact=True))
        try:
            done = [await self.act(driver, observer, step.model_copy(update={"outcomes": []})) for step in steps]
            seen = (await driver.count(shown_at), await driver.count(gone_at))
        except RaceError as error:
            self.run.note(f"{self.catalog.path}: {name} could not be tried: {str(error).splitlines()[0]}")
            return
        kept = [VisibleOutcome(locator=shown_at, why=f'"{shown}" is listed.'),
                CountOutcome(locator=gone_at, count=0, why=f'"{gone}" is no longer listed.')]
        done[-1] = done[-1].model_copy(update={"outcomes": [*done[-1].outcomes, *kept]})
        if seen == (1, 0):
            self.keep("edit", name, adds, done)
        elif saved and seen == (0, 1):
            # Enter dropped what was typed: a suspected defect, and its case checks the saved text (it fails today).
            report_finding(self.run, Finding(
                kind="control_does_nothing", page_url=self.url, evidence=[_said(step) for step in [*adds, *done]],
                summary=f'On {self.catalog.path}, Enter in an item\'s editor did not save what was typed: "{gone}" '
                        f'stayed listed and "{shown}" is nowhere; users of an inline editor expect Enter to save.'),
                expected=Behaviour(kind="edit", name=name, page=self.catalog.path, setup=adds, steps=done,
                                   summary=" ".join(o.why for o in kept)))
        else:
            self.run.note(f"{self.catalog.path}: {name} — not what the page did, so no case is written for it.")

    async def try_views(self, base: list[CaseStep], views: list[CatalogElement]) -> None:
        for view in [v for v in views or self.catalog.views if v.locator is not None and v.href][:4]:
            steps = [CaseStep(action="click", target=f"the {view.name} link", locator=view.locator),
                     CaseStep(action="expect_url", target="the address", url=f"{self.catalog.path}{view.href}")]
            kept = await self.try_one(base, "view", f"'{view.name}' shows its view ({view.href})", steps[:1])
            if kept:
                self.map_view(view)
                self.behaviours[-1].steps.append(steps[1])
                # A client-side route opened by its address: the page loads on it and shows the same view.
                route = [CaseStep(action="navigate", url=f"{self.catalog.path}{view.href}",
                                  target=f"the {view.name} view"), CaseStep(action="reload", target="the page")]
                await self.try_one(base, "route", f"Opening {view.href} by its address shows '{view.name}'", route)

    def map_view(self, view: CatalogElement) -> None:
        """A view seen working joins the UI map (a single-page app's map is its views)."""
        ui_map = self.run.context.ui_map
        url = f"{self.catalog.path}{view.href}"
        if any(page.url == url for page in ui_map.key_pages):
            return
        name = self.catalog.heading or self.catalog.title or self.catalog.path
        ui_map.key_pages.append(KeyPage(name=f"{name} › {view.name}", url=url,
                                        how_to_reach=f"{(view.place or 'page').capitalize()} › {view.name}"))
        if view.name not in ui_map.top_nav and not any(p.how_to_reach.startswith("Top nav") for p in ui_map.key_pages):
            ui_map.top_nav.append(view.name)

    async def try_page_controls(self, base: list[CaseStep]) -> None:
        """Buttons and toggles of the page itself (outside the items), as the state with items shows them."""
        ready = await self.attempt(base, "the page's own controls")
        if ready is None:
            return
        driver, _ = ready
        try:
            controls = await driver.evaluate(PAGE_CONTROLS_JS, during="reading the page's controls")
        except RaceError:
            return
        tries: list[tuple[str, CaseStep]] = []
        for control in controls[:4]:
            name = control["name"]
            if LEAVES.search(name):
                continue
            if control["kind"] == "toggle" and not name:  # no name to find it by: its id or its own class
                said = "Checking the page's unlabelled checkbox"
                locator = LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value=control["css"])])
                step = CaseStep(action="check", target="the page's unlabelled checkbox", locator=locator)
            elif control["kind"] == "toggle":
                said = f"Checking '{name}'"
                locator = LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=name, exact=True)])
                step = CaseStep(action="check", target=f"'{name}'", locator=locator)
            else:
                said = f"Pressing '{name}'"
                locator = LocatorSpec(strategy="role", steps=[_role("button", name)])
                step = CaseStep(action="click", target=f"the {name} button", locator=locator)
            try:
                if await driver.count(locator) == 1:
                    tries.append((said, step))
            except RaceError:
                continue
        for said, step in tries:  # each try opens a fresh page (and closes this one)
            await self.try_one(base, "page_action", said, [step])

    async def try_persistence(self, adds: list[CaseStep]) -> None:
        await try_persistence(self, adds)
