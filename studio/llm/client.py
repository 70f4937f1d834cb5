"""The language model as the engine sees it: typed answers or typed errors, every attempt recorded and budgeted.

Callers never depend on a model: `LanguageModel.from_settings` returns None when no endpoint is configured (the
offline default), and every method may raise ModelUnavailable or ModelOutputInvalid, on which callers fall back
to their deterministic heuristics. BudgetExhausted ends the job instead (it keeps everything done so far).
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel

from studio.llm.budget import Budget, PriceTable
from studio.llm.errors import OFFLINE_FALLBACK, BudgetExhausted, ModelOutputInvalid, ModelUnavailable
from studio.llm.keys import resolve_api_key
from studio.llm.replies import REPAIR_JSON, parse_structured, parse_tool_call, tool_repair_messages
from studio.llm.retries import RetryPolicy, classify, unavailable_sentence, wait_exceeds_budget_sentence
from studio.llm.safety import JSON_ANSWER_RULE, TOOLS_ANSWER_RULE, Untrusted, render_parts, system_prompt
from studio.llm.tools import ToolChoice, ToolSpec
from studio.models.llm import CallOutcome, LLMCall, LLMSettings

if TYPE_CHECKING:
    import openai

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)
CallSink = Callable[[LLMCall], None]
"""Where call records go, e.g. `project.llm_calls.add`."""

# Some OpenAI-compatible servers refuse requests without any bearer token, even when they ignore it.
PLACEHOLDER_KEY = "not-needed"


@dataclass(frozen=True)
class _Answer:
    """One HTTP answer from the model, already charged to the budget."""

    message: Any
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    latency_ms: float


class LanguageModel:
    """One OpenAI-compatible endpoint and model, with our retry, repair, budget and recording policy."""

    def __init__(self, settings: LLMSettings, key: str | None = None, *, sink: CallSink | None = None,
                 backoff_base_s: float = 0.5) -> None:
        if not settings.base_url:
            raise ValueError("LanguageModel needs settings.base_url; use LanguageModel.from_settings to go offline.")
        self.settings = settings
        self.base_url = settings.base_url.rstrip("/")
        self.model = settings.model
        self._key = key or None  # kept only to scrub it from any text that leaves this object
        self._sink = sink
        self._prices = PriceTable(settings.prices)
        self._retries = RetryPolicy(settings.max_retries, backoff_base_s=backoff_base_s)
        # A typo such as "localhost:11434/v1" would only show as four connection errors; say what is wrong instead.
        parts = urlsplit(self.base_url)
        self._address_problem = None if parts.scheme in ("http", "https") and parts.hostname else (
            f"The model address {self.base_url!r} in Settings is not an http(s) address (for example "
            f"http://127.0.0.1:11434/v1). {OFFLINE_FALLBACK}")
        # max_retries=0: every attempt is ours to record, to budget and to explain (see studio.llm.retries).
        # openai loads here, not at import: with no model configured (the default) nobody pays its ~0.5 s.
        import openai

        self._client = openai.AsyncOpenAI(base_url=self.base_url, api_key=key or PLACEHOLDER_KEY,
                                          timeout=settings.timeout_s, max_retries=0)

    @classmethod
    def from_settings(cls, settings: LLMSettings, key: str | None = None, *, sink: CallSink | None = None,
                      backoff_base_s: float = 0.5) -> LanguageModel | None:
        """The configured model, or None when no endpoint is set (callers then use their heuristics).

        Without `key`, the key comes from $OPENAI_API_KEY or the system keyring (see studio.llm.keys).
        """
        if not settings.base_url:
            return None
        if key is None:
            key = resolve_api_key(settings)
        return cls(settings, key, sink=sink, backoff_base_s=backoff_base_s)

    def __repr__(self) -> str:
        return f"LanguageModel(base_url={self.base_url!r}, model={self.model!r})"

    async def aclose(self) -> None:
        """Close the HTTP connections (call when the job or the studio ends)."""
        await self._client.close()

    async def __aenter__(self) -> LanguageModel:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # -- the two ways to ask -----------------------------------------------------------------------------------

    async def structured(self, purpose: str, system: str, parts: Sequence[str | Untrusted], schema: type[T],
                         budget: Budget, job_id: str | None = None, images: Sequence[bytes] = ()) -> T:
        """Ask for one JSON object valid for `schema`; invalid answers are re-prompted with the problem. `images`
        (PNG) go with the question, for a vision-capable model.

        Raises ModelUnavailable or ModelOutputInvalid (fall back to heuristics) or BudgetExhausted (end the job).
        """
        schema_json = json.dumps(schema.model_json_schema(), separators=(",", ":"))
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(system, JSON_ANSWER_RULE.format(schema=schema_json))},
            {"role": "user", "content": _user_content(parts, images)}]
        problem = ""
        for attempt in range(self.settings.max_repairs + 1):
            answer = await self._complete(purpose, job_id, budget, messages=messages,
                                          response_format={"type": "json_object"})
            value, problem = parse_structured(answer.message.content, schema)
            if value is not None:
                self._record(purpose, job_id, "ok" if attempt == 0 else "repaired", answer)
                return value
            self._record(purpose, job_id, "invalid", answer, error=f"answer unusable: {problem}")
            messages += [{"role": "assistant", "content": answer.message.content or ""},
                         {"role": "user", "content": REPAIR_JSON.format(problem=problem)}]
        raise ModelOutputInvalid(self._invalid_sentence(purpose, problem))

    async def choose_tool(self, purpose: str, system: str, parts: Sequence[str | Untrusted], tools: list[ToolSpec],
                          budget: Budget, job_id: str | None = None, images: Sequence[bytes] = ()) -> ToolChoice:
        """Let the model call exactly one of `tools`; unknown tools and invalid arguments are re-prompted. `images`
        (PNG) go with the question, for a vision-capable model.

        Raises ModelUnavailable or ModelOutputInvalid (fall back to heuristics) or BudgetExhausted (end the job).
        """
        if not tools:
            raise ValueError("choose_tool needs at least one tool.")
        names = ", ".join(tool.name for tool in tools)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(system, TOOLS_ANSWER_RULE.format(names=names))},
            {"role": "user", "content": _user_content(parts, images)}]
        offered = [tool.as_openai_tool() for tool in tools]
        problem = ""
        for attempt in range(self.settings.max_repairs + 1):
            answer = await self._complete(purpose, job_id, budget, messages=messages, tools=offered,
                                          tool_choice="required")
            choice, problem = parse_tool_call(answer.message, tools)
            if choice is not None:
                self._record(purpose, job_id, "ok" if attempt == 0 else "repaired", answer)
                return choice
            self._record(purpose, job_id, "invalid", answer, error=f"tool call unusable: {problem}")
            messages += tool_repair_messages(answer.message, problem, tools)
        raise ModelOutputInvalid(self._invalid_sentence(purpose, problem))

    # -- one answer, with retries ------------------------------------------------------------------------------

    async def _complete(self, purpose: str, job_id: str | None, budget: Budget, **request: Any) -> _Answer:
        """One usable HTTP answer, retrying what can be retried; raises ModelUnavailable or BudgetExhausted."""
        if self._address_problem:
            self._record(purpose, job_id, "error", error="the model address is not an http(s) address")
            raise ModelUnavailable(self._address_problem)
        tries = 0
        while True:
            self._check_budget(purpose, job_id, budget)
            # No attempt may outlive the job's time budget.
            timeout = max(0.05, min(self.settings.timeout_s, budget.remaining_seconds))
            started = time.monotonic()
            try:
                completion = await self._client.chat.completions.create(model=self.model, timeout=timeout,
                                                                        **request)
            except _api_error() as error:
                latency_ms = (time.monotonic() - started) * 1000
                failed = classify(error)
                tries += 1
                self._record(purpose, job_id, failed.outcome, latency_ms=latency_ms, error=failed.note)
                log.info("model call %r failed (%s), attempt %d", purpose, failed.note, tries)
                self._check_budget(purpose, job_id, budget)  # out of time: the job ends, it does not go offline
                if not failed.retryable or tries > self._retries.max_retries:
                    raise ModelUnavailable(self._scrub(unavailable_sentence(
                        self.base_url, self.model, failed, tries, self.settings.timeout_s))) from None
                wait = self._retries.wait_before_retry(failed, tries)
                if wait >= budget.remaining_seconds:
                    raise ModelUnavailable(self._scrub(wait_exceeds_budget_sentence(
                        self.base_url, failed, wait, budget.remaining_seconds))) from None
                await asyncio.sleep(wait)
                continue
            latency_ms = (time.monotonic() - started) * 1000
            return self._charge(purpose, job_id, budget, completion, latency_ms)

    def _charge(self, purpose: str, job_id: str | None, budget: Budget, completion: Any,
                latency_ms: float) -> _Answer:
        usage = getattr(completion, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        output = int(getattr(usage, "completion_tokens", 0) or 0)
        cost = self._prices.cost(self.model, prompt, output)
        budget.charge_tokens(prompt, output, cost)
        choices = getattr(completion, "choices", None)
        if not choices:
            # Paid for, but nothing to read: record it and treat it like a failed attempt we cannot retry.
            self._record(purpose, job_id, "error", _Answer(None, prompt, output, cost, latency_ms),
                         error="answer had no choices")
            raise ModelUnavailable(
                f"The model at {self.base_url} answered without any message. {OFFLINE_FALLBACK}")
        return _Answer(choices[0].message, prompt, output, cost, latency_ms)

    def _check_budget(self, purpose: str, job_id: str | None, budget: Budget) -> None:
        try:
            budget.check()
        except BudgetExhausted as exhausted:
            # The refused call is recorded too, so the job's call log shows why the model went quiet.
            self._record(purpose, job_id, "budget_exhausted", error=exhausted.sentence)
            raise

    # -- records -----------------------------------------------------------------------------------------------

    def _record(self, purpose: str, job_id: str | None, outcome: CallOutcome, answer: _Answer | None = None,
                *, latency_ms: float = 0.0, error: str | None = None) -> None:
        call = LLMCall(job_id=job_id, at=time.time(), purpose=purpose, model=self.model,
                       prompt_tokens=answer.prompt_tokens if answer else 0,
                       completion_tokens=answer.completion_tokens if answer else 0,
                       latency_ms=round(answer.latency_ms if answer else latency_ms, 1),
                       cost_usd=answer.cost_usd if answer else 0.0,
                       outcome=outcome, error=self._scrub(error) if error else None)
        log.debug("model call %r: %s, %d+%d tokens, %.0f ms", purpose, outcome, call.prompt_tokens,
                  call.completion_tokens, call.latency_ms)
        if self._sink is None:
            return
        try:
            self._sink(call)
        except Exception:  # a closed project must not turn a good answer into a failure
            log.exception("could not record a model call for %r", purpose)

    def _invalid_sentence(self, purpose: str, problem: str) -> str:
        repairs = self.settings.max_repairs
        asked = f"after {repairs} repair request{'s' if repairs != 1 else ''}" if repairs else "and was not asked again"
        return self._scrub(f"The model at {self.base_url} gave no usable answer for \u201c{purpose}\u201d {asked} "
                           f"(last problem: {problem[:200]}). {OFFLINE_FALLBACK}")

    def _scrub(self, text: str) -> str:
        # Belt and braces: a server may echo what it got; the key must not reach a log, a record or a dialog.
        return text.replace(self._key, "[API key]") if self._key else text


def _user_content(parts: Sequence[str | Untrusted], images: Sequence[bytes]) -> str | list[dict[str, Any]]:
    """The user message: text alone, or text then images (PNG, as data URLs) for a vision-capable model."""
    text = render_parts(parts)
    if not images:
        return text
    return [{"type": "text", "text": text},
            *({"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()}}
              for png in images)]


def _api_error() -> type[openai.APIError]:
    import openai  # already loaded by the client that raised it

    return openai.APIError
