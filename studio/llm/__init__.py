"""The LLM layer: an optional OpenAI-compatible model behind typed answers, budgets, retries and safety rules.

Everything works without a model: `LanguageModel.from_settings` returns None when no endpoint is configured,
and callers fall back to their heuristics on ModelUnavailable and ModelOutputInvalid. BudgetExhausted ends a
job cleanly. Page content reaches a model only as `Untrusted` data.
"""

from studio.llm.budget import Budget, PriceTable
from studio.llm.client import CallSink, LanguageModel
from studio.llm.errors import (
    BudgetExhausted,
    BudgetKind,
    KeyStorageUnavailable,
    LLMError,
    ModelOutputInvalid,
    ModelUnavailable,
)
from studio.llm.keys import forget_api_key, resolve_api_key, store_api_key
from studio.llm.safety import (
    UNTRUSTED_DATA_RULE,
    OriginPolicy,
    Untrusted,
    render_parts,
    render_untrusted,
    system_prompt,
)
from studio.llm.tools import ToolChoice, ToolSpec

__all__ = [
    "UNTRUSTED_DATA_RULE",
    "Budget",
    "BudgetExhausted",
    "BudgetKind",
    "CallSink",
    "KeyStorageUnavailable",
    "LLMError",
    "LanguageModel",
    "ModelOutputInvalid",
    "ModelUnavailable",
    "OriginPolicy",
    "PriceTable",
    "ToolChoice",
    "ToolSpec",
    "Untrusted",
    "forget_api_key",
    "render_parts",
    "render_untrusted",
    "resolve_api_key",
    "store_api_key",
    "system_prompt",
]
