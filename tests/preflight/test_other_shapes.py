"""Preflight and the playground on app shapes the studio was not written against (tests/apps): a hash-routed
single-page list, a server-rendered catalogue whose conventional admin paths 404, a DOM grid game and a canvas game.
Nothing in the engine knows these apps; what it finds comes from their structure and from trying them."""

from __future__ import annotations

import pytest

from studio.models.context import Answer
from studio.preflight.findings import expected_behaviour
from studio.preflight.job import PREFLIGHT_BUDGET
from tests.apps.canvas_game import CanvasGame
from tests.apps.grid_game import GridGame
from tests.apps.list_app import ListApp
from tests.apps.records_app import RecordsApp
from tests.preflight.conftest import Harness

pytestmark = pytest.mark.browser


@pytest.fixture
async def roomy(tmp_path, browser_info):
    """A preflight with time to try everything even on a loaded machine (two test workers, each with a Chromium,
    run the list app's tries several times slower than a tester's machine): what is tried is the point here."""
    made = await Harness(tmp_path / "p.studio").open(max_seconds=240)
    yield made
    await made.close()


@pytest.mark.slow
async def test_a_single_page_list_is_mapped_tried_and_honestly_scored(roomy):
    harness = roomy
    with ListApp() as app:
        job = await harness.preflight.start(app.base_url + "/", request="")
    assert job.status == "completed", job.message
    context = job.context
    # the map: the page itself and the views its footer routes to, found by trying it with items in it
    assert [page.url for page in context.ui_map.key_pages] == ["/", "/#/active", "/#/completed"]
    assert context.ui_map.top_nav == ["Active", "Completed"]
    assert "Footer › Active" in [page.how_to_reach for page in context.ui_map.key_pages]
    # what it does, as seed 000's discovered_flows_summary, each from what the browser saw
    kinds = [b["kind"] for b in job.state["behaviours"]["/"]]
    assert {"add", "blank_refused", "toggle", "remove", "edit", "view", "route", "page_action", "persist"} <= set(kinds)
    flows = {flow.flow_name: flow.notes for flow in context.discovered_flows_summary}
    add = next(notes for name, notes in flows.items() if "adds an item" in name)
    assert '"First sample item" was added to the list' in add
    toggle = next(notes for name, notes in flows.items() if name.startswith("Checking an item"))
    assert "checked" in toggle and "3 items left" in toggle
    # gaps and coverage: grounded in what was tried, not 1.0 over nothing
    assert {"validation", "state_transitions", "search_filter_sort_pagination"} <= {g.gap_type for g in
                                                                                     context.coverage_gaps}
    assert context.confidence.coverage > 0  # the categories could be checked on a page with something in it
    # the tester's page was never touched: the tries ran in a sandbox
    assert await harness.session.page.evaluate("localStorage.length") == 0


@pytest.mark.slow
async def test_items_a_reload_loses_are_a_suspected_defect_never_an_expected_result(roomy):
    """The list keeps its items in memory only (a seeded fault): the preflight reports it as a finding, and the
    reload case checks that the items stay (it fails today, and says so), never that they are gone. Its editor also
    drops what was typed on Enter (a second fault, in the same run): a suspected defect too, never an edit case."""
    with ListApp(faults={"no_persist", "edit_not_saved"}) as app:
        job = await roomy.preflight.start(app.base_url + "/", request="")
    assert job.status == "completed", job.message
    found = [f for f in job.context.findings if f.kind == "data_lost_on_reload"]
    assert len(found) == 1 and found[0].status == "suspected", job.context.findings
    assert "First sample item" in found[0].summary and "reload the page" in found[0].evidence
    # No plain case takes the loss for what the app does; the finding's own case checks that the items stay.
    assert not [b for b in job.state["behaviours"]["/"] if b["kind"] == "persist"]
    expected = expected_behaviour(job, found[0])
    assert expected is not None and expected.kind == "persist"
    checks = [o for step in expected.steps for o in step.outcomes]
    assert not any(o.kind == "count" and getattr(o, "count", None) == 0 for o in checks)  # never "all gone"
    assert any(o.kind == "visible" and "still listed" in o.why for o in checks)

    [dropped] = [f for f in job.context.findings if f.kind == "control_does_nothing"]
    assert "Enter in an item's editor did not save" in dropped.summary and dropped.status == "suspected"
    assert not [b for b in job.state["behaviours"]["/"] if b["name"].endswith("Enter saves")]
    edit = expected_behaviour(job, dropped)
    assert edit is not None and edit.steps[-1].data == "Enter"
    assert any(o.kind == "visible" and "edited" in o.why for o in edit.steps[-1].outcomes)  # the saved text


