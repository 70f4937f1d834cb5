"""Editing a recording in the Steps dock, in the real window with a real Chromium on the demo app: select several
steps, delete them with the Delete key (only while the list has the focus), move them with Alt+Up / Alt+Down and the
context menu, undo and redo; the project file, a step recorded afterwards and both exports follow the edited order."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel, QPoint, Qt
from PySide6.QtTest import QTest

from studio.cli.main import main
from tests.gui.support import open_studio, shoot, until
from tests.gui.test_race_recording import click_on

pytestmark = [pytest.mark.gui, pytest.mark.browser]

ALT, CTRL, SHIFT = Qt.KeyboardModifier.AltModifier, Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def what(steps) -> list[str]:
    """Each step in a word: its action and what it acted on or typed."""
    names = {"click": "cart", "fill": "dispute"}
    return [names.get(s.action) or s.url.rsplit("/", 1)[-1] for s in steps]


def rows(table) -> list[tuple[str, str]]:
    return [(table.topLevelItem(r).text(0), table.topLevelItem(r).text(1)) for r in range(table.topLevelItemCount())]


def selected_rows(table) -> list[int]:
    return sorted(table.indexOfTopLevelItem(item) for item in table.selectedItems())


def choose(table, *row_numbers: int) -> None:
    """Select these rows as a tester does with Ctrl+click: the first becomes current."""
    table.clearSelection()
    table.setCurrentItem(table.topLevelItem(row_numbers[0]))
    for row in row_numbers[1:]:
        table.selectionModel().select(table.model().index(row, 0),
                                      QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)


def order_in(code: str, *needles: str) -> list[int]:
    spots = [code.find(needle) for needle in needles]
    assert -1 not in spots, (needles, code)
    return spots


# A popup menu grabs the keyboard on a real screen; the offscreen platform the tests run on has none to grab.
@pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")
def test_a_recording_is_a_draft_delete_move_undo_redo_and_export_in_the_edited_order(qloop, demo, tmp_path):
    demo.configure(hydration_ms=(200, 200))
    host = demo.base_url.removeprefix("http://")

    async def scenario():
        services, window = open_studio(tmp_path, "draft.studio")  # the whole window, as `studio gui` builds it
        window.resize(1366, 768)  # the common laptop screen, in the Explore workspace: Steps below the page
        window.activateWindow()
        session = await services.browser.start(services.runtime.session_options(viewport=(1280, 720)),
                                               demo.base_url + "/products")
        assert session is not None
        await until(lambda: window.live_view.frames_painted > 0, what="a painted frame")
        page, view, panel = session.page, window.live_view, window.race_front.steps
        table, project, url_edit = panel.table, services.project.project, window.url_bar.url_edit
        path = project.path
        stored = lambda: what(project.steps(session.id))  # noqa: E731

        async def type_url(text: str) -> None:
            url_edit.setFocus()
            url_edit.setText(text)
            QTest.keyClick(url_edit, Qt.Key.Key_Return)

        try:
            await page.locator('[data-testid="product-grid"][data-state="ready"]').wait_for()
            panel.record_action.trigger()
            await click_on(view, page.get_by_test_id("product-card").filter(has_text="iPhone 15 Pro")
                           .get_by_role("button"))
            await until(lambda: len(project.steps(session.id)) == 1, what="the Add to Cart step")
            await type_url(host + "/help")
            await until(lambda: len(project.steps(session.id)) == 2, what="the navigate step")
            await page.get_by_test_id("help-search").wait_for()
            await click_on(view, page.get_by_test_id("help-search"))
            QTest.keyClicks(view, "dispute")
            await type_url(host + "/login")
            await until(lambda: len(project.steps(session.id)) == 4, what="four steps")
            panel.record_action.trigger()
            await services.race.input_settled()
            recorded = project.steps(session.id)
            assert what(recorded) == ["cart", "help", "dispute", "login"]
            await until(lambda: table.topLevelItemCount() == 4, what="the Steps rows")

            # Delete acts only where the tester looks: not in the URL bar, not in the page.
            choose(table, 1)
            url_edit.setFocus()
            url_edit.setText("typing here")
            url_edit.setCursorPosition(0)
            QTest.keyClick(url_edit, Qt.Key.Key_Delete)
            assert url_edit.text() == "yping here"
            url_edit.setText(page.url)
            view.setFocus()
            QTest.keyClick(view, Qt.Key.Key_Delete)
            await services.race.input_settled()
            assert stored() == ["cart", "help", "dispute", "login"] and selected_rows(table) == [1]

            # In the list: Delete deletes the selected step; the one after it takes its place and its selection.
            table.setFocus()
            assert table.hasFocus()
            QTest.keyClick(table, Qt.Key.Key_Delete)
            assert stored() == ["cart", "dispute", "login"]
            assert rows(table) == [("0", "click"), ("1", "fill"), ("2", "navigate")] and selected_rows(table) == [1]
            assert panel.undo_action.text() == "Undo Delete 1 step" and panel.delete_button.text() == "Delete Step"

            # Two steps selected, Alt+Up: both move above the click, and stay selected.
            choose(table, 1, 2)
            assert panel.delete_button.text() == "Delete 2 Steps"
            QTest.keyClick(table, Qt.Key.Key_Up, ALT)
            assert stored() == ["dispute", "login", "cart"] and selected_rows(table) == [0, 1]
            assert [s.index for s in project.steps(session.id)] == [0, 1, 2]
            QTest.keyClick(table, Qt.Key.Key_Up, ALT)  # already at the top: nothing moves, nothing to undo more
            assert stored() == ["dispute", "login", "cart"]
            assert panel.undo_action.text() == "Undo Move 2 steps up"

            # Ctrl+Z twice puts back exactly what was recorded (facts, requests, outcomes); Ctrl+Shift+Z redoes.
            QTest.keyClick(table, Qt.Key.Key_Z, CTRL)
            assert stored() == ["cart", "dispute", "login"]
            QTest.keyClick(table, Qt.Key.Key_Z, CTRL)
            assert project.steps(session.id) == recorded and selected_rows(table) == [1]
            assert not panel.undo_action.isEnabled()
            QTest.keyClick(table, Qt.Key.Key_Z, CTRL | SHIFT)
            QTest.keyClick(table, Qt.Key.Key_Z, CTRL | SHIFT)
            assert stored() == ["dispute", "login", "cart"] and not panel.redo_action.isEnabled()

            # The context menu: a right click on the click's row selects it; Move Up from the menu.
            table.clearSelection()
            point = table.visualItemRect(table.topLevelItem(2)).center()
            table.customContextMenuRequested.emit(point)
            menu = panel.editing.menu
            await until(menu.isVisible, what="the context menu")
            assert [a.text() for a in menu.actions() if not a.isSeparator()] == [
                "Delete Step", "Move Up", "Move Down", "Undo Move 2 steps up", "Redo"]
            assert selected_rows(table) == [2]
            window.docks["steps"].raise_()  # for the pictures: the tab the tester works in
            shoot(window, "steps_editing_menu_window")
            shoot(menu, "steps_editing_menu")
            next(a for a in menu.actions() if a.text() == "Move Up").trigger()
            menu.close()
            assert stored() == ["dispute", "cart", "login"] and selected_rows(table) == [1]
            QTest.keyClick(table, Qt.Key.Key_Down, ALT)
            QTest.keyClick(table, Qt.Key.Key_Up, ALT)
            assert stored() == ["dispute", "cart", "login"]

            # Recording again appends after the last step, whatever the edits did.
            panel.record_action.trigger()
            await type_url(host + "/products")
            await until(lambda: len(project.steps(session.id)) == 4, what="the new step")
            panel.record_action.trigger()
            assert stored() == ["dispute", "cart", "login", "products"]
            assert [s.index for s in project.steps(session.id)] == [0, 1, 2, 3]
            await until(lambda: table.topLevelItemCount() == 4, what="the new row")
            assert selected_rows(table) == [1]  # the tester's selection outlives a new step
            choose(table, 0, 1)
            table.setFocus()
            shoot(window, "steps_editing_window")

            # The window's export follows the edited order.
            code = panel.export_dialog().preview.toPlainText()
            dispute, cart, login, products = order_in(code, '"dispute"', "product-card", "/login", '/products")')
            assert dispute < cart < login < products
        finally:
            window.close()
            await services.shutdown()

        # And so does `studio export --session`, from the file as it was left.
        out = tmp_path / "exported"
        assert main(["export", "--project", str(path), "--session", session.id, "--lang", "python",
                     "--out", str(out)]) == 0
        (test_file,) = [f for f in out.rglob("test_*.py")]
        code = test_file.read_text(encoding="utf-8")
        dispute, cart, login, products = order_in(code, '"dispute"', "product-card", "/login", '/products")')
        assert dispute < cart < login < products

    qloop.run_until_complete(scenario())
