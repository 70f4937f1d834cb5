"""The information-architecture metrics of seed 004, with its formulas under its names, and the stagnation signals
that drive the progressive hints. Pure functions over what a run recorded, so `studio report RUN.jsonl` recomputes
them from the log alone.

The seed's metrics (the defaults; scenario_end.metrics.entropy / backtracks / optimality, run_end's scenarioMetrics):
- click entropy      H = -Σ p_i · log₂ p_i, p_i the share of clicks on element i across all runs of a scenario
                     (< 2.0 clear, 2.0–3.5 moderate ambiguity, ≥ 3.5 high confusion)
- backtracks         count(url_history[i] in url_history[0 .. i-1]): every step that ends on a page already in the
                     history, staying on it included (eight steps on one page count 7) (≤ 2 acceptable)
- path optimality    shortest_path_steps / actual_steps, in steps (typing included) (≥ 0.75 is the target);
                     summary.shortest_path_steps says where the shortest number of steps comes from
- time to first action  timestamp(first click) − timestamp(page load), seconds (< 5 s is the target)
- token efficiency   total_tokens / (success_rate × scenarios_run) (< 10k tokens per successful scenario)

The studio's own measures beside them, under names of their own:
- page backtracks (`pageBacktracks`): returns to a page left before — the seed's count over the pages *visited*
  (repeated steps on one page merged into one visit), so typing into a form is not a step back. It is what the
  seed's sentence ("times the agent returns to a previously visited page") describes.
- transition optimality (`transitionOptimality`): shortest page transitions / the run's page transitions, on the
  navigation graph (summary.py) — the navigation alone, which typing and form steps do not dilute.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ENTROPY_CLEAR, ENTROPY_CONFUSED = 2.0, 3.5
BACKTRACKS_ACCEPTABLE = 2
OPTIMALITY_TARGET = 0.75
TTFA_TARGET_S = 5.0
TOKENS_PER_SUCCESS_BUDGET = 10_000
RECENT = 10  # steps the stagnation signals look back over


def click_entropy(clicked: Iterable[str]) -> float:
    """Shannon entropy (bits) of the elements clicked, over every click of every run of one scenario."""
    counts = Counter(clicked)
    total = sum(counts.values())
    if total == 0:
        return 0.0
    entropy = -sum((n / total) * math.log2(n / total) for n in counts.values())
    return round(entropy + 0.0, 6)  # + 0.0: never -0.0


def entropy_reading(entropy: float) -> str:
    if entropy < ENTROPY_CLEAR:
        return "clear, intuitive path"
    if entropy < ENTROPY_CONFUSED:
        return "moderate ambiguity"
    return "high confusion, redesign needed"


def visits(url_history: Sequence[str]) -> list[str]:
    """The pages visited, in order: a step that stayed on the page (typing, a failed click) is not a new visit."""
    pages: list[str] = []
    for url in url_history:
        if not pages or pages[-1] != url:
            pages.append(url)
    return pages


def backtracks(url_history: Sequence[str]) -> int:
    """The seed's backtracks: steps i whose page url_history[i] is in url_history[0 .. i-1] (a step that stays on
    the page counts too)."""
    return sum(1 for i, url in enumerate(url_history) if url in url_history[:i])


def page_backtracks(url_history: Sequence[str]) -> int:
    """The studio's page backtracks: returns to a page left before — the seed's count over the visits, a run of
    steps on one page being one visit."""
    return backtracks(visits(url_history))


def path_optimality(shortest_steps: int | None, actual_steps: int) -> float | None:
    """The seed's shortest_path_steps / actual_steps, at most 1.0; None when either is unknown or the run took no
    step."""
    if shortest_steps is None or actual_steps <= 0:
        return None
    return round(min(1.0, shortest_steps / actual_steps), 6)


def time_to_first_action(page_loaded_at: float | None, first_click_at: float | None) -> float | None:
    """Seconds from the page's load to the first click (timestamps in seconds); None without a click."""
    if page_loaded_at is None or first_click_at is None:
        return None
    return round(max(0.0, first_click_at - page_loaded_at), 3)


def token_efficiency(total_tokens: int, successes: int, scenarios_run: int) -> float | None:
    """total_tokens / (success_rate × scenarios_run), i.e. tokens per successful scenario; None with no success."""
    if scenarios_run <= 0 or successes <= 0:
        return None
    success_rate = successes / scenarios_run
    return round(total_tokens / (success_rate * scenarios_run), 3)


# -- stagnation ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class StepTrace:
    """What the stagnation signals need of one step: where it was, what it clicked, whether the page changed."""

    url: str
    clicked: str | None = None  # the element clicked (its id), None for other actions
    changed: bool = True  # the URL or the page's content changed after it


@dataclass(frozen=True)
class Stagnation:
    repeated_clicks: int
    same_url_visits: int
    circular_navigation: bool
    no_progress_steps: int

    @property
    def level(self) -> int:
        """The one number hints compare with ("stagnation >= 5"): the largest signal (a cycle counts as 3)."""
        return max(self.repeated_clicks, self.same_url_visits, self.no_progress_steps,
                   3 if self.circular_navigation else 0)


def stagnation(steps: Sequence[StepTrace]) -> Stagnation:
    """The seed's signals over the last 10 steps: clicks on an element clicked before, steps that came back to a page
    visited before, a cycle of pages (A → B → A), and steps in a row (ending now) that changed nothing."""
    recent = list(steps[-RECENT:])
    clicks = [s.clicked for s in recent if s.clicked is not None]
    repeated = len(clicks) - len(set(clicks))
    pages = visits([s.url for s in recent])
    same_url = sum(1 for i, url in enumerate(pages) if url in pages[:i])
    circular = any(pages[i] == pages[i + 2] and pages[i] != pages[i + 1] for i in range(len(pages) - 2))
    idle = 0
    for step in reversed(recent):
        if step.changed:
            break
        idle += 1
    return Stagnation(repeated, same_url, circular, idle)


def median(values: Sequence[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def percentile(values: Sequence[float], rank: float) -> float | None:
    """Linear interpolation between closest ranks (numpy's default), rank in 0..100."""
    ordered = sorted(values)
    if not ordered:
        return None
    position = (len(ordered) - 1) * rank / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
