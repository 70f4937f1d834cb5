"""The Steps dock's Assert tools (as in Playwright codegen): while recording, the tester picks an element and asserts
its text, its checked state or how many like it there are; each becomes an expect step, and the exported test checks
it — passing on the healthy to-do list, failing when its counter is wrong. Real Chromium, offscreen window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.apps.list_app import ListApp
from tests.gui.support import click_on, open_race_studio, until

pytestmark = [pytest.mark.gui, pytest.mark.browser, pytest.mark.usefixtures("exports_on_the_worker_server")]
SHOTS = Path("/tmp/shots")


async def pick(services, locator) -> None:
    """What Inspector › Pick does with a click on the live view: inspect the element at that point."""
    box = await locator.bounding_box()
    services.race.pick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def run_exported(folder: Path, base_url: str, browser_path: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": browser_path}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run([sys.executable, "-m", "pytest", str(folder), "-q", "-p", "no:cacheprovider",
                           "-p", "no:pytest-qt", "-p", "no:asyncio", "-p", "no:anyio", "--base-url", base_url],
                          cwd=folder, capture_output=True, text=True, env=env, timeout=180)


def test_asserting_on_picked_elements_records_expect_steps_that_the_export_checks(qloop, browser_info, tmp_path):
    out = tmp_path / "errands"

    async def scenario(app: ListApp) -> None:
        services, window, session = await open_race_studio(app.base_url + "/", tmp_path)
        page, view, steps = session.page, window.live_view, window.race_front.steps
        project = services.project.project
        try:
            assert not any(button.isEnabled() for button in steps.assert_buttons.values())  # not recording yet
            steps.record_action.trigger()
            window.docks["steps"].raise_()
            for number, title in enumerate(("Buy milk", "Walk the dog"), start=1):
                await click_on(view, page.locator(".new-todo"))
                QTest.keyClicks(view, title)
                QTest.keyClick(view, Qt.Key.Key_Return)  # Enter: a key press step, never part of the fill
                await until(lambda n=number: len(project.steps(session.id)) == 2 * n, what=f"adding {title}")
            await click_on(view, page.locator(".todo-list li").first.locator(".toggle"))
            await until(lambda: len(project.steps(session.id)) == 5, what="the recorded click")

            await pick(services, page.locator(".todo-count"))
            await until(lambda: steps.target is not None and steps.assert_buttons["text"].isEnabled(),
                        what="the picked counter")
            steps.assert_buttons["text"].click()
            await until(lambda: len(project.steps(session.id)) == 6, what="the text assertion")

            await pick(services, page.locator(".todo-list li").first.locator(".toggle"))
            await until(lambda: steps.target is not None and steps.target.element.role == "checkbox",
                        what="the picked checkbox")
            steps.assert_buttons["checked"].click()
            steps.assert_buttons["count"].click()
            await until(lambda: len(project.steps(session.id)) == 8, what="the checked and count assertions")

            fill, enter, *_, click, text, checked, count = project.steps(session.id)
            assert (fill.action, fill.value, enter.action, enter.key) == ("fill", "Buy milk", "press", "Enter")
            assert (click.action, text.action, checked.action, count.action) == (
                "click", "expect_text", "expect_checked", "expect_count")
            assert text.value == "1 item left" and text.locator.python() == 'page.locator("span.todo-count")'
            assert checked.value == "true" and checked.locator.python() == click.locator.python()
            assert count.value == "2" and count.locator.python() == 'page.get_by_role("listitem").get_by_role("checkbox")'
            await until(lambda: steps.table.topLevelItemCount() == 8, what="the Steps rows")
            assert [steps.table.topLevelItem(7).text(c) for c in (1, 3)] == ["expect_count", "2"]

            SHOTS.mkdir(parents=True, exist_ok=True)
            steps.repaint()
            assert steps.grab().save(str(SHOTS / "steps_dock_asserts.png"))

            dialog = steps.export_dialog()
            code = dialog.preview.toPlainText()
            assert 'expect(page.locator("span.todo-count")).to_contain_text("1 item left")' in code
            assert "expect(checkbox).to_be_checked()" in code
            assert 'expect(page.get_by_role("listitem").get_by_role("checkbox")).to_have_count(2)' in code
            dialog.folder.setText(str(out))
            assert dialog.export() is not None
        finally:
            window.close()
            await services.shutdown()

    with ListApp() as app:
        qloop.run_until_complete(scenario(app))
    with ListApp() as healthy, ListApp(faults={"counter_wrong"}) as broken:
        passed = run_exported(out, healthy.base_url, browser_info.path)
        assert passed.returncode == 0, passed.stdout[-3000:]
        failed = run_exported(out, broken.base_url, browser_info.path)
        assert failed.returncode == 1 and "1 item left" in failed.stdout
