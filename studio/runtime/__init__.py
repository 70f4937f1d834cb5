"""The engine runtime every front end builds on: EngineRuntime (bus, project, browser, model, budgets) and its
JobRunner (one job at a time, leases, cancel, budgets enforced during a step)."""

from studio.runtime.engine import EngineRuntime
from studio.runtime.jobs import JobBusy, JobControl, JobProgress, JobRunner, JobWork

__all__ = ["EngineRuntime", "JobBusy", "JobControl", "JobProgress", "JobRunner", "JobWork"]
