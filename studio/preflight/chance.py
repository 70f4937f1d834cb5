"""Steps that draw on chance: a page that calls Math.random or crypto's random functions while a step runs (a game's
new tile, a shuffled deck) shows something different every time, so the step's whole-picture checks (every item,
in order) would make a case that fails by chance. Those checks are left out, with why; checks of what the step
itself added or removed (an item with the text typed) stay, since a random id never changes what a user sees.

The sandbox installs the counter in every document it opens (the page's own functions are called as before, only
counted); the Prober reads it around each step."""

from __future__ import annotations

from studio.models.outcomes import Outcome, SkippedOutcome, TextsOutcome
from studio.race.driver import PageDriver
from studio.race.errors import RaceError

CHANCE_JS = """(() => {
  if (window.__preflightChance) return;
  let draws = 0;
  const random = Math.random;
  Math.random = function () { draws += 1; return random.apply(this, arguments); };
  if (window.crypto && crypto.getRandomValues) {
    const values = crypto.getRandomValues.bind(crypto);
    crypto.getRandomValues = (array) => { draws += 1; return values(array); };
  }
  if (window.crypto && crypto.randomUUID) {
    const uuid = crypto.randomUUID.bind(crypto);
    crypto.randomUUID = () => { draws += 1; return uuid(); };
  }
  Object.defineProperty(window, '__preflightChance', { value: () => draws });
})();"""
READ_JS = "() => (typeof window.__preflightChance === 'function' ? window.__preflightChance() : 0)"
RELOADS = ("navigate", "reload", "back")


async def draws(driver: PageDriver) -> int:
    """How often the page's document drew on chance so far (0 when it cannot be read)."""
    try:
        value = await driver.evaluate(READ_JS, during="reading how often the page drew on chance", seconds=2)
    except RaceError:
        return 0
    return int(value) if isinstance(value, int | float) else 0


def drew(action: str, before: int, after: int) -> bool:
    """Whether the step drew on chance: the count moved, or a document it opened drew while loading."""
    return after != before or (action in RELOADS and after > 0)


def unpositioned(outcomes: list[Outcome]) -> list[Outcome]:
    """The outcomes without their whole-picture checks, each said as skipped with why."""
    return [SkippedOutcome(text=", ".join(o.texts[:4]), why=(
        "Not checking every item in order: the page drew on chance (Math.random) during the step, so the picture "
        "differs from run to run.")) if isinstance(o, TextsOutcome) else o for o in outcomes]
