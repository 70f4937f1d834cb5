"""What the preflight saw on each page: headings, navigation, controls with locators, forms with their fields.

Cases are grounded in this catalogue: every step's target is an element listed here.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from studio.models.locator import LocatorSpec
from studio.models.testcase import FieldSpec


# What error pages call themselves, at the start of their title or heading ("Error response", "404 Not Found",
# "Page not found · Shop", "Internal Server Error").
ERROR_TITLE = re.compile(r"^\s*(?:error(?:\s+response|\s+\d{3})?\s*(?:$|[:·|—–(-])|(?:4|5)\d\d\b|"
                         r"(?:page |file )?not found\b|(?:internal )?server error\b|bad gateway\b|service unavailable\b|gateway time-?out\b|bad request\b|"
                         r"method not allowed\b|this page (?:could not|can't|cannot) be found)", re.IGNORECASE)


class CatalogElement(BaseModel):
    """An interactive element seen on a page, with the locator synthesized for it."""

    role: str
    name: str
    test_id: str | None = None
    locator: LocatorSpec | None = None
    href: str | None = None
    accept: str | None = Field(default=None, description="A file input's accept attribute (types it takes).")
    size_limit: str | None = Field(default=None, description="A size limit the page states for a file input.")
    place: str | None = Field(default=None, description="The landmark it sits in: header, footer, navigation, main…")
    path: str | None = Field(default=None, description="Where it is in the document tree (child indexes, 's' for a "
                             "shadow root, 'f' for a frame), as the recorder's outcome probe names nodes.")
    found_by: str | None = Field(default=None, description="Why a control outside the usual tags was taken for one: "
                                 "listener, onclick, pointer, tabindex, draggable, label, role or tag.")
    count: int = Field(default=1, description="How many alike elements it stands for (seats, draggable rows); its "
                       "locator then matches all of them.")
    field_type: str | None = Field(default=None, description="A field's type (checkbox, radio, select, range…).")
    options: list[str] = Field(default_factory=list, description="A select's options.")
    draggable: bool = False


class FormField(BaseModel):
    """A field of a form, as seen: its spec (name/type/required) and how to reach it."""

    spec: FieldSpec
    locator: LocatorSpec | None = None
    options: list[str] = Field(default_factory=list)
    path: str | None = Field(default=None, description="Where it is in the document tree (see CatalogElement.path).")
    autocomplete: str | None = Field(default=None, description="Its autocomplete attribute ('new-password', 'email').")


class FormInfo(BaseModel):
    """A form (or wizard step) on a page: its fields and the button that submits or advances it."""

    name: str
    fields: list[FormField] = Field(default_factory=list)
    submit: CatalogElement | None = None
    step_text: str | None = Field(default=None, description="'Step 1 of 3' when the form is a wizard.")
    method: str = Field(default="get", description="How it is sent: 'get' or 'post' (a form's method attribute).")


class KeyboardListeners(BaseModel):
    """What a page listens to on the keyboard (window, document, body, first canvas), so an explorer can press it."""

    where: list[str] = Field(default_factory=list, description="e.g. 'keydown on the document'.")
    keys: list[str] = Field(default_factory=list, description="Keys its handlers name, as Playwright presses them.")
    letters: bool = Field(default=False, description="Its handlers take letters (a word game).")
    digits: bool = Field(default=False, description="Its handlers take digits.")

    @property
    def listening(self) -> bool:
        return bool(self.where)


class PageCatalog(BaseModel):
    """One page the preflight visited."""

    url: str
    path: str
    status: int | None = None
    title: str = ""
    heading: str = ""
    reached_by: str = ""
    nav: list[CatalogElement] = Field(default_factory=list)
    actions: list[CatalogElement] = Field(default_factory=list)
    forms: list[FormInfo] = Field(default_factory=list)
    search_inputs: list[CatalogElement] = Field(default_factory=list)
    filters: list[CatalogElement] = Field(default_factory=list)
    file_inputs: list[CatalogElement] = Field(default_factory=list)
    live_regions: list[str] = Field(default_factory=list)
    views: list[CatalogElement] = Field(default_factory=list, description="Links to client-side routes (#/active).")
    inputs: list[CatalogElement] = Field(default_factory=list, description="Text fields outside any form.")
    controls: list[CatalogElement] = Field(default_factory=list, description=(
        "Controls no list above holds: fields outside forms (checkboxes, selects), elements clickable by behaviour "
        "(listeners, pointer cursor, tab stops), draggable items, and other elements with an interactive role."))
    keyboard: KeyboardListeners = Field(default_factory=KeyboardListeners)
    headings: list[str] = Field(default_factory=list, description="Visible h1–h3, level 1 first, in document order.")
    screenshot_id: int | None = None

    @property
    def is_error_page(self) -> bool:
        """Whether the page is evidence that nothing is here: an HTTP error, or a page that calls itself an error
        (a soft 404 answers 200 with "Page not found"). Such a page is never an entry point or a key page."""
        if (self.status or 200) >= 400 and self.status not in (401, 403):
            return True  # 401/403: a page that exists and is closed to this role (a permissions finding)
        return any(ERROR_TITLE.search(text or "") for text in (self.title, self.heading, *self.headings[:1]))

    @property
    def has_content(self) -> bool:
        """Whether the page has anything a case could act on."""
        return bool(self.actions or self.forms or self.search_inputs or self.filters or self.file_inputs
                    or self.views or self.inputs or self.controls or self.keyboard.listening)

    @property
    def control_count(self) -> int:
        """How many things a tester can act on: controls, form fields, and the keyboard when the page listens to it."""
        elements = {e.path or id(e) for e in [*self.actions, *self.search_inputs, *self.filters, *self.file_inputs,
                                              *self.views, *self.inputs, *self.controls]}
        return len(elements) + sum(len(f.fields) for f in self.forms) + (1 if self.keyboard.listening else 0)

    def element(self, name: str) -> CatalogElement | None:
        """The first action or nav element whose name matches (case-insensitive)."""
        wanted = name.strip().lower()
        for item in [*self.actions, *self.nav]:
            if item.name.strip().lower() == wanted:
                return item
        return None
