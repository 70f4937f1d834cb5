"""Read-only projects (issue 21, point 11): a command that only reads (export) opens a project read-only, so a file
someone shared as `chmod 444` exports without a byte changed or a side file made; a command that writes refuses
such a file, also when run as root, whom the OS would let write it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from studio.cli.main import main
from studio.models.events import NavigationEvent
from studio.models.recording import RecordedStep
from studio.store import ProjectFile
from studio.store.errors import ProjectReadOnlyError


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    path = tmp_path / "shared.studio"
    with ProjectFile.create(path) as project:
        project.record(NavigationEvent(session_id="s1", url="http://127.0.0.1:8123/"))
        for index in range(2):
            project.add_step(RecordedStep(session_id="s1", index=index, at=float(index), action="navigate",
                                          url=f"http://127.0.0.1:8123/p{index}"))
    path.chmod(0o444)
    return path


def test_a_chmod_444_project_is_not_written_even_by_root(shared, capsys):
    before = _digest(shared)
    with pytest.raises(ProjectReadOnlyError, match="mode is 444"):
        ProjectFile.open(shared)
    assert main(["jobs", "--project", str(shared)]) == 2
    assert f"{shared} is read-only" in capsys.readouterr().err
    assert _digest(shared) == before and not list(shared.parent.glob("shared.studio-*"))


def test_export_reads_a_read_only_project_in_a_read_only_folder(shared, tmp_path, capsys):
    before = _digest(shared)
    shared.parent.chmod(0o555)
    try:
        out = tmp_path.parent / f"{tmp_path.name}-exported"
        assert main(["export", "--project", str(shared), "--session", "s1", "--lang", "python",
                     "--out", str(out)]) == 0, capsys.readouterr().err
        assert "Exported 2 steps of session s1" in capsys.readouterr().out
        with ProjectFile.open(shared, writable=False) as project:
            assert project.read_only and len(project.steps("s1")) == 2
            with pytest.raises(Exception, match="readonly"):
                project.set_meta("name", "changed")
    finally:
        shared.parent.chmod(0o755)
    assert _digest(shared) == before and not list(shared.parent.glob("shared.studio-*"))
