"""Seed 004's ui.observe over MCP, with the SDK's own client: the seed's UINode — headings are nodes (role "heading"),
landmarks and named regions too (role "region"), every node with `parentId` and `children` (ids of nodes) — and the
`headings` list kept; every role is one of the seed's six, the precise ARIA role kept as `ariaRole` (ui.query finds
a node by either, ui.wait and a goal's element_visible accept either, ui.act.type chooses in a select); `studio run`'s MCP driver reads `ariaRole` back, and takes a
server's six roles as they are; and the deterministic planner never clicks a heading or a region."""

from __future__ import annotations

import pytest

from studio.scenarios.mcp_driver import McpScenarioPage
from studio.scenarios.observe import SEED_ROLES, Observation, UINode, precise_roles, seed_node
from studio.scenarios.planner import Action, DeterministicPlanner
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


FORM = """<!doctype html><title>Filters</title>
<main>
  <form aria-label="Filters">
    <label><input type="radio" name="sort" value="price" data-testid="sort-price"> Price</label>
    <label><input type="radio" name="sort" value="name" data-testid="sort-name"> Name</label>
    <label for="size">Size</label>
    <select id="size" data-testid="size"><option value="">Any size</option><option value="s">Small</option>
      <option value="l">Large</option></select>
    <label for="q">Search</label><input id="q" type="search" data-testid="q">
    <label for="qty">Quantity</label><input id="qty" type="number" data-testid="qty">
    <label for="max">Max price</label><input id="max" type="range" data-testid="max">
    <label><input type="checkbox" data-testid="stock"> In stock</label>
    <div role="switch" aria-checked="false" tabindex="0" data-testid="dark">Dark</div>
    <div role="tab" tabindex="0" data-testid="grid-tab">Grid</div>
    <a role="menuitem" href="/deals" data-testid="deals">Deals</a>
    <div role="menuitem" tabindex="0" data-testid="more">More</div>
    <button type="submit" data-testid="apply">Apply</button>
  </form>
</main>"""
ARIA = {"sort-price": ("checkbox", "radio"), "sort-name": ("checkbox", "radio"), "size": ("textbox", "combobox"),
        "q": ("textbox", "searchbox"), "qty": ("textbox", "spinbutton"), "max": ("textbox", "slider"),
        "stock": ("checkbox", None), "dark": ("checkbox", "switch"), "grid-tab": ("button", "tab"),
        "deals": ("link", "menuitem"), "more": ("button", "menuitem"), "apply": ("button", None)}


