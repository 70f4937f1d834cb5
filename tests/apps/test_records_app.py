"""The library catalogue fixture (tests/apps/records_app.py): the healthy app behaves as its docstring says, and
every seeded fault breaks the check written for it (each check passes on the healthy app, fails with its fault)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Page, expect

from tests.apps.records_app import FAULTS, RecordsApp

pytestmark = pytest.mark.browser
SHORT = 500  # ms: every page is complete when it loads


@pytest.fixture(scope="module")
def served():
    with RecordsApp() as app:
        yield app


@pytest.fixture
def app(served):
    served.set_faults(())
    served.reset()
    yield served
    served.set_faults(())


def titles(page: Page):
    return page.locator("table tbody tr td:first-child")


async def add_item(page: Page, app: RecordsApp, title: str, copies: str, author: str = "") -> None:
    await page.goto(app.base_url + "/items/new")
    await page.get_by_label("Title").fill(title)
    await page.get_by_label("Author").fill(author)
    await page.get_by_label("Copies").fill(copies)
    await page.get_by_role("button", name="Add item").click()
    await page.wait_for_load_state()


# -- one check per fault ---------------------------------------------------------------------------------------

async def check_title_required(page: Page, app: RecordsApp) -> None:
    await add_item(page, app, "", "2", author="Anonymous")
    title = page.get_by_label("Title")
    await expect(page.locator("#title-error")).to_have_text("Enter a title.", timeout=SHORT)
    await expect(title).to_have_attribute("aria-invalid", "true", timeout=SHORT)
    assert "title-error" in (await title.get_attribute("aria-describedby") or "").split()
    await expect(page.get_by_label("Author")).to_have_value("Anonymous", timeout=SHORT)  # kept for a retry
    assert len(app.items) == 12


async def check_quantity_saved(page: Page, app: RecordsApp) -> None:
    await add_item(page, app, "Middlemarch", "7")
    await expect(page.get_by_role("heading", name="Middlemarch")).to_be_visible(timeout=SHORT)
    await expect(page.locator("dd[data-field=quantity]")).to_have_text("7", timeout=SHORT)
    await page.get_by_role("link", name="Edit").click()
    await page.get_by_label("Copies").fill("9")
    await page.get_by_role("button", name="Save changes").click()
    await expect(page.locator("dd[data-field=quantity]")).to_have_text("9", timeout=SHORT)


async def check_search(page: Page, app: RecordsApp) -> None:
    await page.goto(app.entry_url)
    await page.get_by_role("searchbox", name="Search").fill("dune")
    await page.get_by_role("button", name="Search").click()
    await expect(titles(page)).to_have_text(["Dune"], timeout=SHORT)
    await page.get_by_role("searchbox", name="Search").fill("butler")  # authors match too
    await page.get_by_role("searchbox", name="Search").press("Enter")
    await expect(titles(page)).to_have_text(["Kindred"], timeout=SHORT)
    await expect(page.locator("table caption")).to_have_text("1 item", timeout=SHORT)


async def check_delete(page: Page, app: RecordsApp) -> None:
    await page.goto(app.entry_url)
    await page.get_by_role("link", name="Dune").click()
    await page.get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("dialog", name="Delete this item?")
    await expect(dialog).to_be_visible(timeout=SHORT)
    await dialog.get_by_role("button", name="Delete").click()
    await page.wait_for_url("**/items", timeout=2000)
    await expect(page.locator("table caption")).to_have_text("11 items", timeout=SHORT)
    await expect(titles(page)).not_to_contain_text(["Dune"], timeout=SHORT)
    await page.goto(app.entry_url + "?q=dune")
    await expect(page.get_by_text("No items match your search.")).to_be_visible(timeout=SHORT)


async def check_toast(page: Page, app: RecordsApp) -> None:
    await add_item(page, app, "Middlemarch", "1")
    await expect(page.get_by_role("status")).to_have_text("Added “Middlemarch” to the catalogue.", timeout=SHORT)
    await page.reload()
    await expect(page.get_by_role("status")).to_have_count(0, timeout=SHORT)  # shown once


async def check_pagination(page: Page, app: RecordsApp) -> None:
    await page.goto(app.entry_url)
    await expect(page.get_by_label("Pagination")).to_contain_text("Page 1 of 3", timeout=SHORT)
    await expect(titles(page)).to_have_text(
        ["A Wizard of Earthsea", "Beloved", "Cosmos", "Dune", "Educated"], timeout=SHORT)
    await page.get_by_role("link", name="Next").click()
    await expect(titles(page)).to_have_text(
        ["Frankenstein", "Gödel, Escher, Bach", "Hidden Figures", "Invisible Cities", "Jane Eyre"], timeout=SHORT)
    await page.get_by_role("link", name="Next").click()
    await expect(titles(page)).to_have_text(["Kindred", "Leaves of Grass"], timeout=SHORT)
    await expect(page.get_by_label("Pagination")).to_contain_text("Page 3 of 3", timeout=SHORT)


CHECKS: dict[str, Callable[[Page, RecordsApp], Awaitable[None]]] = {
    "validation_missing": check_title_required,
    "save_drops_field": check_quantity_saved,
    "search_broken": check_search,
    "delete_noop": check_delete,
    "toast_missing": check_toast,
    "pagination_off_by_one": check_pagination,
}


def test_every_fault_has_a_check():
    assert set(CHECKS) == set(FAULTS)


@pytest.mark.parametrize("fault", FAULTS)
async def test_check_passes_on_the_healthy_app(page, app, fault):
    await CHECKS[fault](page, app)


@pytest.mark.parametrize("fault", FAULTS)
async def test_fault_breaks_its_check(page, app, fault):
    app.set_faults({fault})
    with pytest.raises(AssertionError):
        await CHECKS[fault](page, app)


# -- the healthy app's shape and the rest of its behaviour ------------------------------------------------------

async def test_the_root_redirects_to_the_catalogue(page, app):
    await page.goto(app.base_url + "/")
    assert page.url == app.entry_url
    assert await page.title() == "Catalogue · Shelfmark"
    await expect(page.get_by_role("navigation", name="Main").get_by_role("link")).to_have_text(
        ["Catalogue", "New item"])


async def test_admin_like_paths_answer_404_and_are_never_linked(page, app):
    for path in ("/admin", "/manage", "/settings/users", "/items/999", "/nope"):
        response = await page.goto(app.base_url + path)
        assert response is not None and response.status == 404, path
        assert await page.title() == "Error response"
        await expect(page.locator("body")).to_contain_text("Error code: 404")
    # and nothing in the app links to them
    for path in ("/items", "/items/new", "/items/1", "/items/1/edit"):
        await page.goto(app.base_url + path)
        hrefs = await page.locator("a[href]").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert not [h for h in hrefs if h.startswith(("/admin", "/manage", "/settings"))], (path, hrefs)


async def test_copies_must_be_a_whole_number(page, app):
    await add_item(page, app, "Middlemarch", "-3")
    copies = page.get_by_label("Copies")
    await expect(copies).to_have_attribute("aria-invalid", "true")
    await expect(copies).to_have_accessible_description(
        "How many copies the branch holds (0 or more). Copies must be a whole number, 0 or more.")
    await expect(page.get_by_role("alert")).to_contain_text("There is a problem")
    await expect(page.get_by_label("Title")).to_have_value("Middlemarch")
    await copies.fill("0")
    await page.get_by_role("button", name="Add item").click()
    await expect(page.locator("dd[data-field=quantity]")).to_have_text("0")


async def test_cancelling_the_delete_dialog_keeps_the_item(page, app):
    await page.goto(app.base_url + "/items/4")
    await page.get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("dialog")
    await dialog.get_by_role("button", name="Cancel").click()
    await expect(dialog).to_be_hidden()
    assert page.url.endswith("/items/4") and 4 in app.items
    assert await page.evaluate("typeof window.confirm") == "function"  # there, but not what the app uses


async def test_editing_saves_and_says_so(page, app):
    await page.goto(app.base_url + "/items/4/edit")
    await expect(page.get_by_label("Title")).to_have_value("Dune")
    await page.get_by_label("Title").fill("Dune Messiah")
    await page.get_by_role("button", name="Save changes").click()
    await expect(page.get_by_role("status")).to_have_text("Saved changes to “Dune Messiah”.")
    await expect(page.get_by_role("heading", level=1)).to_have_text("Dune Messiah")


async def test_search_keeps_its_query_across_pages(page, app):
    await page.goto(app.entry_url + "?q=f")  # Frankenstein, Hidden Figures, Frank Herbert, Invisible Cities...
    count = int((await page.locator("table caption").inner_text()).split()[0])
    assert 5 < count < 12
    await page.get_by_role("link", name="Next").click()
    assert "q=f" in page.url and "page=2" in page.url
    await expect(page.get_by_role("searchbox")).to_have_value("f")
