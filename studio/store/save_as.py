"""Save As: a complete standalone copy of an open project file, written with SQLite's backup API beside the target
and renamed over it, so a crash never leaves half a project under the chosen name."""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import sqlite3
from pathlib import Path

from studio.store.errors import SaveAsError
from studio.store.inspection import sidecar

log = logging.getLogger(__name__)


def backup_to(conn: sqlite3.Connection, source: Path, dest: Path) -> Path:
    """Copy the database behind `conn` (opened from `source`) to `dest`; raises SaveAsError with a next step."""
    check_save_target(source, dest)
    tmp = dest.with_name(f".{dest.name}.{secrets.token_hex(4)}.tmp")
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        if dest.exists():
            shutil.copymode(dest, tmp)
        target = sqlite3.connect(tmp)
        try:
            conn.backup(target)
        finally:
            target.close()
        os.replace(tmp, dest)
    except (OSError, sqlite3.Error) as exc:
        remove_quietly(tmp, sidecar(tmp, "-journal"))
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SaveAsError(
            dest,
            reason,
            "Check that the folder is writable and the disk has free space; the open project is unchanged.",
        ) from exc
    fsync_directory(dest.parent)
    return dest


def check_save_target(source: Path, dest: Path) -> None:
    """Refuse the file the project is open from, a folder, and a file another program has open."""
    if dest == source.absolute() or (dest.exists() and os.path.samefile(dest, source)):
        raise SaveAsError(
            dest,
            "the project is open from that file",
            "Choose another name; the open project is saved there continuously already.",
        )
    if dest.is_dir():
        raise SaveAsError(dest, "it is a folder", "Choose a file name inside it instead.")
    for side in ("-wal", "-shm", "-journal"):
        if sidecar(dest, side).exists():
            raise SaveAsError(
                dest,
                f"it looks open in another program (its {side} file exists)",
                "Close it there, or choose another name.",
            )


def remove_quietly(*paths: Path) -> None:
    for path in paths:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.warning("could not remove %s: %s", path, exc)


def fsync_directory(folder: Path) -> None:
    """Make a rename in `folder` durable; not possible (nor needed) on Windows."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