async def test_an_empty_single_page_app_is_not_covered(harness):
    """Coverage over a page with nothing to check is 0, and says why."""
    from aiohttp import web

    from tests.app_thread import AppThread

    async def blank(_request):
        return web.Response(text="<!doctype html><title>Soon</title><h1>Coming soon</h1>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/", blank)
    with AppThread(app) as served:
        job = await harness.preflight.start(served.urls[0] + "/", request="")
    assert job.status == "completed", job.message
    assert job.context.confidence.coverage == 0.0
    assert any("No page of the area showed anything to check" in note for note in job.context.evidence.notes)


async def test_error_pages_are_never_entry_points(harness):
    with RecordsApp() as app:
        job = await harness.preflight.start(app.base_url + "/", request="")
        assert job.status == "completed", job.message
        points = [p.url for p in job.context.candidate_entry_points]
        assert points and not any(p.startswith(("/admin", "/manage", "/settings")) for p in points)
        assert all(p.confidence <= 1.0 for p in job.context.candidate_entry_points)
        # asked about an area that only an error page matches: the browser refutes it and asks, with real pages
        asked = await harness.preflight.start(app.base_url + "/", request="admin settings")
        if asked.status == "paused":
            options = asked.pending[0].question.options or []
            assert not any("Error" in option for option in options), options


@pytest.mark.parametrize("game_class, evidence", [(GridGame, "a board of 16 cells"), (CanvasGame, "canvas")])
async def test_a_game_is_said_to_be_a_game(harness, game_class, evidence):
    with game_class() as game:
        job = await harness.preflight.start(game.base_url + "/", request="")
    assert job.status == "completed", job.message
    kind = job.state["app_kind"]
    assert kind["kind"] == "game" and any(evidence in item for item in kind["evidence"])
    assert any("keyboard listeners" in item for item in kind["evidence"])  # read from the page, not guessed
    said = next(note for note in job.context.evidence.notes if "looks like a browser game" in note)
    assert "Game evaluation plays a game and scores it" in said


async def test_a_server_rendered_search_is_tried_and_what_it_listed_is_kept(roomy):
    """The catalogue's search box sits in a GET form: preflight types a word only one listed row has, presses Enter,
    and keeps what the browser saw (the rows left, their text), so the case written from it fails when search breaks."""
    with RecordsApp() as app:
        job = await roomy.preflight.start(app.base_url + "/items", request="")
    assert job.status == "completed", job.message
    [search] = [b for b in job.state["behaviours"]["/items"] if b["kind"] == "search"]
    fill, enter = search["steps"]
    assert fill["action"] == "fill" and enter == {**enter, "action": "press", "data": "Enter"}
    rows = enter["outcomes"][0]
    assert rows["kind"] == "texts" and len(rows["texts"]) == 1, enter["outcomes"]
    assert fill["data"].lower() in rows["texts"][0].lower()  # the one row that has the word
    assert rows["why"] in enter["expected"]


async def test_the_records_catalogue_is_not_a_game(harness):
    with RecordsApp() as app:
        job = await harness.preflight.start(app.base_url + "/items", request="catalogue")
    assert job.status in ("completed", "paused"), job.message
    assert job.state["app_kind"]["kind"] == "app"


