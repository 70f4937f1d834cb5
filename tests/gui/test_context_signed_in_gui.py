"""Context's auth state after a preflight on a live session the tester had already signed in: it says what the
preflight saw (the page shows 'Sign out', no login form), never "no login seen" as if the app had none."""

from __future__ import annotations

import asyncio

import pytest

from tests.gui.support import close_studio, open_studio, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]


@pytest.mark.timeout(120)
def test_a_preflight_on_a_signed_in_session_says_the_session_was_signed_in(qloop, demo, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path, "signed-in.studio")
        try:
            window.resize(1366, 768)
            session = await services.browser.start(services.runtime.session_options(viewport=(1280, 720)),
                                                   demo.base_url + "/login")
            assert session is not None
            page = session.page
            await page.get_by_label("Email").fill("demo@example.com")
            await page.get_by_label("Password").fill("Password123!")
            await page.get_by_test_id("login-button").click()
            await page.wait_for_url("**/dashboard")

            front = window.playground
            window.workspaces.switch("Playground")
            front.bar.request.setText("disputes wizard")
            front.bar.job_actions["preflight"].trigger()
            service = services.playground
            await until(lambda: service.job is not None and service.job.status == "completed" and not service.running,
                        timeout=90, what="the preflight's end")
            context = front.context
            await until(lambda: context.find_item("auth") is not None, what="the auth state")
            auth = context.find_item("auth")
            window.docks["context"].show()
            window.docks["context"].raise_()
            auth.setExpanded(True)
            await asyncio.sleep(0.4)
            window.grab().save("/tmp/studio-shots/playground-context-signed-in.png")
            words = auth.text(1)
            assert "no login seen" != words
            assert words.startswith("The session was already signed in (the page shows 'Sign out')"), words
            assert auth.toolTip(1) == words
            said = auth.child(0).text(0)
            assert said.startswith(words + ". 'Sign out' shows on /") and said.endswith("in that session as it was."), said
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
