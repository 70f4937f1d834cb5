"""Take Over during a pilot session records into the pilot session alone: the tester's sign-in becomes the session's
actions (previousActions, by: tester, and rows of the Pilot dock), never steps of the Explore recording, which stays
as it was — off and untouched when it was off, on (and still untouched by the takeover) when it was on. Real
Chromium, the embedded demo, a real project file, a 1366×768 window."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.support import NextSignal, click_on, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]


def actions_by_tester(folder: Path) -> list[dict]:
    previous = json.loads((folder / "observation.json").read_text(encoding="utf-8"))["previousActions"]
    return [a for a in previous if a.get("by") == "tester"]


def rows_by_tester(panel) -> list[str]:
    items = (panel.action_list.topLevelItem(i) for i in range(panel.action_list.topLevelItemCount()))
    return [item.text(2) for item in items if item is not None and item.text(1) == "tester"]


@pytest.mark.timeout(300)
def test_a_takeover_records_into_the_pilot_session_and_leaves_the_explore_recording_alone(qloop, demo, tmp_path):
    user = demo.create_user()

    async def scenario():
        services, window = open_studio(tmp_path, "takeover.studio")
        window.resize(1366, 768)
        service, panel, race = services.pilot, window.pilot.panel, services.race
        record = window.race_front.steps.record_action
        project = services.project.project
        switched: list[bool] = []
        try:
            window.open_url(demo.base_url + "/help")
            await until(lambda: window.live_view.frames_painted > 0, timeout=30, what="the help page")
            session = services.browser.session
            page, view = session.page, window.live_view
            await until(lambda: "/help" in page.url, what="the live page's address")

            # an earlier, unrelated Explore recording: one fill step, then recording is off
            record.trigger()
            assert race.recording
            await click_on(view, page.get_by_test_id("help-search"))
            QTest.keyClicks(view, "dispute")
            record.trigger()
            await until(lambda: len(project.steps(session.id)) == 1, what="the earlier recording's step")
            earlier = [s.model_dump() for s in project.steps(session.id)]
            assert not race.recording
            race.recordingChanged.connect(switched.append)

            window.open_url(demo.base_url + "/login")
            await until(lambda: "/login" in page.url, what="the sign-in page")
            await page.get_by_test_id("email-input").wait_for()
            window.workspaces.switch("Pilot")
            started = NextSignal(service.sessionStarted)
            panel.goal.setText("Sign in")
            panel.start_button.click()
            folder = Path(await started.wait(30, what="the session to start"))
            await until(lambda: "WAITING_FOR_AI" in panel.status.text(), what="the waiting status")

            # take over and sign in by hand in the live view
            panel.take_over.click()
            await until(lambda: "TAKEN_OVER" in panel.status.text(), what="the taken-over status")
            assert not race.recording and not record.isChecked() and switched == []
            await click_on(view, page.get_by_test_id("email-input"))
            QTest.keyClicks(view, user["email"])
            await click_on(view, page.get_by_test_id("password-input"))
            QTest.keyClicks(view, user["password"])
            QTest.keyClick(view, Qt.Key.Key_Return)
            await until(lambda: page.url.endswith("/dashboard"), timeout=30, what="the tester's sign-in")
            shoot(window, "pilot_taken_over")
            panel.take_over.click()  # hand back
            await until(lambda: len(rows_by_tester(panel)) == 3, timeout=30, what="the tester's three actions")
            mine = actions_by_tester(folder)
            assert [a["action"] for a in mine] == ["fill", "fill", "press"], mine
            assert user["password"] not in json.dumps(mine)  # an observation keeps no typed value
            assert rows_by_tester(panel) == ["fill", "fill", "press"]
            # the Explore recording: still off, never switched on, its steps as they were
            assert not race.recording and not record.isChecked() and switched == []
            assert [s.model_dump() for s in project.steps(session.id)] == earlier

            # with the Explore recording on, a takeover leaves it on, and its clicks still go to the pilot alone
            record.trigger()
            assert race.recording and switched == [True]
            panel.take_over.click()
            await until(lambda: "TAKEN_OVER" in panel.status.text(), what="the second takeover")
            await click_on(view, page.get_by_test_id("cart-link"))
            await until(lambda: page.url.endswith("/cart"), timeout=30, what="the tester's click on the cart")
            panel.take_over.click()
            await until(lambda: len(rows_by_tester(panel)) == 4, timeout=30, what="the tester's click as an action")
            assert actions_by_tester(folder)[-1]["action"] == "click"
            assert race.recording and record.isChecked() and switched == [True]
            assert [s.model_dump() for s in project.steps(session.id)] == earlier
            shoot(window, "pilot_handed_back")

            ending = NextSignal(service.finished)
            panel.stop_button.click()
            await ending.wait(30, what="the session to end")
            assert race.recording and switched == [True]  # the tester's recording is theirs to stop
            record.trigger()
            assert [s.model_dump() for s in project.steps(session.id)] == earlier
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
