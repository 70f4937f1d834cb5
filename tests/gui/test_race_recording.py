"""Recording what the tester does in the live view, against a real Chromium and the demo app: clicks become
steps with locators, requests and outcomes; typing becomes fill steps without secrets; the Export dialog
previews and writes the test."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from playwright.async_api import expect
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.store.inspection import sidecar
from studio.ui.observations_dock import ENTRY_ROLE
from tests.gui.support import click_on, open_race_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]


def test_recording_a_click_on_add_to_cart_writes_a_step_and_exports_it(qloop, demo, tmp_path):
    demo.configure(hydration_ms=(200, 200))

    async def scenario():
        services, window, session = await open_race_studio(demo.base_url + "/products", tmp_path)
        page, view, steps = session.page, window.live_view, window.race_front.steps
        project = services.project.project
        try:
            await page.locator('[data-testid="product-grid"][data-state="ready"]').wait_for()
            steps.record_action.trigger()
            assert services.race.recording and steps.record_action.text() == "● Stop Recording"
            assert window.docks["steps"].isVisible()
            await click_on(view, page.get_by_test_id("product-card").filter(has_text="iPhone 15 Pro")
                           .get_by_role("button"))
            await until(lambda: project.steps(session.id), what="the recorded step")
            (step,) = project.steps(session.id)
            assert (step.index, step.origin, step.action) == (0, "tester", "click")
            assert step.locator.python() == ('page.get_by_test_id("product-card").filter(has_text="iPhone 15 Pro")'
                                             '.get_by_role("button", name="Add to Cart", exact=True)')
            requests = [(r.method, urlsplit(r.url).path, r.status) for r in step.requests]
            assert ("POST", "/api/cart/add", 200) in requests
            assert step.outcome.status_texts == ["iPhone 15 Pro added to cart"]
            assert await page.get_by_test_id("cart-count").inner_text() == "1"  # the click reached the page once
            await until(lambda: steps.table.topLevelItemCount() == 1, what="the Steps row")
            row = [steps.table.topLevelItem(0).text(column) for column in range(7)]
            assert row[:3] == ["0", "click", step.locator.python()]
            # The toast, then what the export will check besides: the cart badge's new count.
            assert "POST /api/cart/add 200" in row[5] and row[6].startswith("iPhone 15 Pro added to cart")
            assert "“1”" in row[6]

            steps.record_action.trigger()
            assert not services.race.recording
            dialog = steps.export_dialog()
            code = dialog.preview.toPlainText()
            assert "def test_" in code and 'get_by_test_id("product-card")' in code and "/api/cart/add" in code
            dialog.language.setCurrentIndex(1)
            assert "getByTestId('product-card')" in dialog.preview.toPlainText() or \
                'getByTestId("product-card")' in dialog.preview.toPlainText()
            dialog.folder.setText(str(tmp_path / "add-to-cart"))
            result = dialog.export()
            assert result is not None and result.test_file.exists() and result.language == "typescript"
            assert result.test_file.read_text(encoding="utf-8") == dialog.preview.toPlainText()
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())


def test_typing_into_the_login_form_records_fills_without_the_password(qloop, demo, tmp_path):
    user = demo.create_user()

    async def scenario():
        services, window, session = await open_race_studio(demo.base_url + "/help", tmp_path)
        page, view = session.page, window.live_view
        project = services.project.project
        path = project.path
        try:
            window.race_front.steps.record_action.trigger()
            await click_on(view, page.get_by_test_id("help-search"))
            QTest.keyClicks(view, "dispute")
            url_edit = window.url_bar.url_edit
            url_edit.setText(demo.base_url.removeprefix("http://") + "/login")
            QTest.keyClick(url_edit, Qt.Key.Key_Return)  # typed in the URL bar while recording: a step
            await until(lambda: len(project.steps(session.id)) == 2, what="the search and navigate steps")
            search, navigate = project.steps(session.id)
            assert (search.action, search.value) == ("fill", "dispute"), search.locator.python()
            await page.get_by_test_id("email-input").wait_for()

            await click_on(view, page.get_by_test_id("email-input"))
            QTest.keyClicks(view, user["email"])
            await click_on(view, page.get_by_test_id("password-input"))
            QTest.keyClicks(view, user["password"])
            QTest.keyClick(view, Qt.Key.Key_Return)
            await until(lambda: page.url.endswith("/dashboard"), what="the sign-in")
            await until(lambda: len(project.steps(session.id)) == 5, what="five steps")

            _, navigate, email, password, enter = project.steps(session.id)
            assert navigate.action == "navigate" and navigate.url.endswith("/login")
            assert (email.action, email.value, email.secret_env) == ("fill", user["email"], None)
            assert email.locator is not None and "get_by_" in email.locator.python()
            assert (password.action, password.value, password.secret_env) == ("fill", None, "STUDIO_PASSWORD")
            assert (enter.action, enter.key) == ("press", "Enter")
            assert enter.locator.python() == password.locator.python()
            assert enter.outcome.url_after.endswith("/dashboard")
            table = window.race_front.steps.table
            await until(lambda: table.topLevelItemCount() == 5, what="the Steps rows")
            assert table.topLevelItem(3).text(3) == "$STUDIO_PASSWORD" and table.topLevelItem(4).text(3) == "Enter"
        finally:
            window.close()
            await services.shutdown()
        stored = path.read_bytes() + (sidecar(path, "-wal").read_bytes() if sidecar(path, "-wal").exists() else b"")
        assert user["email"].encode() in stored  # the steps are in this file …
        assert user["password"].encode() not in stored  # … and the password is not, anywhere

    qloop.run_until_complete(scenario())


def test_the_testers_own_clicks_reach_the_observations_dock_newest_first_with_their_facts(qloop, demo, tmp_path):
    user = demo.create_user()

    async def scenario():
        services, window, session = await open_race_studio(demo.base_url + "/login", tmp_path)
        page, view, panel = session.page, window.live_view, window.race_front.observations
        try:
            # Signed in by the test, not recorded: the clicks below are the tester's.
            await page.get_by_test_id("email-input").fill(user["email"])
            await page.get_by_test_id("password-input").fill(user["password"])
            await page.get_by_test_id("login-button").click()
            await page.wait_for_url("**/dashboard")
            await page.goto(demo.base_url + "/offers/aurora-cash-rewards")
            window.race_front.steps.record_action.trigger()

            apply = page.get_by_test_id("apply-button")
            await click_on(view, apply)  # applies: the page comes back with the button disabled
            await until(lambda: panel.entries.topLevelItemCount() == 1, what="the first click's entry")
            await expect(apply).to_be_disabled()
            await click_on(view, apply)  # an impatient second click on the disabled button
            await until(lambda: panel.entries.topLevelItemCount() == 2, what="the second click's entry")

            newest, first = panel.entries.topLevelItem(0), panel.entries.topLevelItem(1)
            assert [newest.text(1), newest.text(3)] == ["click", "by you · 1 fact before"]
            assert [first.text(1), first.text(3)] == ["click", "by you · 0 facts before"]
            assert newest.text(4) == 'page.get_by_role("button", name="Application received", exact=True)'
            assert first.text(4) == 'page.get_by_role("button", name="Apply now", exact=True)'
            assert panel.current.by_tester and panel.current is newest.data(0, ENTRY_ROLE)
            assert [panel.facts.item(row).text() for row in range(panel.facts.count())] == [
                "Field: button is disabled"]
            assert panel.summary.text().startswith(f"<b>your click on {panel.current.ref}</b> in the live view")
            assert json.loads(panel.json_view.toPlainText())[0]["disabled"] is True
            window.docks["observations"].raise_()
            shoot(window, "observations_tester_clicks")
            steps = services.project.project.steps(session.id)
            assert [step.action for step in steps] == ["click", "click"]  # both were recorded, as they happened
        finally:
            window.close()
            await services.shutdown()

    qloop.run_until_complete(scenario())
