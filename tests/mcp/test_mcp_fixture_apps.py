"""The MCP tools drive apps the studio has never seen, as an agent would, over stdio in a real Chromium: a to-do list
(Enter to add, double-click to edit, a checkbox, hash-link filters, Clear completed, Back) and a keyboard game."""

from __future__ import annotations

import re

import pytest

from tests.apps.grid_game import GridGame
from tests.apps.list_app import ListApp
from tests.race.conftest import ref_of

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def list_app():
    with ListApp() as app:
        yield app


@pytest.fixture(scope="module")
def grid_game():
    with GridGame() as game:
        yield game


async def snapshot(mcp, name: str) -> dict:
    return await mcp.call("browser_snapshot", browserContext=name)


def items(text: str) -> list[str]:
    """The to-do items the snapshot shows, in order."""
    return re.findall(r'^\s*listitem "([^"]+)"', text, re.MULTILINE)


def board(text: str) -> str:
    found = re.search(r'"Game board" e\d+ \[4×4: ([^\]]+)\]', text)
    assert found, text
    return found.group(1)


def score(text: str) -> int:
    found = re.search(r'"Score (\d+)"', text)
    assert found, text
    return int(found.group(1))


async def test_a_to_do_list_end_to_end_through_the_mcp_tools(mcp, list_app):
    ctx = "errands"
    await mcp.call("browser_navigate", url=list_app.entry_url, browserContext=ctx)
    text = (await snapshot(mcp, ctx))["text"]
    new = ref_of(text, 'textbox "What needs to be done?"')

    # Add two items: a trailing newline presses Enter; browser_press_key on the field does the same.
    typed = await mcp.call("browser_type", ref=new, text="Buy milk\n", browserContext=ctx)
    assert typed == {"typed": True, "ref": new, "timestamp": typed["timestamp"], "submitted": True}
    assert (await mcp.call("browser_type", ref=new, text="Walk the dog", browserContext=ctx))["typed"] is True
    pressed = await mcp.call("browser_press_key", key="Enter", ref=new, browserContext=ctx)
    assert pressed == {"pressed": True, "ref": new, "timestamp": pressed["timestamp"]}
    text = (await snapshot(mcp, ctx))["text"]
    assert items(text) == ["Buy milk", "Walk the dog"] and '"2 items left"' in text
    assert 'textbox "What needs to be done?"' in text and 'value="' not in text  # the field was emptied by the app

    # Edit one: double-click its label, type the new text and Enter in the editor that opened.
    opened = await mcp.call("browser_dblclick", ref=ref_of(text, 'listitem "Buy milk"'), browserContext=ctx)
    assert opened["doubleClicked"] is True
    text = (await snapshot(mcp, ctx))["text"]
    editor = ref_of(text, 'value="Buy milk"')
    assert (await mcp.call("browser_type", ref=editor, text="Buy oat milk", submit=True,
                           browserContext=ctx))["submitted"] is True
    text = (await snapshot(mcp, ctx))["text"]
    assert items(text) == ["Buy oat milk", "Walk the dog"]

    # Complete one: checking it again changes nothing.
    box = ref_of(text, 'checkbox "Walk the dog"')
    assert (await mcp.call("browser_check", ref=box, browserContext=ctx))["checked"] is True
    text = (await snapshot(mcp, ctx))["text"]
    assert re.search(r'checkbox "Walk the dog" e\d+ \[checked\]', text) and '"1 item left"' in text
    assert (await mcp.call("browser_check", ref=ref_of(text, 'checkbox "Walk the dog"'),
                           browserContext=ctx))["checked"] is True
    assert '"1 item left"' in (await snapshot(mcp, ctx))["text"]

    # Filter Active with its link: a link within the document is followed at once, and the answer says where.
    active = ref_of(text, 'link "Active"')
    first = await mcp.call("browser_click", ref=active, browserContext=ctx)
    assert first["clicked"] is True
    assert [fact["linkAncestor"]["href"] for fact in first["observations"]] == ["#/active"]
    waited = await mcp.call("browser_wait_for", url="#/active", browserContext=ctx)
    assert waited["ok"] is True and waited["url"] == list_app.base_url + "/#/active"
    text = (await snapshot(mcp, ctx))["text"]
    assert items(text) == ["Buy oat milk"]

    # Clear completed: the completed item is gone for good, and so is the button.
    cleared = await mcp.call("browser_click", ref=ref_of(text, 'button "Clear completed"'), browserContext=ctx)
    assert cleared["clicked"] is True
    assert (await mcp.call("browser_wait_for", textGone="Clear completed", browserContext=ctx))["ok"] is True

    # Back: from #/active to the unfiltered list, without a reload.
    back = await mcp.call("browser_go_back", browserContext=ctx)
    assert back == {"ok": True, "url": list_app.base_url + "/", "title": "Errands · a tiny to-do list", "status": None}
    text = (await snapshot(mcp, ctx))["text"]
    assert items(text) == ["Buy oat milk"] and '"1 item left"' in text and "Clear completed" not in text

    # Hover shows the row's Delete button; clicking it empties the list.
    assert (await mcp.call("browser_hover", ref=ref_of(text, 'listitem "Buy oat milk"'),
                           browserContext=ctx))["hovered"] is True
    text = (await snapshot(mcp, ctx))["text"]
    assert (await mcp.call("browser_click", ref=ref_of(text, 'button "Delete"'), browserContext=ctx))["clicked"]
    assert items((await snapshot(mcp, ctx))["text"]) == []


async def test_the_grid_game_is_played_with_arrow_keys_on_the_page(mcp, grid_game):
    ctx = "game"
    await mcp.call("browser_navigate", url=grid_game.url(seed=7), browserContext=ctx)
    text = (await snapshot(mcp, ctx))["text"]
    assert board(text) == "2 · · · / · · · · / · · · · / · · · 2" and score(text) == 0

    pressed = await mcp.call("browser_press_key", key="ArrowLeft", browserContext=ctx)
    assert pressed == {"pressed": True, "key": "ArrowLeft", "timestamp": pressed["timestamp"]}
    text = (await snapshot(mcp, ctx))["text"]
    assert board(text) == "2 · · · / · · · · / 2 · · · / 2 · · ·"  # the tiles slid left, a new one came

    boards = [board(text)]
    for key in ("ArrowDown", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight"):
        assert (await mcp.call("browser_press_key", key=key, browserContext=ctx))["pressed"] is True
        text = (await snapshot(mcp, ctx))["text"]
        boards.append(board(text))
        if score(text) > 0:
            break
    assert score(text) > 0, f"no merge in {boards}"  # two tiles merged: the score counts it
    assert len(set(boards)) == len(boards)  # every move changed the board

    refused = await mcp.call("browser_press_key", key="NoSuchKey", browserContext=ctx)
    assert refused["error"]["type"] == "bad_input" and "Unknown key" in refused["error"]["message"]
