"""The toolbelt's input tools and waits in-process, in a real Chromium, on small pages that isolate one behaviour each:
select, check/uncheck, drag, waits, the typing rules for key presses."""

from __future__ import annotations

import pytest

from studio.browser.origins import OriginPolicy
from studio.race.page_reads import url_matches
from studio.race.typing_rules import types_text
from studio.toolbelt import BrowserContexts, Toolbelt, ToolError
from tests.apps.list_app import ListApp
from tests.race.conftest import ref_of

pytestmark = pytest.mark.browser

FORM = """<!doctype html><title>Form</title>
<label>Plan <select data-testid="plan" onchange="out.textContent = 'plan ' + this.value">
  <option value="free">Free</option><option value="plus">Plus</option><option value="pro">Pro</option></select></label>
<label><input type="checkbox" data-testid="news"> Newsletter</label>
<label><input type="checkbox" data-testid="stubborn" onclick="return false"> Stubborn</label>
<p id="out" role="status"></p>
<ul><li draggable="true" data-testid="card" ondragstart="event.dataTransfer.setData('text', 'card')">Card A</li></ul>
<div data-testid="done-column" style="width:200px;height:80px;border:1px solid"
     ondragover="event.preventDefault()" ondrop="event.preventDefault(); this.append(document.querySelector('li'));
                 out.textContent = 'dropped'">Done</div>
"""

WAITS = """<!doctype html><title>Waits</title>
<button onclick="spinner.remove(); setTimeout(() => { msg.textContent = 'Saved'; panel.style.height = '60px'; }, 300)">
  Save</button>
<span data-testid="spinner" id="spinner">Working…</span>
<p id="msg" role="status"></p>
<div data-testid="panel" id="panel" style="height:0;overflow:hidden">Details</div>
<a href="#/done">Done</a>
"""

SECRET = """<!doctype html><title>Sign in</title>
<label>Password <input type="password" data-testid="pw" autofocus></label>
<label>Note <input data-testid="note"></label>
"""


@pytest.fixture
async def belt(fleet):
    contexts = BrowserContexts(fleet)
    yield Toolbelt(contexts)
    await contexts.close()


async def open_page(belt: Toolbelt, url: str) -> str:
    assert (await belt.navigate(url, "t")).to_json()["ok"]
    return (await belt.snapshot("t")).to_json()["text"]


async def status_text(belt: Toolbelt) -> str:
    text = (await belt.snapshot("t")).to_json()["text"]
    return next((line.split('"')[1] for line in text.splitlines() if line.strip().startswith("status")), "")


def test_which_keys_type_text():
    assert all(types_text(key) for key in ("a", "A", "Shift+A", "KeyA", "Digit1", "Space", "+", "Shift++", "é"))
    assert not any(types_text(key) for key in ("Enter", "Tab", "ArrowLeft", "Control+A", "Meta+v", "Escape", "F5"))


def test_url_patterns_are_globs_whole_urls_or_parts():
    assert url_matches("http://a.test/shop/cart", "**/cart") and not url_matches("http://a.test/cart/x", "**/cart")
    assert url_matches("http://a.test/x/cart", "http://a.test/*/cart")
    assert not url_matches("http://a.test/x/y/cart", "http://a.test/*/cart")
    assert url_matches("http://a.test/#/active", "#/active") and not url_matches("http://a.test/", "#/active")
    assert url_matches("http://a.test/", "http://a.test/") and not url_matches("http://a.test/?q=1", "http://a.test/")


async def test_select_check_uncheck_and_drag(belt, static_pages):
    text = await open_page(belt, static_pages.url("/form", FORM))
    plan = ref_of(text, "#plan")
    assert (await belt.select_option(plan, "Pro", "t")).to_json()["selected"] is True  # by its visible text
    assert await status_text(belt) == "plan pro"
    missing = await belt.select_option(plan, "Gold", "t")
    assert isinstance(missing, ToolError) and missing.error.type == "not_actionable"
    assert '"Free", "Plus", "Pro"' in missing.error.message

    news = ref_of(text, "#news")
    assert (await belt.check(news, "t")).to_json()["checked"] is True
    assert "[checked]" in ref_line(await snapshot_text(belt), "#news")
    assert (await belt.check(news, "t")).to_json()["checked"] is True  # already checked: nothing to do
    assert (await belt.uncheck(news, "t")).to_json()["unchecked"] is True
    assert "[checked]" not in ref_line(await snapshot_text(belt), "#news")
    stubborn = await belt.check(ref_of(text, "#stubborn"), "t")
    assert isinstance(stubborn, ToolError) and "did not change it: it is still unchecked" in stubborn.error.message

    dragged = await belt.drag(ref_of(text, "#card"), ref_of(text, "#done-column"), "t")
    assert dragged.to_json()["dragged"] is True, dragged.to_json()
    assert await status_text(belt) == "dropped"


