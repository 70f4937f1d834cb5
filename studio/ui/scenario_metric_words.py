"""How the Scenarios workspace names and explains a run's metrics: seed 004's under the seed's names (entropy,
backtracks, optimality — the values of summary.run_metrics, the formulas of scenarios/metrics.py and summary.py), and
the studio's own beside them under names of their own (page backtracks, transition optimality), each explained in a
tooltip. The results table, the route text and the trend chart all take their words from here, so that
"optimality" means the seed's shortest_path_steps / actual_steps wherever it is read."""

from __future__ import annotations

from typing import Any

ENTROPY_TIP = ("Entropy (seed 004): the click entropy of the run's clicks, H = −Σ p·log₂ p; below 2.0 is a clear "
               "path, 3.5 or more is confusing")
BACKTRACKS_TIP = ("Backtracks (seed 004): steps that end on a page already visited, staying on a page included (8 "
                  "steps on one page count 7); 2 or fewer is acceptable")
OPTIMALITY_TIP = ("Optimality (seed 004): shortest_path_steps / actual_steps — the fewest steps a passing run of this "
                  "task needed (its detours taken off) over the steps this run took, typing included; 0.75 or more "
                  "is the target")
PAGE_BACKTRACKS_TIP = ("Page backtracks (the studio's): returns to a page left before — steps that stay on a page, "
                       "such as typing into a form, are not counted")
TRANSITION_TIP = "Transition optimality: shortest page route / page transitions taken — ignores typing steps"


def number(value: float | None, digits: int = 2) -> str:
    """A metric as shown: "–" when unknown (a run that did not reach its goal has no optimality)."""
    if value is None:
        return "–"
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


def run_metrics_text(metrics: dict[str, Any]) -> str:
    """Two lines: the seed's three metrics of a run, then the studio's two under them."""
    return (f"Entropy {number(metrics['entropy'])} · Backtracks {number(metrics['backtracks'])} · "
            f"Optimality {number(metrics['optimality'])}\nThe studio's: Page backtracks "
            f"{number(metrics['pageBacktracks'])} · Transition optimality {number(metrics['transitionOptimality'])}")


def optimality_fraction(metrics: dict[str, Any]) -> str:
    """What the seed's optimality divides, in words: "13 of its 14 steps needed"."""
    if metrics.get("shortestPathSteps") is None:
        return "no optimality: the run did not reach its goal, or no route to it is known"
    return f"{metrics['shortestPathSteps']} of its {metrics['steps']} steps needed"


def transition_fraction(metrics: dict[str, Any]) -> str:
    """What transition optimality divides, in words: "2 of its 3 page transitions needed"."""
    if metrics.get("shortestTransitions") is None:
        return "no transition optimality: the run did not reach its goal, or no route to it is known"
    return f"{metrics['shortestTransitions']} of its {metrics['transitions']} page transitions needed"


def run_metrics_tip(metrics: dict[str, Any]) -> str:
    """The tooltip of a run's metrics: each one explained, with the numbers the optimalities divide."""
    return "\n".join([
        f"{ENTROPY_TIP}.", f"{BACKTRACKS_TIP}.", f"{OPTIMALITY_TIP}: {optimality_fraction(metrics)}.",
        "Beside them, the studio's own measures:",
        f"{PAGE_BACKTRACKS_TIP}.", f"{TRANSITION_TIP}: {transition_fraction(metrics)}."])
