"""Issue 21's attacks replayed through the real `studio` command, as a hostile tester or a steered AI would make
them: links out of the pilot's folder, a 200 MB action file, nesting, local and foreign URLs, a password typed on a
lookalike origin, uploads from anywhere, YAML bombs, a 60 MB answers file, a planted trigger and crafted rows.
Nothing may leak, nothing recorded may be lost, every refusal is one sentence, and the studio's peak memory stays
bounded (the unbounded reads took the machine to 23 GB)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat

import pytest

from studio.models.context import JobRecord
from studio.models.recording import RecordedStep
from studio.store import ProjectFile
from tests.pilot.scripted_ai import act, observation, wait_for
from tests.trust.measured import MeasuredStudio, one_sentence, run_measured

# Measured: 63-70 MB (the command's own Python and its imports); the unbounded reads reached 23 GB.
PEAK_RSS_MB = 300

YAML_BOMB = "\n".join(["version: '0.1'", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'] + [
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi")]) + "\n"


@pytest.mark.browser
async def test_a_steered_ai_gets_one_sentence_per_attack_and_nothing_leaks(hostile, tmp_path):
    hostile.knobs["home"] = "script_redirect"  # the app's page sends the browser to a lookalike sign-in page
    sessions = tmp_path / "sessions"
    studio = MeasuredStudio("pilot", hostile.app_url + "/", "--goal", "sign in", "--sessions-dir", sessions,
                            logs=tmp_path / "pilot")
    try:
        folders = await wait_for(lambda: list(sessions.glob("exploration-*")) if sessions.exists() else [], 60,
                                 "the session folder")
        folder = folders[0]
        await observation(folder, 1, 60)
        os.symlink("/dev/zero", folder / "link.tmp")
        os.replace(folder / "link.tmp", folder / "action.json")
        errors = [(await observation(folder, 2))["error"]]
        with (folder / "big.tmp").open("wb") as big:
            big.truncate(200 * 1024 * 1024)  # 200 MB (sparse, so the test itself stays cheap)
        os.replace(folder / "big.tmp", folder / "action.json")
        errors.append((await observation(folder, 3))["error"])
        errors.append((await act(folder, 4, "[" * 30_000 + "]" * 30_000))["error"])
        tried = await act(folder, 5, {"stopOnError": False, "actions": [
            {"action": "navigate", "url": "file:///etc/passwd"},
            {"action": "navigate", "url": "chrome://version"},
            {"action": "upload", "selector": "#password", "value": "/etc/passwd"},
            {"action": "wait", "duration": 800},
            {"action": "type", "selector": "#password", "value": "s3cret-typed-by-the-ai"}]})
        outcomes = tried["lastBatch"]["outcomes"]
        errors += [outcome["error"] for outcome in outcomes if not outcome["ok"]]
        assert [outcome["ok"] for outcome in outcomes] == [False, False, False, True, False], outcomes
        assert "uploads folder" in outcomes[2]["error"] and hostile.other_url in outcomes[4]["error"]
        await act(folder, 6, {"actions": [{"action": "navigate", "url": hostile.app_url + "/reports"}], "done": True})
        finished = await asyncio.to_thread(studio.finish, 60)
    finally:
        if studio.process.returncode is None:
            studio.process.kill()
    assert finished.returncode == 0 and "Traceback" not in finished.stderr, finished.stderr[-3000:]
    assert all(error and "\n" not in error and "Traceback" not in error for error in errors), errors
    assert not any("s3cret" in leak for leak in hostile.leaks), hostile.leaks
    written = [path for path in folder.rglob("*") if path.is_file() and not path.is_symlink()]
    assert all("root:x:0:0" not in path.read_text(errors="replace") for path in written if path.suffix == ".json")
    assert sum(path.stat().st_size for path in written) < 20 * 1024 * 1024  # nothing echoed the 200 MB
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    print(f"pilot peak RSS {finished.peak_rss_mb:.0f} MB")
    assert 0 < finished.peak_rss_mb < PEAK_RSS_MB, finished.peak_rss_mb


def test_yaml_bombs_and_a_huge_answers_file_are_one_sentence_in_bounded_memory(tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(YAML_BOMB)
    deep = tmp_path / "deep.yaml"
    deep.write_text("version: '0.1'\nid: " + "[" * 20_000 + "]" * 20_000 + "\n")
    for path in (bomb, deep):
        done = run_measured("validate", path, logs=tmp_path / path.stem, timeout_s=60)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert one_sentence(done.stdout).startswith(f"{path}:")  # the problem with its line; a count on stderr
        print(f"validate {path.name} peak RSS {done.peak_rss_mb:.0f} MB")
        assert 0 < done.peak_rss_mb < PEAK_RSS_MB, (path.name, done.peak_rss_mb)
    answers = tmp_path / "answers.json"
    with answers.open("wb") as big:
        big.truncate(60 * 1024 * 1024)
    done = run_measured("preflight", "http://127.0.0.1:9/", "--project", tmp_path / "p.studio", "--answers", answers,
                        "--quiet", logs=tmp_path / "answers", timeout_s=60)
    assert done.returncode == 2 and "64 KB" in one_sentence(done.stderr)
    assert done.peak_rss_mb < PEAK_RSS_MB


def test_a_shared_project_with_a_trigger_and_crafted_rows_loses_nothing(tmp_path):
    path = tmp_path / "shared.studio"
    with ProjectFile.create(path) as project:
        for index in range(8):
            project.add_step(RecordedStep(session_id="s1", index=index, at=float(index), action="navigate",
                                          url=f"http://127.0.0.1:8123/p{index}"))
        project.jobs.save(JobRecord(id="good", kind="preflight", status="paused", request="orders", created_at=1,
                                    updated_at=1))
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO jobs (id, kind, status, created_at, updated_at, data) VALUES "
                 "('deep', 'preflight', 'paused', 2, 2, ?)", ("[" * 100_000 + "]" * 100_000,))
    conn.commit()
    conn.execute("CREATE TRIGGER wipe AFTER INSERT ON jobs BEGIN DELETE FROM steps; END")
    conn.commit()
    conn.close()

    refused = run_measured("jobs", "--project", path, logs=tmp_path / "jobs")
    assert refused.returncode == 2 and "trigger wipe on jobs" in one_sentence(refused.stderr)
    cleaned = run_measured("clean-copy", path, logs=tmp_path / "clean")
    assert cleaned.returncode == 0, cleaned.stderr
    copy = tmp_path / "shared-clean.studio"
    listed = run_measured("jobs", "--project", copy, logs=tmp_path / "jobs-copy")
    assert listed.returncode == 0 and "good" in listed.stdout and "jobs row 'deep'" in one_sentence(listed.stderr)
    with ProjectFile.open(copy) as project:
        project.jobs.save(JobRecord(id="next", kind="preflight", status="running", request="", created_at=3,
                                    updated_at=3))
        assert len(project.steps("s1")) == 8
    assert max(refused.peak_rss_mb, cleaned.peak_rss_mb, listed.peak_rss_mb) < PEAK_RSS_MB
