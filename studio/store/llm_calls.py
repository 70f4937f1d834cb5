"""Language-model calls in the project file: purpose, model, tokens, latency, cost and outcome."""

from __future__ import annotations

from sqlite_utils import Database

from studio.models.llm import LLMCall


class LLMCallStore:
    """project.llm_calls: one row per call (never the key or the prompt text)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, call: LLMCall) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO llm_calls (job_id, at, purpose, model, prompt_tokens, completion_tokens, latency_ms,"
                " cost_usd, outcome, error) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (call.job_id, call.at, call.purpose, call.model, call.prompt_tokens, call.completion_tokens,
                 call.latency_ms, call.cost_usd, call.outcome, call.error))

    def list(self, job_id: str | None = None) -> list[LLMCall]:
        sql, params = "SELECT job_id, at, purpose, model, prompt_tokens, completion_tokens, latency_ms, cost_usd," \
                      " outcome, error FROM llm_calls", []
        if job_id is not None:
            sql += " WHERE job_id = ?"
            params.append(job_id)
        columns = ("job_id", "at", "purpose", "model", "prompt_tokens", "completion_tokens", "latency_ms",
                   "cost_usd", "outcome", "error")
        return [LLMCall(**dict(zip(columns, row))) for row in self.db.execute(sql + " ORDER BY id", params)]

    def totals(self, job_id: str | None = None) -> dict[str, float]:
        calls = self.list(job_id)
        return {"calls": len(calls), "prompt_tokens": sum(c.prompt_tokens for c in calls),
                "completion_tokens": sum(c.completion_tokens for c in calls),
                "cost_usd": round(sum(c.cost_usd for c in calls), 6)}
