"""Schema versions: an older minor is migrated forward keeping its data, a newer minor opens as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlite_utils import Database

from store_samples import dump_tables, pragma, session_events, set_user_version
from studio.models.events import NavigationEvent
from studio.store import ProjectFile, ProjectUpgradeError, SchemaVersion, migrations


def add_tags(db: Database) -> None:
    """What a later issue's migration looks like: one new table, no change to old ones."""
    db.create_table("tags", {"id": int, "session_id": str, "name": str}, pk="id")
    db.table("tags").create_index(["session_id"])


def add_tag_colour(db: Database) -> None:
    db.table("tags").add_column("colour", str)


def schema_sql(path: Path) -> list[str]:
    with ProjectFile.open(path) as project:
        return sorted(row["sql"] for row in project.db.query("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"))


def make_v1_0_project(path: Path) -> dict[str, list[tuple]]:
    # A file as the first release wrote it: the base schema and no migrations.
    real = migrations.MIGRATIONS
    migrations.MIGRATIONS = []
    try:
        with ProjectFile.create(path) as project:
            assert project.version == SchemaVersion(1, 0)
            for event in session_events("s1"):
                project.record(event)
    finally:
        migrations.MIGRATIONS = real
    return dump_tables(path)


def test_a_v1_0_file_gains_the_steps_table_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "first-release.studio"
    before = make_v1_0_project(path)
    with ProjectFile.open(path) as project:
        assert project.version == migrations.latest_version() and project.version.minor >= 1
        assert project.steps("s1") == [] and project.next_step_index("s1") == 0
    after = dump_tables(path)
    assert {k: v for k, v in after.items() if k in before} == before
    fresh = tmp_path / "fresh.studio"
    ProjectFile.create(fresh).close()
    assert schema_sql(fresh) == schema_sql(path)


def test_an_older_minor_is_migrated_in_place_and_keeps_its_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.studio"
    before = make_v1_0_project(path)

    monkeypatch.setattr(migrations, "MIGRATIONS", [add_tags, add_tag_colour])
    with ProjectFile.open(path) as project:
        assert project.version == SchemaVersion(1, 2)
        project.db["tags"].insert({"session_id": "s1", "name": "smoke", "colour": "red"})
        project.record(NavigationEvent(session_id="s1", url="http://127.0.0.1/after-upgrade"))

    assert pragma(path, "user_version") == (1 << 16) | 2
    after = dump_tables(path)
    assert after["navigations"][: len(before["navigations"])] == before["navigations"]
    assert {k: v for k, v in after.items() if k != "navigations"} == {
        k: v for k, v in before.items() if k != "navigations"
    }

    # A file created by this build and one migrated to it must be indistinguishable.
    fresh = tmp_path / "fresh.studio"
    ProjectFile.create(fresh).close()
    assert schema_sql(fresh) == schema_sql(path)


def test_a_failing_migration_leaves_the_file_at_its_old_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.studio"
    before = make_v1_0_project(path)

    def broken(db: Database) -> None:
        db.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("column clash")

    monkeypatch.setattr(migrations, "MIGRATIONS", [add_tags, broken])
    with pytest.raises(ProjectUpgradeError) as caught:
        ProjectFile.open(path)
    message = str(caught.value)
    assert "from project format 1.0 to 1.2" in message
    assert "column clash" in message
    assert "not changed" in message

    assert pragma(path, "user_version") == 1 << 16
    assert dump_tables(path) == before
    with Database(path) as db:
        assert "tags" not in db.table_names() and "half_done" not in db.table_names()


def test_a_newer_minor_opens_and_keeps_its_version(tmp_path: Path) -> None:
    path = tmp_path / "newer.studio"
    with ProjectFile.create(path) as project:
        for event in session_events("s1"):
            project.record(event)
    before = dump_tables(path)
    newer = migrations.latest_version().minor + 1
    with Database(path) as db:
        # Pretend a newer build added a table, a column and an index we do not know about.
        db.create_table("observations", {"id": int, "payload": str}, pk="id")
        db.table("observations").insert({"payload": "{}"})
        db.table("navigations").add_column("referrer", str)
        db.table("observations").create_index(["payload"])
    set_user_version(path, (1 << 16) | newer)

    with ProjectFile.open(path) as project:
        assert project.version == SchemaVersion(1, newer)
        assert project.counts("s1")["navigations"] == 2
        project.record(NavigationEvent(session_id="s1", url="http://127.0.0.1/more"))

    assert pragma(path, "user_version") == (1 << 16) | newer, "an older build must not downgrade the version"
    after = dump_tables(path)
    assert len(after["navigations"]) == len(before["navigations"]) + 1
    with Database(path) as db:
        assert db.table("observations").count == 1
