"""A project file named on its own opens in the window: `studio q3.studio` and `studio gui q3.studio` are what a
launcher entry (`Exec=studio gui %f`), a double-clicked file and a macOS document event pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def studio(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def test_a_project_file_given_alone_is_opened_in_the_window():
    from studio.cli.main import build_parser, opening_a_project

    assert opening_a_project(["/home/tess/q3.studio"]) == ["gui", "/home/tess/q3.studio"]
    assert opening_a_project(["-v", "Q3.STUDIO"]) == ["-v", "gui", "Q3.STUDIO"]
    for unchanged in (["gui", "a.studio"], [], ["demo", "--headless"], ["gui", "--project", "a.studio"],
                      ["doctor", "a.studio"], ["notes.txt"]):
        assert opening_a_project(unchanged) == unchanged
    args = build_parser().parse_args(["gui", "a.studio"])
    assert args.project_file == Path("a.studio") and args.project is None


def test_two_different_projects_are_refused_in_one_sentence(tmp_path):
    done = studio("gui", str(tmp_path / "a.studio"), "--project", str(tmp_path / "b.studio"))
    assert done.returncode == 2 and "two projects given" in done.stderr and "Traceback" not in done.stderr
    assert not list(tmp_path.iterdir())
