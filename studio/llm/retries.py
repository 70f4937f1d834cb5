"""Our retry policy for model calls: what a failed attempt was, whether to try again, and how long to wait.

The openai client runs with max_retries=0 so that every attempt is ours to record, to charge against the job's
time budget, and to explain: 429 waits for Retry-After (capped), 5xx, timeouts and connection errors back off
exponentially with jitter, and any other 4xx is final (retrying a refused key or a wrong model name cannot help).
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING


from studio.llm.errors import OFFLINE_FALLBACK
from studio.models.llm import CallOutcome

if TYPE_CHECKING:
    import openai

# A server may ask for minutes; a desktop job would rather go on offline than sit that long.
MAX_RETRY_AFTER_S = 60.0


@dataclass(frozen=True)
class FailedAttempt:
    """One attempt that got no usable HTTP answer: its outcome for the call record, and a short note."""

    outcome: CallOutcome
    note: str
    retryable: bool
    status: int | None = None
    retry_after_s: float | None = None
    detail: str = ""


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Seconds the server asked us to wait (retry-after-ms, Retry-After as seconds or an HTTP date), or None."""
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            continue
        return seconds if seconds >= 0 else None
    value = headers.get("retry-after")
    if value:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())
    return None


def classify(error: openai.APIError) -> FailedAttempt:
    """What a failed attempt means for us; messages from the server are cut short and never include headers."""
    import openai  # loaded with the client that raised `error`

    if isinstance(error, openai.APITimeoutError):
        return FailedAttempt("timeout", "no answer before the timeout", retryable=True)
    if isinstance(error, openai.APIConnectionError):
        return FailedAttempt("error", "could not connect to the model server", retryable=True)
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        detail = " ".join(str(error.message or "").split())[:160]
        if status == 429:
            wait = retry_after_seconds(error.response.headers)
            note = "rate limited (HTTP 429)" + (f", Retry-After {wait:g} s" if wait is not None else "")
            return FailedAttempt("rate_limited", note, retryable=True, status=status, retry_after_s=wait)
        if status >= 500:
            return FailedAttempt("server_error", f"server error (HTTP {status})", retryable=True, status=status)
        return FailedAttempt("error", f"request refused (HTTP {status})", retryable=False, status=status,
                             detail=detail)
    return FailedAttempt("error", f"unusable answer ({type(error).__name__})", retryable=False)


class RetryPolicy:
    """How many times to try again and how long to wait before each retry."""

    def __init__(self, max_retries: int, backoff_base_s: float = 0.5, backoff_cap_s: float = 8.0,
                 rng: random.Random | None = None) -> None:
        self.max_retries = max(0, max_retries)
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self._rng = rng or random.Random()

    def wait_before_retry(self, failed: FailedAttempt, retry_number: int) -> float:
        """Seconds to wait before retry number `retry_number` (1 for the first retry)."""
        if failed.retry_after_s is not None:
            return min(failed.retry_after_s, MAX_RETRY_AFTER_S)
        ceiling = min(self.backoff_cap_s, self.backoff_base_s * 2 ** (retry_number - 1))
        # Half fixed, half random: many jobs hitting one local server do not retry in lockstep.
        return ceiling / 2 + self._rng.uniform(0, ceiling / 2)


def unavailable_sentence(base_url: str, model: str, failed: FailedAttempt, tries: int, timeout_s: float) -> str:
    """The sentence a user reads when the model gave up: what happened, and that the job goes on offline."""
    times = f"{tries} {'try' if tries == 1 else 'tries'}"
    where = f"The model at {base_url}"
    if failed.outcome == "timeout":
        return f"{where} did not answer within {timeout_s:g} s after {times}. {OFFLINE_FALLBACK}"
    if failed.outcome == "rate_limited":
        return f"{where} kept answering 'too many requests' (HTTP 429) after {times}. {OFFLINE_FALLBACK}"
    if failed.outcome == "server_error":
        return f"{where} did not answer (HTTP {failed.status}) after {times}. {OFFLINE_FALLBACK}"
    if failed.status in (401, 403):
        return (f"{where} refused the API key (HTTP {failed.status}). Set OPENAI_API_KEY or store a key in "
                f"Settings. {OFFLINE_FALLBACK}")
    if failed.status == 404:
        return (f"{where} answered HTTP 404: check the address and the model name ({model}) in Settings. "
                f"{OFFLINE_FALLBACK}")
    if failed.status is not None:
        reason = f": {failed.detail}" if failed.detail else ""
        return f"{where} rejected the request (HTTP {failed.status}{reason}). {OFFLINE_FALLBACK}"
    if failed.retryable:
        return f"{where} could not be reached after {times}; check the address in Settings. {OFFLINE_FALLBACK}"
    return f"{where} gave an answer that is not a chat completion ({failed.note}). {OFFLINE_FALLBACK}"


def wait_exceeds_budget_sentence(base_url: str, failed: FailedAttempt, wait_s: float, left_s: float) -> str:
    return (f"The model at {base_url} needs a wait of {wait_s:.1f} s before trying again ({failed.note}), more "
            f"than the {left_s:.1f} s left in this job's time budget. {OFFLINE_FALLBACK}")
