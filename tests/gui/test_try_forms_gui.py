"""Try Forms on the Playground bar: off by default; checked, the next preflight sends the app's forms with sample
data (and says so), and what they did becomes behaviours the cases are written from."""

from __future__ import annotations

import pytest

from studio.preflight.discovery import behaviours_of
from tests.apps.records_app import RecordsApp
from tests.gui.support import close_studio, open_studio, shoot, until

pytestmark = [pytest.mark.gui, pytest.mark.browser]


@pytest.mark.timeout(180)
def test_try_forms_lets_the_next_preflight_send_forms(qloop, tmp_path):
    async def scenario():
        services, window = open_studio(tmp_path)
        service, jobs = services.playground, services.project.project.jobs
        try:
            with RecordsApp() as app:
                before = dict(app.items)
                url = app.base_url + "/items/new"
                assert await services.browser.start(services.runtime.session_options(viewport=(1280, 720)), url)
                window.workspaces.actions["Playground"].trigger()
                front = window.playground
                toggle = front.bar.try_forms_action
                assert toggle.isCheckable() and not toggle.isChecked() and not services.runtime.try_forms
                assert "staging" in toggle.toolTip()
                toggle.trigger()
                assert services.runtime.try_forms
                front.bar.job_actions["preflight"].trigger()
                await until(lambda: service.job is not None and not service.running
                            and jobs.get(service.job.id).status != "running", timeout=150, what="the preflight")
                job = jobs.get(service.job.id)
                assert job.status == "completed", job.message
                assert job.state["try_forms"]
                kinds = {b.kind for b in behaviours_of(job.state, "/items/new")}
                assert {"refused", "save", "remove"} <= kinds, kinds
                assert app.items == before  # what it saved it deleted
                await until(lambda: " write" in front.context.tree_text() if hasattr(front.context, "tree_text")
                            else True, what="the notes")
                shoot(window, "try_forms_done")
        finally:
            await close_studio(services, window)

    qloop.run_until_complete(scenario())
