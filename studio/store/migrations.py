"""Additive schema migrations: each function brings a project file from minor N to minor N + 1."""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from studio.store.findings import create_findings_table
from studio.store.game import create_game_tables
from studio.store.leases import create_leases_table
from studio.store.playground_schema import create_playground_tables
from studio.store.scenario_runs import create_scenario_tables
from studio.store.steps import create_steps_table
from studio.store.timeline import create_timeline_indexes
from studio.store.schema import SCHEMA_MAJOR, SchemaVersion, create_base_schema, set_version

Migration = Callable[[Database], None]

# MIGRATIONS[i] brings a file from SCHEMA_MAJOR.i to SCHEMA_MAJOR.(i + 1), so the latest minor is its length.
# To add a table: write `def _add_things(db: Database) -> None: db.create_table(...)` and append it here.
# Never edit or reorder a migration that has shipped: files in the wild have already run it. Never add a trigger or a
# view: a file holding one is refused on open (studio.store.schema_check), as a shared file may have been planted.
# An incompatible change (dropping or retyping a column) is a SCHEMA_MAJOR bump, which older builds refuse.
MIGRATIONS: list[Migration] = [
    create_steps_table,  # 1.1: recorded steps (race preflight recorder)
    create_playground_tables,  # 1.2: suites, cases, jobs, catalogues, site cache, LLM calls (seed 000)
    create_leases_table,  # 1.3: job leases (which process runs which job)
    create_timeline_indexes,  # 1.4: indexes for reading events by row id and by time (the live views)
    create_game_tables,  # 1.5: game evaluation runs, controls, actions, decisions, scores, evidence
    create_scenario_tables,  # 1.6: goal scenario runs, their JSONL records and step screenshots (seed 004)
    create_findings_table,  # 1.7: suspected defects and the tester's decisions on them (cases carry the mark)
]


def latest_version() -> SchemaVersion:
    """The schema version this build writes."""
    return SchemaVersion(SCHEMA_MAJOR, len(MIGRATIONS))


def create_latest_schema(db: Database) -> SchemaVersion:
    """Build a new file's schema as v1.0 plus every migration, so new and migrated files never differ."""
    create_base_schema(db)
    return upgrade(db, SchemaVersion(SCHEMA_MAJOR, 0))


def upgrade(db: Database, found: SchemaVersion) -> SchemaVersion:
    """Run the migrations `found` lacks and stamp the new version; the caller holds one transaction around it."""
    target = latest_version()
    for migration in MIGRATIONS[found.minor : target.minor]:
        migration(db)
    set_version(db, max(found, target))
    return max(found, target)
