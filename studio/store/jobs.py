"""Preflight and playground jobs in the project file: their state (so a paused job survives a restart),
their events, the page catalogues they built, and the per-origin site cache."""

from __future__ import annotations

import time

from pydantic_core import to_json
from sqlite_utils import Database

from studio.models.catalog import PageCatalog
from studio.models.context import JobRecord
from studio.store.leases import JobLeases
from studio.store.row_decode import RowReader


class JobStore:
    """project.jobs: save and load jobs, their seed events, page catalogues and cached site maps."""

    def __init__(self, db: Database, rows: RowReader | None = None) -> None:
        self.db = db
        self.rows = rows or RowReader()  # a damaged row is skipped and named, never a traceback

    def save(self, job: JobRecord) -> JobRecord:
        job = job.model_copy(update={"updated_at": time.time() * 1000})
        with self.db.atomic():
            self.db.execute(
                "INSERT OR REPLACE INTO jobs (id, kind, status, created_at, updated_at, data) VALUES (?,?,?,?,?,?)",
                (job.id, job.kind, job.status, job.created_at, job.updated_at, job.model_dump_json()))
        return job

    def get(self, job_id: str) -> JobRecord | None:
        row = self.db.execute("SELECT id, data FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return self.rows.model(JobRecord, "jobs", *row) if row else None

    def all(self, kind: str | None = None, status: str | None = None) -> list[JobRecord]:
        sql, params = "SELECT id, data FROM jobs WHERE 1=1", []
        if kind:
            sql += " AND kind = ?"
            params.append(kind)
        if status:
            sql += " AND status = ?"
            params.append(status)
        rows = self.db.execute(sql + " ORDER BY created_at", params).fetchall()
        return self.rows.models(JobRecord, "jobs", rows)

    def last_base_url(self) -> str | None:
        """The base URL the latest job that resolved one found (where the app runs, for the next job)."""
        for job in reversed(self.all()):
            if job.context.resolved_base_url:
                return job.context.resolved_base_url
        return None

    def latest_paused(self, kind: str | None = None) -> JobRecord | None:
        paused = self.all(kind=kind, status="paused")
        return paused[-1] if paused else None

    def sweep_interrupted(self) -> list[JobRecord]:
        """Jobs saved as running whose process is gone (killed, crashed) become `interrupted`, saying who ran them;
        returns every interrupted job, oldest first. A job whose process still runs is left alone."""
        leases = JobLeases(self.db)
        for job in self.all(status="running"):
            if leases.holder(job.id) is not None:
                continue
            dead = leases.last(job.id)
            who = f"its process (pid {dead.pid})" if dead is not None else "the process running it"
            when = time.strftime("%H:%M:%S", time.localtime(job.updated_at / 1000))
            self.save(job.model_copy(update={
                "status": "interrupted",
                "message": f"Interrupted: {who} stopped without finishing it (last saved at {when}). Resume it to go "
                           "on from where it stopped, or discard it."}))
        return self.all(status="interrupted")

    # -- events ----------------------------------------------------------------------------------

    def events(self, job_id: str) -> list[dict]:
        rows = self.db.execute("SELECT id, data FROM job_events WHERE job_id = ? ORDER BY id", (job_id,)).fetchall()
        return [event for row_id, data in rows if isinstance(event := self.rows.json("job_events", row_id, data), dict)]

    # -- page catalogues and the site cache --------------------------------------------------------

    def save_catalog(self, job_id: str, catalog: PageCatalog) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT OR REPLACE INTO page_catalogs (job_id, path, at, data) VALUES (?,?,?,?)",
                (job_id, catalog.path, time.time() * 1000, catalog.model_dump_json()))

    def catalogs(self, job_id: str) -> list[PageCatalog]:
        rows = self.db.execute("SELECT id, data FROM page_catalogs WHERE job_id = ? ORDER BY id", (job_id,)).fetchall()
        return self.rows.models(PageCatalog, "page_catalogs", rows)

    def cache_site(self, origin: str, resolved_base_url: str, data: dict) -> None:
        with self.db.atomic():
            self.db.execute(
                "INSERT OR REPLACE INTO site_cache (origin, resolved_base_url, updated_at, data) VALUES (?,?,?,?)",
                (origin, resolved_base_url, time.time() * 1000, to_json(data).decode()))

    def cached_site(self, origin: str) -> tuple[str, dict] | None:
        row = self.db.execute("SELECT resolved_base_url, data FROM site_cache WHERE origin = ?", (origin,)).fetchone()
        data = self.rows.json("site_cache", origin, row[1]) if row else None
        return (row[0], data) if isinstance(data, dict) and isinstance(row[0], str) else None

    def forget_site(self, origin: str) -> None:
        with self.db.atomic():
            self.db.execute("DELETE FROM site_cache WHERE origin = ?", (origin,))
