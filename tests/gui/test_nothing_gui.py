"""Never a silent nothing in the window: a preflight on a page of plain text ends as an error in the message bar and
"Finished with nothing" in Context, with what it tried and each reason's next step — not "finished" or "Completed".
A real window, a real Chromium on a page served on loopback, a real project file."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp import web

from tests.app_thread import AppThread
from tests.cli.test_nothing_cli import PLAIN
from tests.gui.support import NextSignal, close_studio, open_studio, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]

SHOTS = Path("/tmp/shots")


@pytest.mark.timeout(180)
def test_a_preflight_that_found_nothing_ends_as_a_problem_with_its_reasons(qloop, tmp_path):
    async def page(_request):
        return web.Response(text=PLAIN, content_type="text/html")

    async def scenario():
        app = web.Application()
        app.router.add_get("/", page)
        services, window = open_studio(tmp_path, "nothing.studio")
        front = window.playground
        try:
            with AppThread(app) as served:
                window.url_bar.url_edit.setText(served.urls[0] + "/")
                ended = NextSignal(services.playground.finished)
                front.bar.job_actions["preflight"].trigger()
                job = await ended.wait(120, what="the preflight to end")
            assert job.status == "completed" and job.result["outcome"] == "nothing"
            await until(lambda: window.message_bar.isVisible(), what="the outcome message")
            said = window.message_bar.label.text()
            assert window.message_bar.level == "error", said
            assert said.startswith("Preflight found no control. It opened ") and "found no control there" in said
            assert "shows text only" in said and "Next: " in said
            context = front.context
            assert "Finished with nothing" in context.status.text() and "Completed" not in context.status.text()
            assert "• No page it opened had a button, link, field or form" in context.detail.text()
            assert "Preflight finished with nothing: why is in Context." in window.statusBar().currentMessage()
            SHOTS.mkdir(parents=True, exist_ok=True)
            assert window.grab().save(str(SHOTS / "nothing_outcome.png"))
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
