"""The race docks against a real Chromium and the demo app: Observations (facts and highlights), the inspector's
pick mode, and the Steps dock's delete and undo on a real project file."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from studio.app.race_entries import RaceEntry
from studio.app.studio_app import StudioServices
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.race import AnimationObservation
from studio.models.recording import RecordedStep
from studio.settings import StudioSettings
from studio.ui.code_view import CodeView
from studio.ui.main_window import StudioWindow
from studio.ui.observations_dock import fact_sentence, highlight_requests
from studio.ui.synthetic_input import mouse_click, mouse_move
from tests.gui.support import center_of, equals, open_race_studio, until, widget_point
from tests.race.conftest import ref_after

pytestmark = [pytest.mark.gui]
SCOPED = ('page.get_by_test_id("product-card").filter(has_text="{name}")'
          '.get_by_role("button", name="Add to Cart", exact=True)')


async def hydrated(page) -> None:
    await page.locator('[data-testid="product-grid"][data-state="ready"]').wait_for()


@pytest.mark.browser
def test_a_preflight_click_on_a_covered_button_reports_the_scrim_and_draws_it(qloop, demo, tmp_path):
    demo.configure(shuffle_products=False)

    async def scenario():
        services, window, session = await open_race_studio(demo.base_url + "/help", tmp_path)
        view, race, panel = window.live_view, services.race, window.race_front.observations
        try:
            # The product list never arrives while the test runs, so hydration never replaces the button or removes
            # the scrim: both are there when the highlights look them up and the locator is made, however slow.
            held: list = []
            await session.page.route("**/api/products*", lambda route: held.append(route))
            await session.page.goto(demo.base_url + "/products")
            ref = ref_after((await race.race.snapshot()).text, '"iPhone 15 Pro"', '"Add to Cart"')
            race.act("click", ref)
            await until(lambda: panel.entries.topLevelItemCount() == 1, what="the entry")
            entry = panel.current
            assert (entry.action, entry.ref, entry.acted) == ("click", ref, False)
            assert panel.entries.topLevelItem(0).text(3).startswith("not acted")
            assert window.docks["observations"].isVisible()  # brought to the front of the bottom tabs
            sentences = [panel.facts.item(row).text() for row in range(panel.facts.count())]
            cover = next(text for text in sentences if text.startswith("Covered:"))
            assert re.fullmatch(r"Covered: div \[data-testid=loading-scrim\] \(z-index 9999, opacity 0\.8\) "
                                r"is at the click point \(\d+, \d+\)", cover), cover
            reply = json.loads(panel.json_view.toPlainText())
            assert reply["clicked"] is False
            coverage = next(o for o in reply["observations"] if o["type"] == "coverage")
            assert coverage["elementAtPoint"]["testId"] == "loading-scrim" and not coverage["isTargetOrDescendant"]
            panel.copy_json()
            assert json.loads(QGuiApplication.clipboard().text()) == reply

            # Drawn over the view: the button, the scrim and the click point, in page coordinates.
            await until(lambda: len(view.highlights) == 3, what="the highlights")
            labels = [item.label for item in view.highlights]
            assert f"target {ref}" in labels and "at the click point: div [data-testid=loading-scrim]" in labels
            point = next(item.rect for item in view.highlights if item.rect.width == 0)
            assert (point.x, point.y) == (coverage["elementCenter"]["x"], coverage["elementCenter"]["y"])
            marker = widget_point(view, point.x, point.y)
            view.repaint()
            pixel = view.grab().toImage().pixelColor(marker.x() + 6, marker.y())  # on the crosshair's arm
            assert pixel.red() > 170 and pixel.green() < 110 and pixel.blue() < 110, pixel.name()
            assert await session.page.get_by_test_id("cart-count").inner_text() == "0"  # facts, not a click

            await until(lambda: not entry.locating, what="the locator")
            assert panel.entries.topLevelItem(0).text(4) == SCOPED.format(name="iPhone 15 Pro")
            assert panel.locator.text() == SCOPED.format(name="iPhone 15 Pro")  # the selected entry's, in full
            view.set_highlights(view.highlights, hold_ms=50)  # they clear by themselves
            await until(lambda: not view.highlights, what="the highlights to clear")

            race.act("click", "e99999")  # an engine error is a sentence in the message bar, not a traceback
            await until(lambda: window.message_bar.isVisible(), what="the error")
            # The window has no snapshot to take: the next step is the tester's.
            assert window.message_bar.label.text() == ("There is no element 'e99999'. Pick the element in the page "
                                                       "(Ctrl+Shift+C), then try again.")
            for route in held:
                await route.abort()
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


@pytest.mark.browser
def test_pick_mode_picks_the_element_without_clicking_it(qloop, demo, tmp_path):
    demo.configure(hydration_ms=(200, 200))

    async def scenario():
        services, window, session = await open_race_studio(demo.base_url + "/products", tmp_path)
        view, race, inspector = window.live_view, services.race, window.race_front.inspector
        page = session.page
        posts: list[str] = []
        page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
        try:
            await hydrated(page)
            inspector.pick_action.trigger()
            assert race.picking and view.cursor().shape() == Qt.CursorShape.CrossCursor
            button = page.get_by_test_id("product-card").filter(has_text="Pixel 8 Pro").get_by_role("button")
            await button.scroll_into_view_if_needed()
            point = await center_of(view, button)
            mouse_move(view, point)
            await until(lambda: view.highlights and view.highlights[0].label.endswith('button "Add to Cart"'),
                        what="the hover highlight")
            mouse_click(view, point)
            await until(lambda: inspector.inspection is not None, what="the inspection")
            assert not race.picking and not inspector.pick_action.isChecked()  # one pick, then back to the page

            assert inspector.python_locator.toPlainText() == SCOPED.format(name="Pixel 8 Pro")
            assert inspector.typescript_locator.toPlainText() == (
                'page.getByTestId("product-card").filter({ hasText: "Pixel 8 Pro" })'
                '.getByRole("button", { name: "Add to Cart", exact: true })')
            fields = {key: label.text() for key, label in inspector.fields.items()}
            assert fields["role"] == "button" and fields["name"] == "Add to Cart" and fields["testId"] == "add-to-cart"
            assert "article [data-testid=product-card]" in inspector.ancestors.item(0).text()
            assert inspector.lists.tabText(2) == f"Siblings ({inspector.siblings.count()})"
            assert any(inspector.facts.item(row).text() == "Attached to the page" for row in range(inspector.facts.count()))
            await asyncio.sleep(0.5)
            assert await page.get_by_test_id("cart-count").inner_text() == "0" and posts == []

            inspector.pick_action.trigger()
            QTest.keyClick(view, Qt.Key.Key_Escape)
            assert not race.picking

            inspector.click_button.click()  # Click with preflight: nothing stands in the way now
            await until(lambda: window.race_front.observations.entries.topLevelItemCount() == 1, what="the click entry")
            assert window.race_front.observations.current.acted is True
            await until(lambda: equals(page.get_by_test_id("cart-count").inner_text(), "1"), what="the cart")
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def _step(session_id: str, index: int, **fields) -> RecordedStep:
    return RecordedStep(session_id=session_id, index=index, at=1000.0 + index, origin="tester",
                        url="http://app/login", **fields)


def test_steps_dock_lists_deletes_the_last_step_and_undoes(qapp, qloop, tmp_path):
    services = StudioServices(StudioSettings())
    window = StudioWindow(services.browser, services.project, services.settings, services.race)
    try:
        assert services.project.new_project(tmp_path / "steps.studio")
        project, race, steps = services.project.project, services.race, window.race_front.steps
        race.session_id = "s1"
        email = LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value="Email")])
        project.add_step(_step("s1", 0, action="navigate"))
        project.add_step(_step("s1", 1, action="fill", locator=email, value="ada@example.test"))
        project.add_step(_step("s1", 2, action="fill", locator=email, secret_env="STUDIO_PASSWORD"))
        steps.refresh()
        rows = [[steps.table.topLevelItem(r).text(c) for c in range(4)] for r in range(steps.table.topLevelItemCount())]
        assert rows == [["0", "navigate", "", "http://app/login"],
                        ["1", "fill", 'page.get_by_label("Email")', "ada@example.test"],
                        ["2", "fill", 'page.get_by_label("Email")', "$STUDIO_PASSWORD"]]
        assert not steps.undo_action.isEnabled()

        steps.delete_button.click()
        assert [s.index for s in project.steps("s1")] == [0, 1] and steps.table.topLevelItemCount() == 2
        steps.delete_button.click()
        assert [s.index for s in project.steps("s1")] == [0]
        steps.undo_action.trigger()
        steps.undo_action.trigger()
        assert [(s.index, s.secret_env) for s in project.steps("s1")] == [(0, None), (1, None), (2, "STUDIO_PASSWORD")]
        assert not steps.undo_action.isEnabled() and steps.table.topLevelItemCount() == 3
    finally:
        window.close()
        qloop.run_until_complete(services.shutdown())


def test_an_ancestors_animation_is_told_and_drawn_as_the_ancestors():
    style = {"transition": "opacity 0.3s", "transitionProperty": "opacity", "transitionDuration": "0.3s",
             "animation": "none", "animationName": "none", "animationDuration": "0s"}
    fade = AnimationObservation(ref="e42", observedAt=1.0, computedStyle=style,
                                animatedElement={"ref": "e35", "tag": "article", "testId": "product-card"},
                                animations=[{"playState": "running", "currentTime": 120.0}])
    assert fact_sentence(fade) == ("Animating: its ancestor article [data-testid=product-card] e35 runs "
                                   "a transition of opacity (running, 120 ms in)")
    own = fade.model_copy(update={"animatedElement": fade.animatedElement.model_copy(update={"ref": "e42"})})
    assert fact_sentence(own) == "Animating: e42 runs a transition of opacity (running, 120 ms in)"
    refs, _points = highlight_requests(RaceEntry(at=0.0, action="click", ref="e42", observations=[fade]))
    assert [(ref, label) for ref, _color, label in refs] == [
        ("e42", "target e42"), ("e35", "animating: article [data-testid=product-card]")]


def test_code_view_highlights_keywords_strings_and_comments(qapp):
    view = CodeView()
    view.show_code('import re\n# a comment\nx = "text"  # trailing\n"""doc\nstill doc\n"""\n', "python")

    def colour_at(line: int, column: int) -> str:
        block = view.document().findBlockByNumber(line)
        for rng in block.layout().formats():
            if rng.start <= column < rng.start + rng.length:
                return rng.format.foreground().color().name()
        return ""

    assert colour_at(0, 0) == "#7c3aed"  # import
    assert colour_at(1, 3) == "#6b7280"  # comment
    assert colour_at(2, 5) == "#15803d" and colour_at(2, 14) == "#6b7280"
    assert colour_at(4, 2) == "#15803d"  # inside a docstring
    view.show_code('const a = "x"; // note\n/* block\nstill */ await a;\n', "typescript")
    assert colour_at(0, 0) == "#7c3aed" and colour_at(0, 10) == "#15803d" and colour_at(0, 16) == "#6b7280"
    assert colour_at(1, 3) == "#6b7280" and colour_at(2, 9) == "#7c3aed"
