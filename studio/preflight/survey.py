"""Survey a page: what a tester notes on a first look, as a PageCatalog with locators for its controls.

It sees at least what the snapshot sees: the script (resources/preflight/survey.js) runs in the studio's isolated
world beside the snapshot's library — its roles, its names, the elements page scripts gave click listeners (found
over CDP) — through open shadow roots and same-origin frames; the keys the page listens to are read over CDP too.

Locators come from role and accessible name when that pair is unique on the page, else the test id, the item the
element sits in, its text, a CSS selector of what it is, and last the n-th of its role in its landmark. A deep
survey — for the pages the request is about — counts each one's matches on the page (the driver resolves them with
Playwright's own engine), so case steps written from it point at exactly one element (a group's at all its members).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from studio.browser.errors import PageUnresponsive
from studio.models.catalog import CatalogElement, FormField, FormInfo, PageCatalog
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.testcase import FieldSpec
from studio.preflight.keyboard import read_keyboard
from studio.preflight.naming import page_heading
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.resources import resource_path

# Second-choice locators of surveyed elements (keyed by id() of the element), tried when the first fails.
Fallbacks = dict[int, list[LocatorSpec]]

# Roles Playwright's get_by_role understands among what the survey reports.
ARIA_ROLES = {"button", "link", "tab", "menuitem", "checkbox", "radio", "switch", "option", "combobox", "textbox",
              "searchbox", "slider", "spinbutton"}


# The lists of a survey that hold CatalogElements (in the script's answer).
ELEMENT_LISTS = ("nav", "actions", "searchInputs", "filters", "fileInputs", "views", "inputs", "controls")


@lru_cache(maxsize=3)
def _source(name: str) -> str:
    return resource_path("preflight", name).read_text(encoding="utf-8")


def survey_source() -> str:
    """The survey (a function expression run in the isolated world after survey_kit.js)."""
    return _source("survey.js")


@dataclass
class Survey:
    """A surveyed page: the catalogue cases are grounded in, plus what preflight reads off the page itself."""

    catalog: PageCatalog
    login: dict[str, Any]
    role_hint: str | None
    tenant: dict[str, Any] | None
    flags: list[str]
    text_sample: str
    hidden_links: list[dict[str, Any]] = field(default_factory=list)
    game: dict[str, Any] = field(default_factory=dict)  # what makes it look like a game (see app_kind.py)

    @property
    def is_login_page(self) -> bool:
        """A password field, or a field with real one-time-code evidence (a numeric field alone is not a login); a
        registration form's password fields are not (see `registration`)."""
        return bool(self.login.get("hasPassword") or self.login.get("hasOtp"))

    @property
    def registration(self) -> dict[str, Any] | None:
        """The page's sign-up form, when it has one (its evidence, field count and name): a form to test, not a
        login wall to get past."""
        found = self.login.get("registration")
        return found if isinstance(found, dict) else None

    def code_label(self, after_password: bool) -> str | None:
        """The label of the code field: real evidence, or (right after a password) a lone short field."""
        if self.login.get("hasOtp"):
            return self.login.get("otpLabel")
        return self.login.get("codeCandidateLabel") if after_password else None


def _role_locator(role: str, name: str, exact: bool = True) -> LocatorSpec:
    return LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role=role, name=name, exact=exact)])


def _test_id_locator(test_id: str) -> LocatorSpec:
    return LocatorSpec(strategy="test_id", steps=[LocatorStep(kind="test_id", value=test_id)])


def _label_locator(label: str) -> LocatorSpec:
    return LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=label, exact=True)])


def _css_locator(selector: str, count: int = 1) -> LocatorSpec:
    return LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value=selector)], unique=count == 1,
                       matches=count)


def _accessible(item: dict) -> str:
    """The name Playwright's get_by_role matches the element by ("" when the browser gives it none)."""
    value = item.get("accName", item.get("name"))
    return value if isinstance(value, str) else ""


