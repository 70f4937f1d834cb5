"""Pick mode cannot be missed or lost by accident (issue 22, point 4), in the full window at 1366×768 against a real
Chromium and the demo's products page, while recording.

A tester who Alt+clicked (which keeps picking) and pressed Ctrl+Shift+C again turned pick mode off, and the next
click, meant as a pick, reached the page and became a recorded step. Now the shortcut only starts picking; the page
shows a banner and a crosshair while the mode is on, and Esc leaves it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.ui.inspector_dock import PICK_BANNER
from studio.ui.synthetic_input import mouse_click, mouse_move
from tests.gui.support import center_of, close_studio, equals, open_studio, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]
SHOTS = Path("/tmp/shots")
PICK_KEYS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier


def banner_drawn(view) -> bool:
    """Whether the painted view shows the banner's blue strip over the top of the page."""
    rect = view.frame_rect()
    colour = view.grab().toImage().pixelColor(round(rect.x) + 4, round(rect.y) + 4)
    return (colour.red(), colour.green(), colour.blue()) == (32, 79, 214) or (
        colour.blue() > 180 and colour.red() < 60 and 60 < colour.green() < 100)


def test_the_pick_shortcut_never_ends_picking_and_a_click_meant_as_a_pick_is_never_recorded(qloop, demo, tmp_path):
    demo.configure(hydration_ms=(0, 0), shuffle_products=False)

    async def scenario():
        services, window = open_studio(tmp_path)
        window.resize(1366, 768)
        view, race = window.live_view, services.race
        inspector, steps = window.race_front.inspector, window.race_front.steps
        try:
            session = await services.browser.start(services.runtime.session_options(viewport=(1280, 720)),
                                                   demo.base_url + "/products")
            assert session is not None
            page, project = session.page, services.project.project
            await until(lambda: view.frames_painted > 0, what="a painted frame")
            await page.locator('[data-testid="product-grid"][data-state="ready"]').wait_for()
            steps.record_action.trigger()
            iphone = page.get_by_test_id("product-card").filter(has_text="iPhone 15 Pro").get_by_role("button")
            pixel = page.get_by_test_id("product-card").filter(has_text="Pixel 8 Pro").get_by_role("button")
            await iphone.scroll_into_view_if_needed()
            view.setFocus()

            QTest.keyClick(view, Qt.Key.Key_C, PICK_KEYS)
            assert race.picking and inspector.pick_action.isChecked()
            assert view.pick_banner == PICK_BANNER and view.cursor().shape() == Qt.CursorShape.CrossCursor
            await until(lambda: banner_drawn(view), what="the banner over the page")
            point = await center_of(view, iphone)
            mouse_move(view, point)
            await until(lambda: bool(view.highlights), what="the hover highlight")
            window.repaint()
            SHOTS.mkdir(parents=True, exist_ok=True)
            assert window.grab().save(str(SHOTS / "pick_mode_banner.png"))

            mouse_click(view, point, modifiers=ALT)  # Alt+click: picks beneath and keeps picking
            await until(lambda: inspector.inspection is not None, what="the Alt+click pick")
            assert race.picking
            QTest.keyClick(view, Qt.Key.Key_C, PICK_KEYS)  # the tester, unsure, presses the shortcut again
            assert race.picking and view.pick_banner == PICK_BANNER  # still picking: the shortcut never ends it

            before = inspector.inspection
            target = await center_of(view, pixel)
            mouse_move(view, target)
            await asyncio.sleep(0.2)
            mouse_click(view, target)  # meant as a pick: it picks, and leaves pick mode
            await until(lambda: inspector.inspection is not before and inspector.inspection.element.name
                        == "Add to Cart", what="the pick")
            assert not race.picking and view.pick_banner == "" and view.cursor().shape() != Qt.CursorShape.CrossCursor
            await asyncio.sleep(0.6)
            assert [step.action for step in project.steps(session.id)] == []  # no click was recorded
            assert await equals(page.get_by_test_id("cart-count").inner_text(), "0")  # nor reached the page

            QTest.keyClick(view, Qt.Key.Key_C, PICK_KEYS)
            assert race.picking
            QTest.keyClick(view, Qt.Key.Key_Escape)  # Esc leaves
            assert not race.picking and view.pick_banner == ""
            await until(lambda: not banner_drawn(view), what="the banner gone")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
