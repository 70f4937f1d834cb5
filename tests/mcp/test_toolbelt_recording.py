"""What the new tools record while a browser context records into a project (as `studio mcp --project` does): each
becomes the step an exported test needs, and a click is answered before its step is finished."""

from __future__ import annotations

import pytest

from studio.toolbelt import BrowserContexts, ProjectRecording, Toolbelt
from tests.apps.list_app import ListApp
from tests.race.conftest import ref_after, ref_of

pytestmark = pytest.mark.browser


@pytest.fixture
async def recorded(tmp_path, fleet):
    contexts = BrowserContexts(fleet, recording=ProjectRecording.open(tmp_path / "agent.studio"))
    yield contexts
    await contexts.close()


def steps(contexts: BrowserContexts, name: str):
    assert contexts.recording is not None
    session = contexts.recording.session_of(name)
    assert session is not None
    return contexts.recording.project.steps(session)


async def test_typing_with_enter_keys_waits_and_back_become_steps(recorded):
    belt = Toolbelt(recorded)
    with ListApp() as app:
        await belt.navigate(app.entry_url, "todo")
        text = (await belt.snapshot("todo")).to_json()["text"]
        field = ref_of(text, 'textbox "What needs to be done?"')
        assert (await belt.type(field, "Buy milk\n", "todo")).to_json()["submitted"] is True
        assert (await belt.wait_for("todo", text="1 item left")).to_json()["ok"] is True
        text = (await belt.snapshot("todo")).to_json()["text"]
        assert (await belt.check(ref_of(text, 'checkbox "Buy milk"'), "todo")).to_json()["checked"] is True
        assert (await belt.press_key("Escape", "todo")).to_json()["pressed"] is True
        text = (await belt.snapshot("todo")).to_json()["text"]
        link = ref_of(text, 'link "Completed"')
        assert (await belt.click(link, "todo")).to_json()["clicked"] is True  # a same-document link acts at once
        assert (await belt.wait_for("todo", url="#/completed")).to_json()["ok"] is True
        assert (await belt.go_back("todo")).to_json()["url"] == app.base_url + "/"

        recorded_steps = steps(recorded, "todo")
    assert [step.action for step in recorded_steps] == [
        "navigate", "fill", "press", "expect_text", "check", "press", "click", "expect_url", "navigate"]
    _, fill, enter, seen, check, escape, click, url, back = recorded_steps
    assert fill.value == "Buy milk" and fill.locator.python() == 'page.get_by_role("textbox", name="What needs to be done?", exact=True)'
    assert enter.key == "Enter" and enter.locator == fill.locator
    assert seen.value == "1 item left"
    assert check.locator is not None and "Buy milk" in check.locator.python()
    assert escape.key == "Escape" and escape.locator is None  # pressed on the page: page.keyboard in the export
    assert click.locator is not None and 'name="Completed"' in click.locator.python()
    assert url.url == app.base_url + "/#/completed"
    assert back.url == app.base_url + "/"


async def test_a_click_is_answered_before_its_step_is_finished(recorded, demo):
    # The cart answers after 800 ms: the click's step waits for that answer, the agent does not.
    demo.configure(hydration_ms=(0, 0), shuffle_products=False, cart_latency_ms=(800, 800))
    belt = Toolbelt(recorded)
    await belt.navigate(demo.base_url + "/products", "shop")
    assert (await belt.wait_for("shop", text_gone="Loading products")).to_json()["ok"] is True
    text = (await belt.snapshot("shop")).to_json()["text"]
    button = ref_after(text, '"iPhone 15 Pro"', '"Add to Cart"')
    reply = (await belt.click(button, "shop")).to_json()
    if not reply["clicked"]:  # the cards may still be fading in: acknowledged, the retry waits for them
        reply = (await belt.click(button, "shop")).to_json()
    assert reply["clicked"] is True
    assert [step.action for step in steps(recorded, "shop")] == ["navigate", "expect_hidden"]  # not finished yet

    # The next tool call waits for it: the step then has the request the click caused, with its answer.
    assert (await belt.snapshot("shop")).to_json()["url"].endswith("/products")
    click = steps(recorded, "shop")[-1]
    assert click.action == "click"
    assert [(r.method, r.url.rsplit("/", 3)[-3:], r.status) for r in click.requests] == [
        ("POST", ["api", "cart", "add"], 200)]
