"""What a snapshot tells an agent about a page: names as browsers compute them, list items and rows with their text,
status text, controls that are not links or buttons, boards — on the fixture apps and small pages, in a real
Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from studio.cli.race_bench import admin_page
from tests.apps.grid_game import GridGame
from tests.apps.list_app import ListApp
from tests.race.conftest import ref_of

pytestmark = pytest.mark.browser


def line_of(text: str, fragment: str) -> str:
    return next(line for line in text.splitlines() if fragment in line)


def depth(line: str) -> int:
    return len(line) - len(line.lstrip())


async def test_the_list_app_shows_each_item_its_counter_and_every_control(race, runner, page):
    with ListApp() as app:
        await page.goto(app.base_url + "/")
        for title in ("Buy milk", "Walk dog", "Pay bills"):
            await page.get_by_placeholder("What needs to be done?").fill(title)
            await page.keyboard.press("Enter")
        await page.locator(".toggle").nth(1).check()
        await page.mouse.move(0, 0)  # no row hovered: the destroy buttons stay hidden
        text = (await race.snapshot()).text

        for title in ("Buy milk", "Walk dog", "Pay bills"):
            item = line_of(text, f'listitem "{title}"')
            box = line_of(text, f'checkbox "{title}"')  # named by the label beside it, as a tester reads it
            assert depth(box) == depth(item) + 1
        assert "[checked]" in line_of(text, 'checkbox "Walk dog"')
        assert 'text "2 items left"' in text
        for control in ('link "All"', 'link "Active"', 'link "Completed"', 'button "Clear completed"',
                        'textbox "What needs to be done?"'):
            assert control in text, control
        # The 1×1 transparent toggle is there with its name, and the label that draws it takes its clicks.
        mark_all = line_of(text, 'checkbox "Mark all as complete"')
        label = re.search(r"\[via label (e\d+)\]", mark_all).group(1)
        assert (await race.info(label)).tag == "label"
        assert "checkbox" not in text.replace('checkbox "', "")  # no checkbox without a name

        # get_descendants names the label by its text.
        item = ref_of(text, 'listitem "Buy milk"')
        labels = [info for info in await race.descendants(item) if info.tag == "label"]
        assert [info.name for info in labels] == ["Buy milk"]

        toggle = ref_of(mark_all, "Mark all")
        (cover,) = [fact for fact in await race.observe(toggle) if fact.type == "coverage"]
        assert cover.targetElement.ref == label and cover.isTargetOrDescendant
        assert (await runner.run("check", toggle)).acted
        await expect(page.locator(".todo-count")).to_have_text("0 items left")
        assert 'text "0 items left"' in (await race.snapshot()).text


async def test_the_grid_game_shows_its_board_score_and_new_game(race, runner, page):
    with GridGame() as game:
        await page.goto(game.url(seed=7))
        text = (await race.snapshot()).text
        cells = await page.locator(".grid-cell").evaluate_all("cells => cells.map(c => c.textContent.trim() || '·')")
        rows = " / ".join(" ".join(cells[i:i + 4]) for i in range(0, 16, 4))
        assert 'div "Game board"' in text and f"[4×4: {rows}]" in line_of(text, '"Game board"')
        assert 'text "Score 0"' in text and 'text "Best 0"' in text
        assert re.search(r'^a "New Game" e\d+ \[clickable\]$', text, re.MULTILINE)

        for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown") * 3:
            await page.keyboard.press(key)
        score = await page.locator(".score-container .value").inner_text()
        assert score != "0"
        after = (await race.snapshot()).text
        assert f'text "Score {score}"' in after
        assert ref_of(after, '"Game board"') == ref_of(text, '"Game board"')  # the board keeps its ref

        new_game = ref_of(after, '"New Game"')
        outcome = await runner.run("click", new_game)  # an <a> without href: no navigation fact, clicked at once
        assert outcome.acted
        await expect(page.locator(".score-container .value")).to_have_text("0")


NAMES = """
<span id="cap">Billing address</span>
<input aria-labelledby="cap" data-testid="labelledby">
<button aria-label="Close dialog">×</button>
<label for="mail">Email</label><input id="mail">
<label>Remember me <input type="checkbox"></label>
<label><input type="radio" name="plan"> Monthly</label>
<table><tr><td><input type="checkbox" data-testid="row-box"></td><td>Invoice 1042</td><td>Paid</td></tr></table>
<ul><li><input type="checkbox" data-testid="item-box"><label>Water the plants</label></li></ul>
<div><input type="checkbox" data-testid="loose-box"> Send me the newsletter</div>
<label for="clipped">Dark mode</label>
<input type="checkbox" id="clipped" style="position:absolute;clip:rect(0 0 0 0);width:1px;height:1px">
"""


async def test_names_are_computed_as_browsers_do_and_a_bare_checkbox_takes_the_text_beside_it(race, page):
    await page.set_content(NAMES)
    text = (await race.snapshot()).text
    browser_names = [("textbox", "Billing address"), ("button", "Close dialog"), ("textbox", "Email"),
                     ("checkbox", "Remember me"), ("radio", "Monthly"), ("checkbox", "Dark mode")]
    for role, name in browser_names:
        assert f'{role} "{name}"' in text, (role, name)
        # the same name as Playwright's (the browser's) accessible name
        assert await page.get_by_role(role, name=name, exact=True).count() == 1, (role, name)
    assert 'checkbox "Invoice 1042" ' in line_of(text, "#row-box")  # the first text beside it in its row
    assert 'checkbox "Water the plants"' in line_of(text, "#item-box")  # the label beside it in its list item
    assert 'checkbox "Send me the newsletter"' in line_of(text, "#loose-box")
    assert re.search(r'checkbox "Dark mode" e\d+ \[via label e\d+\]', text)
    assert 'row "Invoice 1042 Paid"' in text


STATUS = """
<main>
  <h1>Orders</h1>
  <p>Orders placed in the last thirty days appear here; older ones are kept in the archive, which you can open
     from your account page at any time, and they can be exported as a spreadsheet.</p>
  <div role="status">Saved a moment ago</div>
  <div role="alert">Card declined</div>
  <div aria-live="polite">3 new orders</div>
  <output>Total: 42 €</output>
  <footer><span class="count"><b>7</b> orders</span> <button>Load more</button></footer>
  <details><summary>Shipping rules</summary><p>Ships in 2 days</p></details>
  <div aria-hidden="true"><p>Decoration 1</p></div>
