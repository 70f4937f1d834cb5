"""A step that draws on chance (a shuffle, a game's new tile) keeps no whole-picture check: the order it showed
once differs the next time, and a case asserting it would fail by chance (2048's moves did, on the healthy app)."""

from __future__ import annotations

import pytest

from studio.browser.contexts import ContextOptions, new_context
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import SkippedOutcome, TextsOutcome, VisibleOutcome
from studio.preflight.chance import CHANCE_JS, draws, drew, unpositioned
from studio.race.driver import PageDriver
from tests.mcp.conftest import StaticPages

DECK = """<!doctype html><title>Deck</title><ul id="deck"><li>Ace</li><li>King</li><li>Queen</li></ul>
<button id="shuffle" onclick="const d = document.getElementById('deck');
  [...d.children].sort(() => Math.random() - 0.5).forEach((li) => d.append(li))">Shuffle</button>
<button id="reverse" onclick="const d = document.getElementById('deck');
  [...d.children].reverse().forEach((li) => d.append(li))">Reverse</button>"""
ITEMS = LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value="#deck li")])


def test_only_the_whole_picture_checks_of_a_step_that_drew_are_left_out():
    order = TextsOutcome(locator=ITEMS, texts=["King", "Ace", "Queen"], why="All 3 items, in order.")
    added = VisibleOutcome(locator=ITEMS, why='"Ace" was added to the list.')
    kept = unpositioned([order, added])
    assert isinstance(kept[0], SkippedOutcome) and "chance" in kept[0].why and kept[0].text == "King, Ace, Queen"
    assert kept[1] is added
    assert drew("click", 3, 4) and not drew("click", 4, 4)
    assert drew("reload", 0, 2) and not drew("reload", 0, 0)  # a document that drew while it loaded


@pytest.mark.browser
async def test_the_sandbox_counts_what_the_page_draws_and_nothing_else(browser):
    pages = await StaticPages().start()
    context = await new_context(browser, ContextOptions(init_scripts=(CHANCE_JS,)))
    try:
        driver = PageDriver(await context.new_page())
        await driver.navigate(pages.url("/deck", DECK))
        assert await draws(driver) == 0
        await driver.must("click", "#reverse")
        assert await draws(driver) == 0  # a reorder that does not draw keeps its checks
        await driver.must("click", "#shuffle")
        assert await draws(driver) >= 2
        assert await driver.evaluate("typeof Math.random()") == "number"  # the page's own calls still work
    finally:
        await context.close()
        await pages.stop()
