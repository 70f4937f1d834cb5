"""The acknowledged retry after a re-render: the element whose facts were reported is replaced while the retry waits;
the retry finds the replacement by the old element's locator and acts on it — never on a look-alike elsewhere."""

from __future__ import annotations

import re
import time

import pytest

from studio.race.actions import ActionRunner
from studio.race.driver import PageDriver
from studio.race.rebind import path_selector
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser

VEIL = '<div id="veil" style="position:fixed;inset:0;background:rgba(0,0,0,.2)"></div>'

# The veil clears while the page re-renders the Sync button: gone for 200 ms, then a fresh node.
RERENDERED = VEIL + """
<section aria-label="Sync"><h2>Sync</h2><div id="slot"><button>Sync now</button></div><p id="count">Synced 0 times</p>
</section>
<script>
  let syncs = 0;
  setTimeout(() => {
    veil.remove();
    slot.replaceChildren();
    setTimeout(() => {
      const fresh = document.createElement('button');
      fresh.textContent = 'Sync now';
      fresh.onclick = () => { count.textContent = 'Synced ' + (++syncs) + ' times'; };
      slot.append(fresh);
    }, 200);
  }, 1500);
</script>
"""

# Alpha's row goes away while the veil clears; Beta's Delete looks just like Alpha's did.
ROW_REMOVED = VEIL + """
<ul><li><span>Alpha</span> <button onclick="deleted.textContent = 'Alpha'">Delete</button></li>
    <li><span>Beta</span> <button onclick="deleted.textContent = 'Beta'">Delete</button></li></ul>
<p id="deleted">none</p>
<script>setTimeout(() => { veil.remove(); document.querySelector('li').remove(); }, 1500);</script>
"""


def test_tree_positions_become_child_selectors():
    assert path_selector("1/3/0") == ":root > :nth-child(2) > :nth-child(4) > :nth-child(1)"
    assert path_selector("1/s0/2") is None and path_selector("") is None


async def test_the_retry_acts_on_the_element_that_replaced_the_reported_one(race, page):
    await page.set_content(RERENDERED)
    runner = ActionRunner(race, timeout_ms=4000)
    old = ref_of((await race.snapshot()).text, '"Sync now"')
    first = await runner.run("click", old)
    assert not first.acted and [fact.type for fact in first.observations] == ["coverage"]

    done = await runner.run("click", old)
    assert done.acted and done.ref != old
    assert done.reResolved is not None and (done.reResolved.from_ref, done.reResolved.to_ref) == (old, done.ref)
    # Scoped by a container it sits in (the slot, or the Sync region), never by its name alone.
    locator = done.reResolved.to_json()["locator"]
    assert locator.startswith(('page.locator("#slot").', 'page.get_by_role("region", name="Sync", exact=True).'))
    assert locator.endswith(('"Sync now", exact=True)', '"Sync now")'))
    assert await page.locator("#count").inner_text() == "Synced 1 times"
    assert ref_of((await race.snapshot()).text, '"Sync now"') == done.ref


async def test_a_look_alike_in_another_row_is_never_taken_for_the_removed_element(race, page):
    await page.set_content(ROW_REMOVED)
    runner = ActionRunner(race, timeout_ms=2500)
    alpha = ref_of((await race.snapshot()).text, '"Delete"')
    assert not (await runner.run("click", alpha)).acted  # covered by the veil

    retry = await runner.run("click", alpha)  # Alpha's row is gone; Beta's Delete is the only one left
    assert not retry.acted and retry.reResolved is None
    assert [(fact.type, fact.ref, fact.isConnected) for fact in retry.observations] == [("attachment", alpha, False)]
    assert await page.locator("#deleted").inner_text() == "none"


REPLACED_UNSEEN = """
<section aria-label="Sync"><h2>Sync</h2><div id="slot"><button>Sync now</button></div><p id="count">none</p></section>
<div><button id="bare">Sync now</button></div>
<script>
  function rerender() {
    const fresh = document.createElement('button');
    fresh.textContent = 'Sync now';
    fresh.onclick = () => { count.textContent = 'synced'; };
    slot.replaceChildren(fresh);
    bare.replaceWith(bare.cloneNode(true));
  }
</script>
"""


async def test_an_element_replaced_before_the_first_click_is_found_by_what_the_snapshot_said(page):
    await page.set_content(REPLACED_UNSEEN)
    driver = PageDriver(page)
    text = (await driver.snapshot()).text
    old = ref_after(text, 'region "Sync"', '"Sync now"')
    await page.evaluate("rerender()")  # while an agent reads the snapshot, the page re-renders

    first = await driver.act("click", old)
    assert not first.acted and [(fact.type, fact.isConnected) for fact in first.observations] == [("attachment", False)]
    done = await driver.act("click", old)
    assert done.acted and done.reResolved is not None and done.reResolved.from_ref == old
    assert done.reResolved.locator == ('page.get_by_role("region", name="Sync", exact=True)'
                                       '.get_by_role("button", name="Sync now", exact=True)')
    assert await page.locator("#count").inner_text() == "synced"


async def test_without_a_container_to_scope_by_the_replacement_is_not_guessed(page):
    await page.set_content(REPLACED_UNSEEN)
    driver = PageDriver(page)
    text = (await driver.snapshot()).text
    lone = re.findall(r'"Sync now" (e\d+)', text)[-1]  # the button outside the region: nothing names its place
    await page.evaluate("rerender()")
    assert not (await driver.act("click", lone)).acted
    started = time.monotonic()
    retry = await driver.act("click", lone)
    assert not retry.acted and retry.reResolved is None and time.monotonic() - started < 1  # nothing to wait for
