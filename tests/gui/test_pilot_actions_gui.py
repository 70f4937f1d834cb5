"""The Pilot dock at 1366×768 as a tester reads a session: a failed action says why on its own row, in the Outcome
column that is on screen (no column scrolled out of view) and in full under the table, a long selector is elided in the middle with its full text
as the tooltip; and no empty box waits under the status — the warnings appear under their count once there is one.
Real Chromium, the embedded demo, a real project file; the test writes the AI's action files."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QStyleOptionViewItem

from studio.ui.pilot_actions import OUTCOME, SELECTOR
from tests.gui.support import NextSignal, close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]

LONG_SELECTOR = ("main section[aria-label='Frequently asked questions'] div.faq-item:nth-of-type(7) "
                 "button[data-testid='faq-toggle-that-does-not-exist']")


def write_action(folder: Path, content: dict | str) -> None:
    temp = folder / ".action.json.tmp"
    temp.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    os.replace(temp, folder / "action.json")


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.timeout(300)
def test_a_failed_action_says_why_on_its_row_and_no_empty_box_waits_under_the_status(qloop, demo, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path, "actions.studio")
        window.resize(1366, 768)
        service, panel = services.pilot, window.pilot.panel
        table = panel.action_list
        try:
            window.workspaces.switch("Pilot")
            window.open_url(demo.base_url + "/help")
            await until(lambda: window.live_view.frames_painted > 0, timeout=30, what="the help page")
            await until(lambda: "/help" in services.browser.session.page.url, what="the live page's address")
            # before and during a session without warnings: no unlabelled box under the status line
            assert not panel.warnings.isVisible() and not panel.warnings_label.isVisible()
            started = NextSignal(service.sessionStarted)
            panel.goal.setText("Open the FAQ")
            panel.start_button.click()
            folder = Path(await started.wait(30, what="the session to start"))
            await until(lambda: "WAITING_FOR_AI" in panel.status.text(), what="the waiting status")
            assert not panel.warnings.isVisible() and not panel.warnings_label.isVisible()
            # the actions table starts right under the status line
            status_bottom = panel.status.geometry().bottom()
            assert table.mapTo(panel, table.rect().topLeft()).y() - status_bottom < 20

            write_action(folder, {"reasoning": "search, then open an answer", "stopOnError": True, "actions": [
                {"action": "type", "selector": "input[type='search']", "value": "dispute"},
                {"action": "click", "selector": LONG_SELECTOR}]})
            await until(lambda: table.topLevelItemCount() == 2, timeout=60, what="the batch's two outcomes")
            await until(lambda: "WAITING_FOR_AI" in panel.status.text(), timeout=30, what="the next observation")
            lastBatch = json.loads((folder / "observation.json").read_text(encoding="utf-8"))["lastBatch"]
            error = lastBatch["outcomes"][1]["error"]
            assert error, lastBatch
            done, failed = table.topLevelItem(0), table.topLevelItem(1)
            assert done.text(OUTCOME) == "✓ done"
            # the outcome and its reason in one column, on screen
            assert failed.text(OUTCOME) == f"✗ failed: {error}"
            assert flat(error) in flat(failed.toolTip(OUTCOME))
            assert table.columnCount() == OUTCOME + 1
            header = table.header()
            assert header.sectionPosition(OUTCOME) + 120 <= table.viewport().width()
            assert header.length() <= table.viewport().width()  # nothing scrolled out of view
            # the selector: elided in the middle, its full text the tooltip
            assert failed.text(SELECTOR) == LONG_SELECTOR
            assert flat(LONG_SELECTOR) in flat(failed.toolTip(SELECTOR))
            option = QStyleOptionViewItem()
            index = table.model().index(1, SELECTOR)
            table.itemDelegateForColumn(SELECTOR).initStyleOption(option, index)
            assert option.textElideMode == Qt.TextElideMode.ElideMiddle
            assert header.sectionSize(SELECTOR) >= 140
            assert not panel.warnings.isVisible()
            # the full reason, wrapped under the table: the latest failure's, or the selected row's
            assert panel.reason.isVisible() and "#2 ✗ failed" in panel.reason.text()
            assert flat(html.escape(error)) in flat(panel.reason.text())
            shoot(window, "pilot_failed_action")
            table.setCurrentItem(done)
            assert not panel.reason.isVisible()
            table.setCurrentItem(failed)
            assert panel.reason.isVisible()

            # a malformed file: the warnings appear, under their count
            write_action(folder, "{\"action\": \"clik\", \"selector\": \"a\"}")
            await until(lambda: panel.warnings.count() >= 1, timeout=30, what="the file's error")
            assert panel.warnings.isVisible() and panel.warnings_label.isVisible()
            label = panel.warnings_label.text()
            assert re.fullmatch(r"<b>(\d+ warnings? and )?\d+ action file errors?</b>", label, re.IGNORECASE), label
            assert "1 action file error" in label.lower()
            assert panel.warnings.height() < 60  # one row, not a tall empty box
            # the reason line and the warnings fit: the dock does not scroll at 1366×768
            area = panel.parentWidget()
            while not isinstance(area, QScrollArea):
                area = area.parentWidget()
            await until(lambda: not area.verticalScrollBar().isVisible() or None, timeout=2, what="no dock scroll")
            shoot(window, "pilot_warnings")

            ending = NextSignal(service.finished)
            panel.stop_button.click()
            await ending.wait(30, what="the session to end")
            assert "1 action executed" in panel.status.text() or "2 actions executed" in panel.status.text()
            assert "(s)" not in panel.status.text()
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