</main>
"""


async def test_status_and_short_text_are_in_the_snapshot_and_prose_is_not(race, page):
    await page.set_content(STATUS)
    text = (await race.snapshot()).text
    assert 'status "Saved a moment ago"' in text and 'alert "Card declined"' in text
    assert re.search(r'div "3 new orders" e\d+ \[live\]', text)
    assert 'status "Total: 42 €"' in text
    assert 'text "7 orders"' in text  # one line, not "7" and "orders"
    assert "thirty days" not in text  # prose stays out (get_descendants reads it)
    assert 'button "Shipping rules"' in text and "Ships in 2 days" not in text  # what is not shown stays out
    assert "Decoration" not in text


CLICKABLES = """
<div id="listens">Open the report</div>
<span style="cursor:pointer">Show more <b>details</b></span>
<div tabindex="0">Keyboard card</div>
<div onclick="void 0">Inline handler</div>
<div style="cursor:pointer" id="card"><h3>Card</h3><button>Buy</button></div>
<div id="delegates"><p>Just text</p></div>
<label for="hidden-box" style="cursor:pointer">Enable sync</label><input type="checkbox" id="hidden-box" hidden>
<script>
  document.getElementById('listens').addEventListener('click', () => { document.title = 'opened'; });
</script>
"""


async def test_controls_that_are_not_links_or_buttons_are_listed_as_clickable(race, runner, page):
    await page.set_content(CLICKABLES)
    text = (await race.snapshot()).text
    for line in ('div "Open the report"', 'span "Show more details"', 'div "Keyboard card"', 'div "Inline handler"',
                 'label "Enable sync"'):
        assert re.search(re.escape(line) + r" e\d+ \[clickable\]", text), line
    assert "b e" not in text  # the bold word inside the pointer span is part of it, not another control
    assert "[clickable]" not in line_of(text, 'button "Buy"') and "Card" in text
    assert len(re.findall(r"\[clickable\]", text)) == 5  # not the card around its button, not plain text

    await page.evaluate("document.getElementById('delegates').addEventListener('mousedown', () => {})")
    assert re.search(r'div "Just text" e\d+ \[clickable\]', (await race.snapshot()).text)  # seen at the next snapshot

    report = ref_of(text, '"Open the report"')
    assert (await runner.run("click", report)).acted
    await expect(page).to_have_title("opened")


async def test_refs_of_text_and_clickables_stay_bound_while_their_text_changes(race, page):
    await page.set_content("<footer><span id='n'>1 item left</span><button>Clear</button></footer>"
                           "<div id='go' style='cursor:pointer'>Go</div>")
    first = (await race.snapshot()).text
    counter, go = ref_of(first, '"1 item left"'), ref_of(first, '"Go"')
    await page.evaluate("document.getElementById('n').textContent = '2 items left'")
    second = (await race.snapshot()).text
    assert ref_of(second, '"2 items left"') == counter and ref_of(second, '"Go"') == go
    assert (await race.info(counter)).name == "2 items left"


async def test_the_snapshot_stays_well_under_the_size_of_playwrights(race, page):
    await page.set_content(admin_page(300))
    ours = (await race.snapshot()).text
    theirs = await page.locator("body").aria_snapshot()
    assert len(ours) < 0.6 * len(theirs)
    assert 'text "Manage the people in your workspace."' in ours
    assert 'row "Select Name Email Status Details Actions"' in ours
