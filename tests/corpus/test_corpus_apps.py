"""Every app of the corpus installs from its pinned npm package, serves on loopback and renders in Chromium; every
planted fault applies; and a planted fault is what a user sees (the healthy app keeps its todos over a reload, the
copy that never saves loses them)."""

from __future__ import annotations

import pytest

from tests.corpus.catalog import APPS

pytestmark = pytest.mark.corpus


def test_every_app_installs_and_every_fault_applies_to_its_own_copy(corpus_sites):
    for app in APPS.values():
        healthy = corpus_sites.build(app)
        assert (healthy / app.entry.lstrip("/") or healthy).exists(), app.name
        for fault in app.faults:
            faulty = corpus_sites.build(app, fault.name)
            for patch in fault.patches:
                assert (faulty / patch.file).read_text() != (healthy / patch.file).read_text(), (app.name, fault.name)
                assert (healthy / patch.file).read_text().count(patch.anchor) == 1, (app.name, fault.name)
    planted_loss = [app.name for app in APPS.values() if any(fault.data_loss for fault in app.faults)]
    assert len(planted_loss) >= 3
    assert all(len(app.faults) >= 2 for app in APPS.values())


@pytest.mark.parametrize("name", list(APPS))
async def test_the_app_renders_on_loopback(corpus_site, page, name):
    app = APPS[name]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(corpus_site(app).url(app.entry))
    await page.locator(app.ready).first.wait_for(state="visible", timeout=15_000)
    assert errors == []


@pytest.mark.parametrize(("fault", "kept"), [(None, 2), ("no_persist", 0)])
async def test_a_planted_fault_is_what_a_user_sees(corpus_site, page, fault, kept):
    app = APPS["todomvc-vanillajs"]
    await page.goto(corpus_site(app, fault).url(app.entry))
    for title in ("Buy milk", "Call mum"):
        await page.locator("#new-todo").fill(title)
        await page.locator("#new-todo").press("Enter")
    assert await page.locator("#todo-list li").count() == 2
    await page.reload()
    await page.locator("#new-todo").wait_for()
    assert await page.locator("#todo-list li").count() == kept
