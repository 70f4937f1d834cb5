"""`studio export` on a real project file: what it prints, writes, and refuses."""

from __future__ import annotations

import pytest
from export_samples import SECRET, add_to_cart, all_text, sign_in

from studio.cli.main import main
from studio.models.events import SessionStarted
from studio.store.project import ProjectFile

H = "http://127.0.0.1:8123"


def _started(session_id: str) -> SessionStarted:
    return SessionStarted(session_id=session_id, browser_path="/usr/bin/chromium", browser_version="1",
                          headless=True, viewport=(1280, 720), user_agent="ua")


@pytest.fixture
def project(tmp_path):
    """A project with a recorded add-to-cart session (s1), a sign-in (s2) and a session without steps (s3)."""
    path = tmp_path / "shop.studio"
    with ProjectFile.create(path) as project:
        for session_id in ("s1", "s2", "s3"):
            project.record(_started(session_id))
        for recorded in add_to_cart(H):
            project.add_step(recorded)
        for recorded in sign_in(H, "ada@example.com"):
            project.add_step(recorded.model_copy(update={"session_id": "s2"}))
    return path


def export(*args: str) -> int:
    return main(["export", *args])


def test_exporting_a_session_prints_the_files_it_wrote(project, tmp_path, capsys):
    out = tmp_path / "out"
    code = export("--project", str(project), "--session", "s1", "--lang", "python", "--out", str(out),
                  "--title", "add iPhone 15 Pro to cart")
    printed = capsys.readouterr().out
    assert code == 0
    assert printed.splitlines()[0] == f"Exported 2 steps of session s1 as python to {out}:"
    assert f"  {out / 'test_add_iphone_15_pro_to_cart.py'}" in printed.splitlines()
    assert (out / "test_add_iphone_15_pro_to_cart.py").is_file() and (out / "conftest.py").is_file()


def test_a_session_with_a_secret_says_which_variable_to_set(project, tmp_path, capsys):
    out = tmp_path / "login"
    assert export("--project", str(project), "--session", "s2", "--lang", "typescript", "--out", str(out)) == 0
    assert "Set STUDIO_PASSWORD before running the test (see README.md)." in capsys.readouterr().out
    assert SECRET not in all_text(out)


@pytest.mark.parametrize("session, sentence", [
    ("nope", "has no session 'nope'. Known sessions: s1, s2, s3."),
    ("s3", "Session 's3' has no recorded steps, so there is nothing to export."),
])
def test_an_unknown_or_empty_session_exits_2_with_a_sentence(project, tmp_path, capsys, session, sentence):
    code = export("--project", str(project), "--session", session, "--lang", "python", "--out", str(tmp_path / "o"))
    assert code == 2
    assert sentence in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_an_unreadable_project_exits_2_with_the_project_files_sentence(tmp_path, capsys):
    foreign = tmp_path / "notes.studio"
    foreign.write_text("not a database\n")
    code = export("--project", str(foreign), "--session", "s1", "--lang", "python", "--out", str(tmp_path / "o"))
    err = capsys.readouterr().err
    assert code == 2 and "is not a Preflight Studio project" in err and "Traceback" not in err
    assert export("--project", str(tmp_path / "missing.studio"), "--session", "s1", "--lang", "python",
                  "--out", str(tmp_path / "o")) == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_bad_out_folder_exits_2_and_leaves_it_alone(project, tmp_path, capsys):
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "mine.txt").write_text("mine")
    code = export("--project", str(project), "--session", "s1", "--lang", "python", "--out", str(taken))
    assert code == 2
    assert "holds files that are not a Preflight Studio export. Choose an empty or new folder." in (
        capsys.readouterr().err)
    assert [p.name for p in taken.iterdir()] == ["mine.txt"]
    a_file = tmp_path / "out.txt"
    a_file.write_text("x")
    assert export("--project", str(project), "--session", "s1", "--lang", "python", "--out", str(a_file)) == 2
    assert "it is a file, not a folder" in capsys.readouterr().err


def test_an_unknown_language_is_refused_by_the_parser(project, tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        export("--project", str(project), "--session", "s1", "--lang", "java", "--out", str(tmp_path / "o"))
    assert stopped.value.code == 2 and "invalid choice: 'java'" in capsys.readouterr().err
