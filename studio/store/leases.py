"""Job leases in the project file: the process running a job holds its lease and renews it, so a second process
is refused the same job and a job whose process is gone is known to be interrupted.

A lease is live while its heartbeat is fresh and, on this host, its process still exists; a SIGKILLed runner's
lease is dead at once, a remote one after STALE_AFTER_S.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from dataclasses import dataclass

from sqlite_utils import Database

STALE_AFTER_S = 30.0  # heartbeats come every few seconds; this much silence means the runner is gone
HOST = socket.gethostname()

TABLE = """
CREATE TABLE job_leases (
    job_id TEXT PRIMARY KEY, pid INTEGER NOT NULL, host TEXT NOT NULL, token TEXT NOT NULL,
    acquired_at REAL NOT NULL, heartbeat_at REAL NOT NULL)
"""


def create_leases_table(db: Database) -> None:
    """Migration to 1.3: who runs which job right now."""
    db.execute(TABLE)


@dataclass(frozen=True)
class Lease:
    """A hold on one job by one process."""

    job_id: str
    pid: int
    host: str
    token: str
    acquired_at: float  # wall-clock seconds
    heartbeat_at: float

    @property
    def live(self) -> bool:
        if time.time() - self.heartbeat_at > STALE_AFTER_S:
            return False
        return self.host != HOST or _process_exists(self.pid)


class JobLocked(Exception):
    """The job is running in another process; str() says which and what to do."""

    def __init__(self, lease: Lease) -> None:
        since = time.strftime("%H:%M:%S", time.localtime(lease.acquired_at))
        where = "" if lease.host == HOST else f" on {lease.host}"
        super().__init__(f"Job {lease.job_id} is running in another process (pid {lease.pid}{where}, since {since}). "
                         "Wait for it to finish or stop that process, then try again.")
        self.lease = lease


class JobLeases:
    """project.leases: acquire, renew and release job leases; one transaction each."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def acquire(self, job_id: str) -> Lease:
        """Hold `job_id` for this process; raises JobLocked when another live process holds it."""
        now = time.time()
        lease = Lease(job_id, os.getpid(), HOST, uuid.uuid4().hex, now, now)
        conn = self.db.conn
        # IMMEDIATE takes the write lock before reading, so two processes cannot both see the job free.
        conn.execute("BEGIN IMMEDIATE")
        try:
            held = self._get(job_id)
            if held is not None and held.live and (held.pid, held.host) != (lease.pid, lease.host):
                raise JobLocked(held)
            conn.execute("INSERT OR REPLACE INTO job_leases (job_id, pid, host, token, acquired_at, heartbeat_at) "
                         "VALUES (?,?,?,?,?,?)", (job_id, lease.pid, lease.host, lease.token, now, now))
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return lease

    def renew(self, lease: Lease) -> bool:
        """Refresh the heartbeat; False when the lease was taken over (or released) meanwhile."""
        with self.db.atomic():
            cursor = self.db.execute("UPDATE job_leases SET heartbeat_at = ? WHERE job_id = ? AND token = ?",
                                     (time.time(), lease.job_id, lease.token))
        return cursor.rowcount == 1

    def release(self, lease: Lease) -> None:
        with self.db.atomic():
            self.db.execute("DELETE FROM job_leases WHERE job_id = ? AND token = ?", (lease.job_id, lease.token))

    def holder(self, job_id: str) -> Lease | None:
        """The live lease on `job_id`, or None (no lease, or its process is gone)."""
        held = self._get(job_id)
        return held if held is not None and held.live else None

    def last(self, job_id: str) -> Lease | None:
        """The lease last taken on `job_id`, live or not (a dead one says which process ran the job)."""
        return self._get(job_id)

    def _get(self, job_id: str) -> Lease | None:
        row = self.db.execute("SELECT job_id, pid, host, token, acquired_at, heartbeat_at FROM job_leases "
                              "WHERE job_id = ?", (job_id,)).fetchone()
        return Lease(*row) if row else None


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: it exists
    return True
