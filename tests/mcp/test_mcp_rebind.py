"""Seed 001's cart, as an agent does it over MCP: navigate, snapshot, click (facts: the scrim, or the button already
replaced by hydration), click again (done) — the retry finds the button that hydration put in place of the one the
snapshot listed, by its locator, and says so."""

from __future__ import annotations

import asyncio

import pytest

from tests.race.conftest import ref_after

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("seed", "think_s"), [(1, 0), (2, 0), (3, 1.5), (4, 1.5)])
async def test_the_cart_takes_two_clicks_after_the_snapshot(mcp, demo, seed, think_s):
    demo.configure(seed=seed)  # the demo's own random hydration delay (0.3–0.9 s) and shuffled cards
    ctx = f"shop-{seed}"
    await mcp.call("browser_navigate", url=demo.base_url + "/products", browserContext=ctx)
    text = (await mcp.call("browser_snapshot", browserContext=ctx))["text"]
    button = ref_after(text, '"iPhone 15 Pro"', '"Add to Cart"')
    await asyncio.sleep(think_s)  # a model reading the snapshot: hydration replaces the button meanwhile

    first = await mcp.call("browser_click", ref=button, browserContext=ctx)
    assert "clicked" in first, first
    if first["clicked"]:  # the grid had hydrated before the snapshot: nothing stood in the way
        done = first
    else:
        kinds = {fact["type"] for fact in first["observations"]}
        assert kinds & {"coverage", "aria_state", "animation", "attachment"}, first
        if think_s:
            assert kinds == {"attachment"}  # replaced before the click: the fact says so, nothing was clicked
        done = await mcp.call("browser_click", ref=button, browserContext=ctx)
        if not done["clicked"]:  # new facts (on a loaded machine: fading in, then covered) are told once too
            assert _facts(done) != _facts(first), done
            done = await mcp.call("browser_click", ref=button, browserContext=ctx)
        assert done["clicked"] is True, done
        if done["ref"] != button:
            assert done["reResolved"]["from"] == button and done["reResolved"]["to"] == done["ref"]
            assert 'filter(has_text="iPhone 15 Pro")' in done["reResolved"]["locator"]
    toast = await mcp.call("browser_wait_for", text="iPhone 15 Pro added to cart", browserContext=ctx)
    assert toast["ok"] is True, toast
    text = (await mcp.call("browser_snapshot", browserContext=ctx))["text"]
    assert 'link "Cart, 1 item' in text


def _facts(reply: dict) -> set[tuple]:
    """What makes two reports different facts: their kinds, targets and covering elements."""
    return {(fact["type"], fact.get("ref"), (fact.get("elementAtPoint") or {}).get("ref"))
            for fact in reply["observations"]}
