"""The Pilot workspace as a tester uses it: start a pilot session on the page in the live view, give the folder to an
outside AI (here the test writes its action files), watch its actions arrive with their outcome — a normalized
selector, a refused repetition, a malformed file — and the latest observation as a tree; take over, click in the
live view, hand back (the AI's waiting file is read only then, and the tester's click is in previousActions), stop
(status DONE, report.json). Real Chromium, the embedded demo, a real project file; screenshots go to
$STUDIO_GUI_SHOTS at a 1366×768 window."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from studio.ui.synthetic_input import mouse_click
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]


def write_action(folder: Path, content: dict | str) -> None:
    """As an AI should: write beside, then rename into place."""
    temp = folder / ".action.json.tmp"
    temp.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    os.replace(temp, folder / "action.json")


def observation(folder: Path) -> dict:
    return json.loads((folder / "observation.json").read_text(encoding="utf-8"))


def rows(panel) -> list[tuple[str, str, str, str]]:
    items = (panel.action_list.topLevelItem(i) for i in range(panel.action_list.topLevelItemCount()))
    return [(item.text(1), item.text(2), item.text(3), item.text(4)) for item in items if item is not None]


@pytest.mark.timeout(300)
def test_an_outside_ai_drives_the_live_page_and_the_tester_takes_over(qloop, demo, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path, "pilot.studio")
        window.resize(1366, 768)
        service, panel = services.pilot, window.pilot.panel
        try:
            window.workspaces.switch("Pilot")
            assert window.docks["pilot"].isVisible()
            window.open_url(demo.base_url + "/help")
            await until(lambda: window.live_view.frames_painted > 0, timeout=30, what="the help page")
            session = services.browser.session
            await until(lambda: "/help" in session.page.url, what="the live page's address")

            started = NextSignal(service.sessionStarted)
            panel.goal.setText("Find how long a dispute takes")
            panel.start_button.click()
            folder = Path(await started.wait(30, what="the session to start"))
            assert panel.folder.text() == str(folder) and folder.parent == tmp_path / "pilot-pilot"
            await until(lambda: (folder / "observation.json").is_file(), what="the first observation")
            await until(lambda: "WAITING_FOR_AI" in panel.status.text(), what="the waiting status")
            await until(lambda: panel.observation.findItems("domState", Qt.MatchFlag.MatchExactly, 0),
                        what="the observation tree")
            assert panel.stop_button.isEnabled()
            panel.copy_button.click()

            # a batch with a selector the protocol normalizes (jQuery's :contains)
            write_action(folder, {"reasoning": "search the help centre", "actions": [
                {"action": "type", "selector": "input[type='search']", "value": "dispute"},
                {"action": "click", "selector": "button:contains('How often')"}]})
            await until(lambda: len(rows(panel)) == 2, timeout=30, what="the batch's two outcomes")
            assert [r[3] for r in rows(panel)] == ["✓ done", "✓ done"], rows(panel)
            assert "→" in rows(panel)[1][2]  # the selector as written, and as normalized
            await until(lambda: observation(folder)["stepNumber"] >= 2, what="the observation after the batch")

            # the same action three times: the third is refused, with a warning
            same = {"action": "scroll", "value": "200"}
            for count in (3, 4):
                write_action(folder, same)
                await until(lambda c=count: len(rows(panel)) == c, timeout=30, what=f"action {count}")
            write_action(folder, same)
            await until(lambda: len(rows(panel)) == 5, timeout=30, what="the third scroll")
            assert rows(panel)[4][3].startswith("↺ refused: ") and "identical" in rows(panel)[4][3]

            # a malformed file: an error names the problem, the session goes on
            write_action(folder, "{\"action\": \"clik\", \"selector\": \"a\"}")
            await until(lambda: any("clik" in panel.warnings.item(i).text()
                                    for i in range(panel.warnings.count())), timeout=30, what="the file's error")
            shoot(window, "pilot_running")

            # take over: the AI's next file waits; the tester clicks a link in the live view; hand back
            panel.take_over.click()
            await until(lambda: "TAKEN_OVER" in panel.status.text(), what="the taken-over status")
            write_action(folder, {"action": "navigate", "url": demo.base_url + "/help"})
            link = session.page.get_by_test_id("help-privacy-link")
            await link.scroll_into_view_if_needed()
            box = await link.bounding_box()
            x, y = window.live_view.frame_rect().to_widget(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            mouse_click(window.live_view, QPoint(round(x), round(y)))
            await until(lambda: "/privacy" in session.page.url, timeout=30, what="the tester's click")
            assert (folder / "action.json").is_file()  # not read while taken over
            panel.take_over.click()  # hand back
            await until(lambda: (folder / "actions" / "0006-action.json").is_file(), timeout=30,
                        what="the waiting file read")  # read where it is: action.json stays until the next one
            await until(lambda: any(r[0] == "tester" for r in rows(panel)), timeout=30, what="the tester's action")
            mine = [a for a in observation(folder)["previousActions"] if a.get("by") == "tester"]
            assert mine and mine[0]["action"] == "click"
            await until(lambda: "/help" in session.page.url, timeout=30, what="the AI's navigate after hand back")

            ending = NextSignal(service.finished)
            panel.stop_button.click()
            report = await ending.wait(30, what="the session to end")
            assert (folder / "status").read_text(encoding="utf-8").strip() == "DONE"
            assert json.loads((folder / "report.json").read_text(encoding="utf-8"))["endReason"] == "stopped"
            assert report.actionsRefused == 1
            assert "DONE" in panel.status.text() and panel.start_button.isEnabled()
            shoot(window, "pilot_done")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
