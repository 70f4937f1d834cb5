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
