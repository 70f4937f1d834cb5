"""Additive schema migrations: each function brings a project file from minor N to minor N + 1.

To add a table in a later issue, write `def _add_things(db: Database) -> None: db.create_table(...)` and append it
to MIGRATIONS. Never edit or reorder a migration that has shipped: files in the wild already ran it.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from studio.store.schema import SCHEMA_MAJOR, SchemaVersion, create_base_schema, set_version

Migration = Callable[[Database], None]

# MIGRATIONS[i] brings a file from SCHEMA_MAJOR.i to SCHEMA_MAJOR.(i + 1); the latest minor is its length.
MIGRATIONS: list[Migration] = []


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