@pytest.mark.browser
@pytest.mark.timeout(120)
async def test_every_role_is_the_seeds_and_the_aria_role_is_kept_beside_it(static_pages, tmp_path):
    url = static_pages.url("/filters", FORM)
    server = await McpServer("--web-tools", "--app-url", static_pages.base_url, log_path=tmp_path / "mcp.log").start()
    try:
        await server.call("ui.navigate", url=url)
        observed = await server.call("ui.observe")
        assert {node["role"] for node in observed["nodes"]} <= set(SEED_ROLES)
        nodes = {node["id"]: node for node in observed["nodes"]}
        assert {key: (nodes[key]["role"], nodes[key].get("ariaRole")) for key in ARIA} == ARIA
        assert all("ariaRole" not in node for node in observed["nodes"] if node["role"] in ("heading", "region"))
        # ui.query: by the seed's role (the radios are checkboxes) or by the precise one
        checkboxes = await server.call("ui.query", role="checkbox")
        assert [node["id"] for node in checkboxes["nodes"]] == ["sort-price", "sort-name", "stock", "dark"]
        radios = await server.call("ui.query", role="radio")
        assert [(node["id"], node["role"], node["ariaRole"]) for node in radios["nodes"]] == [
            ("sort-price", "checkbox", "radio"), ("sort-name", "checkbox", "radio")]
        assert [node["id"] for node in (await server.call("ui.query", role="combobox"))["nodes"]] == ["size"]
        tree = (await server.call("ui.inspect_tree", landmark="main", maxDepth=5))["tree"]
        form = tree["landmarks"]["main"]
        assert {(entry["id"], entry["role"], entry.get("ariaRole")) for entry in form} >= {
            ("sort-price", "checkbox", "radio"), ("size", "textbox", "combobox"), ("apply", "button", None)}
        # A select is a textbox one types the option's label into; a radio is a checkbox one checks.
        assert (await server.call("ui.act.type", nodeId="size", text="Large"))["ok"]
        assert (await server.call("ui.act.check", nodeId="sort-name", checked=True))["ok"]
        after = {node["id"]: node for node in (await server.call("ui.observe"))["nodes"]}
        assert after["size"]["value"] == "l" and after["sort-name"]["checked"] is True
        # ui.wait (and a goal's element_visible) reads a role as ui.observe answers it: the seed's or the precise one.
        for role, name in (("textbox", "Search"), ("searchbox", "Search"), ("checkbox", "Price"), ("radio", "Price"),
                           ("textbox", "Size")):
            waited = await server.call("ui.wait", condition={"element_visible": {"role": role, "name": name}},
                                       timeout=2_000)
            assert waited["ok"] is True, (role, name, waited)
        nowhere = await server.call("ui.wait", condition={"element_visible": {"role": "textbox", "name": "Name"}},
                                    timeout=500)
        assert nowhere["ok"] is False  # a radio is no textbox
    finally:
        await server.stop()


def test_the_mcp_node_is_the_seeds_and_the_planner_gets_the_precise_role_back():
    radio = UINode(id="r1", role="radio", name="Wrong balance", checked=False, form="dispute-form")
    shown = seed_node(radio)
    assert (shown["role"], shown["ariaRole"]) == ("checkbox", "radio")
    assert "ariaRole" not in seed_node(UINode(id="b", role="button", name="Next"))
    assert seed_node(UINode(id="t", role="tab", name="Deals", href="/deals"))["role"] == "link"
    back = Observation.model_validate(precise_roles({"url": "http://h/disputes", "nodes": [shown]}))
    assert back.nodes[0].role == "radio"


class SeedStyleServer:
    """A remote MCP-Web server as the seed writes one: the seed's six roles, no ariaRole, no studio extras."""

    def __init__(self, nodes: list[dict]) -> None:
        self.nodes = nodes
        self.calls: list[tuple[str, dict]] = []

    async def tool(self, name: str, arguments: dict) -> dict:
        self.calls.append((name, arguments))
        if name == "ui.observe":
            return {"nodes": self.nodes, "url": "http://h/login", "title": "Sign in"}
        return {"ok": True, "traceId": "t1"}


async def test_the_mcp_driver_takes_a_seed_style_servers_six_roles_as_they_are():
    server = SeedStyleServer([
        {"id": "email", "role": "textbox", "name": "Email", "bounds": {}, "enabled": True, "visible": True,
         "focused": False},
        {"id": "go", "role": "button", "name": "Continue", "bounds": {}, "enabled": True, "visible": True,
         "focused": False},
        {"id": "size", "role": "textbox", "ariaRole": "combobox", "name": "Size", "bounds": {}, "enabled": True,
         "visible": True, "focused": False, "options": ["Any", "Large"]}])
    page = McpScenarioPage(server, fresh=False, where="http://seed-style")  # type: ignore[arg-type]
    observation = await page.observe()
    assert [(node.id, node.role) for node in observation.nodes] == [
        ("email", "textbox"), ("go", "button"), ("size", "combobox")]
    # A choice in a select goes as ui.act.type with the option's label (the seed has no select tool).
    assert await page.act(observation, Action("ui.act.select", {"nodeId": "size", "option": "Large"})) is None
    assert server.calls[-1] == ("ui.act.type", {"nodeId": "size", "text": "Large", "clear": True})
