"""OutcomeObserver: what each recorded step changed, as outcomes an exported test can assert.

Around every step the page is read (the outcome probe) before and after; the differences — an item added to or gone
from a list, a counter's new text, the checked state of the box clicked, a field Enter cleared, the heading of the
page reached, the values typed shown on it, the items still there after a reload, errors the page threw — become
outcomes, each with a locator checked on the live page. Bounded: a few outcomes per step, the most telling first.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from playwright.async_api import Error as PlaywrightError

from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import (
    CheckedOutcome,
    CountOutcome,
    Outcome,
    PageErrorsOutcome,
    SkippedOutcome,
    TextOutcome,
    TextsOutcome,
    ValueOutcome,
    VisibleOutcome,
)
from studio.race.locators import resolve
from studio.race.outcome_locators import heading_locator, items_locator, keyed_locator, node_locator, text_locator
from studio.race.page import RacePage
from studio.race.page_state import (
    Collection,
    CollectionChange,
    Holder,
    PageState,
    changed_collections,
    changed_holders,
    drifted,
    read_page_state,
    same_document,
)
from studio.race.volatility import volatility
from studio.wording import plural

TOGGLES = {"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"}
FIELDS = {"textbox", "searchbox", "combobox", "spinbutton"}
MAX_ITEMS = 3  # items asserted per collection and step
MAX_TEXTS = 4  # changed texts asserted per step
POSITIONAL_MAX = 25  # a collection this small (a board, a short list) is asserted whole, in order …
POSITIONAL_MIN = 4  # … and this large: three links of a header whose badge changed are not a board
_PROBE_MS = 1000


@dataclass
class Before:
    """What the observer read just before a step."""

    state: PageState | None
    value: str | None = None  # the acted field's value
    moved: bool = False  # set after the step: it led to another document


class OutcomeObserver:
    """Reads the page around each step of one recording; remembers what it needs across steps."""

    def __init__(self, race: RacePage) -> None:
        self.race = race
        self._last: PageState | None = None  # after the previous step
        self._drifting: set[str] = set()  # holders that changed while nobody acted, in this document
        self._first_count: dict[tuple[str, str], int] = {}  # items when the recording first saw a collection
        self._typed: list[str] = []  # values filled since the document last changed
        self._touched: set[tuple[str, str]] = set()  # collections a step of this recording changed
        # Items this recording put in a list that the last reload lost: (key, a locator for it). Never asserted as
        # gone: what users expect is that they stay, so the caller reports a suspected defect instead.
        self.lost_on_reload: list[tuple[str, LocatorSpec | None]] = []
        self._before_last: PageState | None = None  # the reading before the last step

    @contextmanager
    def page_errors(self) -> Iterator[list[str]]:
        """Collect the page's uncaught errors (their first lines) while the step runs."""
        errors: list[str] = []

        def on_error(error: object) -> None:
            errors.append((str(getattr(error, "message", error)).splitlines() or [""])[0][:200])

        self.race.page.on("pageerror", on_error)
        try:
            yield errors
        finally:
            self.race.page.remove_listener("pageerror", on_error)

    async def before(self, locator: LocatorSpec | None = None, role: str | None = None) -> Before:
        state = await read_page_state(self.race)
        if state is not None:
            if self._last is not None and not same_document(self._last, state):
                self._drifting.clear()
            self._drifting |= drifted(self._last, state)
            self._note_first_counts(state)
        value = await self._value(locator) if locator is not None and role in FIELDS else None
        return Before(state, value)

    async def after(self, before: Before, action: str, locator: LocatorSpec | None, role: str | None,
                    value: str | None, errors: list[str]) -> list[Outcome]:
        """The step's outcomes, most telling first, ending with the page errors it threw (`errors`)."""
        state = await read_page_state(self.race)
        self._before_last = before.state
        outcomes: list[Outcome] = []
        if state is not None:
            moved = before.moved = before.state is None or not same_document(before.state, state)
            if before.state is not None:
                covered: set[str] = set()  # collections whose change is asserted already
                reopened = action in ("navigate", "reload")  # what it keeps is asked below, never what it lost
                for change in [] if reopened else changed_collections(before.state, state):
                    if change.vanished and (state.place, change.before.path) not in self._touched:
                        continue  # a menu or a popup's list closing: not this recording's items
                    if change.appeared:
                        self._first_count.setdefault((state.place, change.after.path), 0)
                    self._touched.add((state.place, change.after.path))
                    found = await self._collection(change, state.place)
                    if found:
                        covered.add(change.after.path)
                    outcomes += found
                if not moved:
                    outcomes += await self._texts(before.state, state, covered)
            if moved and action not in ("navigate", "reload", "back"):
                outcomes += await self._echoes(state)
            if moved:
                outcomes += await self._heading(state)
                self._typed.clear()
                self._drifting.clear()
            if action in ("navigate", "reload") and before.state is not None and before.state.place == state.place:
                outcomes += await self._kept_after_reload(before.state, state)
            self._last = state
        outcomes += await self._acted(before, action, locator, role, bool(outcomes))
        if action in ("fill", "type") and value:
            self._typed.append(value)
        outcomes.append(PageErrorsOutcome(messages=list(errors), why=(
            f"The page threw {plural(len(errors), 'uncaught error')}." if errors else "")))
        return outcomes

    # -- collections -----------------------------------------------------------------------------

    def _note_first_counts(self, state: PageState) -> None:
        # Read before actions only: by then a list that loads after the page did has loaded, so "empty" means empty.
        for collection in state.collections:
            self._first_count.setdefault((state.place, collection.path), len(collection.items))

    async def _collection(self, change: CollectionChange, place: str) -> list[Outcome]:
        page = self.race.page
        after = change.after
        found = await items_locator(page, after)
        items = found[0] if found else None
        texts = [item.text for item in after.items]
        if (change.reordered and items is not None and POSITIONAL_MIN <= len(texts) <= POSITIONAL_MAX
                and all(len(text) <= 40 and not volatility(text) for text in texts)):
            return [TextsOutcome(locator=items, texts=texts, why=(
                f"All {len(texts)} items, in order, as the step left them."))]
        outcomes: list[Outcome] = []
        for key, gone in [*((k, False) for k in dict.fromkeys(change.added)),
                          *((k, True) for k in dict.fromkeys(change.removed))][:2 * MAX_ITEMS]:
            outcomes += await self._keyed(after, items, key, gone)
        shrank = change.removed and not change.added and 0 < len(after.items) <= MAX_ITEMS
        if shrank:
            for key in dict.fromkeys(after.keys):
                outcomes += await self._keyed(after, items, key, gone=False, kept=True)
        if found is not None and self._first_count.get((place, after.path)) == 0:
            outcomes.append(CountOutcome(locator=found[0], count=found[1], why=(
                "The list was empty when the recording began: every item in it is this test's.")))
        return outcomes

    async def _keyed(self, collection: Collection, items: LocatorSpec | None, key: str, gone: bool,
                     kept: bool = False) -> list[Outcome]:
        if sum(ch.isalpha() for ch in key) < 2:
            return []  # "1", "$5": a badge or a price names no item
        if reason := volatility(key):
            return [SkippedOutcome(text=key, why=f'Not checking the item "{key}": {reason}.')]
        found = await keyed_locator(self.race.page, collection, items, key)
        if found is None:
            return []
        locator, count = found
        expected = sum(1 for item in collection.items if key.casefold() in item.text.casefold())
        if count != expected or (gone and count > 0):
            return []  # hidden copies or matches the recorder cannot account for: no check it cannot stand behind
        if gone:
            return [CountOutcome(locator=locator, count=0, why=f'"{key}" is no longer listed.')]
        what = "is still listed" if kept else "was added to the list"
        if count == 1:
            return [VisibleOutcome(locator=locator, why=f'"{key}" {what}.')]
        return [CountOutcome(locator=locator, count=count, why=f'"{key}" {what} ({count} items have that text).')]

    # -- texts -----------------------------------------------------------------------------------

    async def _texts(self, before: PageState, after: PageState, covered: set[str]) -> list[Outcome]:
        outcomes: list[Outcome] = []
        asserted = 0
        for then, now in changed_holders(before, after):
            if asserted >= MAX_TEXTS:
                break
            if now.live or (then is None and not any(ch.isdigit() for ch in now.text)):
                continue  # live regions are the step's status texts; a label that merely appeared says little
            if now.item is not None and (then is None or now.item.rsplit("/", 1)[0] in covered):
                continue  # a new item's insides, or an item whose list is checked already
            if now.path in self._drifting:
                outcomes.append(SkippedOutcome(text=now.text, why=(
                    f'Not checking "{now.text}": it changed by itself between steps while nobody acted.')))
                continue
            if reason := volatility(now.text):
                outcomes.append(SkippedOutcome(text=now.text, why=f'Not checking "{now.text}": {reason}.'))
                continue
            outcome = await self._holder_text(now, then.text if then else None)
            if outcome is not None:
                outcomes.append(outcome)
                asserted += 1
        return outcomes

    async def _holder_text(self, holder: Holder, before: str | None, why: str = "") -> Outcome | None:
        locator = await node_locator(self.race.page, holder, holder.ancestry)
        if locator is not None:
            said = why or (f'It read "{before}" before the step.' if before is not None else "It appeared.")
            return TextOutcome(locator=locator, text=holder.text, before=before, why=said)
        by_text = await text_locator(self.race.page, holder.text, holder.path)
        if by_text is not None:
            return VisibleOutcome(locator=by_text, why=why or f'"{holder.text}" is shown.')
        return None

    async def messages(self, limit: int = 2) -> list[Outcome]:
        """The status and alert texts the page shows now (a toast after a save, an error summary after a refused
        submission), each with a locator that finds it alone; what looks volatile is left out."""
        state = await read_page_state(self.race)
        outcomes: list[Outcome] = []
        for holder in [h for h in (state.holders if state else []) if h.live and h.text.strip()]:
            if len(outcomes) >= limit:
                break
            if volatility(holder.text) or sum(ch.isalpha() for ch in holder.text) < 4:
                continue
            outcome = await self._holder_text(holder, None, why=f'The page says "{holder.text}".')
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    async def revealed(self, limit: int = 3) -> list[Outcome]:
        """Texts the last step made appear that say something (an error under a field, a "Saved" line), read now,
        each with a locator that finds it alone; numbers, item insides and volatile texts are left to the step's
        own outcomes."""
        if self._before_last is None:
            return []
        state = await read_page_state(self.race)
        if state is None or not same_document(self._before_last, state):
            return []
        earlier = {(h.path, h.tag): h.text for h in self._before_last.holders}
        outcomes: list[Outcome] = []
        for holder in state.holders:
            if len(outcomes) >= limit:
                break
            if (holder.live or holder.item is not None or earlier.get((holder.path, holder.tag)) == holder.text
                    or sum(ch.isalpha() for ch in holder.text) < 4 or volatility(holder.text)):
                continue
            outcome = await self._holder_text(holder, None, why=f'The page shows "{holder.text}".')
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    async def _heading(self, state: PageState) -> list[Outcome]:
        heading = state.heading
        if heading is None or volatility(heading.text):
            return []
        locator = await heading_locator(self.race.page, heading.text)
        return [VisibleOutcome(locator=locator, why=f'The page reached shows its heading "{heading.text}".')] \
            if locator else []

    async def _echoes(self, state: PageState) -> list[Outcome]:
        """Values typed on the previous page that the new page shows (a saved record's fields)."""
        outcomes: list[Outcome] = []
        heading = state.heading.text if state.heading else None
        for typed in dict.fromkeys(v.strip() for v in self._typed):
            if not typed or typed == heading or len(outcomes) >= MAX_TEXTS:
                continue
            holder = next((h for h in state.holders if h.text == typed and not h.live), None)
            if holder is not None:
                outcome = await self._holder_text(holder, None, why=f'The value typed before, "{typed}", is shown.')
                if outcome is not None:
                    outcomes.append(outcome)
        return outcomes

    async def _kept_after_reload(self, before: PageState, after: PageState) -> list[Outcome]:
        """Opening the same page again (a reload): what the recording's own steps put in a list must still be there.
        Items that are gone are kept in `lost_on_reload` (with a locator that finds them when they are there)."""
        outcomes: list[Outcome] = []
        self.lost_on_reload = []
        now = {(c.path, c.tag): c for c in after.collections}
        for then in before.collections:
            if not then.items or len(then.items) > 10 or (after.place, then.path) not in self._touched:
                continue
            collection = now.get((then.path, then.tag))
            found = await items_locator(self.race.page, collection) if collection is not None else None
            for key in list(dict.fromkeys(then.keys))[:MAX_ITEMS]:
                if collection is not None and key in collection.keys:
                    outcomes += await self._keyed(collection, found[0] if found else None, key, gone=False, kept=True)
                elif sum(ch.isalpha() for ch in key) >= 2 and not volatility(key):
                    self.lost_on_reload.append((key, await self._lost_locator(then, key)))
        return outcomes

    async def _lost_locator(self, collection: Collection, key: str) -> LocatorSpec | None:
        """A locator for an item that a reload lost, as it would find it were it there (its list's item role,
        filtered by its text); None when the list names its items by no role."""
        if not collection.itemRole:
            return None
        return LocatorSpec(strategy="scoped", steps=[LocatorStep(kind="role", role=collection.itemRole),
                                                     LocatorStep(kind="filter_text", value=key)])

    # -- the element acted on ---------------------------------------------------------------------

    async def _acted(self, before: Before, action: str, locator: LocatorSpec | None, role: str | None,
                     others: bool) -> list[Outcome]:
        if locator is None or action in ("navigate", "reload"):
            return []
        target = resolve(self.race.page, locator.steps)
        try:
            count = await target.count()
            if role in TOGGLES and action in ("click", "check") and count == 1:
                checked = await target.is_checked(timeout=_PROBE_MS)
                return [CheckedOutcome(locator=locator, checked=checked, why=(
                    "The box clicked is now " + ("checked." if checked else "unchecked.")))]
            if role in FIELDS and action == "press" and count == 1 and before.value is not None:
                value = await target.input_value(timeout=_PROBE_MS)
                if value != before.value and not volatility(value):
                    return [ValueOutcome(locator=locator, value=value, why=(
                        "The key emptied the field." if not value else f'The key changed the field to "{value}".'))]
            gone = count == 0 or not await target.is_visible()
            if action == "click" and not others and not before.moved and gone:
                return [VisibleOutcome(locator=locator, visible=False, why="Clicking it made it go away.")]
        except PlaywrightError:
            return []
        return []

    async def _value(self, locator: LocatorSpec) -> str | None:
        try:
            return await resolve(self.race.page, locator.steps).input_value(timeout=_PROBE_MS)
        except PlaywrightError:
            return None
