"""PROOF that exported tests check what they do: a session recorded through the studio's recorder (a PageDriver, as
the GUI and MCP record) on a healthy fixture app is exported, then run as its user runs it (pytest-playwright in a
subprocess) against the healthy app — it must pass — and against the app with each seeded fault the session
exercises — it must fail. The kill rate (faults caught / faults exercised) is printed per app and must reach 90 %.

A fault the session never exercises (the list app's inline edit, a catalogue delete) cannot be caught by it and is
listed with the reason, not counted. Each run gets its own app instance (faults are switched server-side), so the
runs go in parallel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from exported_runs import kill_matrix
from fixture_sessions import grid_session, list_session, records_session

from studio.export import export_session
from studio.models.recording import RecordedStep
from studio.race.driver import PageDriver
from tests.apps import grid_game, list_app, records_app
from tests.apps.base import FaultyApp
from tests.apps.grid_game import GridGame
from tests.apps.list_app import ListApp
from tests.apps.records_app import RecordsApp

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.usefixtures("exports_on_the_worker_server")]

NOT_EXERCISED = {
    "list": {"edit_not_saved": "the session never edits an item (double-click)",
             "toggle_all_broken": "the session never uses 'Mark all as complete'"},
    "records": {"delete_noop": "the session deletes nothing"},
    "grid": {"tall_page": "a page shape (the game itself is healthy); the session never checks scrolling",
             "site_chrome": "a page shape (the site around a healthy game); the session never leaves the game"},
}
GRID_SEED, GRID_KEYS = 7, ("ArrowLeft", "ArrowUp", "ArrowLeft", "ArrowDown")  # a merge on ArrowUp and ArrowDown
Session = Callable[[PageDriver, FaultyApp], Awaitable[None]]


async def record(context, session: Session, app: FaultyApp) -> list[RecordedStep]:
    steps: list[RecordedStep] = []
    driver = PageDriver(await context.new_page())
    driver.record("proof", steps.append, origin="tester")
    await session(driver, app)
    await driver.settle()
    return steps


def kill_rate(name: str, results: dict[str | None, tuple[int, str]]) -> float:
    code, output = results[None]
    assert code == 0, f"the exported {name} test fails on the healthy app:\n{output[-4000:]}"
    skipped = NOT_EXERCISED[name]
    exercised = [fault for fault in results if fault is not None and fault not in skipped]
    caught = [fault for fault in exercised if results[fault][0] == 1]  # 1: a test failed (not a crash)
    rate = len(caught) / len(exercised)
    print(f"\n{name}: caught {len(caught)} of {len(exercised)} exercised faults ({rate:.0%}); missed "
          f"{sorted(set(exercised) - set(caught)) or 'none'}; not exercised: "
          + (", ".join(f"{fault} ({why})" for fault, why in skipped.items()) or "none"))
    for fault in exercised:
        assert results[fault][0] in (0, 1), f"{fault}: the run crashed:\n{results[fault][1][-2000:]}"
    return rate


def exported(steps: list[RecordedStep], folder: Path, title: str) -> str:
    result = export_session(steps, "python", folder, title=title)
    return result.test_file.read_text(encoding="utf-8")


async def test_the_list_session_exports_a_test_that_fails_on_every_fault_it_exercises(context, browser_info,
                                                                                     tmp_path):
    with ListApp() as app:
        steps = await record(context, lambda driver, served: list_session(driver, served.base_url), app)
        code = exported(steps, tmp_path / "list", "errands: add, complete, delete, filter, clear, reload")
        # Enter is a key press; items are named by their text, never by position.
        assert 'press("Enter")' in code and "\\n" not in code and ".nth(" not in code
        assert 'get_by_role("listitem").filter(has_text="Buy milk").get_by_role("checkbox")' in code
        assert ".to_be_checked()" in code and '.to_have_text("2 items left")' in code and "page.reload()" in code
        results = await kill_matrix(ListApp, tmp_path / "list", browser_info.path, app)
    assert kill_rate("list", results) >= 0.9


async def test_the_catalogue_session_exports_a_test_that_fails_on_every_fault_it_exercises(context, browser_info,
                                                                                          tmp_path):
    with RecordsApp() as app:
        steps = await record(context, lambda driver, served: records_session(driver, served.base_url), app)
        code = exported(steps, tmp_path / "records", "catalogue: search, open, add an item")
        assert 'filter(has_text="Beloved")).to_have_count(0)' in code  # the search result left the others out
        assert 'to_have_text("3")' in code  # the copies typed are shown on the saved item's page
        assert r'/items/[^/?#]+$' in code  # the new item's id differs on every run
        # The healthy run goes against the app the recording already changed: a rerun must pass too.
        results = await kill_matrix(RecordsApp, tmp_path / "records", browser_info.path, app)
    assert kill_rate("records", results) >= 0.9


async def test_the_puzzle_session_exports_a_test_that_fails_on_every_fault_it_exercises(context, browser_info,
                                                                                       tmp_path):
    with GridGame() as game:
        steps = await record(context, lambda driver, served: grid_session(driver, served.url(seed=GRID_SEED),
                                                                          GRID_KEYS), game)
        code = exported(steps, tmp_path / "grid", "slide: new game and four moves")
        assert code.count('page.keyboard.press("Arrow') == 4 and code.count(".to_have_text([") == 5
        assert "page_errors == []" in code  # the healthy recording threw nothing
        exercised = tuple(fault for fault in grid_game.FAULTS if fault not in NOT_EXERCISED["grid"])
        results = await kill_matrix(GridGame, tmp_path / "grid", browser_info.path, game, faults=exercised)
    assert kill_rate("grid", results) >= 0.9


def test_every_fault_of_the_three_apps_is_accounted_for():
    for name, module in (("list", list_app), ("records", records_app), ("grid", grid_game)):
        assert set(NOT_EXERCISED[name]) <= set(module.FAULTS), name


@pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")), reason="Node.js and npm are not installed")
async def test_the_typescript_export_checks_the_same(context, browser_info, tmp_path):
    with ListApp() as app:
        steps = await record(context, lambda driver, served: list_session(driver, served.base_url), app)
    out = tmp_path / "ts"
    spec = export_session(steps, "typescript", out, title="errands").test_file.read_text(encoding="utf-8")
    assert "await expect(checkbox).toBeChecked();" in spec and "await page.reload();" in spec
    env = {**os.environ, "npm_config_cache": str(Path.home() / ".cache" / "studio-npm"),
           "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH": browser_info.path, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    install = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=out, env=env,
                             capture_output=True, text=True, timeout=300)
    if install.returncode != 0:
        pytest.skip(f"npm could not install @playwright/test here: {install.stderr.strip()[-300:]}")
    for fault, expected in ((None, 0), ("toggle_noop", 1), ("no_persist", 1)):
        with ListApp(faults={fault} if fault else ()) as served:
            run = subprocess.run(["npx", "playwright", "test", "--reporter=line"], cwd=out, timeout=300, text=True,
                                 env={**env, "BASE_URL": served.base_url}, capture_output=True)
        assert run.returncode == expected, f"{fault}: {run.stdout[-3000:]}"
