"""The fault switch shared by the fixture apps (tests/apps/base.py): templating, validation, runtime switching, and
invisibility: with every fault on, nothing the browser receives or holds names a fault."""

from __future__ import annotations

import re
import threading

import pytest

from tests.apps import canvas_game, grid_game, hazards_app, list_app, records_app
from tests.apps.base import DIRECTIVE, STATIC, render

MODULES = (list_app, grid_game, canvas_game, records_app, hazards_app)
APPS = {module.__name__.rsplit(".", 1)[1]: module for module in MODULES}
CLASSES = {"list_app": list_app.ListApp, "grid_game": grid_game.GridGame, "canvas_game": canvas_game.CanvasGame,
           "records_app": records_app.RecordsApp, "hazards_app": hazards_app.HazardsApp}


def test_render_keeps_one_branch_and_drops_the_directives():
    text = "a\n//#if x\nb\n//#else\nc\n//#endif\n<!--#if !y-->\nd {{n}}\n<!--#endif-->\n/*#if x*/\n//#if y\ne\n//#endif\n/*#endif*/\n"
    assert render(text, frozenset(), n=1) == "a\nc\nd 1\n"
    assert render(text, frozenset({"x"}), n=2) == "a\nb\nd 2\n"
    assert render(text, frozenset({"x", "y"}), n=3) == "a\nb\ne\n"
    with pytest.raises(ValueError):
        render("//#if x\n", frozenset())


@pytest.mark.parametrize("name", sorted(APPS))
def test_each_app_lists_and_describes_its_faults(name):
    module = APPS[name]
    assert module.FAULTS == tuple(module.FAULT_DESCRIPTIONS) == CLASSES[name].FAULTS
    assert all(description.strip() for description in module.FAULT_DESCRIPTIONS.values())
    assert module.__doc__ and len(module.__doc__) > 200
    assert len((STATIC.parent / f"{name}.py").read_text().splitlines()) < 400


@pytest.mark.parametrize("name", sorted(APPS))
def test_static_files_only_switch_on_faults_their_app_has(name):
    cls = CLASSES[name]
    used = set()
    for path in (STATIC / cls.STATIC_DIR).iterdir():
        for line in path.read_text(encoding="utf-8").splitlines():
            match = DIRECTIVE.match(line)
            if match and match.group(2):
                used.add(match.group(2).lstrip("!"))
    assert used <= set(cls.FAULTS), used - set(cls.FAULTS)
    server_side = {"records_app"}  # faults realised in Python, not in templates
    if name not in server_side:
        assert used == set(cls.FAULTS)


def test_unknown_faults_are_refused_and_switching_is_thread_safe():
    app = list_app.ListApp(faults={"delete_noop"})
    assert app.faults == {"delete_noop"} and app.has("delete_noop") and not app.has("no_persist")
    with pytest.raises(ValueError, match="unknown faults"):
        app.set_faults({"delete_noop", "nope"})
    assert app.faults == {"delete_noop"}  # unchanged by a refused switch

    def flip(fault: str) -> None:
        for _ in range(500):
            app.set_faults({fault})
            assert len(app.faults) == 1

    threads = [threading.Thread(target=flip, args=(fault,)) for fault in list_app.FAULTS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(app.faults) == 1


async def seen_by_the_browser(page, urls: list[str], errors: list[str] | None = None) -> list[str]:
    """Every text the browser got for these pages (responses, DOM, window globals, storage, URLs); console errors
    and uncaught exceptions go to `errors`."""
    texts: list[str] = []
    if errors is not None:
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.on("pageerror", lambda error: errors.append(str(error)))

    async def keep(response) -> None:
        if response.status < 300 and re.search(r"text|javascript|json|css", response.headers.get("content-type", "")):
            texts.append(await response.text())

    page.on("response", keep)
    for url in urls:
        texts.append(url)
        await page.goto(url)
        await page.wait_for_timeout(150)
        texts.append(page.url)
        texts.append(await page.content())
        texts.append(" ".join(await page.evaluate("Object.getOwnPropertyNames(window)")))
        texts.append(await page.evaluate("JSON.stringify(localStorage) + document.cookie"))
    return texts


def assert_nothing_names(texts: list[str], faults: tuple[str, ...]) -> None:
    for fault in faults:
        for variant in {fault, fault.replace("_", "-"), fault.replace("_", "")}:
            leaks = [text[max(0, text.find(variant) - 60):text.find(variant) + 60] for text in texts
                     if variant in text]
            assert not leaks, (fault, leaks)


@pytest.mark.browser
@pytest.mark.parametrize("name", ["list_app", "grid_game", "canvas_game"])
async def test_client_side_faults_are_invisible_but_served(page, name):
    cls = CLASSES[name]
    with cls(faults=cls.FAULTS) as app:
        faulty = await seen_by_the_browser(page, [app.base_url + "/"])
        assert_nothing_names(faulty, cls.FAULTS)
        app.set_faults(())  # switched at runtime: the next load gets the healthy script
        errors: list[str] = []
        healthy = await seen_by_the_browser(await page.context.new_page(), [app.base_url + "/"], errors)
    assert faulty != healthy
    assert errors == []  # the healthy app is quiet


@pytest.mark.browser
async def test_records_faults_are_invisible(page):
    errors: list[str] = []
    with records_app.RecordsApp(faults=records_app.FAULTS) as app:
        base = app.base_url
        texts = await seen_by_the_browser(page, [base + "/items", base + "/items?q=dune&page=2", base + "/items/1",
                                                 base + "/items/1/edit", base + "/items/new"], errors)
        await page.get_by_label("Title").fill("Middlemarch")
        await page.get_by_label("Copies").fill("3")
        await page.get_by_role("button", name="Add item").click()
        texts += [page.url, await page.content()]
        assert_nothing_names(texts, records_app.FAULTS)
    assert errors == []
