"""What the preflight saw on each page: headings, navigation, controls with locators, forms with their fields.

Cases are grounded in this catalogue: every step's target is an element listed here.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from studio.models.locator import LocatorSpec
from studio.models.testcase import FieldSpec


class CatalogElement(BaseModel):
    """An interactive element seen on a page, with the locator synthesized for it."""

    role: str
    name: str
    test_id: str | None = None
    locator: LocatorSpec | None = None
    href: str | None = None
    accept: str | None = Field(default=None, description="A file input's accept attribute (types it takes).")
    size_limit: str | None = Field(default=None, description="A size limit the page states for a file input.")


class FormField(BaseModel):
    """A field of a form, as seen: its spec (name/type/required) and how to reach it."""

    spec: FieldSpec
    locator: LocatorSpec | None = None
    options: list[str] = Field(default_factory=list)


class FormInfo(BaseModel):
    """A form (or wizard step) on a page: its fields and the button that submits or advances it."""

    name: str
    fields: list[FormField] = Field(default_factory=list)
    submit: CatalogElement | None = None
    step_text: str | None = Field(default=None, description="'Step 1 of 3' when the form is a wizard.")


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
    screenshot_id: int | None = None

    def element(self, name: str) -> CatalogElement | None:
        """The first action or nav element whose name matches (case-insensitive)."""
        wanted = name.strip().lower()
        for item in [*self.actions, *self.nav]:
            if item.name.strip().lower() == wanted:
                return item
        return None
