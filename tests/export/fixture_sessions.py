"""Realistic sessions on the fixture apps (tests/apps), recorded through a PageDriver as the GUI and MCP record them:
refs come from the page (as a tester's pick or an agent's snapshot would give them), actions go through race
preflight, and an action that first reports facts is repeated, as an agent acknowledges them."""

from __future__ import annotations

from studio.models.race import ActionName
from studio.race.driver import PageDriver


async def ref(driver: PageDriver, css: str) -> str:
    """The ref of the element a tester points at (by a CSS selector here, instead of a click in the live view)."""
    info, _ = await driver.race.ref_for_selector(css)
    return info.ref


async def act(driver: PageDriver, action: ActionName, css: str, value: str | None = None,
              key: str | None = None) -> None:
    for _ in range(4):
        outcome = await driver.act(action, await ref(driver, css), value=value, key=key)
        if outcome.acted:
            return
    raise AssertionError(f"the {action} on {css} never happened: {outcome.observations}")


async def press_key(driver: PageDriver, key: str) -> None:
    assert driver.recorder is not None
    await driver.recorder.press_key(key)


async def list_session(driver: PageDriver, base_url: str) -> None:
    """The to-do list: add three items with Enter, complete one, delete one, filter Active, Clear completed, reload."""
    await driver.navigate(base_url + "/")
    for title in ("Buy milk", "Walk the dog", "Pay rent"):
        await act(driver, "fill", ".new-todo", value=title + "\n")  # an agent typing a line: fill, then Enter
    await act(driver, "click", ".todo-list li:nth-child(1) .toggle")
    await act(driver, "hover", ".todo-list li:nth-child(2) .toggle")  # the × shows on the hovered row only
    await act(driver, "click", ".todo-list li:nth-child(2) .destroy")
    await act(driver, "click", 'a[href="#/active"]')
    await act(driver, "click", ".clear-completed")
    await driver.navigate(driver.page.url)  # reload


async def records_session(driver: PageDriver, base_url: str) -> None:
    """The catalogue: search, open an item, then create one with the form (first without a title, then properly)."""
    await driver.navigate(base_url + "/items")
    await act(driver, "fill", "#q", value="Dune")
    await act(driver, "press", "#q", key="Enter")
    await act(driver, "click", "table a[href^='/items/']")
    await act(driver, "click", "nav a[href='/items/new']")
    await act(driver, "fill", "#author", value="Ann Leckie")
    await act(driver, "click", "form.item-form button[type=submit]")  # no title: the form must refuse it
    await act(driver, "fill", "#title", value="Ancillary Justice")
    await act(driver, "fill", "#shelf", value="F LEC")
    await act(driver, "fill", "#quantity", value="3")
    await act(driver, "click", "form.item-form button[type=submit]")


async def grid_session(driver: PageDriver, url: str, keys: tuple[str, ...]) -> None:
    """The puzzle on a fixed seed: New Game, then a few arrow keys."""
    await driver.navigate(url)
    await act(driver, "click", ".restart-button")
    for key in keys:
        await press_key(driver, key)
