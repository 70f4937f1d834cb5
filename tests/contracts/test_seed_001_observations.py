"""Seed 001's race preflight, to the letter: the seed's scenario walked through the MCP SDK's client against the demo
app's products page (a loading scrim over the cards), then each of the seed's four checks on a page that shows it.
Each observation is compared with the seed's example JSON field by field: every field the seed names is there,
with the seed's type (extras are allowed, and are named in the README). The seed's examples are copied here as data:
a change on either side shows as a failure."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mcp.conftest import mcp, static_pages  # noqa: F401  (the module's server and pages)
from tests.race import pages
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser

TEXT = (str, type(None))
NUMBER = (int, float)
# The seed's "Example Observations" and "What Verdex Actually Checks": each observation type's fields and types.
SEED_OBSERVATIONS: dict[str, dict[str, Any]] = {
    "coverage": {
        "type": str, "ref": str, "observedAt": NUMBER, "elementCenter": {"x": NUMBER, "y": NUMBER},
        "elementAtPoint": {"ref": TEXT, "tag": str, "testId": TEXT, "id": TEXT, "className": TEXT, "zIndex": str,
                           "opacity": str, "display": str},
        "targetElement": {"ref": str, "tag": str, "testId": TEXT},
        "isTargetOrDescendant": bool,
    },
    "attachment": {"type": str, "ref": str, "observedAt": NUMBER, "isConnected": bool},
    "animation": {
        "type": str, "ref": str, "observedAt": NUMBER, "animations": list,
        "computedStyle": {"transition": str, "transitionProperty": str, "transitionDuration": str, "animation": str,
                          "animationName": str, "animationDuration": str},
    },
    "navigation": {
        "type": str, "ref": str, "observedAt": NUMBER, "element": {"ref": str, "tag": str},
        "linkAncestor": {"ref": str, "tag": str, "href": TEXT, "target": TEXT, "role": TEXT, "isTarget": bool},
    },
}
SEED_ANIMATION = {"playState": str, "animationName": TEXT, "id": TEXT, "startTime": (int, float, type(None)),
                  "currentTime": (int, float, type(None))}
AIRPODS = '"AirPods Pro (2nd gen)"'


def seed_shaped(fact: dict, shape: dict[str, Any], where: str = "") -> dict:
    """Assert `fact` has every field of the seed's `shape`, each of the seed's type (nested shapes too)."""
    for field, kind in shape.items():
        assert field in fact, f"{where or fact.get('type')} has no {field!r}: {fact}"
        if isinstance(kind, dict):
            assert isinstance(fact[field], dict), f"{where}{field} is {fact[field]!r}"
            seed_shaped(fact[field], kind, f"{where}{field}.")
        else:
            assert isinstance(fact[field], kind), f"{where}{field} is {fact[field]!r}"
    return fact


def observation(facts: list[dict], kind: str) -> dict:
    found = [fact for fact in facts if fact["type"] == kind]
    assert found, f"no {kind} observation among {[fact['type'] for fact in facts]}"
    return seed_shaped(found[0], SEED_OBSERVATIONS[kind])


async def test_the_seeds_scenario_a_scrim_over_the_button_is_a_coverage_fact_and_no_click(mcp, demo):  # noqa: F811
    demo.configure(hydration_ms=(30_000, 30_000), shuffle_products=False)
    # Step 1: navigate, snapshot, the button's ancestors up to its card, and the card's siblings.
    await mcp.call("browser_navigate", url=demo.base_url + "/products", browserContext="default")
    snapshot = await mcp.call("browser_snapshot", browserContext="default")
    assert "loading-scrim" in snapshot["text"] and snapshot["text"].count('"Add to Cart"') == 12
    button = ref_after(snapshot["text"], AIRPODS, '"Add to Cart"')
    ancestors = await mcp.call("get_ancestors", ref=button, browserContext="default")
    card = next(item for item in ancestors if item["testId"] == "product-card")
    siblings = await mcp.call("get_siblings", ref=card["ref"], browserContext="default")
    assert len([item for item in siblings if item["testId"] == "product-card"]) == 11  # "11 other product cards"

    # Step 2: the same browser_click, and the facts instead of a click.
    reply = await mcp.call("browser_click", ref=button, browserContext="default")
    assert reply["clicked"] is False and isinstance(reply["observations"], list)
    coverage = observation(reply["observations"], "coverage")
    assert coverage["ref"] == button and coverage["isTargetOrDescendant"] is False
    assert coverage["elementAtPoint"]["testId"] == "loading-scrim" and coverage["elementAtPoint"]["zIndex"] == "9999"
    assert coverage["targetElement"] == {"ref": button, "tag": "button", "testId": "add-to-cart"}
    assert coverage["elementAtPoint"]["ref"] != button


async def test_each_check_of_the_seed_gives_its_example_shape(mcp, static_pages):  # noqa: F811
    # Check 3: an animation running on the element itself (the seed's "Element with Running Animation").
    await mcp.call("browser_navigate", url=static_pages.url("/seed-001-animated", pages.ANIMATED),
                   browserContext="default")
    text = (await mcp.call("browser_snapshot", browserContext="default"))["text"]
    spinning = ref_of(text, '"Spinning itself"')
    animation = observation(await mcp.call("observe_element_state", ref=spinning, browserContext="default"),
                            "animation")
    assert animation["ref"] == spinning and animation["computedStyle"]["animationName"] == "spin"
    assert animation["animations"] and all(seed_shaped(item, SEED_ANIMATION, "animations[].")
                                           for item in animation["animations"])
    assert animation["animations"][0]["playState"] == "running"

    # Check 4: a link (the seed's "Element is a Link"), and check 1: attachment, on the same element.
    await mcp.call("browser_navigate", url=static_pages.url("/seed-001-states", pages.STATES),
                   browserContext="default")
    text = (await mcp.call("browser_snapshot", browserContext="default"))["text"]
    link = ref_of(text, 'link "Go to checkout"')
    facts = await mcp.call("observe_element_state", ref=link, browserContext="default")
    navigation = observation(facts, "navigation")
    assert navigation["element"] == {"ref": link, "tag": "a"}
    assert {key: navigation["linkAncestor"][key] for key in ("ref", "tag", "href", "target", "role", "isTarget")} == {
        "ref": link, "tag": "a", "href": "/checkout", "target": None, "role": None, "isTarget": True}
    assert observation(facts, "attachment")["isConnected"] is True


GONE = """<div id="holder"><button data-testid="doomed">Doomed</button></div>
<button onclick="document.getElementById('holder').innerHTML = ''">Remove it</button>"""


async def test_a_detached_element_is_an_attachment_fact_and_no_click(mcp, static_pages):  # noqa: F811
    """The seed's "Detached Element": removed from the page between the snapshot and the click, with nothing that
    could stand in for it."""
    await mcp.call("browser_navigate", url=static_pages.url("/seed-001-gone", GONE), browserContext="default")
    text = (await mcp.call("browser_snapshot", browserContext="default"))["text"]
    doomed = ref_of(text, '"Doomed"')
    removed = await mcp.call("browser_click", ref=ref_of(text, '"Remove it"'), browserContext="default")
    assert removed["clicked"] is True
    reply = await mcp.call("browser_click", ref=doomed, browserContext="default")
    assert reply["clicked"] is False, reply
    attachment = observation(reply["observations"], "attachment")
    assert attachment["ref"] == doomed and attachment["isConnected"] is False
