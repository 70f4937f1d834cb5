"""Records of language-model calls: what each cost, how long it took, and how it ended."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

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
