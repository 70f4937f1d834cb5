"""An upgrade keeps the work: a project file written by the released 0.1.0 (schema 1.6, before the findings table
came) opens in this build, is migrated to the current schema in place, and every case, job, game run, scenario run,
session and screenshot it held reads back through today's stores. How the fixture was made:
tests/fixtures/projects/README.md."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from studio.store import ProjectFile, SchemaVersion, migrations
from studio.store.game import GameStore
from studio.store.scenario_runs import ScenarioRunStore

FIXTURE = Path(__file__).parent.parent / "fixtures" / "projects" / "released-0.1.0.studio"
PNG = b"\x89PNG\r\n\x1a\n"


def _version(path: Path) -> SchemaVersion:
    with sqlite3.connect(path) as conn:
        return SchemaVersion.from_user_version(conn.execute("PRAGMA user_version").fetchone()[0])


def _row_counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {table: conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] for table in tables}
    finally:
        conn.close()


@pytest.fixture
def released(tmp_path: Path) -> Path:
    """A copy of the released file: opening migrates in place, and the fixture must stay as 0.1.0 wrote it."""
    copy = tmp_path / "released-0.1.0.studio"
    shutil.copyfile(FIXTURE, copy)
    return copy


def test_the_fixture_is_an_older_schema_and_small() -> None:
    assert FIXTURE.stat().st_size < 1_000_000
    assert _version(FIXTURE) == SchemaVersion(1, 6)
    assert _version(FIXTURE) < migrations.latest_version(), "the fixture no longer exercises a migration"


def test_a_released_project_opens_migrated_with_every_row_kept(released: Path) -> None:
    before = _row_counts(released)
    with ProjectFile.open(released) as project:
        assert project.version == migrations.latest_version()
    assert _version(released) == migrations.latest_version()  # stamped in the file, not only in memory
    after = _row_counts(released)
    assert {table: after[table] for table in before} == before
    assert after["findings"] == 0  # the 1.7 table the migration added


def test_everything_the_released_project_held_reads_back(released: Path) -> None:
    with ProjectFile.open(released) as project:
        # The exploration session of the playground job, and the game's session.
        sessions = project.sessions()
        assert len(sessions) == 2 and all(s.browser_version and s.viewport == (360, 270) for s in sessions)
        explored = sessions[0]
        assert project.counts(explored.id) == {"navigations": 15, "console_errors": 1, "network_failures": 1,
                                               "screenshots": 4}
        assert project.navigations(explored.id)[0].url == "http://127.0.0.1:8765/login?next=/dashboard"
        shots = project.screenshots(explored.id)
        assert [s.label for s in shots][-1] == "preflight /disputes"
        assert all(project.screenshot_png(s.id).startswith(PNG) for s in shots)

        # The New Suite job: its suite, its nine cases with their steps and history, its events and UI map.
        [job] = project.jobs.all()
        assert (job.kind, job.status) == ("new_testsuite", "completed")
        assert len(project.jobs.events(job.id)) == 34 and len(project.jobs.catalogs(job.id)) == 13
        [suite] = project.cases.suites()
        assert suite.title == "Disputes suite"
        cases = project.cases.cases(suite.id)
        assert len(cases) == 9 and all(case.steps for case in cases)
        assert "Disputes: complete the wizard with valid data" in {case.title for case in cases}
        assert all(len(project.cases.history(case.id)) == 1 for case in cases)

        # The game evaluation: phases' controls, actions, decisions, scores, screenshots and logs.
        games = GameStore(project.db)
        [run] = games.runs()
        assert (run.url, run.status) == ("http://127.0.0.1:8765/game", "completed")
        assert len(games.controls(run.id)) == 26 and len(games.actions(run.id)) == 9
        assert len(games.decisions(run.id)) == 7
        assert set(games.scores(run.id)) == {"load", "visual", "controls", "playability", "technical", "overall"}
        evidence = games.screenshots(run.id)
        assert len(evidence) == 7 and all(games.screenshot_png(shot.id).startswith(PNG) for shot in evidence)
        assert set(games.logs(run.id)) == {"console.log", "network.log", "agent-decisions.log"}

        # The goal scenario run: its JSONL records in order and the step screenshot.
        scenarios = ScenarioRunStore(project.db)
        [scenario_run] = scenarios.runs()
        assert (scenario_run.status, scenario_run.pass_rate, scenario_run.scenarios) == \
            ("finished", 1.0, ["search-help-centre"])
        records = scenarios.records(scenario_run.id)
        assert [r["type"] for r in records] == ["run_start", "scenario_start", "step", "scenario_end", "run_end"]
        [(run_id, end)] = scenarios.ends("search-help-centre")
        assert run_id == scenario_run.id and end["status"] == "success"
        shot_ids = scenarios.shots(scenario_run.id, "search-help-centre")
        assert shot_ids and all((scenarios.shot_png(i) or b"").startswith(PNG) for i in shot_ids.values())

        assert project.findings.all() == []
        assert project.rows.damaged == []  # no row of the old file failed to decode into today's models


def test_the_migrated_project_takes_new_work_and_reopens(released: Path) -> None:
    from studio.models.events import NavigationEvent

    with ProjectFile.open(released) as project:
        session_id = project.sessions()[0].id
        project.record(NavigationEvent(session_id=session_id, url="http://127.0.0.1:8765/after-upgrade"))
    with ProjectFile.open(released) as project:
        assert project.version == migrations.latest_version()
        assert project.navigations(session_id)[-1].url == "http://127.0.0.1:8765/after-upgrade"
