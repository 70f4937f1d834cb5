"""A job's budget (browser steps, model tokens, wall seconds, dollars) and what model calls cost.

Reaching any limit ends the job cleanly: `Budget.check()` raises BudgetExhausted with a sentence, the job stops
and keeps everything it did so far. Seed 004 calls this the kill switch against runaway token usage.
"""

from __future__ import annotations

import logging
import time

from studio.llm.errors import BudgetExhausted, BudgetKind
from studio.models.llm import JobBudget, ModelPrice

log = logging.getLogger(__name__)

_RAISE_IT = ("everything done so far is kept. To go further, raise the job budget in Settings › Model, or pass "
             "--max-steps, --max-seconds, --max-tokens or --max-cost to studio preflight / studio playground.")


def _dollars(amount: float) -> str:
    """"$0.50" for whole cents, "$0.0015" below that (a tenth of a cent is still worth showing)."""
    if abs(amount - round(amount, 2)) < 1e-9:
        return f"${amount:.2f}"
    return "$" + f"{amount:.4f}".rstrip("0")


class PriceTable:
    """Dollar cost of calls, from the settings' prices per million tokens.

    A model missing from the table costs 0 (a local server, usually) and is warned about once per table.
    """

    def __init__(self, prices: dict[str, ModelPrice]) -> None:
        self._prices = dict(prices)
        self._warned: set[str] = set()

    def price_of(self, model: str) -> ModelPrice | None:
        """The price of `model`, also for dated snapshots such as "gpt-4o-mini-2024-07-18"."""
        if model in self._prices:
            return self._prices[model]
        # The longest matching family wins, so a gpt-4o-mini snapshot is not priced as gpt-4o.
        families = [name for name in self._prices if model.startswith(name + "-")]
        return self._prices[max(families, key=len)] if families else None

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        price = self.price_of(model)
        if price is None:
            if model not in self._warned:
                self._warned.add(model)
                log.warning("no price known for model %r; its calls are counted as costing $0 "
                            "(add it to the price table in Settings to track cost)", model)
            return 0.0
        return (prompt_tokens * price.input_per_million + completion_tokens * price.output_per_million) / 1e6


class Budget:
    """What one job has used of its JobBudget; the wall clock runs from creation (monotonic)."""

    def __init__(self, limits: JobBudget) -> None:
        self.limits = limits
        self.steps = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.cost_usd = 0.0
        self._started = time.monotonic()

    def __repr__(self) -> str:
        return (f"Budget(steps={self.steps}/{self.limits.max_steps}, tokens={self.tokens}/{self.limits.max_tokens}, "
                f"seconds={self.elapsed_s:.1f}/{self.limits.max_seconds:g}, "
                f"cost=${self.cost_usd:.4f}/${self.limits.max_cost_usd:.2f})")

    # -- use ---------------------------------------------------------------------------------------------------

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def elapsed_s(self) -> float:
        return time.monotonic() - self._started

    @property
    def remaining_seconds(self) -> float:
        return max(0.0, self.limits.max_seconds - self.elapsed_s)

    def charge_step(self, count: int = 1) -> None:
        """Count browser steps (one navigation, click or fill each)."""
        self.steps += count

    def charge_tokens(self, prompt: int, completion: int, cost: float) -> None:
        """Count one model call's tokens and dollars (charged even when its answer was unusable)."""
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.cost_usd += cost

    def usage(self) -> dict[str, float]:
        """Steps, tokens and dollars used so far (kept with a paused job; its wall clock restarts on resume)."""
        return {"steps": self.steps, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cost_usd": self.cost_usd}

    def carry(self, usage: dict[str, float] | None) -> Budget:
        """Go on from what an earlier run of the same job used (see `usage`)."""
        usage = usage or {}
        self.steps = int(usage.get("steps", 0))
        self.prompt_tokens = int(usage.get("prompt_tokens", 0))
        self.completion_tokens = int(usage.get("completion_tokens", 0))
        self.cost_usd = float(usage.get("cost_usd", 0.0))
        return self

    # -- limits ------------------------------------------------------------------------------------------------

    def exhausted(self) -> BudgetKind | None:
        """The first limit reached, or None; time first because it is the one a user waits on."""
        limits = self.limits
        if self.elapsed_s >= limits.max_seconds:
            return "seconds"
        if self.cost_usd >= limits.max_cost_usd:
            return "cost"
        if self.tokens >= limits.max_tokens:
            return "tokens"
        if self.steps >= limits.max_steps:
            return "steps"
        return None

    def check(self) -> None:
        """Raise BudgetExhausted (with a sentence) when any limit is reached; call it before each step or call."""
        kind = self.exhausted()
        if kind is not None:
            raise BudgetExhausted(kind, self.sentence(kind))

    def sentence(self, kind: BudgetKind) -> str:
        limits = self.limits
        if kind == "steps":
            what = f"its budget of {limits.max_steps} browser steps"
        elif kind == "tokens":
            what = f"its budget of {limits.max_tokens:,} model tokens ({self.tokens:,} used)"
        elif kind == "seconds":
            what = f"its time budget of {limits.max_seconds:g} seconds"
        else:
            what = f"its cost budget of {_dollars(limits.max_cost_usd)} ({_dollars(self.cost_usd)} spent)"
        return f"The job stopped at {what}; {_RAISE_IT}"

    def remaining(self) -> dict[str, float]:
        """What is left of each limit (never negative), for progress events."""
        limits = self.limits
        return {"steps": max(0, limits.max_steps - self.steps),
                "tokens": max(0, limits.max_tokens - self.tokens),
                "seconds": round(self.remaining_seconds, 3),
                "cost_usd": round(max(0.0, limits.max_cost_usd - self.cost_usd), 6)}

    def snapshot(self) -> dict[str, object]:
        """Used, limits and remaining in one JSON-ready dict, for events and the job record."""
        return {"used": {"steps": self.steps, "prompt_tokens": self.prompt_tokens,
                         "completion_tokens": self.completion_tokens, "tokens": self.tokens,
                         "seconds": round(self.elapsed_s, 3), "cost_usd": round(self.cost_usd, 6)},
                "limits": self.limits.model_dump(),
                "remaining": self.remaining(),
                "exhausted": self.exhausted()}
