"""Recorded steps survive the project file intact, secrets excluded."""

from __future__ import annotations

import sqlite3

import pytest

from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.race import CoverageObservation
from studio.models.recording import RecordedStep, RequestRecord, StepOutcome
from studio.store.project import ProjectFile

SCRIM = LocatorSpec(strategy="test_id", steps=[LocatorStep(kind="test_id", value="loading-scrim")])
BUTTON = LocatorSpec(strategy="scoped", steps=[
    LocatorStep(kind="test_id", value="product-card"), LocatorStep(kind="filter_text", value="iPhone 15 Pro"),
    LocatorStep(kind="role", role="button", name="Add to Cart", exact=True)])


def _click_step(index: int) -> RecordedStep:
    coverage = CoverageObservation(
        ref="e42", observedAt=1.0, elementCenter={"x": 512, "y": 438},
        elementAtPoint={"ref": "e15", "tag": "div", "testId": "loading-scrim", "zIndex": "9999",
                        "opacity": "0.8", "display": "block"},
        targetElement={"ref": "e42", "tag": "button", "testId": "add-to-cart"}, isTargetOrDescendant=False)
    return RecordedStep(
        session_id="s1", index=index, at=1000.0 + index, action="click", url="http://h/products", ref="e42",
        locator=BUTTON, observations=[coverage], related_locators={"e15": SCRIM},
        requests=[RequestRecord(method="POST", url="http://h/api/cart/add", status=200)],
        outcome=StepOutcome(url_before="http://h/products", url_after="http://h/products",
                            status_texts=["iPhone 15 Pro added to cart"]))


def test_steps_round_trip_in_order(tmp_path):
    path = tmp_path / "p.studio"
    with ProjectFile.create(path) as project:
        project.add_step(RecordedStep(session_id="s1", index=0, at=1.0, action="navigate", url="http://h/products"))
        project.add_step(_click_step(1))
        project.add_step(RecordedStep(session_id="s1", index=2, at=3.0, action="fill", url="http://h/login",
                                      locator=SCRIM, secret_env="STUDIO_PASSWORD"))
        assert project.next_step_index("s1") == 3
    with ProjectFile.open(path) as project:
        steps = project.steps("s1")
    assert [s.action for s in steps] == ["navigate", "click", "fill"]
    assert steps[1] == _click_step(1)
    assert steps[1].observations[0].elementAtPoint.testId == "loading-scrim"
    assert steps[2].value is None and steps[2].secret_env == "STUDIO_PASSWORD"


def test_a_step_index_is_never_reused(tmp_path):
    with ProjectFile.create(tmp_path / "p.studio") as project:
        project.add_step(_click_step(0))
        with pytest.raises(sqlite3.IntegrityError):
            project.add_step(_click_step(0))
        assert len(project.steps("s1")) == 1


def _draft(project: ProjectFile, count: int = 5) -> list[RecordedStep]:
    """`count` steps of session s1, each with full data (facts, requests, outcome) and its own value."""
    steps = [_click_step(i).model_copy(update={"value": f"v{i}"}) for i in range(count)]
    for step in steps:
        project.add_step(step)
    return steps


def _values(project: ProjectFile) -> list[str | None]:
    return [step.value for step in project.steps("s1")]


def _indexes(project: ProjectFile) -> list[tuple[int, int]]:
    """(idx column, the step's JSON index) of every row, in order: they must agree after every edit."""
    rows = project.db.execute("SELECT idx, json_extract(data, '$.index') FROM steps WHERE session_id = 's1' "
                              "ORDER BY idx").fetchall()
    return [tuple(row) for row in rows]


def test_deleting_steps_renumbers_and_undo_puts_back_exactly_what_was_there(tmp_path):
    path = tmp_path / "p.studio"
    with ProjectFile.create(path) as project:
        original = _draft(project)
        raw = project.db.execute("SELECT at, origin, action, url, ref, data FROM steps ORDER BY idx").fetchall()
        edits = project.step_edits()
        removed = edits.delete("s1", [1, 3])
        assert [r.position for r in removed] == [1, 3]
        assert _values(project) == ["v0", "v2", "v4"]
        assert _indexes(project) == [(0, 0), (1, 1), (2, 2)]
        assert project.next_step_index("s1") == 3
        edits.restore("s1", removed)
        assert project.steps("s1") == original  # facts, requests, outcome and index, all as they were
        assert project.db.execute("SELECT at, origin, action, url, ref, data FROM steps ORDER BY idx").fetchall() == raw
    with ProjectFile.open(path) as project:
        assert project.steps("s1") == original


def test_moving_steps_renumbers_in_one_order_and_the_inverse_undoes_it(tmp_path):
    from studio.store.step_edits import inverse, moved

    with ProjectFile.create(tmp_path / "p.studio") as project:
        original = _draft(project)
        edits = project.step_edits()
        order = moved(5, [2, 3], down=False)
        assert order == [0, 2, 3, 1, 4]
        edits.reorder("s1", order)
        assert _values(project) == ["v0", "v2", "v3", "v1", "v4"]
        assert _indexes(project) == [(i, i) for i in range(5)]
        edits.reorder("s1", inverse(order))
        assert project.steps("s1") == original


def test_a_selection_at_the_edge_holds_and_a_gap_closes():
    from studio.store.step_edits import moved

    assert moved(4, [0], down=False) is None
    assert moved(4, [3], down=True) is None
    assert moved(4, [0, 2], down=False) == [0, 2, 1, 3]  # the first is at the top; the other still moves
    assert moved(4, [0, 1], down=True) == [2, 0, 1, 3]
    assert moved(4, [2, 3], down=True) is None


def test_steps_recorded_after_an_edit_go_after_the_last_and_undo_still_fits(tmp_path):
    with ProjectFile.create(tmp_path / "p.studio") as project:
        _draft(project, 3)
        edits = project.step_edits()
        removed = edits.delete("s1", [0])
        new = _click_step(project.next_step_index("s1")).model_copy(update={"value": "new"})
        assert new.index == 2
        project.add_step(new)
        assert _values(project) == ["v1", "v2", "new"]
        edits.restore("s1", removed)
        assert _values(project) == ["v0", "v1", "v2", "new"]
        assert _indexes(project) == [(i, i) for i in range(4)]
        with pytest.raises(ValueError):
            edits.reorder("s1", [0, 0, 1])
