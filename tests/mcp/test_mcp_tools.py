"""The MCP tools as an agent uses them: seed 001's session against the demo app, over stdio, in a real Chromium."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from tests.mcp.conftest import closed_port, descendants
from tests.race import pages
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser

TOOLS = {"browser_navigate", "browser_go_back", "browser_snapshot", "browser_click", "browser_dblclick", "browser_hover",
         "browser_type", "browser_press_key", "browser_select_option", "browser_check", "browser_uncheck",
         "browser_drag", "browser_wait_for", "get_ancestors", "get_siblings", "get_descendants",
         "observe_element_state", "enable_preflight_observation", "disable_preflight_observation"}
AIRPODS = '"AirPods Pro (2nd gen)"'


async def snapshot_text(mcp, name: str = "default") -> str:
    reply = await mcp.call("browser_snapshot", browserContext=name)
    assert "text" in reply, reply
    return reply["text"]


async def wait_for_url(mcp, name: str, ending: str, seconds: float = 5.0) -> str:
    for _ in range(int(seconds / 0.1)):
        url = (await mcp.call("browser_snapshot", browserContext=name))["url"]
        if url.endswith(ending):
            return url
        await asyncio.sleep(0.1)
    raise AssertionError(f"{name} stayed at {url}, never reached {ending}")


async def test_the_tools_are_listed_with_a_browser_context_argument(mcp):
    listed = {tool.name: tool for tool in (await mcp.client.list_tools()).tools}
    assert set(listed) == TOOLS
    for tool in listed.values():
        assert "browserContext" in tool.input_schema["properties"]
        assert "browserContext" in tool.input_schema["required"]
        assert tool.description
    assert listed["browser_click"].input_schema["required"] == ["ref", "browserContext"]
    assert listed["browser_type"].input_schema["required"] == ["ref", "text", "browserContext"]
    assert listed["get_descendants"].input_schema["properties"]["maxDepth"]["default"] == 3
    assert "same ref again" in listed["browser_click"].description and "reResolved" in listed["browser_click"].description
    assert "Fill semantics" in listed["browser_type"].description and 'trailing "\\n"' in listed["browser_type"].description
    assert listed["browser_type"].input_schema["properties"]["submit"]["default"] is False
    assert listed["browser_press_key"].input_schema["required"] == ["key", "browserContext"]
    assert listed["browser_drag"].input_schema["required"] == ["startRef", "endRef", "browserContext"]
    assert listed["browser_wait_for"].input_schema["required"] == ["browserContext"]
    assert listed["browser_wait_for"].input_schema["properties"]["state"]["enum"] == ["visible", "hidden"]
    assert listed["browser_select_option"].input_schema["required"] == ["ref", "value", "browserContext"]


async def test_a_covered_click_reports_the_scrim_then_acts_once_acknowledged(mcp, demo):
    demo.configure(hydration_ms=(2500, 2500), shuffle_products=False)
    opened = await mcp.call("browser_navigate", url=demo.base_url + "/products", browserContext="default")
    assert opened == {"ok": True, "url": demo.base_url + "/products", "title": "Products · Lumen Credit",
                      "status": 200}
    snapshot = await mcp.call("browser_snapshot", browserContext="default")
    assert snapshot["url"] == opened["url"] and snapshot["refCount"] > 20
    button = ref_after(snapshot["text"], AIRPODS, '"Add to Cart"')

    reply = await mcp.call("browser_click", ref=button, browserContext="default")
    assert reply["clicked"] is False and set(reply) == {"clicked", "observations"}
    coverage = next(o for o in reply["observations"] if o["type"] == "coverage")
    assert coverage["ref"] == button and coverage["isTargetOrDescendant"] is False
    assert coverage["elementAtPoint"]["testId"] == "loading-scrim"
    assert coverage["elementAtPoint"]["zIndex"] == "9999"
    assert coverage["targetElement"] == {"ref": button, "tag": "button", "testId": "add-to-cart"}
    assert 'link "Cart, 0 items"' in await snapshot_text(mcp)  # nothing was clicked

    # The same click again acknowledges the facts and waits for the scrim… which hydration removes together
    # with the button. The retry finds the new button by the old one's locator and clicks it, saying so.
    done = await mcp.call("browser_click", ref=button, browserContext="default")
    assert done["clicked"] is True and set(done) == {"clicked", "ref", "timestamp", "reResolved"}, done
    fresh = ref_after(await snapshot_text(mcp), AIRPODS, '"Add to Cart"')
    assert done["ref"] == fresh != button
    moved = done["reResolved"]
    assert (moved["from"], moved["to"]) == (button, fresh)
    assert '.filter(has_text="AirPods Pro (2nd gen)").get_by_role("button", name="Add to Cart"' in moved["locator"]
    for _ in range(30):
        if 'link "Cart, 1 item' in await snapshot_text(mcp):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the cart never showed the added item")


async def test_structure_around_a_button_ancestors_siblings_descendants_and_facts(mcp, demo):
    demo.configure(hydration_ms=(0, 0), shuffle_products=False)
    await mcp.call("browser_navigate", url=demo.base_url + "/products", browserContext="default")
    text = await snapshot_text(mcp)
    button = ref_after(text, AIRPODS, '"Add to Cart"')

    ancestors = await mcp.call("get_ancestors", ref=button, browserContext="default")
    card = ancestors[0]
    assert card["tag"] == "article" and card["testId"] == "product-card" and card["childCount"] >= 2
    assert ancestors[-1]["tag"] == "body"
    keys = {"ref", "tag", "role", "name", "testId", "id", "classes", "childCount", "depth"}
    assert all(set(item) == keys for item in ancestors)  # the same keys every time, nulls kept
    assert card["id"] is None and card["depth"] is None

    siblings = await mcp.call("get_siblings", ref=card["ref"], browserContext="default")
    assert len(siblings) == 11 and {item["testId"] for item in siblings} == {"product-card"}
    assert all(set(item) == keys for item in siblings)
    assert card["ref"] not in {item["ref"] for item in siblings}

    inside = await mcp.call("get_descendants", ref=card["ref"], browserContext="default", maxDepth=1)
    assert {"ref": button, "tag": "button", "role": "button", "name": "Add to Cart", "testId": "add-to-cart",
            "id": None, "classes": ["btn", "btn-primary"], "childCount": 0, "depth": 1} in inside
    assert all(set(item) == keys for item in inside)
    assert any(item["role"] == "heading" and item["name"] == "AirPods Pro (2nd gen)" for item in inside)

    facts = await mcp.call("observe_element_state", ref=button, browserContext="default")
    kinds = {fact["type"] for fact in facts}
    assert {"attachment", "viewport", "input_state"} <= kinds
    assert next(f for f in facts if f["type"] == "attachment")["isConnected"] is True
    assert next(f for f in facts if f["type"] == "input_state")["disabled"] is False


async def test_animation_facts_name_the_target_and_the_ancestor_that_animates(mcp, static_pages):
    url = static_pages.url("/animated", pages.ANIMATED)
    await mcp.call("browser_navigate", url=url, browserContext="default")
    text = await snapshot_text(mcp)
    moving = ref_of(text, '"Moving"')
    facts = await mcp.call("observe_element_state", ref=moving, browserContext="default")
    (card,) = [fact for fact in facts if fact["type"] == "animation"]
    assert card["ref"] == moving
    assert card["animatedElement"] == {"ref": ref_of(text, "#card"), "tag": "div", "testId": "card"}
    assert card["animations"][0]["animationName"] == "spin"

    fading = ref_of(text, '"Fading"')
    assert (await mcp.call("browser_click", ref=fading, browserContext="default"))["clicked"] is True
    facts = await mcp.call("observe_element_state", ref=fading, browserContext="default")
    (transition,) = [fact for fact in facts if fact["type"] == "animation"]
    assert transition["animations"][0]["animationName"] is None  # a transition has no name; the style says what
    assert transition["computedStyle"]["transitionProperty"] == "opacity, color"
    assert transition["animatedElement"]["ref"] == fading


async def test_with_preflight_disabled_the_click_executes_at_once(mcp, demo):
    demo.configure(hydration_ms=(2500, 2500), shuffle_products=False)
    assert await mcp.call("disable_preflight_observation", browserContext="default") == {
        "ok": True, "browserContext": "default", "preflight": False}
    try:
        await mcp.call("browser_navigate", url=demo.base_url + "/products", browserContext="default")
        button = ref_after(await snapshot_text(mcp), AIRPODS, '"Add to Cart"')
        reply = await mcp.call("browser_click", ref=button, browserContext="default")
        # It clicked at once — on the scrim, as a naive script would — so the cart stayed empty.
        assert reply == {"clicked": True, "ref": button, "timestamp": reply["timestamp"]}
        assert 'link "Cart, 0 items"' in await snapshot_text(mcp)
    finally:
        assert (await mcp.call("enable_preflight_observation", browserContext="default"))["preflight"] is True
    covered = await mcp.call("browser_click", ref=button, browserContext="default")
    assert covered["clicked"] is False


async def test_two_named_contexts_keep_their_own_sign_in(mcp, demo):
    user = demo.create_user()
    await mcp.call("browser_navigate", url=demo.base_url + "/login", browserContext="alice")
    text = await snapshot_text(mcp, "alice")
    typed = await mcp.call("browser_type", ref=ref_of(text, "#email-input"), text=user["email"],
                           browserContext="alice")
    assert typed == {"typed": True, "ref": ref_of(text, "#email-input"), "timestamp": typed["timestamp"]}
    assert (await mcp.call("browser_type", ref=ref_of(text, "#password-input"), text=user["password"],
                           browserContext="alice"))["typed"] is True
    login = ref_of(text, "#login-button")
    clicked = await mcp.call("browser_click", ref=login, browserContext="alice")
    if not clicked["clicked"]:
        clicked = await mcp.call("browser_click", ref=login, browserContext="alice")
    assert clicked["clicked"] is True
    await wait_for_url(mcp, "alice", "/dashboard")
    assert user["password"] not in await snapshot_text(mcp, "alice")

    bob = await mcp.call("browser_navigate", url=demo.base_url + "/dashboard", browserContext="bob")
    assert bob["ok"] and bob["url"].split("?")[0].endswith("/login")  # bob has no session cookie
    alice = await mcp.call("browser_navigate", url=demo.base_url + "/dashboard", browserContext="alice")
    assert alice["url"].endswith("/dashboard")


async def test_a_link_reports_its_navigation_once_then_is_followed(mcp, demo):
    await mcp.call("browser_navigate", url=demo.base_url + "/help", browserContext="default")
    link = ref_of(await snapshot_text(mcp), 'link "Products"')
    first = await mcp.call("browser_click", ref=link, browserContext="default")
    assert first["clicked"] is False
    navigation = next(o for o in first["observations"] if o["type"] == "navigation")
    assert navigation["linkAncestor"]["href"] == "/products" and navigation["linkAncestor"]["isTarget"] is True
    assert (await mcp.call("browser_click", ref=link, browserContext="default"))["clicked"] is True
    await wait_for_url(mcp, "default", "/products")


async def test_bad_input_gets_a_typed_error_never_a_traceback(mcp, demo):
    def error_type(reply: dict) -> str:
        assert set(reply) == {"error"} and set(reply["error"]) == {"type", "message"}
        assert reply["error"]["message"].endswith((".", ")")) and "Traceback" not in reply["error"]["message"]
        return reply["error"]["type"]

    never = await mcp.call("browser_snapshot", browserContext="never-navigated")
    assert error_type(never) == "no_page" and "browser_navigate" in never["error"]["message"]
    assert error_type(await mcp.call("browser_click", ref="e1", browserContext=" ")) == "bad_input"
    # Arguments the SDK refuses before our tools run get the same shape.
    missing = await mcp.call("browser_click", ref="e1")
    assert error_type(missing) == "bad_input" and "'browserContext' is a required property" in missing["error"]["message"]
    wrong = await mcp.call("get_descendants", ref="e1", browserContext="default", maxDepth="deep")
    assert error_type(wrong) == "bad_input" and "maxDepth: 'deep' is not of type 'integer'" in wrong["error"]["message"]
    assert error_type(await mcp.call("browser_fly", ref="e1", browserContext="default")) == "bad_input"

    await mcp.call("browser_navigate", url=demo.base_url + "/help", browserContext="default")
    text = await snapshot_text(mcp)
    link = ref_of(text, 'link "Products"')
    assert error_type(await mcp.call("browser_click", ref="e99999", browserContext="default")) == "unknown_ref"
    assert error_type(await mcp.call("browser_click", ref="#help-search", browserContext="default")) == "bad_input"
    assert error_type(await mcp.call("get_ancestors", ref="button.primary", browserContext="default")) == "bad_input"
    assert error_type(await mcp.call("get_descendants", ref=link, browserContext="default",
                                     maxDepth=0)) == "bad_input"

    unreachable = await mcp.call("browser_navigate", url=f"http://127.0.0.1:{closed_port()}/",
                                 browserContext="default")
    assert error_type(unreachable) == "navigation_failed"
    assert "connection refused" in unreachable["error"]["message"]
    assert error_type(await mcp.call("browser_navigate", url="ftp://example.com/", browserContext="default")) \
        == "bad_input"

    await mcp.call("browser_navigate", url=demo.base_url + "/privacy", browserContext="default")
    stale = await mcp.call("browser_click", ref=link, browserContext="default")
    assert error_type(stale) == "stale_ref" and "new snapshot" in stale["error"]["message"]
    assert error_type(await mcp.call("observe_element_state", ref=link, browserContext="default")) == "stale_ref"


LEAVING = """
<button onclick="document.getElementById('veil').hidden = false;
                 setTimeout(() => { location.href = '/gone'; }, 1500)">Start</button>
