"""The inspector's facts at 1366×768 (issue 22, point 5): the fact that blocks a click comes first, marked "⛔", bold
and red, and the facts are on screen without scrolling the dock. The demo's Add to Cart under its loading scrim, picked
with Alt+click, in the full window against a real Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt

from studio.ui.inspector_facts import BLOCKS_MARK
from studio.ui.observations_dock import BLOCKER
from studio.ui.synthetic_input import mouse_click, mouse_move
from tests.gui.support import center_of, close_studio, open_studio, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]
SHOTS = Path("/tmp/shots")
ALT = Qt.KeyboardModifier.AltModifier


def on_screen(widget, rect: QRect, window) -> bool:
    """Whether `rect` (in `widget`'s coordinates) is inside what the window shows of the widget's dock."""
    top_left = widget.mapTo(window, rect.topLeft())
    shown = QRect(top_left, rect.size())
    dock = window.docks["inspector"]
    area = QRect(dock.mapTo(window, dock.rect().topLeft()), dock.size())
    return area.contains(shown) and window.rect().contains(shown) and widget.visibleRegion().contains(rect)


def test_the_blocking_fact_comes_first_in_red_and_the_facts_show_without_scrolling(qloop, demo, tmp_path):
    demo.configure(hydration_ms=(30_000, 30_000), shuffle_products=False)  # the scrim stays up

    async def scenario():
        services, window = open_studio(tmp_path)
        window.resize(1366, 768)
        view, inspector = window.live_view, window.race_front.inspector
        try:
            session = await services.browser.start(services.runtime.session_options(viewport=(1280, 720)),
                                                   demo.base_url + "/products")
            assert session is not None
            await until(lambda: view.frames_painted > 0, what="a painted frame")
            page = session.page
            button = page.get_by_test_id("product-card").filter(has_text="iPhone 15 Pro").get_by_role("button")
            await button.scroll_into_view_if_needed()
            point = await center_of(view, button)
            inspector.pick_action.trigger()
            mouse_move(view, point)
            await until(lambda: view.highlights and "Loading products" in view.highlights[0].label, what="the scrim")
            mouse_click(view, point, modifiers=ALT)  # beneath the scrim: the button
            await until(lambda: inspector.inspection is not None, what="the pick")
            assert inspector.inspection.element.testId == "add-to-cart"
            window.docks["inspector"].raise_()

            first = inspector.facts.item(0)
            assert first.text().startswith(BLOCKS_MARK + "Covered: ") and "loading-scrim" in first.text()
            assert first.font().bold() and first.foreground().color() == BLOCKER
            later = [inspector.facts.item(row).text() for row in range(1, inspector.facts.count())]
            assert "Attached to the page" in later  # what does not block follows, unmarked
            assert not any(text.startswith(BLOCKS_MARK + "Attached") for text in later)
            assert inspector.lists.tabText(0).startswith(BLOCKS_MARK + "Facts (")
            assert inspector.lists.currentWidget() is inspector.facts

            window.repaint()
            rows = [inspector.facts.visualItemRect(inspector.facts.item(row)) for row in range(inspector.facts.count())]
            assert all(on_screen(inspector.facts.viewport(), rect, window) for rect in rows), rows
            # The locator is below them: in the Explore column's upper half at 1366×768 it is a scroll away (the
            # lower half gives Steps and Events a screenful of rows).
            assert "get_by" in inspector.python_locator.toPlainText()
            inspector.pick_action.trigger()  # leave pick mode before the picture
            SHOTS.mkdir(parents=True, exist_ok=True)
            window.repaint()
            assert window.grab().save(str(SHOTS / "inspector_facts_blocking_first.png"))
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
