"""What a step changed, as the recorder stores it and the exporter writes it: typed outcomes, old project files, the
rules for what is too volatile to assert, and the assertions both languages get."""

from __future__ import annotations

from export_samples import add_to_cart, step

from studio.export import render_test
from studio.export.plan import build_plan
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import (
    CheckedOutcome,
    CountOutcome,
    PageErrorsOutcome,
    SkippedOutcome,
    TextOutcome,
    TextsOutcome,
    ValueOutcome,
    VisibleOutcome,
)
from studio.models.recording import RecordedStep, StepOutcome
from studio.race.page_state import Collection, Holder, Item, PageState, changed_collections, changed_holders, drifted
from studio.race.volatility import volatility

H = "http://todo.test:8080"
NEW_ITEM = LocatorSpec(strategy="placeholder", steps=[LocatorStep(kind="placeholder", value="What needs to be done?")])
MILK = LocatorSpec(strategy="scoped", steps=[LocatorStep(kind="role", role="listitem"),
                                             LocatorStep(kind="filter_text", value="Buy milk")])
BOX = LocatorSpec(strategy="scoped", steps=[*MILK.steps, LocatorStep(kind="role", role="checkbox")])
COUNTER = LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value="span.todo-count")])
ITEMS = LocatorSpec(strategy="css", steps=[LocatorStep(kind="css", value="ul.todo-list > li")])


def errands() -> list[RecordedStep]:
    """Add "Buy milk" with Enter and tick it, as the recorder stores it."""
    same = StepOutcome(url_before=f"{H}/", url_after=f"{H}/")
    return [
        step(0, "navigate", f"{H}/", outcomes=[PageErrorsOutcome()]),
        step(1, "fill", f"{H}/", locator=NEW_ITEM, value="Buy milk", outcome=same, outcomes=[PageErrorsOutcome()]),
        step(2, "press", f"{H}/", locator=NEW_ITEM, key="Enter", outcome=same, outcomes=[
            VisibleOutcome(locator=MILK, why='"Buy milk" was added to the list.'),
            CountOutcome(locator=ITEMS, count=1, why="The list was empty when the recording began."),
            TextOutcome(locator=COUNTER, text="1 item left"),
            ValueOutcome(locator=NEW_ITEM, value=""), PageErrorsOutcome()]),
        step(3, "click", f"{H}/", locator=BOX, outcome=same, outcomes=[
            TextOutcome(locator=COUNTER, text="0 items left", before="1 item left"),
            CheckedOutcome(locator=BOX, checked=True),
            SkippedOutcome(text="Saved at 12:04", why='Not checking "Saved at 12:04": it looks like a time of day.'),
            PageErrorsOutcome()]),
    ]


def test_every_step_asserts_what_it_changed_in_python():
    code = render_test(errands(), "python", "add and tick an errand")
    assert 'expect(page.get_by_role("listitem").filter(has_text="Buy milk")).to_be_visible()' in code
    assert 'expect(page.locator("ul.todo-list > li")).to_have_count(1)' in code
    assert 'expect(page.locator("span.todo-count")).to_have_text("0 items left")' in code
    assert "what_needs_to_be_done.press(\"Enter\")" in code  # the field is named once it is used twice
    assert 'expect(what_needs_to_be_done).to_have_value("")' in code
    assert "checkbox.click()\n" in code and "expect(checkbox).to_be_checked()" in code
    assert '# Not checking "Saved at 12:04": it looks like a time of day.' in code
    assert 'page.on("pageerror"' in code and 'assert page_errors == [], f"The page threw: {page_errors}"' in code


def test_every_step_asserts_what_it_changed_in_typescript():
    code = render_test(errands(), "typescript", "add and tick an errand")
    assert 'await expect(page.locator("span.todo-count")).toHaveText("0 items left");' in code
    assert "await expect(checkbox).toBeChecked();" in code
    assert 'page.on("pageerror", (error) => pageErrors.push(error.message));' in code
    assert "expect(pageErrors).toEqual([]);" in code


