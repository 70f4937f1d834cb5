"""The errors a caller of the LLM layer can see; each carries a sentence a user can act on.

None of them ever holds an API key or prompt text: they are shown in the GUI and written to logs.
"""

from __future__ import annotations

from typing import Literal

BudgetKind = Literal["steps", "tokens", "seconds", "cost"]

# Every ModelUnavailable/ModelOutputInvalid sentence ends with this, so users know nothing is lost.
OFFLINE_FALLBACK = "The job goes on without it (offline heuristics)."


class LLMError(Exception):
    """Base of the LLM layer's errors; `sentence` is what the user reads."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class ModelUnavailable(LLMError):
    """The model did not answer usefully (HTTP errors, timeouts, refused key) after our retries.

    Callers fall back to their deterministic heuristics and keep going.
    """


class ModelOutputInvalid(LLMError):
    """The model answered, but never in the required shape, even after the repair re-prompts.

    Callers fall back to their deterministic heuristics and keep going.
    """


class BudgetExhausted(LLMError):
    """A job reached one of its hard limits; the job ends cleanly and keeps everything done so far."""

    def __init__(self, kind: BudgetKind, sentence: str) -> None:
        super().__init__(sentence)
        self.kind: BudgetKind = kind


class KeyStorageUnavailable(LLMError):
    """The system keyring could not store a key (no backend on this machine, or it refused)."""