<div style="position:relative;width:200px"><button>Pay</button>
  <div id="veil" hidden data-testid="veil" style="position:absolute;inset:0;background:rgba(0,0,0,.3)"></div></div>
"""


async def test_a_page_that_navigates_away_while_a_click_waits_gives_navigated(mcp, static_pages):
    static_pages.url("/gone", "<h1>Gone</h1>")
    await mcp.call("browser_navigate", url=static_pages.url("/leaving", LEAVING), browserContext="default")
    text = await snapshot_text(mcp)
    pay = ref_of(text, '"Pay"')
    # Start covers Pay and, 1.5 s later, leaves the page: while the acknowledged click waits for the veil to go.
    assert (await mcp.call("browser_click", ref=ref_of(text, '"Start"'), browserContext="default"))["clicked"]
    covered = await mcp.call("browser_click", ref=pay, browserContext="default")
    assert [fact["type"] for fact in covered["observations"]] == ["coverage"]
    waited = await mcp.call("browser_click", ref=pay, browserContext="default")
    assert waited == {"error": {"type": "navigated", "message": (
        f"The page navigated away during the click on {pay}, before it was done. "
        "Take a new snapshot and try again.")}}
    assert (await mcp.call("browser_snapshot", browserContext="default"))["url"].endswith("/gone")


@pytest.mark.own_browser
async def test_a_crashed_browser_is_a_closed_context_until_the_next_navigation(mcp, demo):
    await mcp.call("browser_navigate", url=demo.base_url + "/help", browserContext="default")
    old_link = ref_of(await snapshot_text(mcp), 'link "Products"')
    browsers = [pid for pid, name in descendants(mcp.pid).items()
                if name.startswith(("chrome", "chromium")) and descendants(pid)]
    for pid in browsers:
        os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.5)

    for tool, args in (("browser_snapshot", {}), ("browser_click", {"ref": old_link})):
        reply = await mcp.call(tool, browserContext="default", **args)
        assert reply["error"]["type"] == "context_closed", reply
        assert "Navigate again" in reply["error"]["message"]

    reopened = await mcp.call("browser_navigate", url=demo.base_url + "/help", browserContext="default")
    assert reopened["ok"] and reopened["status"] == 200
    assert ref_of(await snapshot_text(mcp), 'link "Products"') != old_link  # refs keep counting up
    assert (await mcp.call("browser_click", ref=old_link, browserContext="default"))["error"]["type"] == "stale_ref"
    assert "Traceback" not in mcp.log()
