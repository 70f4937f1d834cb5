"""A project file the user cannot write is refused when opened, by every front end, with a sentence and exit 2.

Tests run as root, who writes any file whatever its mode. So `studio` runs without CAP_DAC_OVERRIDE (dropped from
its capability bounding set by `setpriv`): root then obeys permission bits like any user, and a 0444 file is
really read-only to it. Run as a normal user, the mode alone does it.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from studio.store.project import ProjectFile
from tests.permissions import as_user, needs_enforced_permissions

pytestmark = needs_enforced_permissions


def studio(*args: object, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(as_user(sys.executable, "-m", "studio", *map(str, args)), capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def read_only_project(tmp_path: Path) -> Path:
    """A valid project with mode 0444 in a folder the user can write (so only the file itself is read-only)."""
    path = tmp_path / "shared.studio"
    ProjectFile.create(path).close()
    path.chmod(0o444)
    probe = subprocess.run(as_user(sys.executable, "-c", f"open({str(path)!r}, 'r+b')"), capture_output=True,
                           text=True)
    assert "PermissionError" in probe.stderr, "the file must really be unwritable for the test to mean anything"
    return path


def assert_refused(done: subprocess.CompletedProcess, path: Path, before: str) -> None:
    assert done.returncode == 2, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert f"{path} is read-only" in done.stderr
    assert "writable" in done.stderr and "copy" in done.stderr
    assert digest(path) == before
    assert not list(path.parent.glob(path.name + "-*")), "no -wal/-shm may be left beside a refused file"


def test_preflight_refuses_a_read_only_project(read_only_project: Path) -> None:
    before = digest(read_only_project)
    done = studio("preflight", "http://127.0.0.1:9/", "--project", read_only_project, "--quiet")
    assert_refused(done, read_only_project, before)


def test_mcp_refuses_to_start_on_a_read_only_project(read_only_project: Path) -> None:
    before = digest(read_only_project)
    done = studio("mcp", "--project", read_only_project, timeout=60)
    assert_refused(done, read_only_project, before)


@pytest.mark.gui
def test_gui_refuses_a_read_only_project(read_only_project: Path, tmp_path: Path) -> None:
    before = digest(read_only_project)
    done = studio("gui", "--project", read_only_project, "--screenshot", tmp_path / "window.png")
    assert_refused(done, read_only_project, before)
    assert not (tmp_path / "window.png").exists()


def test_export_still_reads_a_read_only_project(read_only_project: Path, tmp_path: Path) -> None:
    done = studio("export", "--project", read_only_project, "--session", "s1", "--lang", "python",
                  "--out", tmp_path / "exported")
    assert done.returncode == 2 and "has no session 's1'" in done.stderr, done.stderr  # it opened and read it



@pytest.mark.gui
def test_a_project_file_named_after_gui_goes_to_the_window(read_only_project: Path, tmp_path: Path) -> None:
    """`studio gui FILE` (a launcher's `Exec=studio gui %f`) opens FILE as --project does: the window's project check
    refuses this one, which proves it got there (`studio FILE` becomes `studio gui FILE`: test_project_argument)."""
    before = digest(read_only_project)
    done = studio("gui", read_only_project, "--screenshot", tmp_path / "window.png")
    assert_refused(done, read_only_project, before)
