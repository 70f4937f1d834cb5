"""Crafted rows in a shared project (issue 21, point 10): job rows with invalid JSON, 100,000-level nesting, a
5,000-digit number or wrong types, a badly typed step and a damaged case are each named by table and id and
skipped; `studio jobs` and `studio export` finish and the healthy rows are all there."""

from __future__ import annotations

import sqlite3

from studio.cli.main import main
from studio.models.context import JobRecord
from studio.models.recording import RecordedStep
from studio.models.testcase import CaseStep, TestCase
from studio.store import ProjectFile

CRAFTED_JOBS = {
    "bad-json": "{not json",
    "bad-deep": "[" * 100_000 + "]" * 100_000,
    "bad-digits": '{"id": "bad-digits", "kind": "preflight", "status": "paused", "created_at": ' + "9" * 5000 + "}",
    "bad-types": '{"id": ["x"], "kind": 5, "status": {}, "created_at": "yesterday"}',
}


def _shared_project(path):
    with ProjectFile.create(path) as project:
        project.jobs.save(JobRecord(id="good", kind="preflight", status="paused", request="orders", created_at=1,
                                    updated_at=1))
        for index in range(3):
            project.add_step(RecordedStep(session_id="s1", index=index, at=float(index), action="navigate",
                                          url=f"http://127.0.0.1:8123/page{index}"))
        project.cases.save_case(TestCase(id="tc-good", title="Open the list", steps=[
            CaseStep(action="navigate", url="/", target="the list")]), "tester", "written")
        project.cases.save_case(TestCase(id="tc-bad", title="Damaged later", steps=[]), "tester", "written")
    conn = sqlite3.connect(path)
    for job_id, data in CRAFTED_JOBS.items():
        conn.execute("INSERT INTO jobs (id, kind, status, created_at, updated_at, data) VALUES (?,?,?,?,?,?)",
                     (job_id, "preflight", "paused", 2, 2, data))
    conn.execute("UPDATE jobs SET data = 12345 WHERE id = 'bad-types'")  # not even text
    conn.execute("INSERT INTO jobs (id, kind, status, created_at, updated_at, data) VALUES (?,?,?,?,?,?)",
                 ("bad-typed", "preflight", "paused", 3, 3, '{"id": "bad-typed", "kind": "preflight", '
                  '"status": "paused", "created_at": "not a time", "updated_at": 1}'))
    conn.execute("UPDATE steps SET data = json_set(data, '$.action', 42) WHERE idx = 1")
    conn.execute("UPDATE cases SET data = json_set(data, '$.steps', 'everything') WHERE id = 'tc-bad'")
    conn.commit()
    conn.close()


def test_studio_jobs_lists_the_healthy_jobs_and_names_each_damaged_row(tmp_path, capsys):
    path = tmp_path / "shared.studio"
    _shared_project(path)
    assert main(["jobs", "--project", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "good" in out and "orders" in out
    for job_id in [*CRAFTED_JOBS, "bad-typed"]:
        assert f"jobs row '{job_id}'" in err
    assert "Traceback" not in err and len(err.splitlines()) == len(CRAFTED_JOBS) + 1


def test_export_writes_the_healthy_steps_and_cases_and_names_the_damaged_ones(tmp_path, capsys):
    path = tmp_path / "shared.studio"
    _shared_project(path)
    out = tmp_path / "session"
    assert main(["export", "--project", str(path), "--session", "s1", "--lang", "python", "--out", str(out)]) == 0
    printed, err = capsys.readouterr()
    assert "Exported 2 steps of session s1" in printed
    assert "steps row 2" in err and "action" in err
    cases = tmp_path / "cases"
    assert main(["export", "--project", str(path), "--cases", "all", "--lang", "python", "--out", str(cases)]) == 0
    printed, err = capsys.readouterr()
    assert "Exported 1 case (tc-good)" in printed and "cases row 'tc-bad'" in err


def test_the_live_views_skip_an_evidence_row_of_the_wrong_type(tmp_path):
    from studio.models.events import NavigationEvent

    path = tmp_path / "shared.studio"
    with ProjectFile.create(path) as project:
        for n in range(3):
            project.record(NavigationEvent(session_id="s1", url=f"http://127.0.0.1:8123/p{n}"))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE navigations SET at = 'yesterday' WHERE id = 2")
    conn.commit()
    conn.close()
    with ProjectFile.open(path) as project:
        pages = project.timeline.rows_since("pages", "s1")
        events = project.timeline.before()
        assert [p.url[-2:] for p in pages] == ["p0", "p2"] and len(events) == 2
        assert [str(row) for row in project.rows.damaged][0].startswith("navigations row 2 (at")
        assert len(project.navigations("s1")) == 2
