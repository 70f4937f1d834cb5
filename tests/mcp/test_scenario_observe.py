"""Seed 004's ui.observe over MCP, with the SDK's own client: the seed's UINode — headings are nodes (role "heading"),
landmarks and named regions too (role "region"), every node with `parentId` and `children` (ids of nodes) — and the
`headings` list kept; and the deterministic planner never clicks a heading or a region."""

from __future__ import annotations

import pytest

from studio.scenarios.observe import Observation, UINode
from studio.scenarios.planner import DeterministicPlanner
from studio.scenarios.spec import Scenario
from tests.mcp.conftest import McpServer

PAGE = """<!doctype html><title>Offers</title>
<header><a href="/">Home</a></header>
<nav aria-label="Main"><a href="/offers">Offers</a><a href="/help">Help</a></nav>
<main>
  <h1>Credit offers</h1>
  <section aria-label="Cards" data-testid="cards">
    <h2 style="text-transform: uppercase">Travel card</h2>
    <button data-testid="learn-more">Learn More</button>
  </section>
  <h2 hidden>Not shown</h2>
</main>"""


@pytest.mark.browser
@pytest.mark.timeout(120)
async def test_observe_gives_headings_and_regions_as_nodes_with_parents_and_children(static_pages, tmp_path):
    url = static_pages.url("/offers", PAGE)
    server = await McpServer("--web-tools", "--app-url", static_pages.base_url, log_path=tmp_path / "mcp.log").start()
    try:
        await server.call("ui.navigate", url=url)
        observed = await server.call("ui.observe")
        nodes = {node["id"]: node for node in observed["nodes"]}
        assert observed["headings"] == ["Credit offers", "Travel card"]  # kept beside the nodes
        headings = [node for node in observed["nodes"] if node["role"] == "heading"]
        assert [(node["name"], node["level"]) for node in headings] == [("Credit offers", 1), ("Travel card", 2)]
        button = nodes["learn-more"]
        cards = nodes[button["parentId"]]
        assert (cards["id"], cards["role"], cards["name"], cards["landmark"]) == ("cards", "region", "Cards", "main")
        travel = next(node for node in headings if node["name"] == "Travel card")
        assert cards["children"] == [button["id"], travel["id"]] and travel["parentId"] == "cards"
        main = nodes[cards["parentId"]]
        assert (main["role"], main["landmark"]) == ("region", "main") and "parentId" not in main
        assert set(main["children"]) == {"cards", headings[0]["id"]}
        nav = next(node for node in observed["nodes"] if node["role"] == "region" and node["name"] == "Main")
        assert [nodes[child]["name"] for child in nav["children"]] == ["Offers", "Help"]
        for node in observed["nodes"]:  # the seed's hierarchy holds both ways
            for child in node.get("children", []):
                assert nodes[child]["parentId"] == node["id"]
        assert len([n for n in observed["nodes"] if n["role"] not in ("heading", "region")]) <= 50
        # ui.inspect_tree nests the same nodes by their children.
        tree = (await server.call("ui.inspect_tree", landmark="main", maxDepth=3))["tree"]
        assert tree["nodes"] == [{"id": main["id"], "role": "region", "name": "", "children": [
            {"id": headings[0]["id"], "role": "heading", "name": "Credit offers"},
            {"id": "cards", "role": "region", "name": "Cards", "children": [
                {"id": "learn-more", "role": "button", "name": "Learn More"},
                {"id": travel["id"], "role": "heading", "name": "Travel card"}]}]}]
        # A heading is a node one can find (and wait on) like any other.
        found = await server.call("ui.query", role="heading", name="travel")
        assert [node["name"] for node in found["nodes"]] == ["Travel card"]
    finally:
        await server.stop()


def test_the_planner_never_clicks_a_heading_or_a_region():
    scenario = Scenario.model_validate({
        "version": "0.1", "id": "open-offers", "name": "Open the offers", "context": {"start_url": "/"},
        "goal": {"description": "Open the credit offers", "success": {"conditions": [{"heading_text": "Offers"}]}}})
    observation = Observation(url="http://h/dashboard", headings=["Credit offers"], nodes=[
        UINode(id="heading-1", role="heading", name="Credit offers", level=1, parentId="region-1"),
        UINode(id="region-1", role="region", name="Credit offers", landmark="main", children=["heading-1", "more"]),
        UINode(id="more", role="button", name="See more", parentId="region-1")])
    planner = DeterministicPlanner(scenario, {})
    assert planner.next_action(observation, []) is None  # only the heading and the region match the goal
    observation.nodes.append(UINode(id="offers", role="link", name="Offers", href="/offers"))
    assert planner.next_action(observation, []).params == {"nodeId": "offers"}
    assert [node.id for node in observation.interactive] == ["more", "offers"]
