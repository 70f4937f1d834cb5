"""Seed 004's metrics against values worked out by hand and the seed's own numbers, and the studio's measures kept
beside them under names of their own (page backtracks)."""

from __future__ import annotations

import pytest

from studio.scenarios.metrics import (
    StepTrace,
    backtracks,
    click_entropy,
    entropy_reading,
    median,
    page_backtracks,
    path_optimality,
    percentile,
    stagnation,
    time_to_first_action,
    token_efficiency,
)


def test_click_entropy_is_shannons_over_the_shares_of_clicks():
    # shares 1/2, 1/4, 1/4: 0.5·1 + 0.25·2 + 0.25·2 = 1.5 bits
    assert click_entropy(["tile-report", "tile-report", "nav-help", "nav-offers"]) == pytest.approx(1.5)
    assert click_entropy([f"e{i}" for i in range(8)]) == pytest.approx(3.0)  # eight equal shares: log2 8
    assert click_entropy(["only"] * 5) == 0.0 and click_entropy([]) == 0.0
    assert entropy_reading(1.5) == "clear, intuitive path" and entropy_reading(3.0) == "moderate ambiguity"
    assert entropy_reading(3.5) == "high confusion, redesign needed"


def test_backtracks_are_the_seeds_count_of_pages_already_in_the_history():
    # count(url_history[i] in url_history[0 .. i-1]): eight steps on one page in a row count 7
    assert backtracks(["/login"] * 8) == 7
    history = ["/login", "/dashboard", "/credit-report", "/dashboard", "/offers", "/dashboard"]
    assert backtracks(history) == 2  # the second and third /dashboard
    # a sign-in: three steps that stay on /login count 2, as the seed's formula says
    assert backtracks(["/login", "/login", "/login", "/dashboard"]) == 2
    assert backtracks([]) == 0


def test_page_backtracks_merge_the_steps_on_one_page_into_one_visit():
    assert page_backtracks(["/login"] * 8) == 0
    assert page_backtracks(["/login", "/login", "/login", "/dashboard"]) == 0
    history = ["/login", "/dashboard", "/dashboard", "/credit-report", "/dashboard", "/offers", "/dashboard"]
    assert page_backtracks(history) == 2 and backtracks(history) == 3


def test_path_optimality_is_shortest_over_actual_at_most_one():
    assert round(path_optimality(10, 12), 2) == 0.83  # the seed's scenario_end: 12 steps, optimality 0.83
    assert path_optimality(6, 8) == 0.75  # the seed's target: at most 33% extra steps
    assert path_optimality(3, 12) == 0.25
    assert path_optimality(6, 4) == 1.0  # a shortest path longer than the run: the graph missed a way
    assert path_optimality(None, 5) is None and path_optimality(3, 0) is None


def test_time_to_first_action_and_token_efficiency():
    assert time_to_first_action(10.0, 12.5) == 2.5
    assert time_to_first_action(10.0, None) is None
    # 30,000 tokens over 4 scenarios of which 3 succeeded: 30000 / (0.75 · 4) = 10,000 per success
    assert token_efficiency(30_000, successes=3, scenarios_run=4) == 10_000
    assert token_efficiency(500, successes=0, scenarios_run=2) is None


def test_stagnation_signals():
    same = [StepTrace("/login", clicked="submit", changed=False)] * 3
    signals = stagnation([StepTrace("/login", clicked="submit", changed=True), *same])
    assert signals.repeated_clicks == 3 and signals.no_progress_steps == 3 and signals.same_url_visits == 0
    assert not signals.circular_navigation and signals.level == 3
    cycle = stagnation([StepTrace("/a", "x"), StepTrace("/b", "y"), StepTrace("/a", "z")])
    assert cycle.circular_navigation and cycle.same_url_visits == 1 and cycle.repeated_clicks == 0
    # only the last ten steps count
    old_repeats = [StepTrace("/a", "x")] * 5 + [StepTrace(f"/p{i}", f"e{i}") for i in range(10)]
    assert stagnation(old_repeats).repeated_clicks == 0


def test_median_and_linear_percentile():
    assert median([4, 1, 3, 2]) == 2.5 and median([3, 1, 2]) == 2 and median([]) is None
    assert percentile([12, 30], 90) == pytest.approx(28.2)
    assert percentile(list(range(1, 11)), 90) == pytest.approx(9.1)