def _candidates(item: dict, pairs: Counter, test_ids: Counter) -> list[LocatorSpec]:
    """Ways to name an element, best first: role + accessible name when unique on the page, its test id, its
    placeholder, its text, then a CSS selector that picks it (or, for a group, all its members) by what it is."""
    role, name, test_id = item.get("role") or "", _accessible(item), item.get("testId")
    count = int(item.get("count") or 1)
    found = []
    if role in ARIA_ROLES and name and pairs[(role, name)] == 1:
        found.append(_role_locator(role, name))
    if test_id and test_ids[test_id] == 1:
        found.append(_test_id_locator(test_id))
    scope = item.get("inItem")
    if isinstance(scope, dict) and scope.get("role") and scope.get("text") and role in ARIA_ROLES:
        # Within its repeating item, told apart by the item's text (the checkbox of the "Buy milk" item).
        own = LocatorStep(kind="role", role=role, name=name, exact=True) if name else LocatorStep(kind="role", role=role)
        found.append(LocatorSpec(strategy="scoped", steps=[LocatorStep(kind="role", role=scope["role"]),
                                                           LocatorStep(kind="filter_text", value=scope["text"]), own]))
    if item.get("placeholder"):
        found.append(LocatorSpec(strategy="placeholder",
                                 steps=[LocatorStep(kind="placeholder", value=item["placeholder"], exact=True)]))
    if item.get("text") and count == 1:
        found.append(LocatorSpec(strategy="text", steps=[LocatorStep(kind="text", value=item["text"], exact=True)]))
    if item.get("css"):
        found.append(_css_locator(item["css"], count))
    if role in ARIA_ROLES and name and pairs[(role, name)] == 1:
        # A name the browser writes a little differently (CSS-generated text around it): matched as a part of it.
        found.append(_role_locator(role, name, exact=False))
    nth = item.get("nth")
    if isinstance(nth, dict) and nth.get("role"):
        # The n-th of its role in its landmark: positional, for what has no name, test id or telling class.
        scope = [LocatorStep(kind="role", role=nth["scope"])] if nth.get("scope") else []
        found.append(LocatorSpec(strategy="nth", steps=[*scope, LocatorStep(kind="role", role=nth["role"]),
                                                        LocatorStep(kind="nth", index=int(nth.get("index") or 0))]))
    return found


def _elements(raw: list[dict], pairs: Counter, test_ids: Counter, fallbacks: Fallbacks) -> list[CatalogElement]:
    found = []
    for item in raw:
        options = _candidates(item, pairs, test_ids)
        element = CatalogElement(
            role=item.get("role") or "", name=item.get("name") or item.get("placeholder") or "",
            test_id=item.get("testId"), locator=options[0] if options else None, href=item.get("href"),
            accept=item.get("accept"), size_limit=item.get("sizeLimit"), place=item.get("place"),
            path=item.get("path"), found_by=item.get("foundBy"), count=int(item.get("count") or 1),
            field_type=item.get("type"), options=item.get("options") or [], draggable=bool(item.get("draggable")))
        fallbacks[id(element)] = options[1:]
        found.append(element)
    return found


def _label_text(field: dict) -> str:
    """The words Playwright's get_by_label finds a field by ("" for a field only a label beside it names)."""
    value = field.get("labelText", field.get("label"))
    return value if isinstance(value, str) else ""


def _forms(raw_forms: list[dict], labels: Counter, pairs: Counter, test_ids: Counter,
           fallbacks: Fallbacks) -> list[FormInfo]:
    forms = []
    for raw in raw_forms:
        fields = []
        for item in raw["fields"]:
            spec = FieldSpec(name=item["name"], type=item["type"], required=bool(item["required"]),
                             label=item.get("label") or "")
            # The label exactly, then as a substring (labels often carry counters or hints), then the test id.
            options: list[LocatorSpec] = []
            # A label Playwright finds the field by (its <label>, aria-label, aria-labelledby): not a label beside it.
            label = _label_text(item)
            if item["type"] != "radio" and label and labels[label] == 1:
                options.append(_label_locator(label))
                options.append(LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=label)]))
            if item.get("testId") and test_ids[item["testId"]] == 1:
                options.append(_test_id_locator(item["testId"]))
            if item.get("css"):
                options.append(_css_locator(item["css"]))
            form_field = FormField(spec=spec, locator=options[0] if options else None,
                                   options=item.get("options") or [], path=item.get("path"),
                                   autocomplete=item.get("autocomplete"))
            fallbacks[id(form_field)] = options[1:]
            fields.append(form_field)
        submit = _elements([raw["submit"]], pairs, test_ids, fallbacks)[0] if raw.get("submit") else None
        forms.append(FormInfo(name=raw["name"], fields=fields, submit=submit, step_text=raw.get("stepText"),
                              method=raw.get("method") or "get"))
    return forms


