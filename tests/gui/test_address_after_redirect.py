"""The address field shows where the page is after a redirect, even with the focus still in it (issue 22, point 6),
but never overwrites what the tester types after sending a URL. Full window at 1366×768, real Chromium, the demo app
(whose signed-in pages redirect a visitor to /login?next=…)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.support import close_studio, open_studio, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]
SHOTS = Path("/tmp/shots")


def type_and_enter(field, text: str) -> None:
    """What a tester does: Ctrl+L, type, Enter (the field keeps the focus)."""
    field.setFocus()
    field.selectAll()
    QTest.keyClicks(field, text)
    QTest.keyClick(field, Qt.Key.Key_Return)


def test_the_address_shows_the_redirected_url_but_keeps_what_the_tester_types_next(qloop, demo, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path)
        window.resize(1366, 768)
        field = window.url_bar.url_edit
        try:
            session = await services.browser.start(services.runtime.session_options(), demo.base_url + "/help")
            assert session is not None
            page = session.page
            await until(lambda: field.text() == demo.base_url + "/help", what="the first page's address")

            type_and_enter(field, demo.base_url + "/dashboard")  # not signed in: the demo redirects to sign-in
            await until(lambda: page.url.startswith(demo.base_url + "/login"), what="the redirect", timeout=15)
            assert field.hasFocus()
            await until(lambda: field.text() == page.url, what="the address of the page it landed on")
            assert "next=/dashboard" in field.text()
            window.repaint()
            SHOTS.mkdir(parents=True, exist_ok=True)
            assert window.grab().save(str(SHOTS / "address_after_redirect.png"))

            # Typed after the navigation started: the page it lands on never overwrites it.
            landed: list[str] = []
            services.browser.urlChanged.connect(landed.append)
            QTest.keyClick(field, Qt.Key.Key_Return)  # the same address again, then the tester types on
            field.selectAll()
            QTest.keyClicks(field, "http://127.0.0.1:1/half-typ")
            await until(lambda: landed, what="the page landing")
            assert field.hasFocus() and field.text() == "http://127.0.0.1:1/half-typ"
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
