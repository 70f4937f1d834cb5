"""Paging links are not filters: the filter case never says "Only items matching 'Next' are listed"."""

from __future__ import annotations

from studio.models.catalog import CatalogElement, PageCatalog
from studio.models.locator import LocatorSpec, LocatorStep
from studio.playground.templates import search_and_filters


def link(name: str) -> CatalogElement:
    locator = LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="link", name=name, exact=True)])
    return CatalogElement(role="link", name=name, locator=locator)


def test_paging_links_are_left_out_of_the_filter_case():
    page = PageCatalog(url="http://h/items", path="/items", heading="Catalogue",
                       filters=[link("Previous"), link("Next"), link("2"), link("›"), link("Active"), link("Done")])
    [draft] = search_and_filters(page, requires_login=False)
    clicked = [step.target for step in draft.steps if step.action == "click"]
    assert len(clicked) == 2 and all("Active" in t or "Done" in t for t in clicked), clicked
    assert not any("Next" in step.expected or "Previous" in step.expected for step in draft.steps)


def test_a_page_whose_only_filters_are_paging_links_gets_no_filter_case():
    page = PageCatalog(url="http://h/items", path="/items", heading="Catalogue", filters=[link("Previous"), link("Next")])
    assert search_and_filters(page, requires_login=False) == []
