"""Records of language-model calls: what each cost, how long it took, and how it ended."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

CallOutcome = Literal["ok", "repaired", "invalid", "rate_limited", "server_error", "timeout", "error",
                      "budget_exhausted"]


class LLMCall(BaseModel):
    """One call to a model, as the project keeps it (never the key, never the prompt text)."""

    job_id: str | None = None
    at: float
    purpose: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0
    cost_usd: float = 0
    outcome: CallOutcome
    error: str | None = None


class ModelPrice(BaseModel):
    """What a model costs, in US dollars per million tokens."""

    input_per_million: float
    output_per_million: float


DEFAULT_PRICES: dict[str, ModelPrice] = {
    "gpt-4o-mini": ModelPrice(input_per_million=0.15, output_per_million=0.60),
    "gpt-4o": ModelPrice(input_per_million=2.50, output_per_million=10.00),
    "gpt-4.1-mini": ModelPrice(input_per_million=0.40, output_per_million=1.60),
    "gpt-4.1": ModelPrice(input_per_million=2.00, output_per_million=8.00),
}


class LLMSettings(BaseModel):
    """Which OpenAI-compatible endpoint to use (none: offline heuristics). The key is never stored here."""

    base_url: str | None = None
    model: str = "gpt-4o-mini"
    timeout_s: float = 30.0
    max_repairs: int = 2
    max_retries: int = 3
    prices: dict[str, ModelPrice] = Field(default_factory=lambda: dict(DEFAULT_PRICES))

    @property
    def configured(self) -> bool:
        return bool(self.base_url)


class JobBudget(BaseModel):
    """Hard limits of one job; reaching one ends the job cleanly, keeping everything done so far."""

    max_steps: int = Field(default=40, gt=0)
    max_tokens: int = Field(default=60_000, gt=0)
    max_seconds: float = Field(default=120.0, gt=0, allow_inf_nan=False)
    max_cost_usd: float = Field(default=0.50, gt=0, allow_inf_nan=False)


class JobBudgets(BaseModel):
    """The budgets jobs run under, from Settings › Model (or the CLI's --max-* flags): the preflight's, then the
    playground agent's after it."""

    preflight: JobBudget = Field(default_factory=lambda: JobBudget(max_steps=120, max_seconds=180, max_tokens=20_000,
                                                                   max_cost_usd=0.10))
    main: JobBudget = Field(default_factory=lambda: JobBudget(max_steps=40, max_seconds=180, max_tokens=60_000,
                                                              max_cost_usd=0.50))

    def overridden(self, **limits: float | None) -> JobBudgets:
        """These budgets with the given limits (max_steps=…, None: unchanged) set on both the preflight and the agent."""
        given = {key: value for key, value in limits.items() if value is not None}
        return JobBudgets(preflight=JobBudget.model_validate({**self.preflight.model_dump(), **given}),
                          main=JobBudget.model_validate({**self.main.model_dump(), **given}))