def test_a_boards_cells_are_asserted_whole_and_in_order():
    cells = LocatorSpec(strategy="scoped", steps=[LocatorStep(kind="label", value="Game board", exact=True),
                                                  LocatorStep(kind="css", value=":scope > div.grid-cell")])
    texts = ["", "2", "", "4"] * 4
    steps = [step(0, "navigate", f"{H}/?seed=7"),
             step(1, "press", f"{H}/?seed=7", key="ArrowLeft", outcomes=[TextsOutcome(locator=cells, texts=texts)])]
    python = render_test(steps, "python")
    assert 'page.keyboard.press("ArrowLeft")' in python
    assert '    ).to_have_text(\n        ["", "2", "", "4", "", "2", "", "4", "", "2", "", "4", "", "2", "", "4"]\n    )' \
        in python
    assert 'await page.keyboard.press("ArrowLeft");' in (typescript := render_test(steps, "typescript"))
    assert '.toHaveText([\n    "",\n    "2",' in typescript  # one cell a line when the call is too long


def test_enter_kept_in_a_fill_by_an_older_recorder_becomes_a_key_press():
    steps = [step(0, "navigate", f"{H}/"), step(1, "fill", f"{H}/", locator=NEW_ITEM, value="Buy milk\n")]
    code = render_test(steps, "python")
    assert '.fill("Buy milk")' in code and '.press("Enter")' in code and "\\n" not in code


def test_a_recording_without_outcomes_still_checks_where_it_ended_and_says_why():
    steps = [step(0, "navigate", f"{H}/"),
             step(1, "click", f"{H}/", locator=BOX, outcome=StepOutcome(url_before=f"{H}/", url_after=f"{H}/done"))]
    plan = build_plan(steps)
    assert [s.kind for s in plan.steps[-1].statements] == ["declare", "act", "expect_url"]  # the URL is a check
    steps[1].outcome.url_after = f"{H}/"
    closing = build_plan(steps).steps[-1]
    assert closing.index is None and closing.statements[0].pattern == "/$"
    assert "Nothing the steps did left a change the recorder could check" in closing.statements[0].why


def test_old_project_steps_load_without_outcomes_and_new_ones_round_trip():
    old = add_to_cart(H)[1].model_dump(mode="json")
    old.pop("outcomes")
    assert RecordedStep.model_validate(old).outcomes == []
    for recorded in errands():
        assert RecordedStep.model_validate_json(recorded.model_dump_json()) == recorded


def test_volatile_texts_are_named_with_the_reason():
    assert volatility("Updated 5 minutes ago") == "it is a relative time"
    assert volatility("Order 1234567") and volatility("id lz3k9a8b2c") and volatility("2024-05-01")
    assert volatility("Saving…") and volatility("at 12:30")
    for steady in ("2 items left", "Page 1 of 3", "iPhone15Pro", "Added “Dune” to the catalogue.", "4"):
        assert volatility(steady) is None, steady


def _collection(*keys: str) -> Collection:
    return Collection(path="1/2", tag="ul", itemTag="li", itemRole="listitem", total=len(keys),
                      items=[Item(text=key, key=key, path=f"1/2/{i}") for i, key in enumerate(keys)])


def test_readings_of_a_page_are_compared_by_item_text_and_position():
    before = PageState(url=f"{H}/", document="1", collections=[_collection("Buy milk", "Walk the dog")],
                       holders=[Holder(path="1/3", tag="span", text="2 items left")])
    after = PageState(url=f"{H}/#/active", document="1", collections=[_collection("Walk the dog")],
                      holders=[Holder(path="1/3", tag="span", text="1 item left")])
    (change,) = changed_collections(before, after)
    assert change.removed == ["Buy milk"] and change.added == [] and not change.reordered
    assert [(then.text, now.text) for then, now in changed_holders(before, after)] == [("2 items left", "1 item left")]
    ticking = after.model_copy(update={"holders": [Holder(path="1/3", tag="span", text="1 item left!")]})
    assert drifted(after, ticking) == {"1/3"}  # changed while nobody acted: never asserted
    reloaded = after.model_copy(update={"document": "2"})
    assert changed_holders(after, reloaded) == [] and drifted(after, reloaded) == set()
