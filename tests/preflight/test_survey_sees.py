"""The preflight's survey sees at least what the snapshot sees, on small apps shaped as they are found in the wild
(tests/apps/shapes.py): controls found by behaviour (a click listener on a container of seats, pointer-cursor stars),
fields named by a label without `for`, icon-only buttons, web components behind open shadow roots, a same-origin
frame, a page whose only controls are keys; a registration form is a form to test, not a login wall; areas are named
from what stays the same across reloads."""

from __future__ import annotations

import re

import pytest

from studio.models.catalog import PageCatalog
from studio.preflight.naming import area_name, clean_title, looks_like_name, page_heading
from studio.preflight.survey import Survey, survey_page
from studio.race.driver import PageDriver
from studio.race.page_state import read_page_state
from tests.apps.shapes import SHAPES, ShapeApps
from tests.preflight.conftest import Harness

pytestmark = pytest.mark.browser

# Roles the snapshot lists as controls (page_library.js INTERACTIVE), and what a [clickable] line is.
INTERACTIVE = {"button", "link", "checkbox", "radio", "textbox", "searchbox", "combobox", "listbox", "option", "slider",
               "spinbutton", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem"}
LINE = re.compile(r'^(?P<indent> *)(?P<role>[a-z]+)\d?(?: "(?:[^"\\]|\\.)*")? (?P<ref>e\d+)(?: #\S+)?(?: \[(?P<states>.*)\])?$')


@pytest.fixture(scope="module")
def shapes():
    with ShapeApps() as served:
        yield served


@pytest.fixture
def driver(page):
    return PageDriver(page)


async def open_shape(driver: PageDriver, shapes: ShapeApps, shape: str) -> None:
    await driver.navigate(shapes.url(shape))
    await driver.wait_for_load("networkidle", timeout_ms=3000)


async def snapshot_controls(driver: PageDriver) -> dict[str, str]:
    """Every control the snapshot lists, as {tree path: its snapshot line}; an element of a frame is named by the
    frame's path, 'f', and its own (as the survey names it)."""
    lines = (await driver.snapshot()).text.splitlines()[2:]
    frames: list[tuple[int, str]] = []  # (indent, path) of the iframes the lines below are inside
    found = {}
    for line in lines:
        match = LINE.match(line)
        assert match, line
        indent, role, ref = len(match["indent"]), match["role"], match["ref"]
        while frames and frames[-1][0] >= indent:
            frames.pop()
        own = (await driver.race.describe(ref))["path"]
        path = f"{frames[-1][1]}/f/{own}" if frames else own
        if role == "iframe":
            frames.append((indent, path))
        if role in INTERACTIVE or "clickable" in (match["states"] or ""):
            found[path] = line.strip()
    return found


def catalog_paths(catalog: PageCatalog) -> tuple[set[str], set[str]]:
    """The tree paths the catalogue lists, and the paths of its groups (a group stands for what is inside it)."""
    elements = [*catalog.nav, *catalog.actions, *catalog.search_inputs, *catalog.filters, *catalog.file_inputs,
                *catalog.views, *catalog.inputs, *catalog.controls,
                *(form.submit for form in catalog.forms if form.submit)]
    paths = {e.path for e in elements if e.path} | {f.path for form in catalog.forms for f in form.fields if f.path}
    return paths, {e.path for e in elements if e.count > 1 and e.path}


async def assert_sees_what_the_snapshot_sees(driver: PageDriver) -> Survey:
    seen = await snapshot_controls(driver)
    survey = await survey_page(driver, deep=True)
    paths, groups = catalog_paths(survey.catalog)
    missed = [line for path, line in seen.items()
              if path not in paths and not any(path.startswith(group + "/") for group in groups)]
    assert not missed, f"the survey missed what the snapshot lists: {missed}"
    return survey


def named(survey: Survey, name: str):
    catalog = survey.catalog
    return next(e for e in [*catalog.actions, *catalog.controls, *catalog.inputs, *catalog.nav] if e.name == name)


@pytest.mark.parametrize("shape", [s for s in SHAPES if s != "todo-wc"])
async def test_the_survey_lists_every_control_the_snapshot_lists(shapes, driver, shape):
    await open_shape(driver, shapes, shape)
    survey = await assert_sees_what_the_snapshot_sees(driver)
    assert survey.catalog.control_count > 0  # the word game has no control the snapshot lists: only its keys


async def test_a_movie_select_labelled_without_for_and_seats_with_a_listener_on_their_container(shapes, driver):
    await open_shape(driver, shapes, "seat-booking")
    survey = await assert_sees_what_the_snapshot_sees(driver)
    movie = named(survey, "Pick a movie")  # the label before it, which names no control (no `for`)
    assert movie.role == "combobox" and len(movie.options) == 4 and "Joker ($12)" in movie.options
    assert await driver.count(movie.locator) == 1
    seats = next(c for c in survey.catalog.controls if c.count > 1)
    # the click listener sits on the container (event delegation): its 48 free and taken seats are the controls
    assert (seats.name, seats.count, seats.found_by) == ("seat", 48, "listener")
    assert seats.locator is not None and await driver.count(seats.locator) == 48
    await driver.must("click", seats.locator.model_copy(update={"steps": [*seats.locator.steps,
                                                                          *_nth(0)]}))
    assert await driver.texts("#count") == ["1"]


def _nth(index: int):
    from studio.models.locator import LocatorStep

    return [LocatorStep(kind="nth", index=index)]


async def test_a_product_filter_has_all_four_labelled_checkboxes(shapes, driver):
    await open_shape(driver, shapes, "product-filter")
    survey = await survey_page(driver, deep=True)
    boxes = [c for c in survey.catalog.controls if c.role == "checkbox"]
    assert [b.name for b in boxes] == ["Audio", "Cameras", "Laptops", "Phones"]
    for box in boxes:  # two named by <label for>, two by a wrapping <label>
        assert box.locator is not None and await driver.count(box.locator) == 1
    assert named(survey, "Price").field_type == "range"  # named by the heading just before it


async def test_icon_only_buttons_are_named_never_skipped(shapes, driver):
    await open_shape(driver, shapes, "icon-buttons")
    survey = await survey_page(driver, deep=True)
    header = [a for a in survey.catalog.actions if a.place == "header"]
    # aria-label, title, an <svg><title>, and one with nothing: a stable description of where it is
    assert [a.name for a in header] == ["Open menu", "Search", "Settings", "button 4 in the header", "Sign Up"]
    for button in header:
        assert button.locator is not None and await driver.count(button.locator) == 1, button


async def test_a_to_do_list_of_web_components_is_seen_through_its_shadow_roots(shapes, driver):
    await open_shape(driver, shapes, "todo-wc")
    empty = await assert_sees_what_the_snapshot_sees(driver)
    field = named(empty, "What needs to be done?")
    assert empty.catalog.heading == "todos" and field.locator is not None
    assert "/s" in (field.path or "")  # inside the app's shadow root
    state = await read_page_state(driver.race)
    assert state is not None and state.heading is not None and state.heading.text == "todos"
    for text in ("Buy milk", "Walk the dog"):
        await driver.must("fill", field.locator, text)
        await driver.press("Enter")
    # the list and its footer appeared with the first item: inside shadow roots, items that keep their words in
    # shadow roots of their own
    full = await assert_sees_what_the_snapshot_sees(driver)
    assert [v.name for v in full.catalog.views] == ["All", "Active", "Completed"]
    toggle = named(full, "Buy milk")
    assert toggle.role == "checkbox" and await driver.count(toggle.locator) == 1
    state = await read_page_state(driver.race)
    assert state is not None
    lists = [c for c in state.collections if c.total == 2]
    assert lists and [i.text for i in lists[0].items] == ["Buy milk", "Walk the dog"]
    assert "2 items left" in [h.text for h in state.holders]
    await driver.must("check", toggle.locator)
    after = await read_page_state(driver.race)
    assert after is not None and "1 item left" in [h.text for h in after.holders]


async def test_a_keyboard_only_game_lists_the_keys_it_listens_to(shapes, driver):
    await open_shape(driver, shapes, "word-game")
    survey = await survey_page(driver)
    keyboard = survey.catalog.keyboard
    assert keyboard.where == ["keydown on document"]
    assert {"Enter", "Backspace"} <= set(keyboard.keys) and keyboard.letters
    assert survey.catalog.has_content and survey.catalog.control_count == 1  # not "0 controls"


async def test_a_same_origin_frame_is_read(shapes, driver):
    await open_shape(driver, shapes, "embedded-widget")
    survey = await assert_sees_what_the_snapshot_sees(driver)
    stars = next(c for c in survey.catalog.controls if c.count > 1)
    assert (stars.name, stars.count, stars.found_by) == ("star", 5, "pointer") and "/f/" in (stars.path or "")
    assert [f.spec.name for form in survey.catalog.forms for f in form.fields] == ["Your e-mail"]


async def test_a_drag_to_sort_list_is_one_control_of_ten_draggable_items(shapes, driver):
    await open_shape(driver, shapes, "drag-list")
    survey = await survey_page(driver, deep=True)
    rows = next(c for c in survey.catalog.controls if c.draggable)
    assert (rows.role, rows.count, rows.found_by) == ("draggable", 10, "draggable")
    assert rows.locator is not None and await driver.count(rows.locator) == 10


async def test_a_registration_form_is_not_a_login(shapes, driver):
    await open_shape(driver, shapes, "registration")
    survey = await survey_page(driver)
    assert not survey.is_login_page
    assert survey.registration is not None and survey.registration["evidence"] == "two password fields"
    fields = survey.catalog.forms[0].fields
    assert [f.spec.name for f in fields] == ["Username", "Email", "Password", "Confirm Password"]
    assert all(f.spec.required for f in fields)  # its script checks every field, though none says `required`


def test_names_are_words_not_values():
    assert not looks_like_name("$0.00") and not looks_like_name("12:30") and not looks_like_name("")
    assert looks_like_name("Expense Tracker") and looks_like_name("Step 1 of 3")
    assert page_heading(["$0.00", "Expense Tracker"]) == "Expense Tracker"
    assert clean_title(": Expense Tracker") == "Expense Tracker" and clean_title(": ") == ""
    assert area_name(PageCatalog(url="http://x/", path="/", title=": ")) == "Home"
    assert area_name(PageCatalog(url="http://x/budget/plan", path="/budget/plan")) == "Budget plan"


@pytest.mark.slow
async def test_preflight_names_areas_by_what_stays_and_does_not_ask_a_registration_form_for_an_account(
        shapes, tmp_path, browser_info):
    harness = await Harness(tmp_path / "p.studio").open(max_seconds=120)
    try:
        names = {}
        for shape in ("word-game", "expense-tracker", "registration"):
            job = await harness.preflight.start(shapes.url(shape), request="")
            assert job.status == "completed", (shape, job.message)
            context = job.context
            names[shape] = context.ui_map.key_pages[0].name
            assert not context.auth_state.requires_login and not context.auth_state.blockers
            assert not any(q.title == "Login" for q in context.questions)  # never asked for an account
            if shape == "registration":
                assert any("registration form" in note for note in context.evidence.notes)
                assert "validation" in {gap.gap_type for gap in context.coverage_gaps}
        # the game's scrambled word (an h1 that changes on each load) and the balance ("$0.00") are no names
        assert names == {"word-game": "Word Scramble", "expense-tracker": "Expense Tracker",
                         "registration": "Register With Us"}
    finally:
        await harness.close()
