"""The seed's progress indicator (step text, then X/Y, then URL, then title) and the stuck warning."""

from __future__ import annotations

import pytest

from studio.pilot.progress import ProgressTracker, progress_indicator

URL, TITLE = "http://app.test/wizard", "Wizard"


@pytest.mark.parametrize(("text", "indicator"), [
    ("File a dispute\nStep 2 of 3\nDetails", "Step 2 of 3"),
    ("Шаг 1 из 4", "Шаг 1 из 4"),
    ("step 3of 5", "step 3of 5"),
    ("Question 3/6", "3/6"),
    ("Question 3 / 6 — and Step 1 of 2", "Step 1 of 2"),  # the step text comes first, as in the seed
])
def test_the_seeds_patterns_in_their_order(text, indicator):
    assert progress_indicator(text, URL, TITLE) == indicator


@pytest.mark.parametrize("text", [
    "Opened 12/06/2024",  # a date
    "See /api/1/2 for details",  # a path
    "Version 1.2/3",
    "Score 7/5",  # more done than there are: no step count
    "Ratio 24/7 support",
])
def test_dates_paths_and_odd_fractions_are_no_indicator(text):
    assert progress_indicator(text, URL, TITLE) == URL


def test_the_title_when_there_is_no_url():
    assert progress_indicator("", "", TITLE) == TITLE


def test_the_same_indicator_three_times_in_a_row_is_stuck():
    tracker = ProgressTracker()
    assert [tracker.see(x) for x in ("Step 1 of 3", "Step 1 of 3", "Step 2 of 3", "Step 2 of 3", "Step 2 of 3")] \
        == [False, False, False, False, True]
    assert "'Step 2 of 3' for 3 observations" in tracker.warning()
    assert tracker.see("Step 3 of 3") is False
