"""Seed 004's ui.act.click over MCP, spoken to by the SDK's own client: it acts through the one action layer (the race
preflight of `studio run`), says what stood in the way (`facts`, `reason`), waits out what clears, and does the
seed's retry with force: true on what does not clear — reported as `forced`."""

from __future__ import annotations

import pytest

from tests.mcp.conftest import McpServer

pytestmark = pytest.mark.browser

# A button under a fixed overlay that never goes away; whichever of them gets the click says so in a heading.
COVERED = """<!doctype html><title>Covered</title>
<main><h1 id="said">Nothing clicked</h1>
<button data-testid="pay" onclick="document.getElementById('said').textContent = 'Button clicked'">Pay</button></main>
<div data-testid="blocker" style="position: fixed; inset: 0; background: rgba(0, 0, 0, .4); z-index: 50"
     onclick="document.getElementById('said').textContent = 'Overlay clicked'"></div>"""


def node_named(observed: dict, role: str, name: str) -> dict:
    return next(n for n in observed["nodes"] if n["role"] == role and n["name"] == name)


@pytest.mark.timeout(120)
async def test_a_click_waits_out_the_scrim_and_says_what_stood_in_the_way(demo, tmp_path):
    # The products grid keeps its loading scrim over the cards for 2.5 s, then hydrates (replacing the buttons).
    demo.configure(hydration_ms=(2500, 2500), shuffle_products=False)
    server = await McpServer("--web-tools", "--app-url", demo.base_url, log_path=tmp_path / "mcp.log").start()
    try:
        await server.call("ui.navigate", url="/products")
        observed = await server.call("ui.observe")
        button = next(n for n in observed["nodes"] if n.get("testId") == "add-to-cart")
        clicked = await server.call("ui.act.click", nodeId=button["id"])
        assert clicked.get("ok") is True and clicked["traceId"] and clicked["forced"] is False, clicked
        # The preflight saw the scrim, said so, and the click waited for it to go (as `studio run`'s steps do).
        coverage = next(fact for fact in clicked["facts"] if fact["type"] == "coverage")
        assert coverage["elementAtPoint"]["testId"] == "loading-scrim"
        assert "loading-scrim" in clicked["reason"]
        cart = await server.call("ui.wait", condition={"element_visible": {"role": "link", "name": "Cart, 1 item"}},
                                 timeout=10_000)
        assert cart["ok"], "the click after the scrim went did not add the item to the cart"
    finally:
        await server.stop()


@pytest.mark.timeout(120)
async def test_a_click_that_stays_covered_is_retried_with_force_and_says_so(static_pages, tmp_path):
    url = static_pages.url("/covered", COVERED)
    server = await McpServer("--web-tools", "--app-url", static_pages.base_url,
                             log_path=tmp_path / "mcp.log").start()
    try:
        await server.call("ui.navigate", url=url)
        observed = await server.call("ui.observe")
        clicked = await server.call("ui.act.click", nodeId=node_named(observed, "button", "Pay")["id"])
        # The seed's recovery: a click that timed out is retried with force: true, and the reply says so…
        assert clicked["ok"] is True and clicked["forced"] is True, clicked
        # …with the facts that stood in the way: a forced click lands where the overlay is, as Playwright's does.
        coverage = next(fact for fact in clicked["facts"] if fact["type"] == "coverage")
        assert coverage["elementAtPoint"]["testId"] == "blocker" and coverage["isTargetOrDescendant"] is False
        assert "blocker" in clicked["reason"]
        assert (await server.call("ui.wait", condition={"heading_text": "Overlay clicked"}))["ok"]
        # With force: false the same click is refused with the facts as a sentence, nothing clicked.
        await server.call("ui.navigate", url=url)
        observed = await server.call("ui.observe")
        refused = await server.call("ui.act.click", nodeId=node_named(observed, "button", "Pay")["id"], force=False)
        assert refused["error"]["type"] == "action" and "blocker" in refused["error"]["message"]
        assert (await server.call("ui.wait", condition={"heading_text": "Nothing clicked"}))["ok"]
    finally:
        await server.stop()


# A grid that hydrates: its buttons sit under a loading scrim, and when the scrim goes they are replaced by new ones
# (same test ids), as a client-rendered page does.
HYDRATING = """<!doctype html><title>Hydrating</title>
<main><h1 id="said">Nothing bought</h1><div id="grid"></div></main>
<div data-testid="scrim" style="position: fixed; inset: 0; background: rgba(255, 255, 255, .7); z-index: 50"></div>
<script>
  const grid = document.getElementById('grid');
  const draw = (live) => { grid.innerHTML = ''; for (const name of ['Tea', 'Coffee', 'Cocoa']) {
    const b = document.createElement('button'); b.dataset.testid = 'buy'; b.textContent = 'Buy ' + name;
    if (live) b.onclick = () => { document.getElementById('said').textContent = 'Bought ' + name; };
    grid.append(b); } };
  draw(false);
  setTimeout(() => { draw(true); document.querySelector('[data-testid=scrim]').remove(); }, 1500);
</script>"""


@pytest.mark.timeout(120)
async def test_a_node_replaced_while_its_blocker_cleared_is_clicked_again_where_it_is(static_pages, tmp_path):
    url = static_pages.url("/hydrating", HYDRATING)
    server = await McpServer("--web-tools", "--app-url", static_pages.base_url,
                             log_path=tmp_path / "mcp.log").start()
    try:
        await server.call("ui.navigate", url=url)
        observed = await server.call("ui.observe")
        coffee = node_named(observed, "button", "Buy Coffee")
        clicked = await server.call("ui.act.click", nodeId=coffee["id"])
        assert clicked.get("ok") is True and clicked["forced"] is False, clicked
        said = await server.call("ui.wait", condition={"heading_text": "Bought Coffee"}, timeout=5_000)
        assert said["ok"], "the second of the replaced buttons was not the one clicked"
    finally:
        await server.stop()
