"""Why a project file could not be opened, created or copied, each said as a sentence with a next step."""

from __future__ import annotations

import shlex
from pathlib import Path


class ProjectError(Exception):
    """Base of every project-file error; `str()` is a sentence for the user naming the file and what to do next."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path

    def __str__(self) -> str:
        return str(self.args[0])


class ProjectNotFoundError(ProjectError):
    """The path to open does not exist."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            path,
            f"The project file {path} does not exist. Check the path, or create a new project there.",
        )


class ProjectExistsError(ProjectError):
    """`create` was asked for a path that already exists; nothing was written."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            path,
            f"{path} already exists, so no new project was created there. "
            "Open it instead, or choose another name.",
        )


class ForeignFileError(ProjectError):
    """The file is not a Preflight Studio project (not SQLite, or another application's SQLite database)."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(
            path,
            f"{path} is not a Preflight Studio project ({what}). It was not changed. "
            "Choose a .studio project file, or create a new project.",
        )


class DamagedProjectError(ProjectError):
    """The file says it is a project but SQLite finds it corrupt; it was left untouched."""

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            path,
            f"{path} is damaged (SQLite reports: {detail}). It was not changed. "
            f"Open a backup copy, or run `sqlite3 {shlex.quote(str(path))} .recover` to salvage it.",
        )
        self.detail = detail


class NewerProjectError(ProjectError):
    """The file was written by a newer Preflight Studio with an incompatible (major) schema."""

    def __init__(self, path: Path, found: str, supported: str) -> None:
        super().__init__(
            path,
            f"{path} was saved by a newer Preflight Studio (project format {found}; "
            f"this version reads up to {supported}). It was not changed. "
            "Update Preflight Studio to open it.",
        )
        self.found = found
        self.supported = supported


class UnsupportedProjectError(ProjectError):
    """The file carries our application id but a schema version this build cannot read (other than newer)."""

    def __init__(self, path: Path, found: str) -> None:
        super().__init__(
            path,
            f"{path} uses project format {found}, which this version of Preflight Studio cannot read. "
            "It was not changed. Open it with the Preflight Studio version that created it.",
        )


class ProjectUpgradeError(ProjectError):
    """A migration to this build's schema failed; its transaction was rolled back, so the file kept its version."""

    def __init__(self, path: Path, found: str, target: str, detail: str) -> None:
        super().__init__(
            path,
            f"{path} could not be upgraded from project format {found} to {target} ({detail}). "
            "It was not changed. Open it with the previous Preflight Studio version, and please report this.",
        )


class EmptyProjectError(ProjectError):
    """A 0-byte file was opened only to read: it holds no project yet (its writer may still be creating it)."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            path,
            f"{path} is empty: it holds no project yet. If Preflight Studio is creating it, try again in a moment; "
            "otherwise open it for writing to start a new project there.",
        )


class ProjectInUseError(ProjectError):
    """Another program holds a lock on the file."""

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            path,
            f"{path} is in use by another program (SQLite reports: {detail}). "
            "Close it there and try again.",
        )


class ProjectAccessError(ProjectError):
    """The file could not be read or written (permissions, a read-only disk, an I/O error)."""

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            path,
            f"{path} could not be opened for writing (reason: {detail}). "
            "Check that the file and its folder are writable and the disk has free space.",
        )


class ProjectReadOnlyError(ProjectError):
    """The file itself cannot be written (its permissions, or a read-only disk); it was refused before any change."""

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(
            path,
            f"{path} is read-only ({detail}), so nothing could be recorded into it. It was not changed. "
            f"Make it writable (e.g. `chmod u+w {shlex.quote(str(path))}`), or copy it to a folder you can write "
            "to and open the copy.",
        )


class SaveAsError(ProjectError):
    """`save_as` refused or failed; the destination was left as it was."""

    def __init__(self, path: Path, reason: str, next_step: str) -> None:
        super().__init__(path, f"Could not save the project as {path}: {reason}. {next_step}")


class ForeignSchemaError(ProjectError):
    """The file holds schema objects (a trigger, a view, an index, a column) the studio did not make; refused unopened,
    because a planted trigger would run on the tester's next recording."""

    def __init__(self, path: Path, foreign: tuple[str, ...]) -> None:
        named = "; ".join(foreign[:5]) + (f" (and {len(foreign) - 5} more)" if len(foreign) > 5 else "")
        super().__init__(
            path,
            f"{path} holds database objects Preflight Studio did not make ({named}), so it was not opened: "
            "whoever shared it could make them change or delete your work. It was not changed. Open a clean copy "
            f"without them: `studio clean-copy {shlex.quote(str(path))}` (in the window: the Open Clean Copy button).",
        )
        self.foreign = foreign