async def survey_page(driver: PageDriver, reached_by: str = "", deep: bool = False,
                      status: int | None = None) -> Survey:
    """Survey the page as it is now; `deep` checks every locator on the page (a few ms each). A page that stopped
    answering raises PageUnresponsive (naming it); other failures are RaceError."""
    try:
        return await _survey(driver, reached_by, deep, status)
    except RaceError as error:
        if error.kind != "timeout":
            raise
        raise PageUnresponsive(driver.url, "surveying it", driver.timeout_s) from error


async def _survey(driver: PageDriver, reached_by: str, deep: bool, status: int | None) -> Survey:
    # Flags and keys are read at the same time as the page (other sessions of the browser), and again after a move.
    extras = asyncio.ensure_future(asyncio.gather(_flags(driver), read_keyboard(driver)))
    raw = None
    try:
        for attempt in range(3):
            try:
                raw = await driver.race.read(survey_source(), "surveying it", prelude=_source("survey_kit.js"),
                                             listeners=True)
                break
            except RaceError as error:
                # A navigation started just before (a redirect after a submit): survey the page it lands on.
                if attempt == 2 or error.kind != "navigated":
                    raise
                await driver.wait_for_load("load", timeout_ms=10_000)
                await asyncio.gather(extras, return_exceptions=True)
                extras = asyncio.ensure_future(asyncio.gather(_flags(driver), read_keyboard(driver)))
    except BaseException:
        extras.cancel()
        await asyncio.gather(extras, return_exceptions=True)
        raise
    flags, keyboard = await extras
    if raw is None:  # the survey script returns an object; None means the page's scripts got in its way
        raise RuntimeError(f"Surveying {driver.url} returned nothing.")
    # Every element once (the lists overlap: a filter button is also an action, a submit button too).
    distinct = {item["key"]: item for key in ELEMENT_LISTS for item in raw.get(key, [])}
    everything = list(distinct.values())
    pairs = Counter((item.get("role"), _accessible(item)) for item in everything)
    fields = {f["key"]: f for form in raw["forms"] for f in form["fields"]}
    test_ids = Counter(item.get("testId") for item in {**distinct, **fields}.values() if item.get("testId"))
    labels = Counter(_label_text(f) for form in raw["forms"] for f in form["fields"] if _label_text(f))
    fallbacks: Fallbacks = {}

    def elements(key: str) -> list[CatalogElement]:
        return _elements(raw[key], pairs, test_ids, fallbacks)

    headings = raw.get("headings") or []
    catalog = PageCatalog(
        url=raw["url"], path=_path(raw["url"]), status=status, title=raw["title"],
        heading=page_heading(headings or [raw["heading"]]), headings=headings,
        reached_by=reached_by, nav=elements("nav"), actions=elements("actions"),
        forms=_forms(raw["forms"], labels, pairs, test_ids, fallbacks), search_inputs=elements("searchInputs"),
        filters=elements("filters"), file_inputs=elements("fileInputs"), live_regions=raw["liveRegions"],
        views=elements("views"), inputs=elements("inputs"), controls=elements("controls"), keyboard=keyboard,
    )
    if deep:
        await verify_locators(driver, catalog, fallbacks)
    return Survey(catalog=catalog, login=raw["login"], role_hint=raw["roleHint"], tenant=raw["tenant"],
                  flags=flags, text_sample=raw["textSample"], hidden_links=raw.get("hiddenLinks") or [],
                  game=raw.get("game") or {})


async def _flags(driver: PageDriver) -> list[str]:
    """Feature flags, read in the page's own world (where flag SDKs keep their bootstrap globals)."""
    try:
        found = await driver.evaluate(_source("flags.js"), during="reading its feature flags")
    except RaceError as error:
        if error.kind == "timeout":
            raise
        return []
    return [str(flag) for flag in found] if isinstance(found, list) else []


async def verify_locators(driver: PageDriver, catalog: PageCatalog, fallbacks: Fallbacks | None = None) -> None:
    """Keep only locators that match exactly one element now (Playwright's own count, through the driver)."""
    holders: list[Any] = [*catalog.actions, *catalog.nav, *catalog.search_inputs, *catalog.filters,
                          *catalog.file_inputs, *catalog.views, *catalog.inputs, *catalog.controls]
    for form in catalog.forms:
        holders.extend(form.fields)
        if form.submit:
            holders.append(form.submit)
    for holder in holders:
        options = [holder.locator] if holder.locator else []
        options += (fallbacks or {}).get(id(holder), [])
        holder.locator = None
        for option in options:
            # 0 as well for a locator the page cannot read; a group's locator matches each of its members
            if await driver.count(option) == max(1, option.matches if not option.unique else 1):
                holder.locator = option
                break


def _path(url: str) -> str:
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