@pytest.mark.slow
async def test_the_list_apps_suite_and_cases_from_the_playground(tmp_path, browser_info):
    from studio.browser.session import BrowserSession
    from studio.events import EventBus
    from studio.playground import Playground
    from studio.store.project import ProjectFile

    bus = EventBus()
    project = ProjectFile.open_or_create(tmp_path / "list.studio")
    session = BrowserSession(bus)
    await session.start()
    try:
        with ListApp() as app:
            # roomy, like the fixture above: what the preflight tries is the point, and under two test workers its
            # default minute can run out before the last control ('Clear completed') is tried
            playground = Playground(session, project,
                                    preflight_budget=PREFLIGHT_BUDGET.model_copy(update={"max_seconds": 240}))
            job = await playground.start("new_testsuite", app.base_url + "/")
            assert job.status == "paused" and job.pending[0].key == "suites"
            options = job.pending[0].question.options
            assert options and options[0] == "errands", options  # a real module, never an empty list
            job = await playground.resume(job, [Answer(key="suites", value="All")])
        assert job.status == "completed", job.message
        [suite] = project.cases.suites()
        cases = project.cases.cases()
        assert all(case.suite_id == suite.id for case in cases)
        titles = " | ".join(case.title for case in cases)
        for feature in ("adds an item", "only spaces adds nothing", "Checking an item's box", "edits it",
                        "'Delete' on an item", "'Active' shows its view", "by its address",
                        "Pressing 'Clear completed'", "after a reload"):
            assert feature in titles, (feature, titles)
        # every case asserts what it does: its steps carry the checks the browser saw
        for case in cases:
            assert sum(len(step.outcomes) for step in case.steps) > 0, case.title
        # and none is a duplicate of another
        assert len({case.title for case in cases}) == len(cases)
    finally:
        await session.close()
        project.close()


async def test_a_deep_links_folder_that_answers_404_is_not_the_apps_root(harness):
    """/items/new's folder /items/ answers 404 on the catalogue: the app lives at its origin's root, not under a
    prefix, and the preflight leaves the tester's page on a page that exists."""
    with RecordsApp() as app:
        job = await harness.preflight.start(app.base_url + "/items/new", request="")
        assert job.status == "completed", job.message
        assert job.context.resolved_base_url == app.base_url + "/"
        assert await harness.session.page.title() != "Error response"
        assert any(p.url == "/items/new" for p in job.context.candidate_entry_points)


DECK = """<!doctype html><title>Deck</title><h1>Deck</h1>
<section id="slides"><p class="slide">Welcome</p><p class="slide" hidden>Agenda</p><p class="slide" hidden>Questions</p></section>
<button id="next">Next slide</button>
<script>
  const slides = [...document.querySelectorAll('.slide')];
  const show = (i) => { slides.forEach((s, n) => { s.hidden = n !== i; }); };
  const at = () => Math.max(0, Math.min(slides.length - 1, Number((location.hash.match(/^#\\/(\\d+)$/) || [0, 0])[1])));
  show(at());
  document.getElementById('next').addEventListener('click', () => {
    const next = Math.min(at() + 1, slides.length - 1);
    history.replaceState(null, '', '#/' + next);  // the address follows the slide, so a reload stays on it
    show(next);
  });
</script>"""


async def test_a_control_that_moves_the_address_in_place_has_its_case_check_the_address(harness):
    """A step that changes the address without leaving the page (a slide's #/1, a client-side route): its case
    checks the address too, so a build whose address stops following (a reload then loses the place) fails it."""
    from aiohttp import web

    from studio.preflight.discovery import behaviours_of
    from tests.app_thread import AppThread

    async def deck(_request):
        return web.Response(text=DECK, content_type="text/html")

    app = web.Application()
    app.router.add_get("/", deck)
    with AppThread(app) as served:
        job = await harness.preflight.start(served.urls[0] + "/", request="")
    assert job.status == "completed", job.message
    [moved] = [b for b in behaviours_of(job.state, "/") if "Next slide" in b.name]
    assert [step.url for step in moved.steps if step.action == "expect_url"] == ["/#/1"]