async def test_a_drag_onto_a_covered_target_reports_the_cover_first(belt, static_pages):
    covered = FORM + ('<div data-testid="veil" style="position:fixed;inset:0;background:rgba(0,0,0,.2)" '
                      'onclick="this.remove()"></div>')
    text = await open_page(belt, static_pages.url("/covered-form", covered))
    facts = (await belt.drag(ref_of(text, "#card"), ref_of(text, "#done-column"), "t")).to_json()
    assert facts["dragged"] is False
    assert {(fact["type"], fact["ref"]) for fact in facts["observations"]} == {
        ("coverage", ref_of(text, "#card")), ("coverage", ref_of(text, "#done-column"))}


async def test_waits_for_text_elements_and_urls(belt, static_pages):
    text = await open_page(belt, static_pages.url("/waits", WAITS))
    spinner, panel = ref_of(text, "#spinner"), ref_of(text, "#panel")
    not_yet = (await belt.wait_for("t", text="Saved", timeout_ms=200)).to_json()
    assert not_yet["ok"] is False and "Not met within 0.2 s" in not_yet["message"]

    assert (await belt.click(ref_of(text, '"Save"'), "t")).to_json()["clicked"] is True
    assert (await belt.wait_for("t", ref=spinner, state="hidden")).to_json()["ok"] is True  # removed counts
    saved = (await belt.wait_for("t", text="saved")).to_json()  # case-insensitive, like get_by_text
    assert saved["ok"] is True and saved["condition"] == "text 'saved' visible" and saved["elapsedMs"] >= 0
    assert (await belt.wait_for("t", ref=panel, state="visible")).to_json()["ok"] is True
    assert (await belt.wait_for("t", text_gone="Working")).to_json()["ok"] is True

    followed = (await belt.click(ref_of(text, 'link "Done"'), "t")).to_json()  # a link within the document
    assert followed["clicked"] is True and followed["observations"][0]["type"] == "navigation"
    assert (await belt.wait_for("t", url="**/waits#/done")).to_json()["ok"] is True

    for bad in ({"text": "a", "url": "b"}, {}, {"text": "a", "timeout_ms": 0}, {"text": "a", "timeout_ms": 60_000}):
        refused = await belt.wait_for("t", **bad)
        assert isinstance(refused, ToolError) and refused.error.type == "bad_input", bad
    stale = await belt.wait_for("t", ref="e99999")
    assert isinstance(stale, ToolError) and stale.error.type == "unknown_ref"


async def test_key_presses_that_type_follow_the_typing_rules(static_pages, fleet):
    with ListApp() as app:
        contexts = BrowserContexts(fleet, pin=OriginPolicy([app.base_url]))
        belt = Toolbelt(contexts)
        try:
            # Another origin: a command key is fine, a character is typing and is refused.
            await open_page(belt, static_pages.url("/secret", SECRET))
            assert (await belt.press_key("Tab", "t")).to_json()["pressed"] is True
            refused = await belt.press_key("a", "t")
            assert isinstance(refused, ToolError) and refused.error.type == "origin_refused"

            # The app's origin: characters go in, but never into a password field.
            text = await open_page(belt, app.entry_url)
            field = ref_of(text, 'textbox "What needs to be done?"')
            for key in ("KeyH", "i"):
                got = (await belt.press_key(key, "t", ref=field)).to_json(); assert got.get("pressed") is True, got
            assert 'value="hi"' in await snapshot_text(belt)
        finally:
            await contexts.close()

    contexts = BrowserContexts(fleet)
    belt = Toolbelt(contexts)
    try:
        text = await open_page(belt, static_pages.url("/secret", SECRET))
        for ref in (None, ref_of(text, "#pw")):
            refused = await belt.press_key("x", "t", ref=ref)
            assert isinstance(refused, ToolError) and refused.error.type == "bad_input"
            assert "browser_type" in refused.error.message
        assert (await belt.press_key("x", "t", ref=ref_of(text, "#note"))).to_json()["pressed"] is True
    finally:
        await contexts.close()


async def snapshot_text(belt: Toolbelt) -> str:
    return (await belt.snapshot("t")).to_json()["text"]


def ref_line(text: str, fragment: str) -> str:
    return next(line for line in text.splitlines() if fragment in line)
