"""The inspector and the Assert tools follow an element the page replaced (issue 22, points 1–3), in the full window at
1366×768 against a real Chromium and the demo's products page, whose Add to Cart re-renders its product card.

A tester picks the iPhone 15 Pro's Add to Cart, clicks it (the card is replaced), and asserts on it: the assertion is
recorded on the replacement, found by the locator the inspector shows, and the inspector shows the new ref, as the
acknowledged click does. An Assert text records the locator the Assert bar shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from studio.ui.synthetic_input import mouse_click, mouse_move
from tests.gui.support import center_of, close_studio, equals, open_studio, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]
SHOTS = Path("/tmp/shots")
IPHONE = "iPhone 15 Pro"


def shot(window, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.repaint()
    assert window.grab().save(str(SHOTS / f"{name}.png")), name


async def start(services, window, url: str):
    session = await services.browser.start(services.runtime.session_options(viewport=(1280, 720)), url)
    assert session is not None
    await until(lambda: window.live_view.frames_painted > 0, what="a painted frame")
    await session.page.locator('[data-testid="product-grid"][data-state="ready"]').wait_for()
    return session


async def pick_with_the_mouse(window, locator) -> None:
    """Ctrl+Shift+C's pick: pick mode on, the pointer over the element, a click."""
    view, inspector = window.live_view, window.race_front.inspector
    await locator.scroll_into_view_if_needed()
    point = await center_of(view, locator)
    window.race_front.service.set_pick_mode(True)
    mouse_move(view, point)
    await until(lambda: bool(view.highlights), what="the hover highlight")
    before = inspector.inspection
    mouse_click(view, point)
    await until(lambda: inspector.inspection is not None and inspector.inspection is not before, what="the pick")


def test_after_a_re_render_the_inspector_and_asserts_follow_the_replacement(qloop, demo, tmp_path):
    demo.configure(hydration_ms=(0, 0), shuffle_products=False)

    async def scenario():
        services, window = open_studio(tmp_path)
        window.resize(1366, 768)
        inspector, steps = window.race_front.inspector, window.race_front.steps
        try:
            session = await start(services, window, demo.base_url + "/products")
            page, project = session.page, services.project.project
            card = page.get_by_test_id("product-card").filter(has_text=IPHONE)
            steps.record_action.trigger()
            await pick_with_the_mouse(window, card.get_by_role("button"))
            picked = inspector.inspection.element.ref
            shown = inspector.python_locator.toPlainText()
            assert f'filter(has_text="{IPHONE}")' in shown and steps.target_label.text() == f"on {shown}"

            # The tester clicks it in the page: the shop re-renders the card, and the picked button with it.
            mouse_click(window.live_view, await center_of(window.live_view, card.get_by_role("button")))
            await until(lambda: equals(page.get_by_test_id("cart-count").inner_text(), "1"), what="the cart")
            await card.get_by_test_id("in-cart").wait_for()
            await until(lambda: any(s.action == "click" for s in project.steps(session.id)), what="the click step")
            errors: list[str] = []
            services.race.errorOccurred.connect(errors.append)

            # Point 1: Assert visible on the replaced button is recorded on its replacement, by the shown locator.
            steps.assert_buttons["visible"].click()
            await until(lambda: any(s.action == "expect_visible" for s in project.steps(session.id)) or errors,
                        what="the visible assertion")
            assert errors == []
            visible = [s for s in project.steps(session.id) if s.action == "expect_visible"][-1]
            assert visible.locator.python() == shown
            # Point 2: the inspector and the Assert bar show the new ref, and say where it came from.
            now = inspector.inspection.element.ref
            assert now != picked and inspector.fields["ref"].text() == now
            assert f"{picked} is {now} now" in inspector.hint.text()
            assert steps.target.element.ref == now

            # Point 3: the in-cart line, picked and asserted, is recorded with the locator the Assert bar shows.
            await pick_with_the_mouse(window, card.get_by_test_id("in-cart"))
            shown = inspector.python_locator.toPlainText()
            assert 'get_by_test_id("product-card")' in shown and steps.target_label.text() == f"on {shown}"
            steps.assert_buttons["text"].click()
            await until(lambda: any(s.action == "expect_text" for s in project.steps(session.id)) or errors,
                        what="the text assertion")
            assert errors == []
            text = [s for s in project.steps(session.id) if s.action == "expect_text"][-1]
            assert (text.locator.python(), text.value) == (shown, "In cart: 1")
            window.docks["inspector"].raise_()
            shot(window, "inspector_follows_replacement")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())


def test_a_click_with_preflight_that_re_renders_the_element_shows_its_replacement(qloop, demo, tmp_path):
    demo.configure(hydration_ms=(0, 0), shuffle_products=False)

    async def scenario():
        services, window = open_studio(tmp_path)
        window.resize(1366, 768)
        inspector = window.race_front.inspector
        try:
            session = await start(services, window, demo.base_url + "/products")
            page = session.page
            card = page.get_by_test_id("product-card").filter(has_text=IPHONE)
            await pick_with_the_mouse(window, card.get_by_role("button"))
            first = inspector.inspection.element.ref

            inspector.click_button.click()  # the card re-renders once the cart answers
            await until(lambda: equals(page.get_by_test_id("cart-count").inner_text(), "1"), what="the first add")
            await until(lambda: inspector.inspection.element.ref != first, what="the replacement after the click")
            second = inspector.inspection.element.ref
            assert inspector.fields["ref"].text() == second and f"{first} is {second} now" in inspector.hint.text()

            inspector.click_button.click()  # on the replacement, as the inspector shows it
            await until(lambda: equals(page.get_by_test_id("cart-count").inner_text(), "2"), what="the second add")
            await until(lambda: inspector.inspection.element.ref not in (first, second), what="the next replacement")
            assert inspector.fields["ref"].text() == inspector.inspection.element.ref
            assert inspector.inspection.element.name == "Add to Cart"
            assert window.live_view.cursor().shape() != Qt.CursorShape.CrossCursor
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
