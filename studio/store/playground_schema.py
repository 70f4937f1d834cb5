"""Schema 1.2: suites, cases and their versions, jobs with their events and page catalogues, the site
cache and language-model calls. Records are kept whole as JSON beside the columns that are queried."""

from __future__ import annotations

from sqlite_utils import Database

TABLES = """
CREATE TABLE suites (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, module TEXT, created_at REAL, updated_at REAL, data TEXT NOT NULL);
CREATE TABLE cases (
    id TEXT PRIMARY KEY, suite_id TEXT, title TEXT NOT NULL, status TEXT NOT NULL, priority TEXT NOT NULL,
    origin TEXT NOT NULL, version INTEGER NOT NULL, updated_at REAL, data TEXT NOT NULL);
CREATE INDEX cases_suite ON cases (suite_id);
CREATE TABLE case_versions (
    id INTEGER PRIMARY KEY, case_id TEXT NOT NULL, version INTEGER NOT NULL, at REAL NOT NULL,
    author TEXT NOT NULL, summary TEXT NOT NULL, data TEXT NOT NULL, UNIQUE (case_id, version));
CREATE TABLE jobs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL, created_at REAL, updated_at REAL,
    data TEXT NOT NULL);
CREATE INDEX jobs_status ON jobs (status, updated_at);
CREATE TABLE job_events (
    id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, at REAL NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX job_events_job ON job_events (job_id, id);
CREATE TABLE page_catalogs (
    id INTEGER PRIMARY KEY, job_id TEXT NOT NULL, path TEXT NOT NULL, at REAL NOT NULL, data TEXT NOT NULL,
    UNIQUE (job_id, path));
CREATE TABLE site_cache (
    origin TEXT PRIMARY KEY, resolved_base_url TEXT NOT NULL, updated_at REAL NOT NULL, data TEXT NOT NULL);
CREATE TABLE llm_calls (
    id INTEGER PRIMARY KEY, job_id TEXT, at REAL NOT NULL, purpose TEXT NOT NULL, model TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, latency_ms REAL NOT NULL,
    cost_usd REAL NOT NULL, outcome TEXT NOT NULL, error TEXT);
CREATE INDEX llm_calls_job ON llm_calls (job_id);
"""


def create_playground_tables(db: Database) -> None:
    """Migration to 1.2: the playground's tables (preflight jobs, test cases, LLM calls)."""
    for statement in TABLES.strip().split(";"):
        if statement.strip():
            db.execute(statement)
