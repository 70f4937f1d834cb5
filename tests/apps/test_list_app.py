"""The to-do list fixture (tests/apps/list_app.py): the healthy app behaves as its docstring says, and every seeded
fault breaks the check written for it (a kill matrix: each check passes on the healthy app, fails with its fault)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Page, expect

from tests.apps.list_app import FAULTS, ListApp

pytestmark = pytest.mark.browser
SHORT = 300  # ms: the app updates synchronously, so a healthy check never waits this long


@pytest.fixture(scope="module")
def served():
    with ListApp() as app:
        yield app


@pytest.fixture
def app(served):
    served.set_faults(())
    yield served
    served.set_faults(())


async def add(page: Page, *titles: str) -> None:
    for title in titles:
        await page.locator(".new-todo").fill(title)
        await page.locator(".new-todo").press("Enter")


async def expect_labels(page: Page, titles: list[str]) -> None:
    """The visible list shows exactly these items, in order (a hash route renders on the next task: wait a bit)."""
    await expect(page.locator(".todo-list li label")).to_have_text(titles, timeout=SHORT)


def item(page: Page, title: str):
    return page.locator(".todo-list li").filter(has=page.locator("label", has_text=title))


async def open_list(page: Page, app: ListApp, *titles: str) -> None:
    await page.goto(app.base_url + "/")
    await add(page, *titles)


# -- one check per fault: each passes on the healthy app --------------------------------------------------------

async def check_toggle(page: Page, app: ListApp) -> None:
    await open_list(page, app, "Buy milk", "Walk the dog")
    await item(page, "Buy milk").locator(".toggle").click()  # click, not check(): a no-op toggle must not raise
    await expect(item(page, "Buy milk")).to_have_class("completed", timeout=SHORT)
    await page.reload()
    await expect(item(page, "Buy milk").locator(".toggle")).to_be_checked(timeout=SHORT)
    await expect(item(page, "Walk the dog")).not_to_have_class("completed", timeout=SHORT)


async def check_delete(page: Page, app: ListApp) -> None:
    await open_list(page, app, "Buy milk", "Walk the dog")
    row = item(page, "Buy milk")
    await row.hover()
    await row.get_by_role("button", name="Delete").click()
    await expect_labels(page, ["Walk the dog"])


async def check_counter(page: Page, app: ListApp) -> None:
    await open_list(page, app, "Buy milk", "Walk the dog", "Pay rent")
    await expect(page.locator(".todo-count")).to_have_text("3 items left", timeout=SHORT)
    await item(page, "Buy milk").locator(".toggle").click()
    await expect(page.locator(".todo-count")).to_have_text("2 items left", timeout=SHORT)
    await item(page, "Pay rent").locator(".toggle").click()
    await expect(page.locator(".todo-count")).to_have_text("1 item left", timeout=SHORT)


async def check_clear_completed(page: Page, app: ListApp) -> None:
    await open_list(page, app, "Buy milk", "Walk the dog")
    clear = page.get_by_role("button", name="Clear completed")
    await expect(clear).to_be_hidden(timeout=SHORT)
    await item(page, "Buy milk").locator(".toggle").click()
    await clear.click()
    await expect_labels(page, ["Walk the dog"])
    await expect(clear).to_be_hidden(timeout=SHORT)


async def check_persist(page: Page, app: ListApp) -> None:
    await open_list(page, app, "Buy milk", "Walk the dog")
    await page.reload()
    await expect_labels(page, ["Buy milk", "Walk the dog"])


async def check_filters(page: Page, app: ListApp) -> None:
    await open_list(page, app, "Buy milk", "Walk the dog")
    await item(page, "Buy milk").locator(".toggle").click()
    await page.get_by_role("link", name="Active").click()
    assert page.url.endswith("#/active")
    await expect(page.get_by_role("link", name="Active")).to_have_class("selected", timeout=SHORT)
    await expect_labels(page, ["Walk the dog"])
    await page.get_by_role("link", name="Completed").click()
    await expect_labels(page, ["Buy milk"])
    await page.get_by_role("link", name="All").click()
    await expect_labels(page, ["Buy milk", "Walk the dog"])


async def check_edit(page: Page, app: ListApp) -> None:
    await open_list(page, app, "Buy milk")
    await page.locator(".todo-list label", has_text="Buy milk").dblclick()
    edit = page.locator(".todo-list .edit")
    await expect(edit).to_be_focused(timeout=SHORT)
    await edit.fill("  Buy oat milk  ")
    await edit.press("Enter")
    await expect_labels(page, ["Buy oat milk"])
    await page.reload()
    await expect_labels(page, ["Buy oat milk"])


async def check_add(page: Page, app: ListApp) -> None:
    await open_list(page, app, "  Buy milk  ")
    await expect_labels(page, ["Buy milk"])
    await expect(page.locator(".new-todo")).to_have_value("", timeout=SHORT)
    await expect(page.locator(".todo-count")).to_have_text("1 item left", timeout=SHORT)


async def check_toggle_all(page: Page, app: ListApp) -> None:
    await open_list(page, app, "Buy milk", "Walk the dog")
    await page.get_by_text("Mark all as complete").click()
    await expect(page.locator(".todo-list li.completed")).to_have_count(2, timeout=SHORT)
    await expect(page.locator("#toggle-all")).to_be_checked(timeout=SHORT)
    await expect(page.locator(".todo-count")).to_have_text("0 items left", timeout=SHORT)
    await page.get_by_text("Mark all as complete").click()
    await expect(page.locator(".todo-list li.completed")).to_have_count(0, timeout=SHORT)


CHECKS: dict[str, Callable[[Page, ListApp], Awaitable[None]]] = {
    "toggle_noop": check_toggle,
    "delete_noop": check_delete,
    "counter_wrong": check_counter,
    "clear_completed_noop": check_clear_completed,
    "no_persist": check_persist,
    "filter_broken": check_filters,
    "edit_not_saved": check_edit,
    "add_on_enter_broken": check_add,
    "toggle_all_broken": check_toggle_all,
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

async def test_the_page_has_the_documented_shape(page, app):
    errors: list[object] = []
    page.on("pageerror", lambda error: errors.append(error))
    await page.goto(app.base_url + "/")
    assert await page.title() == "Errands · a tiny to-do list"
    await expect(page.locator("header .new-todo")).to_have_attribute("placeholder", "What needs to be done?")
    await expect(page.locator("footer.footer")).to_be_hidden()  # nothing to count yet
    await add(page, "Buy milk")
    assert await page.locator("main > *").count() == 1 and await page.locator("main > ul.todo-list").count() == 1
    row = item(page, "Buy milk")
    # the checkbox's text is a sibling label: no `for`, not wrapping
    assert await row.locator("input.toggle + label").count() == 1
    assert await row.locator("label").get_attribute("for") is None
    assert await row.locator("label input").count() == 0
    destroy = row.locator("button.destroy")
    assert await destroy.inner_text() == "" and await destroy.get_attribute("aria-label") == "Delete"
    await page.mouse.move(1, 1)
    await expect(destroy).to_be_hidden()  # shown on hover only
    await row.hover()
    await expect(destroy).to_be_visible()
    toggle_all = page.locator("header #toggle-all")
    box = await toggle_all.bounding_box()
    assert box and box["width"] == 1 and box["height"] == 1
    assert await toggle_all.evaluate("e => getComputedStyle(e).opacity") == "0"
    await expect(page.get_by_label("Mark all as complete")).to_have_id("toggle-all")
    await expect(page.locator("footer .filters a.selected")).to_have_text("All")
    assert [await a.get_attribute("href") for a in await page.locator(".filters a").all()] == [
        "#/", "#/active", "#/completed"]
    assert errors == []


async def test_empty_input_is_ignored_and_edits_save_cancel_or_delete(page, app):
    await open_list(page, app, "   ", "", "Buy milk", "Walk the dog", "Pay rent")
    await expect_labels(page, ["Buy milk", "Walk the dog", "Pay rent"])
    # Escape cancels
    await page.locator(".todo-list label", has_text="Buy milk").dblclick()
    await page.locator(".todo-list .edit").fill("Buy bread")
    await page.locator(".todo-list .edit").press("Escape")
    await expect_labels(page, ["Buy milk", "Walk the dog", "Pay rent"])
    # blur saves
    await page.locator(".todo-list label", has_text="Walk the dog").dblclick()
    await page.locator(".todo-list .edit").fill("Walk the cat")
    await page.locator(".new-todo").click()
    await expect_labels(page, ["Buy milk", "Walk the cat", "Pay rent"])
    # empty text deletes
    await page.locator(".todo-list label", has_text="Pay rent").dblclick()
    await page.locator(".todo-list .edit").fill("   ")
    await page.locator(".todo-list .edit").press("Enter")
    await expect_labels(page, ["Buy milk", "Walk the cat"])
    await page.reload()
    await expect_labels(page, ["Buy milk", "Walk the cat"])


async def test_a_hash_route_is_honoured_on_load(page, app):
    await open_list(page, app, "Buy milk", "Walk the dog")
    await item(page, "Walk the dog").locator(".toggle").check()
    await page.goto(app.base_url + "/#/completed")
    await page.reload()
    await expect_labels(page, ["Walk the dog"])
    await expect(page.locator(".filters a.selected")).to_have_text("Completed")
