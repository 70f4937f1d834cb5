"""Knobs of the embedded demo app: the seed, simulated latencies, session length and injected game faults."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

GameFault = Literal["none", "console_errors", "failed_request"]


class DemoConfig(BaseModel):
    """Behaviour knobs of the demo app; the same seed replays the same delays, product order and game."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    seed: int = 1
    hydration_ms: tuple[int, int] = (300, 900)
    shuffle_products: bool = True
    cart_latency_ms: tuple[int, int] = (50, 250)
    session_ttl_s: int = Field(default=900, ge=1)
    # A slow identity provider: every password and one-time-code check takes this long.
    sign_in_latency_ms: int = Field(default=0, ge=0, le=60_000)
    game_fault: GameFault = "none"

    @field_validator("hydration_ms", "cart_latency_ms")
    @classmethod
    def _ordered_range(cls, value: tuple[int, int]) -> tuple[int, int]:
        low, high = value
        if low < 0 or high < low or high > 60_000:
            raise ValueError("must be [low, high] in milliseconds with 0 <= low <= high <= 60000")
        return value
